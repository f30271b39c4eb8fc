"""Two bot processes, two shards, one database (issue 14's must-show).

The emulator recommends 2 shards and routes each guild's events to shard `(guild_id >> 22) % 2`.
Two real bot processes (`tests.support.crash_bot_process`, i.e. `bot.__main__.run_bot`) run with
SHARD_COUNT=2 and SHARD_IDS=0 / SHARD_IDS=1 against ONE database. Simulated people open tables in
guilds of both shards (a euchre and a truco table in each, two people and two bot seats), sit
down and play random legal moves by clicking the buttons they see. Mid-game the process of shard
1 is SIGKILLed; shard 0's tables go on being played meanwhile; shard 1 is restarted, restores
only its guild's tables, and every game is played to its end. Then: each finished game is in the
games table exactly once, the leaderboard of each guild counts its own games once, every
interaction of a guild went to its shard's session, and no process logged an error.

The database is the `shared_database` fixture: one PostgreSQL database on the server the test
command starts (tests/pg_server.py), reached by both processes through DATABASE_URL.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import pytest

from bot.client import ShardedCardTableBot
from bot.pictures.cards import deck_codes
from bot.settings import Settings, parse_database_url
from bot.storage import Database, SqliteTableStore
from bot.storage.backend import Storage, open_storage
from bot.tables import alone
from bot.tables.games import rules_for
from bot.tables.records import TableRecord, TableStore
from bot.texts import t
from bot.ui.kit.card_emojis import emoji_name
from bot.ui.kit.custom_ids import parse_game_action
from emulator import Channel, Emulator, Guild, Message, SimulatedUser, run_bot
from emulator.gateway import shard_of
from tests.support.alone import table_answers
from tests.support.crash import game_buttons, games_rows, hand_version, replay
from tests.support.play_driver import TableDriver
from tests.support.postgres import empty_pg_database
from tests.support.storage import fetch_rows
from tests.support.world import World, open_table

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SHARDS = 2


@dataclass
class SharedDatabase:
    """The one database of both processes, by URL: what both bot processes are told (their
    environment) and how the test reads it back (through bot.storage, as the bot does)."""

    url: str

    @property
    def env(self) -> dict[str, str]:
        return {"DATABASE_URL": self.url}

    async def open(self) -> Storage:
        return await open_storage(parse_database_url(self.url, Path("unused.sqlite3")))


@pytest.fixture
async def shared_database(pg_scratch: str) -> SharedDatabase:
    """One PostgreSQL database (the test server's, emptied) for both processes."""
    await empty_pg_database(pg_scratch)
    return SharedDatabase(url=pg_scratch)


class ShardProcess:
    """`python -m tests.support.crash_bot_process URL` as shard `shard_id` of SHARD_COUNT."""

    def __init__(
        self, emu: Emulator, shard_id: int, guild: Guild, db: SharedDatabase, log_dir: Path
    ) -> None:
        self.emu = emu
        self.shard_id = shard_id
        self.guild = guild
        self.db = db
        self.log_dir = log_dir
        self.proc: asyncio.subprocess.Process | None = None
        self.logs: list[Path] = []
        self._log: IO[bytes] | None = None

    @property
    def connected(self) -> bool:
        return self.emu.gateway.shard_connected(self.shard_id, SHARDS)

    async def start(self, timeout: float = 60.0) -> None:  # noqa: ASYNC109
        assert self.proc is None
        path = self.log_dir / f"shard-{self.shard_id}-run-{len(self.logs) + 1}.log"
        self.logs.append(path)
        self._log = path.open("wb")
        env = dict(
            os.environ,
            DISCORD_TOKEN=self.emu.token,
            DEV_GUILD_ID=str(self.guild.id),  # each process syncs the commands of its guild
            BOT_MOVE_DELAY="0",
            LOG_LEVEL="INFO",
            PYTHONPATH=str(PROJECT_ROOT),
            SHARD_COUNT=str(SHARDS),
            SHARD_IDS=str(self.shard_id),
            BEACON_RELAYS=",".join(self.emu.beacon_relays),  # the emulator's beacon (fair-v2)
            **self.db.env,
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
        while not self.connected:
            if self.proc.returncode is not None:
                raise AssertionError(f"shard {self.shard_id} exited early:\n{self.log_text()}")
            if time.monotonic() > deadline:
                raise AssertionError(f"shard {self.shard_id} not ready:\n{self.log_text()}")
            with contextlib.suppress(TimeoutError):
                await self.emu.wait_for(lambda: self.connected, timeout=0.2)

    async def kill(self) -> None:
        """SIGKILL: nothing of the bot's cleanup runs."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        self._close_log()
        self.proc = None
        await self.emu.wait_for(lambda: not self.connected, timeout=10, what="shard drop")

    async def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.proc.wait(), timeout=20)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
            raise AssertionError(f"shard {self.shard_id} did not stop on SIGTERM") from None
        finally:
            self._close_log()
            self.proc = None

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def log_text(self, index: int = -1) -> str:
        return self.logs[index].read_text(errors="replace") if self.logs else ""

    def error_lines(self) -> list[str]:
        return [
            f"{path.name}: {line}"
            for path in self.logs
            for line in path.read_text(errors="replace").splitlines()
            if " ERROR " in line or " CRITICAL " in line or line.startswith("Traceback")
        ]


@dataclass
class Run:
    """One table: its guild (and so its shard), channel, the two people at it."""

    guild: Guild
    channel: Channel
    people: list[SimulatedUser]
    command: str
    options: dict[str, Any]
    table_id: int | None = None
    message: Message | None = None
    hands: dict[int, Message] = field(default_factory=dict)
    done: bool = False

    @property
    def shard(self) -> int:
        return shard_of(self.guild.id, SHARDS)


class Players:
    """People clicking what they see; the database (read through bot.storage) says whose turn."""

    def __init__(self, emu: Emulator, store: TableStore, seed: int) -> None:
        self.emu = emu
        self.store = store
        self.rng = random.Random(seed)
        self.clicks = 0

    async def click(self, person: SimulatedUser, message: Message, custom_id: str) -> Message:
        self.clicks += 1
        if not message.ephemeral:  # the coalesced edit of the table message may trail a moment
            await message.wait_until(
                lambda m: any(b.custom_id == custom_id and not b.disabled for b in m.buttons),
                timeout=10,
            )
        seen = len(message.versions)
        shown = await person.click(message, custom_id, timeout=10)
        if shown is message and message.ephemeral:
            await message.wait_until(lambda m: len(m.versions) > seen, timeout=10)
        return shown

    async def open_table(self, run: Run) -> None:
        host, guest = run.people
        lobby = await open_table(host, run.channel, run.command, timeout=10, **run.options)
        ids = [b.custom_id for b in lobby.buttons if b.custom_id and b.custom_id.startswith("tb:")]
        run.table_id = int(ids[0].split(":")[1])
        run.message = lobby
        await self.click(guest, lobby, f"tb:{run.table_id}:join")
        for _ in range(2):
            await self.click(host, lobby, f"tb:{run.table_id}:bot:easy")
        await self.click(host, lobby, f"tb:{run.table_id}:start")

    async def read(self, run: Run) -> TableRecord:
        assert run.table_id is not None
        record = await self.store.get_table(run.table_id)
        assert record is not None, f"table {run.table_id} disappeared"
        return record

    async def step(self, run: Run) -> None:
        """One human move at this table (or a short wait while its bot seats move)."""
        record = await self.read(run)
        if record.status == "finished":
            run.done = True
            return
        assert record.status == "playing", record.status
        game = replay(record)
        order = rules_for(record.game).seat_of_position(game)
        humans = []
        for seat in game.to_act:
            player = record.seats[order.index(seat)]
            if player is not None and not player.is_bot and not table_answers(record, game, seat):
                humans.append((seat, player.user_id))
        if not humans:
            await asyncio.sleep(0.005)  # the bot seats are moving in the bot process
            return
        seat, user_id = self.rng.choice(humans)
        person = next(p for p in run.people if p.id == user_id)
        hand = await self.hand_at(run, person, record)
        enabled = [b for b in game_buttons(hand) if not b.disabled]
        actions = {parse_game_action(b.custom_id).action for b in enabled}  # type: ignore[union-attr]
        legal = alone.offered(record.game, record.options, game.legal_actions(seat))
        assert actions == set(legal), "the buttons are the legal actions"
        await self.click(person, hand, self.rng.choice(enabled).custom_id or "")
        after = await self.read(run)
        assert after.version > record.version, "an acknowledged move is stored"

    async def hand_at(self, run: Run, person: SimulatedUser, record: TableRecord) -> Message:
        """The person's hand drawn at the stored version (their old one refreshed, or new)."""
        hand = run.hands.get(person.id)
        if hand is not None and not hand.dismissed:
            if hand_version(hand) != record.version:
                await self.click(person, hand, f"tb:{record.id}:refresh")
            if hand_version(hand) == record.version:
                return hand
        assert record.message_id is not None
        table_message = self.emu.messages[record.message_id]
        shown = await self.click(person, table_message, f"tb:{record.id}:hand")
        assert shown.ephemeral and shown.ephemeral_for is person
        run.hands[person.id] = shown
        return shown

    async def play(self, runs: list[Run], steps: int | None = None) -> None:
        """Moves at random tables among `runs` until all are finished (or `steps` moves)."""
        done = 0
        started = time.monotonic()
        while any(not r.done for r in runs) and (steps is None or done < steps):
            assert time.monotonic() - started < 180, "the games did not end"
            await self.step(self.rng.choice([r for r in runs if not r.done]))
            done += 1


@contextlib.asynccontextmanager
async def sharded_emulator() -> AsyncIterator[Emulator]:
    emu = Emulator(shard_count=SHARDS)
    await emu.start()
    try:
        yield emu
    finally:
        await emu.stop()


async def test_two_shard_processes_one_database_sigkill_and_restart(
    tmp_path: Path, shared_database: SharedDatabase
) -> None:
    """Issue 14 must-show: two bot processes (shard 0 and 1 of 2), one database, tables in
    guilds of both shards played by simulated people; shard 1 SIGKILLed mid-game and
    restarted; every game finished; results counted once."""
    codes = deck_codes()
    async with sharded_emulator() as emu:
        guilds = [emu.add_guild(f"Shard {i}", shard=(i, SHARDS)) for i in range(SHARDS)]
        runs: list[Run] = []
        for guild in guilds:
            for command, options in (("euchre new", {"target": 5}), ("truco new", {"target": 6})):
                people = [emu.add_user(f"{guild.name}-{command[:5]}-{k}") for k in range(2)]
                for person in people:
                    guild.add_member(person)
                channel = guild.add_channel(command.split()[0])
                runs.append(Run(guild, channel, people, command, options))
        processes = [ShardProcess(emu, i, guilds[i], shared_database, tmp_path) for i in (0, 1)]
        for process in processes:
            await process.start()
        storage = await shared_database.open()
        try:
            players = Players(emu, storage.tables, seed=14)
            for run in runs:
                await players.open_table(run)
            shard_1 = [r for r in runs if r.shard == 1]
            shard_0 = [r for r in runs if r.shard == 0]
            assert len(shard_0) == len(shard_1) == 2
            # Play until both of shard 1's tables are into their games (those that are stop
            # there), shard 0's tables meanwhile too; then kill shard 1 mid-game.
            started = time.monotonic()
            while True:
                assert time.monotonic() - started < 120, "the tables did not get going"
                records = [await players.read(r) for r in shard_1]
                behind = [
                    r for r, rec in zip(shard_1, records, strict=True) if len(rec.actions) < 3
                ]
                if not behind:
                    break
                await players.play(behind + shard_0, steps=4)
            killed = {r.table_id: await players.read(r) for r in shard_1}
            assert all(r.status == "playing" for r in killed.values()), "killed mid-game"
            await processes[1].kill()
            # Shard 0 plays on while shard 1 is down; shard 1's tables do not move.
            await players.play(shard_0, steps=20)
            for table_id, before in killed.items():
                assert table_id is not None
                now = await storage.tables.get_table(table_id)
                assert now is not None and now.version == before.version
            await processes[1].start()
            assert "restored 2 tables" in processes[1].log_text(), processes[1].log_text()
            await players.play(runs)
            # Every game finished; each in the games table once, and in its guild's standings.
            rows = Counter(await fetch_rows(storage, "SELECT table_id, started_at FROM games"))
            assert sorted(table for table, _ in rows) == sorted(r.table_id for r in runs)
            assert set(rows.values()) == {1}
            results = storage.results
            for run in runs:
                kind = run.command.split()[0]
                history = await results.history(run.guild.id, kind, 100, 0)
                final = replay(await players.read(run))
                assert final.is_over
                assert [h.scores for h in history] == [tuple(int(x) for x in final.scores)]
                board = await results.leaderboard(run.guild.id, kind, min_games=1)
                assert {row.user_id: row.games for row in board.rows} == {
                    p.id: 1 for p in run.people
                }
            # The emojis are uploaded in the background while people play (drawn by a niced
            # worker): on a loaded machine the last ones may come after the games.
            await emu.wait_for(
                lambda: len(emu.application_emojis) >= len(codes), timeout=60, what="every emoji"
            )
            for process in processes:
                await process.stop()
        finally:
            for process in processes:
                with contextlib.suppress(Exception):
                    await process.stop()
            await storage.close()
        # Each guild's interactions went to a session of its own shard only.
        sessions = {s.number: s for s in emu.gateway.sessions}
        for frame in emu.gateway.frames:
            if frame.event == "INTERACTION_CREATE":
                session = sessions[frame.session]
                assert shard_of(int(frame.data["guild_id"]), SHARDS) == session.shard_id
        assert Counter(s.shard_id for s in emu.gateway.identified) == {0: 1, 1: 2}
        # The card emojis were uploaded once, by shard 0's process only.
        assert sorted(e["name"] for e in emu.application_emojis.values()) == sorted(
            emoji_name(code) for code in codes
        )
        errors = [line for p in processes for line in p.error_lines()]
        assert not errors, "\n".join(errors)
        emu.assert_clean()
        print(f"{players.clicks} clicks, {len(runs)} games recorded once")


async def test_one_process_can_run_both_shards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 14: SHARD_COUNT=2 without SHARD_IDS runs both shards in one process (discord.py's
    AutoShardedBot): two gateway sessions, each with its own guild; tables open in both."""

    async def no_identify_wait(self: Any, shard_id: int | None, *, initial: bool = False) -> None:
        return None  # discord.py waits 5 s between two shards' IDENTIFY; the emulator needs none

    monkeypatch.setattr(ShardedCardTableBot, "before_identify_hook", no_identify_wait)
    async with sharded_emulator() as emu:
        guilds = [emu.add_guild(f"Shard {i}", shard=(i, SHARDS)) for i in range(SHARDS)]
        settings = Settings(
            token=None,
            database_path=tmp_path / "one.sqlite3",
            dev_guild_id=guilds[1].id,
            bot_move_delay=0.0,
            shard_count=SHARDS,
        )
        async with run_bot(emu, settings) as bot:
            assert isinstance(bot, ShardedCardTableBot)
            assert sorted(bot.shards) == [0, 1]
            assert {g.id: g.shard_id for g in bot.guilds} == {g.id: i for i, g in enumerate(guilds)}
            channel = guilds[1].add_channel("cards")
            host = emu.add_user("host")
            guilds[1].add_member(host)
            lobby = await open_table(host, channel, "euchre new", timeout=10)
            assert not lobby.ephemeral and lobby.button("Join")
        identified = sorted((s.shard_id, s.shard_count) for s in emu.gateway.identified)
        assert identified == [(0, 2), (1, 2)]
        emu.assert_clean()


async def test_a_click_after_another_process_wrote_is_answered_with_the_table_as_it_is(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    """Issue 14: another process (an old instance of this shard) appends a move to a table the
    bot holds; the next click in the bot carries the version the bot knew, the store refuses it
    (StaleVersion), and instead of failing the bot reloads the table and answers with the hand
    as it is now ("The table moved on"); the game then goes on from the stored state."""
    rng = random.Random(5)
    async with run_bot(emulator, bot_settings) as bot:
        driver = TableDriver(emulator, bot, world.table, world.players)
        lobby = await driver.open(world.alice, "euchre new", target=5)
        await driver.sit(lobby, world.players[1:], 0, world.alice)
        await driver.start(lobby, world.alice)
        for _ in range(3):
            await driver.step(rng)
        table = driver.table
        assert table.game is not None
        seat = table.game.to_act[0]
        person = driver.person_at(seat)
        hand = await driver.hand_of(person, rng)
        # The other process: its own connection to the database, the next move of that seat.
        other = await Database.open(bot_settings.database_path)
        try:
            record = await SqliteTableStore(other).get_table(table.id)
            assert record is not None
            elsewhere = (
                rules_for(record.game)
                .replay(record.options, record.seed or 0, record.first_dealer, record.actions)
                .legal_actions(seat)[0]
            )
            await SqliteTableStore(other).append_action(
                table.id, seat, elsewhere, record.version + 1
            )
        finally:
            await other.close()
        clicked = next(b for b in game_buttons(hand) if not b.disabled)
        assert hand_version(hand) == table.version  # the bot has not heard of the other move
        seen = len(hand.versions)
        await person.click(hand, clicked.custom_id or "")
        await hand.wait_until(lambda m: len(m.versions) > seen)
        assert t("hand.note.stale", person.locale) in hand.text
        assert table.version == record.version + 1
        assert table.record.actions[-1] == (seat, elsewhere)
        assert hand_version(hand) in (None, table.version)  # drawn at the stored state
        await driver.play_to_end(rng)
        assert table.game.is_over
    rows = games_rows(bot_settings.database_path)
    assert list(rows.values()) == [1]
