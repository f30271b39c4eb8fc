"""Issue 14: storage behind one interface, two back-ends chosen by DATABASE_URL.

Both back-ends (the `storage` fixture: a real SQLite file, a real PostgreSQL server) enforce one
open table per channel with the unique index of migration 004 and filter tables by shard; the
PostgreSQL migrations are numbered like SQLite's and build the same tables. No mocks."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.settings import DEFAULT_DATABASE, DatabaseTarget, Settings, SettingsError
from bot.storage.backend import Storage, open_storage
from bot.storage.database import MIGRATIONS_DIR, load_migrations
from bot.storage.postgres import PG_MIGRATIONS_DIR, PgDatabase, pg_sql
from bot.tables import errors
from bot.tables.records import ChannelTaken
from bot.tables.service import TableService
from tests.support.postgres import database_numbers
from tests.support.storage import fetch_rows, reopen
from tests.support.stored_games import act, lobby, start

SHARD_COUNT = 4
# The schema version a migrated database reaches: the newest numbered migration.
LATEST = load_migrations(PG_MIGRATIONS_DIR)[-1].version


def guild_of_shard(shard: int, n: int) -> int:
    """A Discord-like guild id routed to `shard` of SHARD_COUNT: (id >> 22) % count == shard."""
    return ((1000 + n * SHARD_COUNT + shard) << 22) | 12345


# --- DATABASE_URL ------------------------------------------------------------------------------


def test_database_url_chooses_the_back_end() -> None:
    """Issue 14: nothing set = today's SQLite file; sqlite:///path; postgresql://..."""
    assert Settings.load(env={}, env_file=Path("/nonexistent")).database == DatabaseTarget(
        "sqlite", path=DEFAULT_DATABASE
    )
    custom = Settings.load(env={"DATABASE_PATH": "/tmp/x.db"}, env_file=Path("/nonexistent"))
    assert custom.database == DatabaseTarget("sqlite", path=Path("/tmp/x.db"))
    relative = Settings.load(
        env={"DATABASE_URL": "sqlite:///data/other.sqlite3"}, env_file=Path("/nonexistent")
    )
    assert relative.database == DatabaseTarget("sqlite", path=Path("data/other.sqlite3"))
    absolute = Settings.load(
        env={"DATABASE_URL": "sqlite:////var/lib/bot.db"}, env_file=Path("/nonexistent")
    )
    assert absolute.database == DatabaseTarget("sqlite", path=Path("/var/lib/bot.db"))
    pg = Settings.load(
        env={"DATABASE_URL": "postgresql://bot:secret@db:5432/cards"},
        env_file=Path("/nonexistent"),
    )
    assert pg.database == DatabaseTarget("postgresql", dsn="postgresql://bot:secret@db:5432/cards")
    assert "secret" not in pg.database.describe() and "secret" not in repr(pg)
    with pytest.raises(SettingsError, match="DATABASE_URL"):
        Settings.load(env={"DATABASE_URL": "mysql://x"}, env_file=Path("/nonexistent"))


def test_both_back_ends_have_the_same_migration_numbers() -> None:
    sqlite = [(m.version, m.name) for m in load_migrations(MIGRATIONS_DIR)]
    postgres = [(m.version, m.name) for m in load_migrations(PG_MIGRATIONS_DIR)]
    assert sqlite == postgres
    assert sqlite[-1] == (12, "alone_intents")


def test_placeholders_become_numbered() -> None:
    assert pg_sql("SELECT a FROM t WHERE b = ? AND c IN (?, ?)") == (
        "SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)"
    )


# --- one open table per channel ----------------------------------------------------------------


async def test_one_open_table_per_channel_is_enforced_by_the_database(storage: Storage) -> None:
    """Issue 14: a second open table in a channel is refused by the unique index, even from
    another connection (another process) that the first one's memory knows nothing of; a
    finished table leaves room, and play-again cannot reopen it while another is open."""
    store = storage.tables
    first = lobby(channel=77)
    first.id = await store.create_table(first)
    other = await reopen(storage)
    try:
        with pytest.raises(ChannelTaken):
            await other.tables.create_table(lobby(channel=77, host=200))
        assert await other.tables.create_table(lobby(channel=78, host=200)) > first.id
    finally:
        await other.close()
    # Started, still open.
    await start(store, first, started_at=10.0)
    with pytest.raises(ChannelTaken):
        await store.create_table(lobby(channel=77, host=300))
    rows = await fetch_rows(storage, "SELECT count(*) FROM tables WHERE channel_id = 77")
    assert rows == [(1,)]


async def test_the_service_answers_channel_busy_for_a_table_of_another_process(
    storage: Storage,
) -> None:
    """Issue 14: two bot processes on one database; the second does not hold the first's table
    in memory, yet /new in that channel is refused as "already a table here"."""
    other = await reopen(storage)
    first = TableService(storage.tables, bot_move_delay=0)
    second = TableService(other.tables, bot_move_delay=0)
    try:
        table = await first.create(
            guild_id=1, channel_id=5, host_id=1, host_name="A", game="euchre"
        )
        with pytest.raises(errors.ChannelBusy) as refused:
            await second.create(guild_id=1, channel_id=5, host_id=2, host_name="B", game="truco")
        # The second process takes the stored table in: the answer links to it.
        taken = second.in_channel(5)
        assert taken is not None and taken.id == table.id and taken.record.game == "euchre"
        assert refused.value.table is taken
    finally:
        await first.close()
        await second.close()
        await other.close()


