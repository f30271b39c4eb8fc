"""The table service's scheduler on real SQLite: bot seats that survive failed writes (issue 13,
item 1), turn timers with their half-time warning and the takeover, a restart that keeps the
deadline, hand-back, leaving mid-game and the ready check (issue 10)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Database, SqliteTableStore
from bot.tables import errors, turn_timers
from bot.tables.games import rules_for
from bot.tables.service import CHANGE_WARNING, Table, TableService
from tests.support.waiting import until

GUILD, CHANNEL = 1000, 2000
HOST, ANA = 11, 12


class ManualClock:
    """Time stands still until a test moves it; moving it wakes the service's scheduler."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0
        self.services: list[TableService] = []

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
        for service in self.services:
            service.time_moved()


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "tables.sqlite3")
    try:
        yield database
    finally:
        await database.close()


def make_service(db: Database, clock: ManualClock, seed: int, **kwargs: float) -> TableService:
    kwargs.setdefault("bot_move_delay", 0.0)
    # The old dealing, kept on purpose: seed_where picks who acts first from the old deal, and
    # these tests look at the instant after Start (no cut phase, no cut action in the log).
    service = TableService(
        SqliteTableStore(db), clock=clock, seed_source=lambda: seed, fair_deals=False, **kwargs
    )
    clock.services.append(service)
    return service


def seed_where(game: str, first_to_act_is_bot: bool) -> int:
    """A seed whose first decision falls to a bot seat (lobby positions 1-3) or to the host."""
    rules = rules_for(game)
    options = rules.normalise_options({})
    for seed in range(1000):
        played = rules.new_game(options, seed)
        host_seat = rules.seat_of_position(played)[0]
        if (host_seat not in played.to_act) == first_to_act_is_bot:
            return seed
    raise AssertionError("no such seed")


async def host_and_bots(
    service: TableService,
    game: str = "euchre",
    settings: dict[str, object] | None = None,
    channel: int = CHANNEL,
) -> Table:
    table = await service.create(
        guild_id=GUILD,
        channel_id=channel,
        host_id=HOST,
        host_name="Host",
        game=game,
        settings=settings,
    )
    for _ in range(3):
        await service.add_bot(table.id, HOST)
    await service.start(table.id, HOST)
    return table


async def set_read_only(db: Database, on: bool) -> None:
    """A real SQLite refusal of every write on the bot's writing connections (`PRAGMA
    query_only`): BEGIN IMMEDIATE fails with "attempt to write a readonly database", as on a
    full or read-only disk."""
    pragma = f"PRAGMA query_only = {'ON' if on else 'OFF'}"
    if db._loop_conn is not None:
        db._loop_conn.execute(pragma)
    async with db._exclusive() as conn:
        await conn.execute(pragma)


