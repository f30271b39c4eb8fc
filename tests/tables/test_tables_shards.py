"""Shards at the table service and store (issue 14), on real SQLite shared by two connections as
two processes share it: a process restores and owns only the tables of its shards' guilds
(`(guild_id >> 22) % count`); a version conflict (another process wrote the table) reloads the
table from storage and answers the click as a stale one instead of failing; a channel whose
table the store already holds answers "a table is already here"; SHARD_COUNT / SHARD_IDS."""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.settings import Settings, SettingsError
from bot.storage import Database, SqliteTableStore
from bot.tables import errors
from bot.tables.records import ChannelTaken, TableRecord
from bot.tables.service import Table, TableService
from tests.support.service import ANA, BIA, CAU, CLICKS, CUT_WAIT, HOST, Clock, cut_made, user_at

# Guild ids on shard 0 and shard 1 of 2 (bits 22 and up decide).
GUILD_0, GUILD_1 = (10 << 22) | 5, (11 << 22) | 5


@pytest.fixture
async def two_dbs(tmp_path: Path) -> AsyncIterator[tuple[Database, Database]]:
    """Two connections to one database file: what two bot processes hold."""
    first = await Database.open(tmp_path / "shared.sqlite3")
    second = await Database.open(tmp_path / "shared.sqlite3")
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


def service_on(
    db: Database, shards: list[tuple[int, int]] | None = None, **more: Any
) -> TableService:
    seeds = itertools.count(7)
    return TableService(
        SqliteTableStore(db),
        bot_move_delay=more.pop("bot_move_delay", 0),
        clock=Clock(),
        seed_source=lambda: next(seeds),
        shards=shards,
        cut_wait=more.pop("cut_wait", CUT_WAIT),
        **more,
    )


async def full_table(
    service: TableService, guild: int, channel: int, game: str = "euchre"
) -> Table:
    table = await service.create(
        guild_id=guild, channel_id=channel, host_id=HOST, host_name="Host", game=game
    )
    for user, name in ((ANA, "Ana"), (BIA, "Bia"), (CAU, "Cau")):
        await service.join(table.id, user, name)
    service.fair_cuts.seen(table.id, next(CLICKS))  # the Start click: it cuts hand 1
    await service.start(table.id, HOST)
    await cut_made(service, table)
    return table


def human_to_act(table: Table) -> tuple[int, str]:
    assert table.game is not None
    seat = table.game.to_act[0]
    return seat, table.game.legal_actions(seat)[0]


async def test_load_active_with_a_shard_returns_only_that_shards_guilds(
    two_dbs: tuple[Database, Database],
) -> None:
    """Issue 14: load_active(shard=(id, count)) filters by (guild_id >> 22) % count, seats and
    actions included; no shard: every table."""
    service = service_on(two_dbs[0])
    tables = [
        await full_table(service, GUILD_0, 1),
        await full_table(service, GUILD_1, 2),
        await full_table(service, GUILD_0, 3),
    ]
    seat, action = human_to_act(tables[1])
    cut = list(tables[1].record.actions)  # hand 1's cut (fair deals)
    assert [a for _, a in cut] == [a for _, a in cut if a.startswith("cut:")] != []
    await service.act(tables[1].id, user_at(tables[1], seat), action, tables[1].version)
    store = SqliteTableStore(two_dbs[1])
    by_shard = {s: await store.load_active((s, 2)) for s in (0, 1)}
    assert [t.id for t in by_shard[0]] == [tables[0].id, tables[2].id]
    assert [t.id for t in by_shard[1]] == [tables[1].id]
    (second,) = by_shard[1]
    assert second.actions == [*cut, (seat, action)] and all(s is not None for s in second.seats)
    assert len(await store.load_active()) == 3
    assert await store.load_active((0, 1)) == await store.load_active()
    with pytest.raises(ValueError, match="shard"):
        await store.load_active((2, 2))
    await service.close()


