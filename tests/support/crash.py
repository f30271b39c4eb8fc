"""The crash scenario: the bot as a child process killed with SIGKILL at chosen points of many
games and restarted (tests/e2e/test_crash_restart.py, test_e2e_shards.py, scripts/soak_crash.py)."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import os
import random
import signal
import sqlite3
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from bot.storage import Database, HistoryEntry, ResultsRepository, SqliteTableStore
from bot.tables import alone
from bot.tables.games import EngineGame, rules_for
from bot.tables.records import TableRecord
from bot.tables.results import build_result
from bot.tables.service import Table
from bot.texts import t
from bot.ui.kit.custom_ids import parse_game_action
from bot.ui.kit.layout import Layout
from bot.ui.kit.message_parts import MessageParts
from bot.ui.table import render
from emulator import Channel, Emulator, Interaction, Message, SimulatedUser
from tests.support.alone import table_answers
from tests.support.shown import picture_version, text_of
from tests.support.world import open_table


def replay(record: TableRecord) -> EngineGame:
    assert record.seed is not None
    return rules_for(record.game).replay(
        record.options, record.seed, record.first_dealer, record.actions
    )


def game_buttons(message: Message) -> list[Any]:
    """The hand's game actions; truco's signal buttons aside (talk between partners, not moves:
    tests/ui/test_ui_signals.py)."""
    return [
        b
        for b in message.buttons
        if b.custom_id and b.custom_id.startswith("t:") and ":signal:" not in b.custom_id
    ]


def hand_version(message: Message) -> int | None:
    for button in game_buttons(message):
        parsed = parse_game_action(button.custom_id)
        if parsed is not None:
            return parsed.version
    return None


def games_rows(db_path: Path) -> Counter[tuple[int, float]]:
    """(table id, started_at) of every recorded game, counted (a check of the file itself)."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        return Counter(
            (int(table_id), float(started))
            for table_id, started in conn.execute("SELECT table_id, started_at FROM games")
        )
    finally:
        conn.close()


PROJECT_ROOT = Path(__file__).resolve().parents[2]


RESTORED = t("table.notice.restored")


UNKNOWN_INTERACTION = 10062
# How long a step that waits on a (re)started bot's first pictures may take. The bot still
# acknowledges in time (the emulator fails a late acknowledgement); what comes after waits on a
# picture worker spawned at start-up. With other suites beside this one on two cores that start
# alone took over 10 s (a lobby) and 15 s (a restored table).
AFTER_A_START = 40.0


LOBBY = "lobby"


BIDDING = "bidding"


MID_TRICK = "mid-trick"


TRUCO_ASK = "truco-ask"


LOBBY_OPENED = "lobby just opened"


LOBBY_CLICK = "lobby click (in flight)"


LAST_CARD = "last card (in flight)"


IN_FLIGHT = "any click (in flight)"


# The two sides of the commit a click in flight is forced onto (CrashScenario.forced_side).
NOT_APPLIED = "not applied"
APPLIED = "applied"


EUCHRE_BIDDING = frozenset({"name_suit", "bidding1", "bidding2", "discard", "alone"})


