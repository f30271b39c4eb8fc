"""The end-to-end play driver: simulated people at a table, clicking the buttons they see.

No tests here; the test_e2e_play_* modules use it. The real bot runs unmodified against the
emulator. A test oracle (the bot's table service) only says WHO should act next; what a player
does is a click on a button of a message they can see (their hand, the table message), and
every check reads what the emulator recorded that people saw.
"""

from __future__ import annotations

import asyncio
import copy
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.client import CardTableBot
from bot.pictures.scene import scene_of
from bot.pictures.table import table_png
from bot.storage import ResultsRepository
from bot.tables import alone
from bot.tables.games import forget_old_events
from bot.tables.records import TableRecord
from bot.tables.service import Table, TableService
from bot.texts import n, t
from bot.ui.kit.custom_ids import parse_game_action
from bot.ui.kit.layout import TEXT_DISPLAY, flat
from bot.ui.table import render, table_picture
from bot.ui.words.cards import card_text, cards_in_text
from bot.ui.words.seats import seat_name
from emulator import Channel, Emulator, Message, SimulatedUser
from emulator.state import MessageVersion
from tests.support import shown as shown_parts
from tests.support.world import open_table

# choose(view, seat, legal actions) -> the action a person clicks (None: a random button).
Chooser = Callable[[dict[str, Any], int, list[str]], str]
HAND_BUTTON = "Show my hand"


def scale_rate_limits(
    emu: Emulator, bot: CardTableBot, *, limit: int = 5, per: float = 5.0
) -> None:
    """Enforce Discord's per-channel buckets in the emulator, and give the bot the same window
    (tests shorten the window to stay fast; the pacing logic is the same)."""
    emu.set_rate_limits(True, limit=limit, per=per)
    assert bot.table_ui is not None
    bot.table_ui.public.max_edits = limit
    bot.table_ui.public.per_seconds = per


def message_texts(version: MessageVersion) -> list[str]:
    """Everything a reader of one version of a message can see, custom ids included."""
    out = [version.content]
    out += [repr(e) for e in version.embeds]
    for component in flat(version.components):
        if component.get("type") == TEXT_DISPLAY:  # a layout's text (Components V2)
            out.append(str(component.get("content")))
        elif component.get("type") in (2, 3):
            out.append(str(component.get("label")))
            out.append(str(component.get("custom_id")))
    return out


MANILHA_CARDS = [card_text(card) for card in render.TRUCO_MANILHAS]


def without_manilhas(text: str) -> str:
    """`text` without the line naming truco's manilhas with their cards (issue 30): the same
    four cards for everyone, in any language, so it tells nothing of a hand."""
    return "\n".join(
        line for line in text.splitlines() if not all(c in line for c in MANILHA_CARDS)
    )


def game_custom_ids(version: MessageVersion) -> list[str]:
    return [
        str(c.get("custom_id"))
        for c in flat(version.components)
        if str(c.get("custom_id", "")).startswith("t:")
    ]