async def test_bot_seats_retry_a_failed_write_with_backoff_and_carry_on(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 13, item 1: one failed write used to stop the table's bot task for good."""
    clock = ManualClock()
    service = make_service(
        db,
        clock,
        seed_where("euchre", first_to_act_is_bot=True),
        bot_move_delay=0.05,
        retry_delay=0.01,
        max_retry_delay=0.04,
    )
    try:
        table = await host_and_bots(service, settings={"turn_timer": 0})
        start = table.version
        await set_read_only(db, True)  # before the first bot move (50 ms away)
        with caplog.at_level(logging.WARNING, logger="bot.tables.service"):
            await until(lambda: "bot move failed" in caplog.text)
            async with table.lock:  # between two attempts: nothing half-applied
                assert table.version == start and table.record.actions == []
            await set_read_only(db, False)  # the disk is back: the bots carry on by themselves
            await until(lambda: bool(table.humans_to_act()))
        assert "retrying" in caplog.text
        async with table.lock:  # the last bot move's write is done
            assert table.version > start
            stored = await service.store.get_table(table.id)  # type: ignore[attr-defined]
        assert stored.actions == table.record.actions and stored.version == table.version
    finally:
        await service.close()


async def test_the_timer_warns_at_half_time_then_a_bot_plays_for_the_human(db: Database) -> None:
    clock = ManualClock()
    service = make_service(db, clock, seed_where("euchre", first_to_act_is_bot=False))
    heard: list[str] = []
    service.add_listener(lambda _table, change: heard.append(change))
    try:
        table = await host_and_bots(service, settings={"turn_timer": 60})
        seat = table.seat_of(HOST)
        assert table.humans_to_act() == [seat]
        assert table.record.turn_deadline == clock.now + 60
        version = table.version
        clock.advance(29)
        await asyncio.sleep(0.05)
        assert CHANGE_WARNING not in heard
        clock.advance(1)
        await until(lambda: table.record.turn_warned)
        assert heard[-1] == CHANGE_WARNING and table.version == version  # not a game action
        clock.advance(30)
        await until(lambda: table.version > version)
        assert table.record.actions[0][0] == seat  # a bot played the human's seat
        player = table.seats[table.position_of(HOST) or 0]
        assert player is not None and player.covered and player.missed == 1 and not player.away
        async with table.lock:  # the move's write is done when its lock is free
            stored = await service.store.get_table(table.id)  # type: ignore[attr-defined]
        assert stored.seats == table.seats and stored.actions == table.record.actions
    finally:
        await service.close()


async def test_a_change_asks_only_its_own_table_when_its_timer_is_due(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 31: the scheduler keeps every table's next due time; a change asks it again of the
    table that changed, not of every table (at 200 busy tables that was ~7% of the bot's CPU),
    and the other tables' timers still run on time."""
    clock = ManualClock()
    service = make_service(db, clock, seed_where("euchre", first_to_act_is_bot=False))
    asked: list[int] = []
    real_timer_due = turn_timers.timer_due

    def timer_due(table: Table) -> float | None:
        asked.append(table.id)
        return real_timer_due(table)

    monkeypatch.setattr(turn_timers, "timer_due", timer_due)
    try:
        first = await host_and_bots(service, settings={"turn_timer": 60})
        second = await host_and_bots(service, settings={"turn_timer": 60}, channel=CHANNEL + 1)
        await until(lambda: second.id in asked)
        await asyncio.sleep(0.05)  # the scheduler settles: nothing is due for a minute
        asked.clear()
        seat = first.seat_of(HOST)
        assert seat is not None and first.humans_to_act() == [seat]
        await service.act(first.id, HOST, first.game.legal_actions(seat)[0], first.version)
        await until(lambda: bool(asked))
        await asyncio.sleep(0.05)
        assert set(asked) == {first.id}
        # The second table's warning and deadline pass, unseen until the next change of any
        # table (the clock moved without telling the service): that look asks the changed
        # table only, and finds the second one due from its kept time.
        version, asked[:] = second.version, []
        asked_when_due: list[list[int]] = []
        service.add_listener(
            lambda table, change: asked_when_due.append(list(asked)) if table is second else None
        )
        clock.now += 60
        service.changed(first, CHANGE_WARNING)
        await until(lambda: second.version > version)
        # Asked once before it moved: by the timer's own check under the table's lock, not
        # by the look that found it due (asking every table, it was asked twice).
        assert asked_when_due[0][0] == first.id and asked_when_due[0].count(second.id) == 1
        assert second.record.actions[-1][0] == second.seat_of(HOST)  # a bot played for the host
    finally:
        await service.close()


async def test_three_missed_turns_leave_the_seat_to_the_bot_until_the_player_is_back(
    db: Database,
) -> None:
    clock = ManualClock()
    service = make_service(db, clock, seed_where("truco", first_to_act_is_bot=False))
    try:
        table = await host_and_bots(service, "truco", settings={"turn_timer": 30})
        position = table.position_of(HOST)
        assert position is not None
        for missed in (1, 2, 3):
            await until(lambda: bool(table.humans_to_act()))
            before = table.version
            clock.advance(30)
            await until(lambda before=before: table.version > before)  # type: ignore[misc]
            seat = table.seats[position]
            assert seat is not None and seat.missed == missed
        assert seat.away and table.record.turn_deadline is None
        # Away: the bots play the host's turns without waiting.
        await until(
            lambda: (
                (table.game is not None and table.game.is_over)
                or len([a for a in table.record.actions if a[0] == table.seat_of(HOST)]) > 4
            )
        )
        # Back with one click: no more bot for the seat; the next turn waits for them again.
        if table.status == "playing":
            await service.back(table.id, HOST)
            seat = table.seats[position]
            assert seat is not None and not seat.covered
            with pytest.raises(errors.NotAway):
                await service.back(table.id, HOST)
    finally:
        await service.close()


async def test_a_restart_keeps_the_deadline(db: Database) -> None:
    clock = ManualClock()
    seed = seed_where("euchre", first_to_act_is_bot=False)
    first = make_service(db, clock, seed)
    table = await host_and_bots(first, settings={"turn_timer": 120})
    await first.set_message(table.id, 555)  # shown in a channel (or restore would drop it)
    deadline = table.record.turn_deadline
    version = table.version
    await first.close()
    clock.advance(50)  # the bot is down for 50 s of the 120
    second = make_service(db, clock, seed)
    try:
        (restored,) = await second.restore()
        assert restored.record.turn_deadline == deadline and restored.version == version
        clock.advance(10)  # 60 s: half time, the warning
        await until(lambda: restored.record.turn_warned)
        clock.advance(59)
        await asyncio.sleep(0.05)
        assert restored.version == version  # a second early: nothing yet
        clock.advance(1)
        await until(lambda: restored.version > version)
    finally:
        await second.close()


async def test_leaving_mid_game_hands_the_seat_to_a_bot(db: Database) -> None:
    clock = ManualClock()
    service = make_service(db, clock, seed_where("truco", first_to_act_is_bot=True))
    try:
        table = await service.create(
            guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, host_name="Host", game="truco"
        )
        await service.join(table.id, ANA, "Ana")
        for _ in range(2):
            await service.add_bot(table.id, HOST)
        await service.start(table.id, HOST)
        position = table.position_of(ANA)
        await service.leave(table.id, ANA)
        seat = table.seats[position or 0]
        assert seat is not None and seat.is_bot and seat.left_user_id == ANA
        assert table.position_of(ANA) is None and table.status == "playing"
        stored = await service.store.get_table(table.id)  # type: ignore[attr-defined]
        assert stored.seats == table.seats
        # The host gives the seat Ana left back to her: she joins again mid-game.
        with pytest.raises(errors.NotHost):
            await service.seat_player(table.id, ANA, ANA, "Ana")
        assert await service.seat_player(table.id, HOST, ANA, "Ana") == position
        with pytest.raises(errors.AlreadySeated):
            await service.seat_player(table.id, HOST, ANA, "Ana")
        await service.leave(table.id, ANA)
        # The last human leaving closes the table (nobody would see it end).
        await service.leave(table.id, HOST)
        assert table.closed
    finally:
        await service.close()