class BotProcess:
    """`python -m tests.support.crash_bot_process URL` with the crash test's settings in its
    environment."""

    def __init__(self, emu: Emulator, db_path: Path, guild_id: int, log_dir: Path) -> None:
        self.emu = emu
        self.db_path = db_path
        self.guild_id = guild_id
        self.log_dir = log_dir
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0
        self._log: IO[bytes] | None = None
        self.logs: list[Path] = []

    async def start(self, timeout: float = 60.0) -> None:  # noqa: ASYNC109
        assert self.proc is None
        before = self.emu.gateway.ready_count
        self.starts += 1
        path = self.log_dir / f"bot-run-{self.starts:03d}.log"
        self.logs.append(path)
        self._log = path.open("wb")
        env = dict(
            os.environ,
            DISCORD_TOKEN=self.emu.token,
            DATABASE_PATH=str(self.db_path),
            DEV_GUILD_ID=str(self.guild_id),
            BOT_MOVE_DELAY="0",
            LOG_LEVEL="INFO",
            PYTHONPATH=str(PROJECT_ROOT),
            # fair-v2's rounds from the emulator's local beacon: never drand's real relays
            BEACON_RELAYS=",".join(self.emu.beacon_relays),
        )
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.support.crash_bot_process",
            self.emu.url,
            cwd=PROJECT_ROOT,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=self._log,
            stderr=asyncio.subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while not (self.emu.gateway.ready_count > before and self.emu.gateway.connected):
            if self.proc.returncode is not None:
                raise AssertionError(f"the bot process exited early:\n{self.log_text(path)}")
            if time.monotonic() > deadline:
                raise AssertionError(f"the bot was not ready in {timeout:g} s:\n{self.log_text()}")
            with contextlib.suppress(TimeoutError):
                await self.emu.wait_for(
                    lambda: self.emu.gateway.ready_count > before and self.emu.gateway.connected,
                    timeout=0.2,
                )

    def pause(self) -> None:
        """SIGSTOP: the process runs no more code until it is killed."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)

    async def kill(self) -> None:
        """SIGKILL: no cleanup of any kind runs in the bot."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        self._close_log()
        self.proc = None
        # The emulator notices the dead connection (the kernel closed the socket).
        await self.emu.wait_for(lambda: not self.emu.gateway.connected, timeout=10, what="drop")

    async def stop(self) -> None:
        """SIGTERM: the bot closes cleanly (`run_bot` handles the signal)."""
        if self.proc is None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.proc.wait(), timeout=20)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
            raise AssertionError("the bot did not stop on SIGTERM") from None
        finally:
            self._close_log()
            self.proc = None

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def log_text(self, path: Path | None = None) -> str:
        paths = [path] if path is not None else self.logs[-1:]
        return "\n".join(p.read_text(errors="replace") for p in paths if p.exists())

    def error_lines(self) -> list[str]:
        """ERROR/CRITICAL log lines and tracebacks of every run of the bot."""
        found = []
        for path in self.logs:
            lines = path.read_text(errors="replace").splitlines()
            for number, line in enumerate(lines):
                if line.startswith("Traceback") and _orphaned_worker(lines[number : number + 12]):
                    continue
                if " ERROR " in line or " CRITICAL " in line or line.startswith("Traceback"):
                    found.append(f"{path.name}: {line}")
        return found


def _orphaned_worker(block: list[str]) -> bool:
    """A picture or search worker that was being started when the test SIGKILLed the bot: the
    child finds its parent's pipe closed before it read its start-up data ("EOFError: Ran out
    of input" in multiprocessing's spawn). The kill's doing, not the bot's error."""
    text = "\n".join(block)
    return "multiprocessing/spawn.py" in text and "EOFError: Ran out of input" in text


@dataclass(frozen=True)
class TableSpec:
    channel: str
    command: str  # "euchre new" / "truco new"
    options: dict[str, Any]
    humans: int  # 4, or 2 with two bot seats
    games: int = 1  # "Play again" after each but the last


@dataclass
class TableRun:
    spec: TableSpec
    channel: Channel
    people: list[SimulatedUser]  # people[0] is the host
    table_id: int | None = None
    message: Message | None = None  # the table message
    hands: dict[int, Message] = field(default_factory=dict)  # user id -> their hand message
    # Actions people saw acknowledged in the current game: (version it made, seat, action).
    acked: list[tuple[int, int, str]] = field(default_factory=list)
    start_version: int | None = None  # version at which the current game began
    started_at: float | None = None
    finished: dict[float, tuple[int, int]] = field(default_factory=dict)  # started_at -> scores
    retry: tuple[SimulatedUser, Message, str] | None = None  # a click that failed in flight
    done: bool = False

    @property
    def bots(self) -> int:
        return 4 - self.spec.humans


@dataclass
class InFlight:
    interaction: Interaction
    run: TableRun
    kind: str
    before: TableRecord | None
    seat_action: tuple[int, str] | None = None


def rebuilt_table(record: TableRecord, notice: str | None = "table.notice.restored") -> Table:
    """The table as a restart must rebuild it (independently of TableService): options, seed and
    action log replayed, with the "restored" notice at the stored version."""
    rules = rules_for(record.game)
    table = Table(record=record, rules=rules)
    if record.status in ("playing", "finished"):
        game = replay(record)
        table.game = game
        table.seat_of_position = rules.seat_of_position(game)
        if game.is_over:
            table.result = build_result(record, table.seat_of_position, game, time.time())
    table.notice = notice
    table.notice_version = record.version
    return table


