"""`python -m demo`: the real bot at work, with no Discord account and no token.

The project's Discord emulator starts on 127.0.0.1 and the real, unmodified bot connects to it
(a temporary database that is removed afterwards). One simulated person, Sam, opens a table, fills
it with three bot seats and plays a whole game of Euchre, then one of Truco Mineiro, by clicking
the buttons Sam sees: "Show my hand" once for the private hand message (the bot keeps it up to
date; "Refresh" only if it lags), then a card or a decision on it. Sam picks what the engine's
bot player would pick from Sam's own seat (it reads `game.view(seat)` only: what the hand
message shows), so Sam plays sensibly.

The transcript on stdout shows each distinct state of the public table message as the channel
saw it (see demo/transcript.py), Sam's private view and clicks (the `▸` lines), and each
game's result. It is a time-lapse: short games (Euchre to 5, Truco to 6), bot seats that think
DEMO_DELAY s instead of the default 1 s, and Discord's per-channel edit bucket (5 edits per 5 s)
run at 5 per DEMO_EDIT_WINDOW s by both the bot and the emulator, which enforces it. About a
minute in all.

`play_demo(...)` runs it and returns a DemoReport (transcript, emulator records, the finished
tables) for tests; `run_demo()` prints it and returns the exit status (0: both games ended, no
Discord rule broken, no error logged).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord

from bot.settings import Settings
from bot.tables.service import Table, TableService
from bot.ui.kit.custom_ids import parse_game_action
from bot.ui.kit.layout import TEXT_DISPLAY, Layout, flat
from bot.ui.kit.message_parts import MessageParts
from bot.ui.table import render
from demo.transcript import Transcript, plain
from emulator import Channel, Emulator, Message, SimulatedUser, run_bot
from emulator.state import Button, MessageVersion

if TYPE_CHECKING:
    from bot.client import CardTableBot

DEMO_DELAY = 0.2  # seconds a bot seat (and Sam) takes per move
DEMO_EDIT_WINDOW = 1.5  # seconds of the channel edit bucket (Discord: 5 s)
# Not "you": the game log speaks of players in the third person ("Sam passes.").
PLAYER_NAME = "sam"
MAX_TURNS = 2000  # of the player, per game: a game that does not end is a bug, not a long game
SETTLE_TIMEOUT = 30.0  # the public message waits for a slot of the channel's edit bucket
LIVE_HAND_GRACE = 2.0  # seconds Sam's hand message gets to follow the table by itself
POLL_INTERVAL = 0.05


@dataclass(frozen=True)
class DemoGame:
    game: str  # "euchre" | "truco"
    command: str
    options: dict[str, Any]
    title: str


GAMES: tuple[DemoGame, ...] = (
    DemoGame("euchre", "euchre new", {"target": 5}, "Euchre, first to 5 points"),
    DemoGame("truco", "truco new", {"target": 6}, "Truco Mineiro, first to 6 points"),
)


@dataclass
class DemoReport:
    transcript: str
    emulator: Emulator  # stopped; its records (messages, interactions, violations) stay
    tables: list[Table] = field(default_factory=list)  # the finished tables, as the bot held them
    problems: list[str] = field(default_factory=list)  # broken Discord rules, bot errors...
    # Issue 30 item 5: each game's result, wall seconds and Sam's clicks, for the summary.
    games: list[tuple[str, str, float, int]] = field(default_factory=list)
    pictures: Path | None = None  # where the pictures the players saw were written
    pictures_written: int = 0

    def summary(self) -> list[str]:
        """What a newcomer reads at the end: at most about 40 lines."""
        out = [
            "Card-table bot demo: the real bot played on a local Discord emulator "
            "(no token; nothing left this machine).",
            f"{PLAYER_NAME.title()} played one game of each with three bot seats, clicking the "
            "buttons of the messages a player sees.",
            "",
        ]
        for title, result, seconds, clicks in self.games:
            out.append(f"{title}: {result}")
            out.append(f"  {seconds:.0f} s of play, {clicks} clicks by {PLAYER_NAME.title()}")
        emu = self.emulator
        slowest = max(emu.ack_latencies(), default=0.0) * 1000
        out.append("")
        out.append(
            f"{len(emu.interactions)} interactions, each answered in time (slowest "
            f"{slowest:.0f} ms; Discord allows 3 s)."
        )
        if self.problems:
            out.append("Problems:")
            out += [f"  {problem}" for problem in self.problems[:20]]
        else:
            out.append("No Discord rule broken.")
        if self.pictures is not None:
            out.append(
                f"The pictures players saw ({self.pictures_written} PNG files, table and "
                f"hand): {self.pictures}"
            )
        out.append("The whole transcript: python3 dev.py run --demo --verbose")
        return out

    @property
    def ok(self) -> bool:
        finished = [t for t in self.tables if t.game is not None and t.game.is_over]
        return not self.problems and len(finished) == len(GAMES)


class PublicWatch:
    """Prints each new version of one public message, as the emulator recorded it."""

    def __init__(self, message: Message, transcript: Transcript) -> None:
        self.message = message
        self.transcript = transcript
        self.printed = 0

    def catch_up(self) -> None:
        versions = self.message.versions
        while self.printed < len(versions):
            shown = versions[self.printed]
            self.transcript.public_state(self.message.id, *public_words(shown))
            self.printed += 1

    async def run(self) -> None:
        # Polling a list's length 20 times a second costs nothing, and prints every state as it
        # appears, in order with the player's own lines.
        while True:
            self.catch_up()
            await asyncio.sleep(POLL_INTERVAL)


class DemoPlayer:
    """The simulated person at the table: clicks only buttons on messages they can see."""

    def __init__(
        self, bot: CardTableBot, user: SimulatedUser, transcript: Transcript, delay: float
    ) -> None:
        self.bot = bot
        self.user = user
        self.name = user.global_name or user.name
        self.transcript = transcript
        self.delay = delay
        self.watch: PublicWatch | None = None
        self.last_seconds = 0.0
        self.last_result = ""

    def say(self, line: str) -> None:
        if self.watch is not None:
            self.watch.catch_up()  # what the channel showed before this line comes first
        self.transcript.say(f"  ▸ {self.name} {line}")

    async def play(self, channel: Channel, demo: DemoGame) -> Table:
        """Open a table, seat three bots, start, play to the end; the finished table."""
        user = self.user
        options = " ".join(f"{k}:{v}" for k, v in demo.options.items())
        self.say(f"types /{demo.command} {options}")
        # A loaded machine may take seconds to draw the first picture (its worker starts).
        reply = await user.slash(channel, demo.command, timeout=SETTLE_TIMEOUT, **demo.options)
        # A slow creation is deferred: the table is then posted in the channel and the private
        # answer links to it.
        message = reply if not reply.ephemeral else channel.last_message
        assert message is not None and not message.ephemeral, reply.text
        self.watch = PublicWatch(message, self.transcript)
        watcher = asyncio.create_task(self.watch.run(), name="demo-public-watch")
        try:
            started = time.monotonic()
            for _ in range(3):
                self.say("clicks Add bot: normal")
                await user.click(message, "Add bot: normal")
            await message.wait_until(lambda m: not m.button("Start").disabled, timeout=10)
            self.say("clicks Start")
            await user.click(message, "Start")
            table = self._service.in_channel(channel.id)
            assert table is not None
            await self._play_game(table, message)
            await self._service.wait_for_bots(table.id)
            assert self.bot.table_ui is not None
            await self.bot.table_ui.public.idle()
            await self._shown(table, message)
            self.watch.catch_up()
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
            self.watch = None
        self.last_seconds = time.monotonic() - started
        final = message.versions[-1]
        result = (final.embeds[0].get("description") if final.embeds else None) or final.content
        if not result:  # a layout: the description follows the "### " title, or the
            # compact result's first line (the game is over)
            lines = "\n".join(_texts(final.components)).splitlines()
            titled = [i for i, line in enumerate(lines) if line.startswith("### ")]
            below = titled[0] + 1 if titled else 1
            result = lines[below] if below < len(lines) else lines[0]
        self.transcript.say()
        self.last_result = plain(result, self.transcript.names)
        self.transcript.say(f"Result of {demo.title}: {self.last_result}")
        return table

    @property
    def _service(self) -> TableService:
        assert self.bot.table_service is not None
        return self.bot.table_service

    async def _play_game(self, table: Table, message: Message) -> None:
        hand: Message | None = None
        for _ in range(MAX_TURNS):
            await self._service.wait_for_bots(table.id)
            game = table.game
            assert game is not None
            if game.is_over:
                return
            # The bots are done and the game goes on: it is Sam's turn (or a question to Sam's
            # pair). A person learns it from the table message: wait until it shows this state.
            await self._shown(table, message)
            if self.delay:
                await asyncio.sleep(self.delay)
            if hand is None:
                # Once a game: the log and the rules, one click from the compact table message.
                log_button = f"tb:{table.id}:log"
                if any(b.custom_id == log_button for b in message.buttons):
                    self.say("clicks 📜 Log & rules")
                    await self.user.click(message, log_button)
                self.say("clicks Show my hand")
                hand = await self.user.click(message, "Show my hand")
            elif not await self._offers(hand, table, LIVE_HAND_GRACE):
                # The bot keeps the hand message up to date by itself; Refresh if it lags.
                self.say("clicks Refresh on the hand message")
                hand = await self.user.click(hand, f"tb:{table.id}:refresh")
            if not await self._offers(hand, table, SETTLE_TIMEOUT):
                raise RuntimeError(f"the hand message never offered state {table.version}")
            await self._act(table, hand)
        raise RuntimeError(f"the {table.game_name} game did not end in {MAX_TURNS} turns")

    @staticmethod
    async def _offers(hand: Message, table: Table, timeout: float) -> bool:  # noqa: ASYNC109
        """Until the hand message offers actions drawn for the table's current version (an
        answer may come as a later edit, and the hand follows the table by itself)."""
        prefix = f"t:{table.id}:{table.version}:"

        def current(message: Message) -> bool:
            return any(
                b.custom_id and b.custom_id.startswith(prefix) and not b.disabled
                for b in message.buttons
            )

        try:
            await hand.wait_until(current, timeout=timeout)
        except TimeoutError:
            return False
        return True

    async def _act(self, table: Table, hand: Message) -> None:
        names = self.transcript.names
        # The first line is the title ("Your hand — ..."); the rest is what Sam knows.
        lines = [plain(line, names) for line in hand.text.splitlines() if line.strip()]
        enabled = [
            b
            for b in hand.buttons
            if b.custom_id and b.custom_id.startswith("t:") and not b.disabled
        ]
        if not enabled:
            raise RuntimeError(f"nothing to click on the hand message: {hand.text!r}")
        self.say("sees privately: " + " | ".join(lines))
        self.say("may click: " + ", ".join(b.label or "?" for b in enabled))
        chosen = self._choose(table, enabled)
        parsed = parse_game_action(chosen.custom_id or "")
        action = parsed.action if parsed is not None else ""
        verb = action.split(":")[0]
        if verb in ("play", "discard"):
            self.say(f"{verb}s {chosen.label}")
        else:
            self.say(f"clicks {chosen.label}")
        await self.user.click(hand, chosen.custom_id or "")

    def _choose(self, table: Table, enabled: list[Button]) -> Button:
        """The button of the action the engine's bot player picks for Sam's seat; it decides
        from `game.view(seat)` alone, the same facts as the hand message."""
        game = table.game
        seat = table.seat_of(self.user.id)
        assert game is not None and seat is not None
        wanted = table.rules.bot_action(game, seat)
        for button in enabled:
            parsed = parse_game_action(button.custom_id or "")
            if parsed is not None and parsed.action == wanted:
                return button
        return enabled[0]

    async def _shown(self, table: Table, message: Message) -> None:
        """Until the public message shows the table's current state: it reads exactly as the
        bot draws the table now (text and buttons; the footer counts hands, not versions)."""
        assert self.bot.table_ui is not None
        public = self.bot.table_ui.public

        def current(m: Message) -> bool:
            return reads_as(m.versions[-1], render.table_message(table, public.locale_of(table)))

        await message.wait_until(current, timeout=SETTLE_TIMEOUT)


def public_words(shown: MessageVersion) -> tuple[str, list[dict[str, Any]]]:
    """A version's content and embeds; a Components V2 layout's words are its text displays."""
    if shown.content or shown.embeds:
        return shown.content, shown.embeds
    return "\n".join(_texts(shown.components)), []


def reads_as(shown: MessageVersion, parts: MessageParts) -> bool:
    """Does this version of a message read as `parts`: content, the embed's texts, buttons?"""
    if isinstance(parts.view, Layout):  # Components V2: the text displays and the buttons
        want_rows = parts.view.to_components()
        return _texts(shown.components) == _texts(want_rows) and _buttons(
            shown.components
        ) == _buttons(want_rows)
    if shown.content != parts.content:
        return False
    want: dict[str, Any] | None = dict(parts.embed.to_dict()) if parts.embed is not None else None
    got = shown.embeds[0] if shown.embeds else None
    if (want is None) != (got is None):
        return False
    if want is not None and got is not None:
        keys = ("title", "description", "fields")
        if any(got.get(key) != want.get(key) for key in keys):
            return False
        if (got.get("footer") or {}).get("text") != (want.get("footer") or {}).get("text"):
            return False
    rows = parts.view.to_components() if parts.view is not None else []
    return _buttons(shown.components) == _buttons(rows)


