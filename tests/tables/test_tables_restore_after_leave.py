"""Issue 33, defect 1: a finished table that someone left comes back at a restart.

After a game the seats of those who leave are empty (bot/tables/lobby.py); the stored result was
written when the game ended. A restart used to rebuild the table's result from the seats as they
are now and refused the empty one, so the table was left in the store and lost ("This table no
longer exists" to Play again, Start now, /table show and /table end)."""

from __future__ import annotations

import random

import pytest

from bot.storage.backend import Storage
from bot.tables.service import Table, TableService
from tests.support.service import (
    ANA,
    BIA,
    CAU,
    GUILD,
    HOST,
    full_table,
    make_service,
    play_random,
)


async def finished_then_left(service: TableService, game: str, leavers: tuple[int, ...]) -> Table:
    table = await full_table(service, game)
    await play_random(service, table, random.Random(33))
    assert table.status == "finished"
    for user in leavers:
        await service.leave(table.id, user)
    await service.set_message(table.id, 4242)
    return table


async def restarted(db: Storage, first: TableService) -> tuple[TableService, Table]:
    await first.close()
    second = make_service(db)
    (again,) = await second.restore()
    return second, again


@pytest.mark.parametrize("game", ["euchre", "truco"])
async def test_a_finished_table_someone_left_is_restored_as_it_was(db: Storage, game: str) -> None:
    first = make_service(db)
    table = await finished_then_left(first, game, (ANA, CAU))
    second, again = await restarted(db, first)
    try:
        assert again.id == table.id and again.status == "finished"
        assert again.seats == table.seats and again.seats[1] is None and again.seats[3] is None
        assert again.game == table.game and again.version == table.version
        assert again.result is not None and table.result is not None
        assert again.result.margin == table.result.margin  # what the result message shows
        assert second.in_channel(table.channel_id) is again  # /table show finds it
        # Play again: the seated humans are ready; Start now fills the empty seats with bots.
        await second.play_again(again.id, BIA)
        await second.start_now(again.id, HOST)
        assert again.status == "playing" and again.is_full
        assert [s is not None and s.is_bot for s in again.seats] == [False, True, False, True]
    finally:
        await second.close()


async def test_a_restored_finished_table_someone_left_can_be_ended(db: Storage) -> None:
    first = make_service(db)
    table = await finished_then_left(first, "euchre", (HOST,))
    second, again = await restarted(db, first)
    try:
        await second.end(again.id, ANA, can_manage=True)  # /table end
        assert second.in_channel(table.channel_id) is None
        assert await db.tables.get_table(table.id) is None
        # The game was counted once, when it ended.
        assert len(await db.results.history(GUILD)) == 1
    finally:
        await second.close()


async def test_every_human_gone_from_a_finished_table_still_restores(db: Storage) -> None:
    first = make_service(db)
    table = await finished_then_left(first, "truco", (ANA, BIA, CAU))
    second, again = await restarted(db, first)
    try:
        assert again.humans() == [HOST] and again.seats == table.seats
        await second.play_again(again.id, HOST)  # not full: waits for Start now
        assert again.status == "finished" and again.record.ready == [HOST]
        await second.start_now(again.id, HOST)
        assert again.status == "playing"
    finally:
        await second.close()


class Threads:
    """The tournament's Discord side, on paper: numbered threads, nothing posted."""

    async def open_thread(self, record: object, round_number: int, table: int) -> int:
        self.next_thread += 1
        return self.next_thread

    def __init__(self, tables: TableService) -> None:
        self.next_thread = 9000
        self.tables = tables

    async def show_table(
        self, record: object, state: object, rnd: int, number: int, table: Table
    ) -> None:
        await self.tables.set_message(table.id, table.channel_id + 1)  # the table message

    async def post_standings(self, record: object, state: object, rnd: int) -> None:
        return None


async def test_tournament_leave_after_ones_table_finished_keeps_that_table(db: Storage) -> None:
    """Eight people, two tables: table 0 finishes while table 1 still plays; one of table 0's
    players leaves the tournament (bot/tables/tournament_service.py leaves their table too).
    That finished table used to be lost at every start-up."""
    from bot.storage.tournaments import TournamentRepository
    from bot.tables.tournament_service import TournamentService

    first = make_service(db)
    night = TournamentService(TournamentRepository(db.db), first, first.now)
    night.host = Threads(first)
    record, _ = await night.create(GUILD, 3000, 101, rounds=2, hands=1)
    for user in range(101, 109):
        await night.join(record.id, user, f"P{user}")
    await night.start(record.id, 101)
    _, state = night.get(record.id)
    done = first.get(state.opened[(0, 0)])
    await play_random(first, done, random.Random(5))
    assert done.status == "finished"
    leaver = next(u for u in done.humans())
    await night.leave(record.id, leaver)
    assert done.position_of(leaver) is None  # the seat is empty now
    await night.close()
    second, restored = make_service(db), None
    try:
        tables = {t.id: t for t in await second.restore()}
        restored = tables.get(done.id)
        assert restored is not None and restored.status == "finished"
        assert restored.seats == done.seats and restored.game == done.game
        assert set(tables) == set(state.opened.values())  # both of round 1's tables
    finally:
        await first.close()
        await second.close()