async def test_an_old_database_with_two_open_tables_in_a_channel_still_migrates(
    tmp_path: Path,
) -> None:
    """Migration 004 on a database that already broke the rule: the older table is marked
    finished, the newest stays open, the index is built."""
    from bot.storage.database import Database

    path = tmp_path / "old.db"
    db = await Database.open(path, migrations_dir=_first_three(tmp_path))
    async with db.transaction() as conn:
        for _ in range(2):
            await conn.execute(
                "INSERT INTO tables (guild_id, channel_id, host_id, game, options, status,"
                " version, created_at) VALUES (1, 9, 3, 'euchre', '{}', 'lobby', 1, 0)"
            )
    await db.close()
    db = await Database.open(path)
    try:
        async with db.reader() as reader:
            rows = await reader.all("SELECT id, status FROM tables ORDER BY id")
        assert [tuple(r) for r in rows] == [(1, "finished"), (2, "lobby")]
    finally:
        await db.close()


def _first_three(tmp_path: Path) -> Path:
    folder = tmp_path / "migrations"
    folder.mkdir()
    for migration in load_migrations(MIGRATIONS_DIR)[:3]:
        (folder / migration.path.name).write_text(migration.path.read_text())
    return folder


# --- shards ---------------------------------------------------------------------------------------


async def test_load_active_filters_by_shard(storage: Storage) -> None:
    """Issue 14: a shard restores only the tables of its guilds, (guild_id >> 22) % count."""
    store = storage.tables
    made: dict[int, list[int]] = {shard: [] for shard in range(SHARD_COUNT)}
    channel = 100
    for shard in range(SHARD_COUNT):
        for n in range(2):
            channel += 1
            table = lobby(guild=guild_of_shard(shard, n), channel=channel, seats=(1, 2, 3, 4))
            await start(store, table, started_at=float(channel))
            await act(store, table, 0, f"a{channel}")
            made[shard].append(table.id)
    everything = await store.load_active()
    assert sorted(t.id for t in everything) == sorted(i for ids in made.values() for i in ids)
    for shard in range(SHARD_COUNT):
        mine = await store.load_active(shard=(shard, SHARD_COUNT))
        assert [t.id for t in mine] == made[shard]
        assert all((t.guild_id >> 22) % SHARD_COUNT == shard for t in mine)
        assert all(len(t.actions) == 1 and t.seats[0] is not None for t in mine)
    with pytest.raises(ValueError, match="shard"):
        await store.load_active(shard=(4, 4))


# --- PostgreSQL migrations ---------------------------------------------------------------------


async def test_postgres_migrations_apply_once_from_two_processes_at_once(
    pg_server: object,
) -> None:
    """Two bot processes starting together on a new database: each migration applied once
    (advisory lock), both see the latest version, the tables are SQLite's tables."""
    dsn = await new_empty_pg_database(pg_server)
    first, second = await asyncio.gather(
        PgDatabase.open(dsn, max_size=2), PgDatabase.open(dsn, max_size=2)
    )
    try:
        assert await first.schema_version() == await second.schema_version() == LATEST
        async with first.reader() as reader:
            versions = await reader.all("SELECT version FROM schema_version ORDER BY version")
            names = await reader.all(
                "SELECT table_name FROM information_schema.tables"
                " WHERE table_schema = 'public' ORDER BY table_name"
            )
        assert [r[0] for r in versions] == list(range(1, LATEST + 1))
        assert {r[0] for r in names} == {
            "schema_version", "tables", "table_seats", "table_actions", "games",
            "game_players", "player_stats", "ratings", "player_periods", "recaps",
            "house_rules", "server_settings", "seasons", "season_ratings", "tournaments",
            "tournament_actions",
        }  # fmt: skip
        assert await first.migrate() == []
    finally:
        await first.close()
        await second.close()


async def new_empty_pg_database(server: object) -> str:
    import asyncpg

    name = f"empty_{next(database_numbers)}"
    conn = await asyncpg.connect(server.dsn("postgres"))  # type: ignore[attr-defined]
    try:
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    return server.dsn(name)  # type: ignore[attr-defined,no-any-return]


async def test_open_storage_opens_what_the_url_names(tmp_path: Path, pg_scratch: str) -> None:
    sqlite = await open_storage(DatabaseTarget("sqlite", path=tmp_path / "a.db"))
    postgres = await open_storage(DatabaseTarget("postgresql", dsn=pg_scratch))
    try:
        assert (tmp_path / "a.db").exists()
        assert isinstance(postgres.db, PgDatabase)
        for opened in (sqlite, postgres):
            table_id = await opened.tables.create_table(lobby(channel=4242))
            assert [t.id for t in await opened.tables.load_active()][-1] == table_id
    finally:
        await sqlite.close()
        await postgres.close()