async def test_a_shard_restores_and_plays_only_its_guilds_tables(
    two_dbs: tuple[Database, Database],
) -> None:
    """Issue 14: after a restart, the process of shard 1 of 2 restores the shard-1 table only
    (so its bot seats and timers run only there) and says which guilds it owns."""
    first = service_on(two_dbs[0])
    mine = await full_table(first, GUILD_1, 2)
    await full_table(first, GUILD_0, 1)
    for table in first.tables:
        await first.set_message(table.id, 99)
    await first.close()
    shard_1 = service_on(two_dbs[1], shards=[(1, 2)])
    restored = await shard_1.restore()
    assert [t.id for t in restored] == [mine.id] == [t.id for t in shard_1.tables]
    assert shard_1.owns(GUILD_1) and not shard_1.owns(GUILD_0)
    assert service_on(two_dbs[1]).owns(GUILD_0)  # unsharded: every guild
    await shard_1.close()


async def test_a_version_conflict_reloads_the_table_and_answers_as_stale(
    two_dbs: tuple[Database, Database],
) -> None:
    """Issue 14: two processes hold the same table (an old instance not yet gone); one plays,
    the other's click carries the version it knows: the store refuses it (StaleAppend), the
    table is reloaded from storage and the click answered as stale (the player gets the table
    as it is now), and the next click applies."""
    service_a = service_on(two_dbs[0])
    table_a = await full_table(service_a, GUILD_0, 1)
    await service_a.set_message(table_a.id, 99)
    service_b = service_on(two_dbs[1])
    (table_b,) = await service_b.restore()
    heard: list[str] = []
    service_b.add_listener(lambda table, change: heard.append(change))
    seat, action = human_to_act(table_a)
    await service_a.act(table_a.id, user_at(table_a, seat), action, table_a.version)
    assert table_b.version == table_a.version - 1  # B has not heard of it
    seat_b, action_b = human_to_act(table_b)
    with pytest.raises(errors.StaleVersion) as stale:
        await service_b.act(table_b.id, user_at(table_b, seat_b), action_b, table_b.version)
    assert stale.value.table is table_b and stale.value.seat == seat_b
    assert table_b.version == table_a.version
    assert table_b.record.actions == table_a.record.actions
    assert table_b.game is not None and table_b.game.actions == table_a.record.actions
    seat, action = human_to_act(table_b)
    result = await service_b.act(table_b.id, user_at(table_b, seat), action, table_b.version)
    assert result.table.version == table_a.version + 1
    stored = await SqliteTableStore(two_dbs[0]).get_table(table_a.id)
    assert stored is not None and stored.version == table_b.version
    assert "action" in heard  # the UI redraws the reloaded table
    await service_a.close()
    await service_b.close()


async def test_a_conflict_on_a_table_deleted_elsewhere_closes_it_here(
    two_dbs: tuple[Database, Database],
) -> None:
    """Issue 14: the other process closed the table: the click is answered "no such table"."""
    service_a = service_on(two_dbs[0])
    table_a = await full_table(service_a, GUILD_0, 1)
    await service_a.set_message(table_a.id, 99)
    service_b = service_on(two_dbs[1])
    (table_b,) = await service_b.restore()
    await service_a.end(table_a.id, HOST, can_manage=True)
    seat, action = human_to_act(table_b)
    with pytest.raises(errors.NoSuchTable):
        await service_b.act(table_b.id, user_at(table_b, seat), action, table_b.version)
    assert service_b.find(table_b.id) is None and service_b.in_channel(1) is None
    await service_a.close()
    await service_b.close()