def shows(message_version: Any, expected: MessageParts) -> bool:
    """Does this version of a table message show exactly `expected` (content and embed; a
    layout's text displays, issue 30)?"""
    if isinstance(expected.view, Layout):
        return bool(text_of(message_version.components) == expected.view.text)
    if message_version.content != expected.content:
        return False
    if expected.embed is None:
        return not message_version.embeds
    if not message_version.embeds:
        return False
    want: dict[str, Any] = dict(expected.embed.to_dict())
    got: dict[str, Any] = message_version.embeds[0]
    return all(got.get(key) == want.get(key) for key in ("title", "description", "fields")) and (
        (got.get("footer") or {}).get("text") == (want.get("footer") or {}).get("text")
    )


def has_button(message: Message, custom_id: str) -> bool:
    return any(b.custom_id == custom_id for b in message.buttons)


def kill_kind_of(record: TableRecord, game: EngineGame | None) -> str | None:
    """The kind of state a table is in, for the kill plan."""
    if record.status == "lobby":
        return LOBBY
    if game is None or game.is_over:
        return None
    view = game.view(None)
    if record.game == "euchre":
        if view["phase"] in EUCHRE_BIDDING:
            return BIDDING
        if view["phase"] == "play" and view["trick"]:
            return MID_TRICK
        return None
    if view["phase"] == "answer":
        return TRUCO_ASK
    if view["phase"] == "play" and view["trick"]:
        return MID_TRICK
    return None


@dataclass
class CrashReport:
    kills: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    clicks: int = 0
    games: int = 0
    # Game actions in flight at a kill, by kill kind: found applied after the restart, or not
    # applied (the person then clicked again).
    in_flight_applied: Counter[str] = field(default_factory=Counter)
    in_flight_lost: Counter[str] = field(default_factory=Counter)
    failed_clicks: int = 0  # "This interaction failed" (all of them in flight at a kill)
    clicked_again: int = 0  # the same button clicked again after its click failed in flight
    old_hand_clicks: int = 0  # clicks on hand messages drawn before a restart
    seconds: float = 0.0

    def summary(self) -> str:
        kinds = ", ".join(f"{k}: {n}" for k, n in sorted(self.by_kind.items()))
        return (
            f"{self.kills} kills survived ({kinds}); {self.games} games finished and recorded "
            f"once; {self.clicks} clicks; game actions in flight at a kill: applied "
            f"{dict(self.in_flight_applied)}, not applied {dict(self.in_flight_lost)}; "
            f"{self.failed_clicks} clicks showed 'This interaction failed' "
            f"({self.clicked_again} clicked again); {self.old_hand_clicks} clicks on hand "
            f"messages drawn before a restart; "
            f"{self.seconds:.1f} s"
        )