@dataclass
class GameStates:
    """The engine's state after each action of one game, replayed independently of the bot."""

    table: Table
    start_version: int
    games: dict[int, Any] = field(default_factory=dict)  # version -> game snapshot
    hands: dict[int, list[set[str]]] = field(default_factory=dict)
    revealed: dict[int, set[str]] = field(default_factory=dict)

    @classmethod
    def replay(cls, table: Table) -> GameStates:
        record = table.record
        states = cls(table, table.start_version)
        game = table.rules.new_game(record.options, record.seed)
        assert game.first_dealer == record.first_dealer
        revealed: set[str] = set()
        version = states.start_version
        states._snapshot(version, game, revealed)
        for seat, action in record.actions:
            game.apply(seat, action)
            version += 1
            states._snapshot(version, game, revealed)
        forget_old_events(game)  # the table keeps only the last two hands' events
        assert game == table.game  # the bot's game is exactly the replay of its log
        return states

    def _snapshot(self, version: int, game: Any, revealed: set[str]) -> None:
        for _, action in game.actions[len(game.actions) - 1 :]:
            if action.startswith("play:"):
                revealed.add(action.split(":")[1])
        for event in game.events:
            if event.kind == "hand_dealt" and "turned_card" in event.data:
                revealed.add(event.data["turned_card"])
            if event.kind == "seating_drawn":
                revealed.update(d["card"] for r in event.data["rounds"] for d in r)
        snapshot = copy.deepcopy(game)
        forget_old_events(snapshot)  # as the bot's table holds it after that move
        self.games[version] = snapshot
        self.hands[version] = [set(game.view(s)["hand"]) for s in range(4)]
        self.revealed[version] = set(revealed)

    def hidden(self, version: int, seat: int | None) -> set[str]:
        """Cards no reader at `seat` (None: everyone) may see at `version`."""
        game = self.games[version]
        visible = set(self.revealed[version])
        if seat is not None:
            view = game.view(seat)
            visible |= set(view["hand"]) | set(view.get("partner_hand") or ())
            if view.get("discard"):
                visible.add(view["discard"])
        return set().union(*self.hands[version]) - visible

    def snapshot_table(self, version: int) -> Table:
        """The table as it was at `version` (for rendering what the message should show)."""
        record = self.table.record
        game = self.games[version]
        snap_record = TableRecord(
            id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            host_id=record.host_id,
            game=record.game,
            options=record.options,
            status="finished" if game.is_over else "playing",
            version=version,
            seats=list(record.seats),
            message_id=record.message_id,
            seed=record.seed,
            first_dealer=record.first_dealer,
            actions=list(game.actions),
            started_at=record.started_at,
            settings=dict(record.settings),
        )
        return Table(
            record=snap_record,
            rules=self.table.rules,
            game=game,
            seat_of_position=list(self.table.seat_of_position),
            result=self.table.result if game.is_over else None,
        )