def _buttons(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [
        (c.get("custom_id"), c.get("label"), bool(c.get("disabled")))
        for c in flat(rows)
        if c.get("type") in (2, 3)
    ]


def _texts(rows: list[dict[str, Any]]) -> list[str]:
    return [str(c.get("content")) for c in flat(rows) if c.get("type") == TEXT_DISPLAY]


def people_names(emu: Emulator) -> dict[int, str]:
    """How the transcript names each account (its mentions become `@Name`)."""
    names = {user.id: (user.global_name or user.name) for user in emu.users.values()}
    names[emu.bot.id] = emu.bot.name
    return names


async def play_demo(
    *,
    delay: float = DEMO_DELAY,
    seed: int | None = None,
    write: Callable[[str], None] | None = None,
    edit_window: float = DEMO_EDIT_WINDOW,
    on_service: Callable[[TableService], None] | None = None,
    pictures: Path | None = None,
) -> DemoReport:
    """Run the whole demo in this event loop and return what happened.

    `delay`: seconds per bot move (and per move of Sam); `seed`: reproducible deals;
    `write`: where each transcript line goes as it happens (nowhere by default);
    `edit_window`: the window of the channel edit bucket (5 edits per window), for both the bot
    and the emulator.
    """
    emu = Emulator()
    names: dict[int, str] = {}
    transcript = Transcript(names, write or (lambda line: None))
    report = DemoReport(transcript="", emulator=emu)
    await emu.start()
    try:
        guild = emu.add_guild("Card Table Demo")
        channels = [guild.add_channel(demo.game) for demo in GAMES]
        user = emu.add_user(PLAYER_NAME)
        guild.add_member(user)
        names.update(people_names(emu))
        transcript.say(
            f"Card-table bot demo: the real bot on a local Discord emulator at {emu.url} "
            "(no token; nothing leaves this machine)."
        )
        with tempfile.TemporaryDirectory(prefix="cardtable-demo-") as folder:
            settings = Settings(
                token=None,
                database_path=Path(folder) / "demo.sqlite3",
                dev_guild_id=guild.id,
                log_level="WARNING",
                bot_move_delay=delay,
            )
            async with run_bot(emu, settings) as bot:
                assert bot.table_ui is not None and bot.table_service is not None
                public = bot.table_ui.public
                public.per_seconds = edit_window
                # The emulator enforces the same bucket: an edit beyond it would be a 429.
                emu.set_rate_limits(True, limit=public.max_edits, per=public.per_seconds)
                if seed is not None:
                    rng = random.Random(seed)
                    # There is no public hook for the deal seeds yet (asked of the table
                    # service's owner); only the demo's test needs reproducible deals.
                    bot.table_service._seed_source = lambda: rng.getrandbits(64)
                if on_service is not None:  # a test listens to the table service
                    on_service(bot.table_service)
                player = DemoPlayer(bot, user, transcript, delay)
                for demo, channel in zip(GAMES, channels, strict=True):
                    transcript.say()
                    transcript.say(f"=== {demo.title}: Sam and three bot seats in #{channel.name}")
                    report.tables.append(await player.play(channel, demo))
                    clicks = sum(
                        1 for i in emu.interactions if i.channel is channel and i.user is user
                    )
                    report.games.append(
                        (demo.title, player.last_result, player.last_seconds, clicks)
                    )
        if pictures is not None:
            report.pictures = pictures
            report.pictures_written = save_pictures(emu, pictures)
        report.problems = emu.problems()
        if user.failures:
            report.problems.append(f"{len(user.failures)} clicks showed 'This interaction failed'")
        if emu.rate_limit_hits:
            report.problems.append(f"{len(emu.rate_limit_hits)} requests hit a rate limit (429)")
        transcript.say()
        if report.problems:
            transcript.say("Problems:")
            for problem in report.problems:
                transcript.say(f"  {problem}")
        else:
            slowest = max(emu.ack_latencies(), default=0.0) * 1000
            transcript.say(
                f"Done: {len(emu.interactions)} interactions, each acknowledged in time "
                f"(slowest {slowest:.0f} ms; Discord allows 3 s); no Discord rule broken."
            )
    finally:
        await emu.stop()
        report.transcript = transcript.text()
    return report


def save_pictures(emu: Emulator, folder: Path) -> int:
    """Write every picture a player saw (the table messages' and the hand messages'), in the
    order they were shown: `<channel>/<n>-table.png`, `<channel>/<n>-hand.png`."""
    written = 0
    seen: set[int] = set()
    for message in sorted(emu.messages.values(), key=lambda m: m.id):
        for version in message.versions:
            for attachment in version.attachments:
                number = int(attachment["id"])
                if number in seen or not str(attachment["filename"]).endswith(".png"):
                    continue
                seen.add(number)
                kind = "hand" if message.ephemeral else "table"
                where = folder / message.channel.name
                where.mkdir(parents=True, exist_ok=True)
                data = emu.message_service.files[number].data
                (where / f"{len(seen):04d}-{kind}.png").write_bytes(data)
                written += 1
    return written


def _stdout_writer() -> Callable[[str], None]:
    stream = sys.stdout
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="replace")  # a console without ♥ shows '?' instead of failing

    def write(line: str) -> None:
        print(line, file=stream, flush=True)

    return write


async def run_demo(
    *, delay: float = DEMO_DELAY, seed: int | None = None, verbose: bool = False
) -> int:
    """`python -m demo`: a short summary (with `verbose`, the whole transcript first); 0 when
    both games ended cleanly."""
    # Quiet: the transcript is the output. Warnings and errors still reach stderr.
    for name in ("", "bot", "cogs", "discord"):
        logging.getLogger(name).setLevel(logging.WARNING)
    # discord.py's own switches for its "voice will NOT be supported" warnings: no voice here.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    write = _stdout_writer()
    if not verbose:
        write("Playing one game of Euchre and one of Truco against bots (about a minute)...")
    pictures = Path(tempfile.mkdtemp(prefix="cardtable-demo-pictures-"))
    try:
        report = await play_demo(
            delay=delay, seed=seed, write=write if verbose else None, pictures=pictures
        )
    except Exception:  # the transcript so far is printed; say why it stopped, then exit 1
        traceback.print_exc()
        return 1
    write("")
    for line in report.summary():
        write(line)
    return 0 if report.ok else 1