class CrashScenario:
    def __init__(
        self,
        emu: Emulator,
        workdir: Path,
        specs: list[TableSpec],
        *,
        seed: int,
        kills: dict[str, int],
        state_kill_chance: float = 0.2,
        in_flight_chance: float = 0.03,
        max_flight_delay: float = 0.015,
        max_extra_games: int = 3,
    ) -> None:
        self.emu = emu
        self.rng = random.Random(seed)
        self.specs = specs
        self.wanted = Counter(kills)  # kills still to make, by kind
        self.state_kill_chance = state_kill_chance
        self.in_flight_chance = in_flight_chance
        self.max_flight_delay = max_flight_delay
        self.max_extra_games = max_extra_games
        self.guild = emu.add_guild("Crash")
        self.runs: list[TableRun] = []
        for n, spec in enumerate(specs):
            channel = self.guild.add_channel(spec.channel)
            people = []
            for k in range(spec.humans):
                person = emu.add_user(f"p{n}x{k}", locale="en-US")
                self.guild.add_member(person)
                people.append(person)
            self.runs.append(TableRun(spec, channel, people))
        self.db_path = workdir / "cardtable.sqlite3"
        self.bot = BotProcess(emu, self.db_path, self.guild.id, workdir)
        self.db: Database | None = None
        self.store: SqliteTableStore | None = None
        self.in_flight: list[InFlight] = []
        self.old_hands: set[int] = set()  # ids of hand messages drawn before the last restart
        self.report = CrashReport()

    # --- the oracle: the database the bot wrote --------------------------------------------------

    async def read(self, run: TableRun) -> TableRecord | None:
        assert self.store is not None
        if run.table_id is not None:
            return await self.store.get_table(run.table_id)
        for record in await self.store.load_active():
            if record.channel_id == run.channel.id and record.message_id is not None:
                run.table_id = record.id
                self.message_of(record)
                return record
        return None

    def person_at(self, run: TableRun, record: TableRecord, game: EngineGame, seat: int) -> Any:
        position = rules_for(record.game).seat_of_position(game).index(seat)
        player = record.seats[position]
        assert player is not None
        return player

    def message_of(self, record: TableRecord) -> Message:
        assert record.message_id is not None
        message = self.emu.messages[record.message_id]
        for run in self.runs:
            if run.table_id == record.id:
                run.message = message
        return message

    # --- running ---------------------------------------------------------------------------------

    async def run(self, time_limit: float = 600.0) -> CrashReport:
        started = time.monotonic()
        await self.bot.start()
        self.db = await Database.open(self.db_path, migrate=False)
        self.store = SqliteTableStore(self.db)
        try:
            while not all(r.done for r in self.runs):
                assert time.monotonic() - started < time_limit, "the scenario took too long"
                run = self.rng.choice([r for r in self.runs if not r.done])
                await self.step(run)
            await self.finish()
        finally:
            with contextlib.suppress(Exception):
                await self.bot.stop()
            await self.db.close()
        self.report.seconds = time.monotonic() - started
        return self.report

    async def step(self, run: TableRun) -> None:
        record = await self.read(run)
        if record is None:
            await self.open_table(run)
        elif record.status == "lobby":
            await self.lobby_step(run, record)
        elif record.status == "playing":
            await self.play_step(run, record)
        else:
            await self.finished_step(run, record)

    async def open_table(self, run: TableRun) -> None:
        host = run.people[0]
        self.report.clicks += 1
        lobby = await open_table(
            host, run.channel, run.spec.command, timeout=AFTER_A_START, **run.spec.options
        )
        assert not lobby.ephemeral and lobby.button("Join")
        if self.wanted[LOBBY_OPENED] > 0:
            # Killed the moment the lobby appears: people saw it, so it must come back.
            await self.crash(LOBBY_OPENED)
            # Either its message id made it to the store, or the restored lobby is posted
            # again (the kill came between the answer and that write).
            for _ in range(int(AFTER_A_START / 0.05)):
                record = await self.read(run)
                if record is not None and record.message_id is not None:
                    break
                await asyncio.sleep(0.05)
            assert record is not None and record.message_id is not None, "a lobby seen was lost"
            if record.message_id != lobby.id:
                reposted = self.message_of(record)
                assert reposted.text.startswith(RESTORED) and reposted.button("Join")
                # The first lobby message is not updated any more, but its buttons still work.
                await run.people[1].click(lobby, "Join", timeout=10)
                record = await self.read(run)
                assert record is not None
                assert run.people[1].id in {s.user_id for s in record.seats if s is not None}
            return
        # The table is stored, and its message id with it, by the time people can see it?
        record = await self.read(run)
        if record is None:
            # The id is written just after the answer; give the bot that moment.
            await asyncio.sleep(0.05)
            record = await self.read(run)
        assert record is not None and record.message_id == lobby.id
        await self.maybe_kill_at(run, record, None)

    async def lobby_step(self, run: TableRun, record: TableRecord) -> None:
        lobby = self.message_of(record)
        seated = {s.user_id for s in record.seats if s is not None and not s.is_bot}
        bots = sum(1 for s in record.seats if s is not None and s.is_bot)
        missing = [p for p in run.people if p.id not in seated]
        if missing:
            person, verb = missing[0], "join"
        elif bots < run.bots:
            person, verb = run.people[0], "bot:easy"
        else:
            person, verb = run.people[0], "start"
        custom_id = f"tb:{record.id}:{verb}"
        shown = await self.click(run, person, lobby, custom_id, LOBBY_CLICK)
        if shown is None:
            return  # killed in flight; the next step sees what the restart restored
        after = await self.read(run)
        assert after is not None
        if verb == "start":  # (the bot seats may have moved already)
            assert (
                after.status == "playing"
                and after.version - len(after.actions) == record.version + 1
            )
        else:
            assert after.version == record.version + 1, "an acknowledged lobby change is stored"
        await self.maybe_kill_at(run, after, None)

    async def finished_step(self, run: TableRun, record: TableRecord) -> None:
        self.note_finished(run, record)
        if len(run.finished) >= run.spec.games and not self.wants_more_play(run):
            run.done = True
            return
        message = self.message_of(record)
        again = f"tb:{record.id}:again"
        await message.wait_until(lambda m: has_button(m, again), timeout=10)
        # A ready check: each seated person clicks "Play again"; the last click starts the game.
        waiting = [p for p in run.people if p.id not in record.ready]
        shown = await self.click(run, waiting[0], message, again, None)
        if shown is None:
            return
        after = await self.read(run)
        assert after is not None
        if len(waiting) > 1:
            assert after.status == "finished" and waiting[0].id in after.ready
            return
        assert after.status == "playing"
        assert after.started_at != record.started_at  # a new game (bot seats may have moved)
        assert after.version - len(after.actions) == record.version + 1

    def wants_more_play(self, run: TableRun) -> bool:
        """Another game at this table, while the kill plan still wants what a game offers."""
        if len(run.finished) >= run.spec.games + self.max_extra_games:
            return False
        kinds = [BIDDING, MID_TRICK, LAST_CARD, IN_FLIGHT]
        if run.spec.command.startswith("truco"):
            kinds = [TRUCO_ASK, MID_TRICK, LAST_CARD, IN_FLIGHT]
        return any(self.wanted[k] > 0 for k in kinds)

    def note_finished(self, run: TableRun, record: TableRecord) -> None:
        game = replay(record)
        assert game.is_over and record.started_at is not None
        scores = (int(game.scores[0]), int(game.scores[1]))
        if record.started_at not in run.finished:
            run.finished[record.started_at] = scores
            self.report.games += 1
        assert run.finished[record.started_at] == scores

    async def play_step(self, run: TableRun, record: TableRecord) -> None:
        game = replay(record)
        if record.started_at != run.started_at:  # a new game at this table
            run.started_at = record.started_at
            run.start_version = record.version - len(record.actions)
            run.acked = []
        # The log and the version moved together: the game's start version never shifts.
        assert record.version - len(record.actions) == run.start_version
        if game.is_over:
            return  # (a finished table has status "finished"; never reached)
        humans = [
            s
            for s in game.to_act
            if not self.person_at(run, record, game, s).is_bot
            and not table_answers(record, game, s)
        ]
        if not humans:
            await asyncio.sleep(0.005)  # the bot seats are moving in the bot process
            return
        seat = self.rng.choice(humans)
        user_id = self.person_at(run, record, game, seat).user_id
        person = next(p for p in run.people if p.id == user_id)
        hand = await self.current_hand(run, person, record)
        if hand is None:
            return  # killed in flight
        enabled = [b for b in game_buttons(hand) if not b.disabled]
        actions = {parse_game_action(b.custom_id).action for b in enabled}  # type: ignore[union-attr]
        legal = alone.offered(record.game, record.options, game.legal_actions(seat))
        assert actions == set(legal), "the buttons are the legal actions"
        assert hand_version(hand) == record.version, "the hand is drawn at the stored version"
        custom_id = None
        retry = run.retry
        # The person clicks again the very button whose click failed, if it is still there.
        if (
            retry is not None
            and retry[0] is person
            and retry[1] is hand
            and any(b.custom_id == retry[2] and not b.disabled for b in enabled)
        ):
            custom_id = retry[2]
            self.report.clicked_again += 1
        run.retry = None
        if custom_id is None:
            custom_id = self.rng.choice(enabled).custom_id
        assert custom_id is not None
        action = parse_game_action(custom_id).action  # type: ignore[union-attr]
        action = alone.engine_action(record.game, record.options, action)
        probe = copy.deepcopy(game)
        probe.apply(seat, action)
        kind = LAST_CARD if probe.is_over else IN_FLIGHT
        shown = await self.click(run, person, hand, custom_id, kind, record, (seat, action))
        if shown is None:
            return
        version = record.version + 1
        run.acked.append((version, seat, action))
        after = await self.read(run)
        assert after is not None
        assert run.start_version is not None
        assert after.actions[version - run.start_version - 1] == (seat, action)
        new_version = hand_version(hand)
        assert new_version is None or new_version >= version
        if probe.is_over:
            assert after.status == "finished"
        await self.maybe_kill_at(run, after, replay(after))

    async def current_hand(
        self, run: TableRun, person: SimulatedUser, record: TableRecord
    ) -> Message | None:
        """The person's hand at the stored version: the message they already have if it is
        current, else that old message refreshed (by one of its stale buttons, or Refresh), or
        a new one from "Show my hand"."""
        hand = run.hands.get(person.id)
        if hand is not None and not hand.dismissed:
            if hand_version(hand) == record.version:
                return hand
            stale = [b for b in game_buttons(hand) if not b.disabled]
            if stale and self.rng.random() < 0.6:
                target = self.rng.choice(stale).custom_id or ""
            else:
                target = f"tb:{record.id}:refresh"
            shown = await self.click(run, person, hand, target, None)
            if shown is None:
                return None
            after = await self.read(run)
            assert after is not None and after.version == record.version, "a stale click applied"
            return await self.at_version(hand, record.version)
        table_message = self.message_of(record)
        shown = await self.click(run, person, table_message, f"tb:{record.id}:hand", None)
        if shown is None:
            return None
        assert shown.ephemeral and shown.ephemeral_for is person
        run.hands[person.id] = shown
        return await self.at_version(shown, record.version)

    @staticmethod
    async def at_version(hand: Message, version: int) -> Message:
        """The hand once it shows `version`: a live edit drawn before the click may land after
        the click's answer (the hand then catches up by itself, bot/ui/table/live_hands.py),
        as the play driver waits too."""
        return await hand.wait_until(lambda m: hand_version(m) == version, timeout=AFTER_A_START)

    async def click(
        self,
        run: TableRun,
        person: SimulatedUser,
        message: Message,
        custom_id: str,
        kind: str | None,
        before: TableRecord | None = None,
        seat_action: tuple[int, str] | None = None,
    ) -> Message | None:
        """Click, and return what the person then sees; or kill the bot while the click is in
        flight (for `kind`, by the kill plan) and return None."""
        self.report.clicks += 1
        if message.id in self.old_hands:
            self.report.old_hand_clicks += 1
        if not message.ephemeral:
            # A person clicks what the table message shows, and its coalesced edit (drawn with
            # its picture) may still trail the stored state by a moment.
            await message.wait_until(
                lambda m: any(b.custom_id == custom_id and not b.disabled for b in m.buttons),
                timeout=10,
            )
        kill = None if kind is None else self.wants_in_flight_kill(kind)
        if kill is not None:
            side = self.forced_side(seat_action is not None, before)
            if side == NOT_APPLIED:
                self.bot.pause()  # it cannot read the click, let alone commit it
            interaction = await person.send_click(message, custom_id)
            if side == APPLIED:
                assert before is not None
                await self.wait_until_stored(before)
            elif side is None:
                await asyncio.sleep(self.flight_delay())
            flight = InFlight(interaction, run, kill, before, seat_action)
            self.in_flight.append(flight)
            if message.ephemeral:
                run.retry = (person, message, custom_id)
            await self.crash(kill, flight)
            return None
        seen = len(message.versions)
        shown = await person.click(message, custom_id, timeout=10)
        if shown is message and message.ephemeral:
            # Updated in place (type 7), or deferred (type 6) and edited just after.
            await message.wait_until(lambda m: len(m.versions) > seen, timeout=10)
        return shown

    def wants_in_flight_kill(self, kind: str) -> str | None:
        """The kind of kill to make while this click is in flight, if any."""
        if kind == LAST_CARD and self.wanted[LAST_CARD] > 0:
            return LAST_CARD
        if kind == LOBBY_CLICK and self.wanted[LOBBY_CLICK] > 0 and self.rng.random() < 0.3:
            return LOBBY_CLICK
        if self.wanted[IN_FLIGHT] > 0 and self.rng.random() < self.in_flight_chance:
            return IN_FLIGHT
        return None

    def forced_side(self, game_action: bool, before: TableRecord | None) -> str | None:
        """The first two game actions in flight cover both sides of the commit, whatever the
        machine's load: the first is killed before the bot can read it (the process is stopped
        first), the second once its action is in the database. None: at random after."""
        if not game_action or before is None:
            return None
        earlier = sum(1 for f in self.in_flight if f.seat_action is not None)
        return {0: NOT_APPLIED, 1: APPLIED}.get(earlier)

    async def wait_until_stored(self, before: TableRecord, timeout: float = 30.0) -> None:  # noqa: ASYNC109
        """Until the database holds a newer version of the table than `before`."""
        assert self.store is not None
        deadline = time.monotonic() + timeout
        while True:
            record = await self.store.get_table(before.id)
            if record is not None and record.version > before.version:
                return
            assert time.monotonic() < deadline, "the click in flight was never committed"
            await asyncio.sleep(0.005)

    def flight_delay(self) -> float:
        """How long after the click the bot is killed: at once, within the bot's first
        milliseconds of work, or later (often after the answer)."""
        roll = self.rng.random()
        if roll < 0.25:
            return 0.0
        if roll < 0.65:
            return self.rng.uniform(0, 0.004)
        return self.rng.uniform(0, self.max_flight_delay)

    async def maybe_kill_at(
        self, run: TableRun, record: TableRecord, game: EngineGame | None
    ) -> None:
        kind = kill_kind_of(record, game)
        if kind is None or self.wanted[kind] <= 0:
            return
        # A truco ask is rarer than the other states: take it more often when it comes.
        chance = 0.7 if kind == TRUCO_ASK else self.state_kill_chance
        if self.rng.random() < chance:
            await self.crash(kind)

    # --- the crash and the restart -------------------------------------------------------------

    async def crash(self, kind: str, flight: InFlight | None = None) -> None:
        self.wanted[kind] -= 1
        # What people saw on the table messages before the kill: never lost. (No await before
        # the kill: a click in flight must not get time to finish.)
        seen = {
            run.table_id: self.shown_version(run.message)
            for run in self.runs
            if run.table_id is not None and run.message is not None
        }
        # The versions come from the table pictures (the scenario keeps pictures on): a
        # message shown without one would make the check below see nothing.
        assert not seen or any(v is not None for v in seen.values()), "no table picture shown"
        await self.bot.kill()
        self.old_hands |= {m.id for r in self.runs for m in r.hands.values()}
        self.report.kills += 1
        self.report.by_kind[kind] += 1
        # The bot is dead: the database now holds exactly what the restart will rebuild.
        assert self.store is not None
        stored = await self.store.load_active()
        by_id = {r.id: r for r in stored}
        self.check_nothing_acknowledged_lost(by_id, seen)
        if flight is not None:
            self.check_in_flight_whole(flight, by_id)
        self.check_games_recorded_once(stored)
        marks = {r.id: len(self.message_of(r).versions) for r in stored if r.message_id}
        await self.bot.start()
        await self.check_restored(stored, marks)

    def shown_version(self, message: Message) -> int | None:
        """The table version people saw last on a table message: its picture names it (the
        footer counts hands); None before the message has a picture."""
        return self.shown_version_of(message.versions[-1])

    def check_nothing_acknowledged_lost(
        self, by_id: dict[int, TableRecord], seen: dict[int, int | None]
    ) -> None:
        for run in self.runs:
            if run.table_id is None or run.table_id not in by_id:
                continue
            record = by_id[run.table_id]
            shown = seen.get(run.table_id)
            assert shown is None or record.version >= shown, (
                f"table {record.id}: people saw move {shown}, the store has {record.version}"
            )
            if record.status == "lobby" or record.started_at != run.started_at:
                continue
            for version, seat, action in run.acked:
                index = version - (run.start_version or 0) - 1
                assert index < len(record.actions), f"acknowledged move {version} was lost"
                assert record.actions[index] == (seat, action), f"move {version} differs"

    def check_in_flight_whole(self, last: InFlight, by_id: dict[int, TableRecord]) -> None:
        """The click in flight at the kill: applied whole or not at all."""
        before = last.before
        if before is None or last.seat_action is None:
            return
        after = by_id.get(before.id)
        assert after is not None
        assert after.started_at == before.started_at
        if after.version == before.version:
            assert after.actions == before.actions and after.status == before.status
            self.report.in_flight_lost[last.kind] += 1
        else:
            assert after.actions[: len(before.actions)] == before.actions
            assert after.actions[len(before.actions)] == last.seat_action
            self.report.in_flight_applied[last.kind] += 1
            game = replay(after)
            if len(after.actions) == len(before.actions) + 1:
                assert (after.status == "finished") == game.is_over

    def check_games_recorded_once(self, stored: list[TableRecord]) -> None:
        """Finished tables have their game recorded exactly once; games in play not at all."""
        rows = games_rows(self.db_path)
        assert all(n == 1 for n in rows.values()), f"a game was recorded twice: {rows}"
        for record in stored:
            if record.status == "lobby" or record.started_at is None:
                continue
            key = (record.id, record.started_at)
            assert rows[key] == (1 if record.status == "finished" else 0), (record.status, key)

    async def check_restored(self, stored: list[TableRecord], marks: dict[int, int]) -> None:
        """Every table's message is edited to its stored state with the "restored" line."""
        for record in stored:
            if record.message_id is None:
                continue  # a lobby whose id was not stored yet: checked by open_table
            message = self.message_of(record)
            table = rebuilt_table(record)
            expected = render.table_message(table)
            assert expected.content.startswith(RESTORED)
            bots_move = False
            if table.game is not None and not table.game.is_over:
                # A hand waiting for its cut is cut by the table itself (bot.tables.fair), which
                # may come before the restored message is drawn: a later state is fine there too.
                bots_move = table.game.phase == "cut" or any(
                    table.is_bot_seat(s) for s in table.game.to_act
                )
            mark = marks[record.id]

            def restored(
                m: Message,
                mark: int = mark,
                record: TableRecord = record,
                bots_move: bool = bots_move,
                expected: MessageParts = expected,
            ) -> bool:
                new = m.versions[mark:]
                if bots_move:  # the bot seats (or the cut) may move at once: a later state is fine
                    return any((self.shown_version_of(v) or 0) >= record.version for v in new)
                return any(shows(v, expected) for v in new)

            try:
                await message.wait_until(restored, timeout=AFTER_A_START)
            except TimeoutError:
                raise AssertionError(
                    f"table {record.id} ({record.status}, move {record.version}) was not shown "
                    f"restored; its message shows:\n{message.text}\nexpected:\n{expected.content}"
                ) from None

    def shown_version_of(self, version: Any) -> int | None:
        return picture_version(self.emu, version)

    # --- the end ---------------------------------------------------------------------------------

    async def finish(self) -> None:
        assert self.db is not None and self.store is not None
        # Every in-flight click settled: acknowledged before the kill, or failed.
        for flight in self.in_flight:
            interaction = flight.interaction
            await interaction.wait_settled(timeout=10)
            if interaction.failed:
                self.report.failed_clicks += 1
        failed_ids = {f.interaction.id for f in self.in_flight if f.interaction.failed}
        violations = self.emu.take_violations(UNKNOWN_INTERACTION)
        for violation in violations:
            assert violation.interaction_id in failed_ids, violation
            assert violation.path == "(no response)", violation
        assert len(violations) == len(failed_ids)
        for run in self.runs:
            for person in run.people:
                for failure in person.failures:
                    assert failure.id in failed_ids, "only in-flight clicks may fail"
        # Every finished game recorded exactly once, with its final score.
        rows = games_rows(self.db_path)
        assert all(n == 1 for n in rows.values()), rows
        expected_total = 0
        for run in self.runs:
            assert run.table_id is not None
            mine = {started for (table_id, started) in rows if table_id == run.table_id}
            assert mine == set(run.finished), f"table {run.table_id}: {mine} != {run.finished}"
            expected_total += len(run.finished)
            record = await self.read(run)
            assert record is not None and record.status == "finished"
            message = self.message_of(record)
            again = f"tb:{record.id}:again"

            def ended(m: Message, again: str = again) -> bool:
                return has_button(m, again)

            await message.wait_until(ended, timeout=10)
            # The final result (with the "restored" line if the last restart came after it).
            last = message.versions[-1]
            plain = render.table_message(rebuilt_table(record, None))
            restored = render.table_message(rebuilt_table(record))
            assert shows(last, plain) or shows(last, restored), (
                f"table {record.id} ends showing {last.content!r} {last.embeds!r}, not "
                f"{plain.content!r} {plain.embed.to_dict() if plain.embed else None!r}"
            )
        results = ResultsRepository(self.db)
        recorded = 0
        for kind in ("euchre", "truco"):
            history: list[HistoryEntry] = []
            while page := await results.history(self.guild.id, kind, 100, len(history)):
                history += page
            recorded += len(history)
            finished_scores = Counter(
                scores
                for run in self.runs
                if run.spec.command.startswith(kind)
                for scores in run.finished.values()
            )
            assert Counter(h.scores for h in history) == finished_scores
        assert recorded == expected_total == self.report.games
        await self.bot.stop()
        errors = self.bot.error_lines()
        assert not errors, "the bot logged errors:\n" + "\n".join(errors)
        check_integrity(self.db_path)
        self.emu.assert_clean()


def check_integrity(db_path: Path) -> None:
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    finally:
        conn.close()