async def test_two_processes_racing_one_tables_bot_seats_end_at_the_stored_state(
    two_dbs: tuple[Database, Database], caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 14: two processes both run the bot seats of one table (an old instance not yet
    gone): every move one of them loses is refused by the store, that process reloads the
    table and looks again; nothing is applied twice, no move fails for good, and both end
    at exactly the stored state."""
    caplog.set_level(logging.INFO, "bot.tables.service")
    service_a = service_on(two_dbs[0])
    table = await service_a.create(
        guild_id=GUILD_0, channel_id=1, host_id=HOST, host_name="Host", game="euchre"
    )
    await service_a.set_message(table.id, 99)
    for _ in range(3):
        await service_a.add_bot(table.id, HOST, level="easy")
    await service_a.start(table.id, HOST)
    await service_a.wait_for_bots(table.id)
    assert table.game is not None
    while service_a.bot_seat_to_act(table) is None:
        _seat, action = human_to_act(table)
        await service_a.act(table.id, HOST, action, table.version)
    await service_a.close()  # before its bots move: the bot seats are to act now
    # Both take the table in before either moves (a write takes ~0.1 ms: with no delay, the
    # first one restored could play every bot move before the second has read the table).
    service_b = service_on(two_dbs[0], bot_move_delay=0.05)
    service_c = service_on(two_dbs[1], bot_move_delay=0.05)
    (table_b,), (table_c,) = await asyncio.gather(service_b.restore(), service_c.restore())
    await service_b.wait_for_bots(table.id)
    await service_c.wait_for_bots(table.id)
    stored = await SqliteTableStore(two_dbs[1]).get_table(table.id)
    assert stored is not None and stored.version > table.version
    for mine in (table_b, table_c):
        assert (mine.version, mine.record.actions) == (stored.version, stored.actions)
    assert "bot move failed" not in caplog.text
    assert "changed by another process: reloaded" in caplog.text
    await service_b.close()
    await service_c.close()


class ChannelTakenStore(SqliteTableStore):
    """A store whose unique index of open tables per channel refuses the insert, as the
    storage back-ends do (ChannelTaken)."""

    async def create_table(self, table: TableRecord) -> int:
        for stored in await self.load_active():
            if stored.channel_id == table.channel_id and stored.status != "finished":
                raise ChannelTaken(table.channel_id)
        return await super().create_table(table)


async def test_a_channel_the_store_already_holds_answers_a_table_is_already_here(
    two_dbs: tuple[Database, Database],
) -> None:
    """Issue 14: one open table per channel holds across processes: the store's refusal is
    answered ChannelBusy with the stored table (taken in), not an error."""
    service_a = service_on(two_dbs[0])
    first = await service_a.create(
        guild_id=GUILD_0, channel_id=1, host_id=HOST, host_name="Host", game="truco"
    )
    seeds = itertools.count(7)
    service_b = TableService(
        ChannelTakenStore(two_dbs[1]),
        bot_move_delay=0,
        seed_source=lambda: next(seeds),
    )
    with pytest.raises(errors.ChannelBusy) as busy:
        await service_b.create(
            guild_id=GUILD_0, channel_id=1, host_id=ANA, host_name="Ana", game="euchre"
        )
    assert busy.value.table is not None and busy.value.table.id == first.id
    assert service_b.in_channel(1) is busy.value.table
    other = await service_b.create(
        guild_id=GUILD_0, channel_id=2, host_id=ANA, host_name="Ana", game="euchre"
    )
    assert other.id != first.id
    await service_a.close()
    await service_b.close()


def test_shard_settings_from_the_environment() -> None:
    """Issue 14: SHARD_COUNT and SHARD_IDS; unset: one process, every guild."""
    base = {"DISCORD_TOKEN": "x"}
    none = Path("/nonexistent/.env")
    assert Settings.load(base, none).shards is None
    assert Settings.load({**base, "SHARD_COUNT": "2"}, none).shards == [(0, 2), (1, 2)]
    loaded = Settings.load({**base, "SHARD_COUNT": "4", "SHARD_IDS": "1, 3"}, none)
    assert loaded.shards == [(1, 4), (3, 4)] and loaded.shard_ids == (1, 3)
    assert "shard_count=4" in repr(loaded)
    for bad in (
        {"SHARD_IDS": "0"},
        {"SHARD_COUNT": "0"},
        {"SHARD_COUNT": "2", "SHARD_IDS": "2"},
        {"SHARD_COUNT": "2", "SHARD_IDS": "0,0"},
        {"SHARD_COUNT": "2", "SHARD_IDS": "one"},
        {"SHARD_COUNT": "two"},
    ):
        with pytest.raises(SettingsError):
            Settings.load({**base, **bad}, none)