class TableDriver:
    def __init__(
        self, emu: Emulator, bot: CardTableBot, channel: Channel, people: list[SimulatedUser]
    ) -> None:
        self.emu = emu
        self.bot = bot
        self.channel = channel
        self.people = {p.id: p for p in people}
        # the table message speaks the server's language
        self.locale = channel.guild.locale if channel.guild is not None else None
        self.hands: dict[int, Message] = {}  # user id -> their latest hand message
        self.clicks = 0

    @property
    def service(self) -> TableService:
        assert self.bot.table_service is not None
        return self.bot.table_service

    @property
    def table(self) -> Table:
        table = self.service.in_channel(self.channel.id)
        assert table is not None
        return table

    @property
    def message(self) -> Message:
        message_id = self.table.message_id
        assert message_id is not None
        return self.emu.messages[message_id]

    async def until_posted(self, timeout: float = 40.0) -> None:  # noqa: ASYNC109
        """Until the table's public message is posted and its id kept: a thread's first message
        can come before it, and on a loaded machine the post lags (the id is the bot's, so
        this polls: no emulator event follows its recording)."""
        for _ in range(int(timeout / 0.05)):
            table = self.service.in_channel(self.channel.id)
            if table is not None and table.message_id is not None:
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"no table message in channel {self.channel.id} after {timeout} s")

    def person_at(self, seat: int) -> SimulatedUser:
        user_id = self.table.player_at(seat).user_id
        assert user_id is not None
        return self.people[user_id]

    # --- the lobby ----------------------------------------------------------------------------

    async def open(self, host: SimulatedUser, command: str, **options: Any) -> Message:
        lobby = await open_table(host, self.channel, command, **options)
        assert not lobby.ephemeral and lobby.button(self.label("lobby.button.join"))
        return lobby

    def label(self, key: str) -> str:
        return t(key, self.locale)

    async def sit(
        self,
        lobby: Message,
        joiners: list[SimulatedUser],
        bots: int,
        host: SimulatedUser,
        level: str = "easy",
    ) -> None:
        for person in joiners:
            await person.click(lobby, self.label("lobby.button.join"))
        for _ in range(bots):
            await host.click(lobby, self.label(f"lobby.button.bot.{level}"))
        start = self.label("lobby.button.start")
        await lobby.wait_until(lambda m: not m.button(start).disabled, timeout=15)

    async def start(self, lobby: Message, host: SimulatedUser) -> Message:
        await host.click(lobby, self.label("lobby.button.start"))
        table_id = self.table.id
        shown = await lobby.wait_until(
            lambda m: any(b.custom_id == f"tb:{table_id}:hand" for b in m.buttons), timeout=15
        )
        await self.service.fair_cuts.until_cut(table_id)  # hand 1, cut by the Start click
        return shown

    # --- play -----------------------------------------------------------------------------------

    async def hand_of(self, person: SimulatedUser, rng: random.Random) -> Message:
        """The person's current hand: Refresh on the hand message they have, or a new one from
        "Show my hand" on the table message."""
        old = self.hands.get(person.id)
        self.clicks += 1
        if old is not None and rng.random() < 0.5:
            hand = await self.click_and_see_update(person, old, f"tb:{self.table.id}:refresh")
        else:
            hand = await person.click(self.message, f"tb:{self.table.id}:hand")
            assert hand.ephemeral and hand.ephemeral_for is person
        self.hands[person.id] = hand
        seat = self.table.seat_of(person.id)
        game = self.table.game
        if game is not None and seat in game.to_act:
            # A live edit drawn before the click may land after the answer (the hand then
            # catches up by itself, bot/ui/table/live_hands.py): wait until it offers the move.
            current = f"t:{self.table.id}:{self.table.version}:"
            await hand.wait_until(
                lambda m: any(
                    b.custom_id.startswith(current) and not b.disabled
                    for b in m.buttons
                    if b.custom_id
                )
            )
        return hand

    @staticmethod
    async def click_and_see_update(person: SimulatedUser, message: Message, target: str) -> Message:
        """Click a button of `message` and wait until the message shows the answer: at once
        for an update (type 7), or when the edit that follows a deferred update (type 6)
        arrives."""
        seen = len(message.versions)
        shown = await person.click(message, target)
        assert shown is message  # updated in place
        return await message.wait_until(lambda m: len(m.versions) > seen)

    async def step(self, rng: random.Random, choose: Chooser | None = None) -> bool:
        """One human action, chosen at random among the buttons the player sees (or by
        `choose(view, seat, actions)` among them). False once the game is over."""
        service, table = self.service, self.table
        await service.wait_for_bots(table.id)
        game = table.game
        assert game is not None
        if game.is_over:
            return False
        humans = [s for s in game.to_act if not table.is_bot_seat(s)]
        assert humans, (
            f"a bot seat should be acting: to_act={game.to_act} phase={game.phase}"
            f" task={table.bot_task}"
        )
        seat = rng.choice(humans)
        person = self.person_at(seat)
        hand = await self.hand_of(person, rng)
        # Truco's signal buttons aside (talk, not moves: tests/ui/test_ui_signals.py).
        enabled = [
            b
            for b in hand.buttons
            if b.custom_id
            and b.custom_id.startswith("t:")
            and not b.disabled
            and ":signal:" not in b.custom_id
        ]
        actions = {parse_game_action(b.custom_id).action for b in enabled}  # type: ignore[union-attr]
        # The legal actions, and under euchre's alone=anyone each bid also "· alone" (issue 21).
        offered = alone.alone_variants(table, game.legal_actions(seat))
        assert actions == set(offered), f"the buttons are the legal actions: {actions} {offered}"
        if choose is None:
            button = rng.choice(enabled)
        else:
            wanted = choose(game.view(seat), seat, game.legal_actions(seat))
            button = next(
                b
                for b in enabled
                if parse_game_action(b.custom_id or "").action == wanted  # type: ignore[union-attr]
            )
        parsed = parse_game_action(button.custom_id or "")
        assert parsed is not None
        before = table.version
        start = table.start_version
        self.clicks += 1
        await self.click_and_see_update(person, hand, button.custom_id or "")
        assert table.version > before
        applied = alone.bid_of(table, parsed.action)[0]
        assert table.record.actions[before - start] == (seat, applied)
        return True

    async def play_to_end(
        self, rng: random.Random, max_steps: int = 2000, choose: Chooser | None = None
    ) -> None:
        for _ in range(max_steps):
            if not await self.step(rng, choose):
                break
        else:
            raise AssertionError("the game did not end")
        await self.settle()

    async def settle(self) -> None:
        """Until the bots are done and the table message shows the current state: it reads
        exactly what the renderer draws for the table now (content, embed, buttons) and, with
        pictures on, its picture was drawn for the table's current version."""
        assert self.bot.table_ui is not None
        await self.service.wait_for_bots(self.table.id)
        await self.bot.table_ui.public.idle()

        def current(m: Message) -> bool:
            table = self.table
            shown = m.versions[-1]
            want = shown_parts.rendered(render.table_message(table, self.locale))
            if shown_parts.readable(shown) != want:
                return False
            version = shown_parts.picture_version(self.emu, shown)
            return version is None or version == table.version

        await self.message.wait_until(current, timeout=15)

    # --- checks ---------------------------------------------------------------------------------

    def check_public_history(self, states: GameStates, message: Message) -> int:
        """Every version of the table message during this game shows exactly the engine's state
        at some version of it, those versions in order, and no hidden card. A version is
        matched to the state that renders as it reads; with pictures on, its picture names
        that very state. Returns how many were checked."""
        checked = 0
        restored = t("table.notice.restored", self.locale) + "\n"
        # Each state's rendering (several states may read alike: any of them, in order).
        by_reading: dict[shown_parts.Readable, list[int]] = {}
        for version in sorted(states.games):
            expected = render.table_message(states.snapshot_table(version), self.locale)
            reading = shown_parts.rendered(expected, components=False)
            by_reading.setdefault(reading, []).append(version)
        in_play = re.compile(
            re.escape(
                t("table.footer.hand", self.locale, table=self.table.id, hand="HAND")
            ).replace("HAND", r"\d+")
            + "$"
        )
        last = min(states.games)
        started = False
        for shown in message.versions:
            pictured = shown_parts.picture_version(self.emu, shown)
            # After a restart the message also says so, until the next move.
            candidates = by_reading.get(
                shown_parts.readable(shown, drop_prefix=restored, components=False), []
            )
            footer = (shown.embeds[0].get("footer") or {}).get("text", "") if shown.embeds else ""
            if not shown.embeds:  # a layout: the footer is its last line, as small text
                lines = shown_parts.text_of(shown.components).splitlines()
                footer = lines[-1].removeprefix("-# ") if lines else ""
            if pictured is not None:
                if pictured not in states.games:
                    continue  # the lobby, an earlier game, or after this one (Play again)
                assert pictured in candidates, f"the message differs from its state {pictured}"
                version = pictured
            elif candidates and max(candidates) >= last:
                version = min(c for c in candidates if c >= last)
            else:
                # Without a picture: once this game showed, a game message must be one of its
                # states; before that (the lobby, an earlier game) nothing is checked.
                assert not (started and in_play.match(footer)), f"no state reads:\n{shown}"
                continue
            assert version >= last, f"the message went back from state {last} to {version}"
            last, started = version, True
            expected = render.table_message(states.snapshot_table(version), self.locale)
            text = "\n".join(message_texts(shown))
            # Independent of the renderer: the engine's public facts are on the message.
            view = states.games[version].view(None)
            for seat in view["to_act"]:
                player = self.table.player_at(seat)
                if not player.is_bot:
                    assert f"<@{player.user_id}>" in text
            # The cards on the table: in the text without a picture; beside one, the compact
            # text leaves them to the picture, checked against the state below (issue 30).
            for entry in [] if view["is_over"] or pictured is not None else view["trick"]:
                assert card_text(entry["card"]) in text
            if shown.embeds:  # a result message: the teams' fields
                for team, field_ in enumerate(shown.embeds[0]["fields"][:2]):
                    assert field_["name"].endswith(
                        "— " + n("plural.points", self.locale, view["scores"][team])
                    )
            elif not view["is_over"] and pictured is not None:  # the compact message's score
                scores = view["scores"]
                assert t("table.scores", self.locale, team0=scores[0], team1=scores[1]) in text
            if not view["is_over"] and pictured is None:  # complete text: the footer
                assert footer == t(
                    "table.footer.hand",
                    self.locale,
                    table=self.table.id,
                    hand=view["hand_number"] + 1,
                )
            leaked = cards_in_text(text) & states.hidden(version, None)
            assert not leaked, f"the table message showed hidden cards {leaked} at state {version}"
            self.check_picture(shown, states.snapshot_table(version))
            checked += 1
        return checked

    def check_picture(self, shown: MessageVersion, table: Table) -> None:
        """The message carries the picture of the very state its text shows: the PNG's text
        chunks name this table and version, and its bytes are what the renderer draws for the
        engine's state at that version (replayed independently of the bot)."""
        pictures = [a for a in shown.attachments if a["filename"] == table_picture.FILENAME]
        galleries = [c for c in flat(shown.components) if c.get("type") == 12]
        if not table_picture.wants_picture(table):
            assert not pictures and not galleries
            return
        assert len(pictures) == 1, f"state {table.version}: {len(pictures)} pictures"
        data = self.emu.message_service.files[int(pictures[0]["id"])].data
        # Components V2: a MediaGallery shows the message's own attachment.
        assert [g["items"][0]["media"]["url"] for g in galleries] == [pictures[0]["url"]]
        chunks = shown_parts.picture_chunks(self.emu, shown)
        assert chunks == {"table": str(table.id), "version": str(table.version)}
        assert data == table_png(scene_of(table, self.locale)), (
            f"picture of state {table.version} differs"
        )

    def check_private_messages(self, states: GameStates) -> int:
        """Every version of every hand message shows only what its reader's seat may see."""
        checked = 0
        table = self.table
        for person in self.people.values():
            seat = table.seat_of(person.id)
            for message in person.own_ephemerals:
                for shown in message.versions:
                    ids = game_custom_ids(shown)
                    # The manilhas named with their cards (issue 30) tell nothing of a hand.
                    texts = [without_manilhas(text) for text in message_texts(shown)]
                    cards = set().union(*(cards_in_text(t) for t in texts))
                    if not ids:
                        assert not cards or seat is not None
                        continue
                    parsed = parse_game_action(ids[0])
                    assert parsed is not None
                    if parsed.version not in states.games:
                        continue  # an earlier game at this table
                    assert seat is not None
                    leaked = cards & states.hidden(parsed.version, seat)
                    assert not leaked, f"{person.name} saw {leaked} at move {parsed.version}"
                    checked += 1
        return checked

    async def check_result_recorded(self) -> None:
        table = self.table
        game = table.game
        assert game is not None and game.is_over and table.status == "finished"
        assert self.bot.db is not None
        history = await ResultsRepository(self.bot.db).history(table.guild_id, table.game_name)
        assert history, "the finished game was recorded"
        latest = history[0]
        assert latest.scores == tuple(game.scores) and latest.winner_team == game.winner
        winners = " & ".join(seat_name(table, s, None) for s in range(4) if s % 2 == game.winner)
        assert winners in self.message.text and "Play again" in [
            b.label for b in self.message.buttons
        ]

    def assert_no_failures(self) -> None:
        for person in self.people.values():
            assert not person.failures, f"{person.name} saw 'This interaction failed'"
        assert not self.emu.violations, self.emu.violations
