"""The PostgreSQL back-end: an asyncpg pool, its migrations, the table store and the readers the
results repository uses. Chosen by `DATABASE_URL=postgresql://...` (see `bot.storage.backend`).

The SQL is the SQLite back-end's own (bot/storage/table_store.py, recording.py, results.py),
written once with `?` placeholders in a dialect both read; `pg_sql` turns the placeholders into
$1, $2 ... (cached). The schema is migrations/postgres/NNN_*.sql, numbered like the SQLite
migrations, the same tables, columns, keys and indexes with PostgreSQL's types.

- Migrations: each in its own transaction, under an advisory lock, so two processes starting at
  once apply each migration once.
- Writes: one transaction per store method (READ COMMITTED). `append_action` locks the table's
  row (SELECT ... FOR UPDATE) before the version check, so of two processes appending the same
  version, the second waits, then sees the new version and gets StaleAppend.
- Reads: REPEATABLE READ, READ ONLY transactions: every query of one read sees one snapshot.
- The unique partial index of migration 004 (one open table per channel) raises ChannelTaken.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import time
from collections.abc import AsyncIterator, Collection, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncpg

from bot.storage.database import (
    MIGRATIONS_DIR,
    Migration,
    Reader,
    completed_even_if_cancelled,
    load_migrations,
)
from bot.storage.errors import SchemaTooNew, TableNotFound
from bot.storage.ratings import Skill
from bot.storage.recording import (
    COUNT_MATCHES,
    INSERT_GAME,
    SELECT_COUNT_MATCHES,
    UPSERT_SEASON,
    already_recorded,
    game_row,
    rows_after,
    season_query,
    season_rows,
    season_skills_query,
    skills_query,
)
from bot.storage.table_store import (
    APPEND_CHECK,
    DELETE_ACTIONS,
    DELETE_SEATS,
    DELETE_TABLE,
    INSERT_ACTION,
    INSERT_SEAT,
    INSERT_TABLE,
    ONE_OPEN_TABLE_INDEX,
    TABLE_COLUMNS,
    UPDATE_AFTER_APPEND,
    UPDATE_ALONE,
    UPDATE_LOBBY,
    UPDATE_MESSAGE,
    UPDATE_PING,
    UPDATE_START,
    UPDATE_TURN,
    action_rows,
    after_append_row,
    assemble,
    check_alone_update,
    check_append,
    check_result,
    encode_intents,
    lobby_row,
    seat_rows,
    shard_params,
    start_row,
    table_row,
)
from bot.tables.records import ChannelTaken, GameResult, SeatRecord, TableRecord, TableStore

log = logging.getLogger(__name__)

PG_MIGRATIONS_DIR = MIGRATIONS_DIR / "postgres"
# Any fixed number: the advisory lock that serializes migrations between processes.
_MIGRATION_LOCK = 0x63617264  # "card"
_PLACEHOLDER = re.compile(r"\?")


@functools.lru_cache(maxsize=512)
def pg_sql(sql: str) -> str:
    """`?` placeholders to PostgreSQL's $1, $2 ... (the project's SQL has no `?` elsewhere)."""
    counter = iter(range(1, 10_000))
    return _PLACEHOLDER.sub(lambda _: f"${next(counter)}", sql)


def is_postgres_url(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


class PgReader:
    """A `Reader` on one pooled connection inside a read-only snapshot transaction."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(await self._conn.fetch(pg_sql(sql), *params))

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Any | None:
        return await self._conn.fetchrow(pg_sql(sql), *params)


class PgDatabase:
    """The bot's PostgreSQL database. `await PgDatabase.open(dsn)` (runs the migrations),
    `await db.close()`."""

    def __init__(self, pool: asyncpg.Pool, dsn: str) -> None:
        self._pool = pool
        self.dsn = dsn

    @classmethod
    async def open(
        cls,
        dsn: str,
        *,
        migrate: bool = True,
        min_size: int = 1,
        max_size: int = 10,
        migrations_dir: Path = PG_MIGRATIONS_DIR,
    ) -> PgDatabase:
        pool = await asyncpg.create_pool(
            dsn, min_size=min_size, max_size=max_size, command_timeout=60
        )
        assert pool is not None
        db = cls(pool, dsn)
        try:
            if migrate:
                await db.migrate(load_migrations(migrations_dir))
        except BaseException:
            await pool.close()
            raise
        return db

    @property
    def pool(self) -> asyncpg.Pool:
        return self._pool

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self._pool.close(), timeout=10)
        except TimeoutError:
            self._pool.terminate()

    async def __aenter__(self) -> PgDatabase:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[asyncpg.Connection]:
        """A write transaction (READ COMMITTED): committed if the block ends normally, rolled
        back if it raises."""
        async with self._pool.acquire() as conn, conn.transaction():
            yield conn

    @asynccontextmanager
    async def read(self) -> AsyncIterator[asyncpg.Connection]:
        """A read-only transaction on one snapshot (REPEATABLE READ)."""
        async with (
            self._pool.acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield conn

    @asynccontextmanager
    async def reader(self) -> AsyncIterator[Reader]:
        async with self.read() as conn:
            yield PgReader(conn)

    # --- schema ----------------------------------------------------------------------------------

    async def schema_version(self) -> int:
        async with self.read() as conn:
            return await _schema_version(conn)

    async def migrate(self, migrations: list[Migration] | None = None) -> list[int]:
        """Apply the migrations this database lacks, each in its own transaction, under an
        advisory lock (safe from several processes at once); returns the numbers applied."""
        migrations = load_migrations(PG_MIGRATIONS_DIR) if migrations is None else migrations
        latest = migrations[-1].version if migrations else 0
        applied: list[int] = []
        async with self._pool.acquire() as conn:
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version ("
                    " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                    " applied_at DOUBLE PRECISION NOT NULL)"
                )
            for migration in migrations:
                async with conn.transaction():
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
                    current = await _schema_version(conn)
                    if current > latest:
                        raise SchemaTooNew(
                            f"the database has schema version {current}; this code knows up"
                            f" to {latest}. Run the newer bot, or restore a backup."
                        )
                    if current >= migration.version:
                        continue
                    # No parameters: the simple query protocol runs the whole file.
                    await conn.execute(migration.path.read_text(encoding="utf-8"))
                    await conn.execute(
                        "INSERT INTO schema_version (version, name, applied_at)"
                        " VALUES ($1, $2, $3)",
                        migration.version,
                        migration.name,
                        time.time(),
                    )
                log.info("applied migration %03d_%s (postgres)", migration.version, migration.name)
                applied.append(migration.version)
        return applied


async def _schema_version(conn: asyncpg.Connection) -> int:
    value = await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_version")
    return int(value)


# --- recording a finished game -------------------------------------------------------------------


async def record_game_pg(conn: asyncpg.Connection, result: GameResult) -> int | None:
    """`bot.storage.recording.record_game_sync` on PostgreSQL, inside the caller's transaction."""
    row = await conn.fetchrow(pg_sql(INSERT_GAME), *game_row(result))
    if row is None:
        already_recorded(result)
        return None
    game_id = int(row[0])
    before: dict[int, Skill] = {}
    query = skills_query(result)
    if query is not None:
        rows = await conn.fetch(pg_sql(query[0]), *query[1])
        before = {r[0]: Skill(r[1], r[2]) for r in rows}
    setting = await conn.fetchval(pg_sql(SELECT_COUNT_MATCHES), result.guild_id, COUNT_MATCHES)
    for statement, params in rows_after(result, game_id, before, setting):
        if params:
            await conn.executemany(pg_sql(statement), params)
    sql, args = season_query(result)
    season_id = await conn.fetchval(pg_sql(sql), *args)
    if season_id is not None:
        season_before: dict[int, Skill] = {}
        query = season_skills_query(result, int(season_id))
        if query is not None:
            found = await conn.fetch(pg_sql(query[0]), *query[1])
            season_before = {r[0]: Skill(r[1], r[2]) for r in found}
        season_params = season_rows(result, int(season_id), season_before, setting)
        if season_params:
            await conn.executemany(pg_sql(UPSERT_SEASON), season_params)
    return game_id


# --- the table store -----------------------------------------------------------------------------


async def _write_seats(
    conn: asyncpg.Connection, table_id: int, seats: Sequence[SeatRecord | None]
) -> None:
    rows = seat_rows(table_id, seats)
    await conn.execute(pg_sql(DELETE_SEATS), table_id)
    if rows:
        await conn.executemany(pg_sql(INSERT_SEAT), rows)


async def _changed(status: str, table_id: int) -> None:
    # asyncpg returns the command tag: "UPDATE 1".
    if status.rsplit(" ", 1)[-1] == "0":
        raise TableNotFound(table_id)


def _channel_taken(error: asyncpg.UniqueViolationError) -> bool:
    return getattr(error, "constraint_name", None) == ONE_OPEN_TABLE_INDEX


class PgTableStore:
    """`TableStore` on PostgreSQL: the same statements and guarantees as `SqliteTableStore`."""

    def __init__(self, db: PgDatabase) -> None:
        self._db = db

    async def create_table(self, table: TableRecord) -> int:
        """Raises ChannelTaken when the channel already has an open (lobby or playing) table."""
        async with self._db.transaction() as conn:
            try:
                table_id = int(await conn.fetchval(pg_sql(INSERT_TABLE), *table_row(table)))
            except asyncpg.UniqueViolationError as error:
                if _channel_taken(error):
                    raise ChannelTaken(table.channel_id) from None
                raise
            await _write_seats(conn, table_id, table.seats)
            actions = action_rows(table_id, table.actions)
            if actions:
                await conn.executemany(pg_sql(INSERT_ACTION), actions)
        return table_id

    async def save_lobby(self, table: TableRecord) -> None:
        async with self._db.transaction() as conn:
            await _changed(await conn.execute(pg_sql(UPDATE_LOBBY), *lobby_row(table)), table.id)
            await _write_seats(conn, table.id, table.seats)

    async def _update(self, sql: str, params: tuple[Any, ...], table_id: int) -> None:
        async with self._db.transaction() as conn:
            await _changed(await conn.execute(pg_sql(sql), *params), table_id)

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        await self._update(UPDATE_MESSAGE, (message_id, table_id), table_id)

    async def set_turn(self, table_id: int, deadline: float | None, warned: bool) -> None:
        await self._update(UPDATE_TURN, (deadline, int(warned), table_id), table_id)

    async def set_ping(self, table_id: int, message_id: int | None) -> None:
        await self._update(UPDATE_PING, (message_id, table_id), table_id)

    async def set_alone_intents(
        self, table_id: int, version: int, intents: Collection[tuple[int, int]]
    ) -> None:
        async with self._db.transaction() as conn:
            status = await conn.execute(
                pg_sql(UPDATE_ALONE), encode_intents(intents), table_id, version
            )
            # asyncpg returns the command tag: "UPDATE 1".
            check_alone_update(table_id, version, int(status.rsplit(" ", 1)[-1]))

    async def start_game(self, table: TableRecord) -> None:
        async with self._db.transaction() as conn:
            try:
                status = await conn.execute(pg_sql(UPDATE_START), *start_row(table))
            except asyncpg.UniqueViolationError as error:
                if _channel_taken(error):
                    raise ChannelTaken(table.channel_id) from None
                raise
            await _changed(status, table.id)
            await _write_seats(conn, table.id, table.seats)
            await conn.execute(pg_sql(DELETE_ACTIONS), table.id)

    async def append_action(
        self,
        table_id: int,
        seat: int,
        action: str,
        version: int,
        result: GameResult | None = None,
        *,
        deadline: float | None = None,
        since: float | None = None,
        seats: list[SeatRecord | None] | None = None,
        alone_intents: Collection[tuple[int, int]] | None = None,
    ) -> None:
        """Raises StaleAppend (nothing written) unless `version` is the stored version + 1,
        TableNotFound, or TableNotPlaying when the table is in its lobby or finished. A
        cancelled caller does not abandon the transaction halfway: it completes."""
        check_result(table_id, result)
        await completed_even_if_cancelled(
            self._append(
                table_id, seat, action, version, result, deadline, since, seats, alone_intents
            )
        )

    async def _append(
        self,
        table_id: int,
        seat: int,
        action: str,
        version: int,
        result: GameResult | None,
        deadline: float | None,
        since: float | None,
        seats: list[SeatRecord | None] | None,
        alone_intents: Collection[tuple[int, int]] | None,
    ) -> None:
        after = after_append_row(table_id, version, result, deadline, since, alone_intents)
        async with self._db.transaction() as conn:
            row = await conn.fetchrow(pg_sql(APPEND_CHECK + " FOR UPDATE"), table_id, table_id)
            next_seq = check_append(table_id, row, version)
            await conn.execute(pg_sql(INSERT_ACTION), table_id, next_seq, seat, action)
            await conn.execute(pg_sql(UPDATE_AFTER_APPEND), *after)
            if seats is not None:
                await _write_seats(conn, table_id, seats)
            if result is not None:
                await record_game_pg(conn, result)

    async def delete_table(self, table_id: int) -> None:
        async with self._db.transaction() as conn:
            await conn.execute(pg_sql(DELETE_TABLE), table_id)

    async def load_active(self, shard: tuple[int, int] | None = None) -> list[TableRecord]:
        """Every stored table (lobby, playing, or finished and still showing), by id; with
        `shard` = (shard_id, shard_count) only those of guilds routed to that shard."""
        where, params = shard_params(shard)
        inner = f"SELECT id FROM tables{where}"
        async with self._db.read() as conn:
            tables = await conn.fetch(
                pg_sql(f"SELECT {TABLE_COLUMNS} FROM tables{where} ORDER BY id"), *params
            )
            seats = await conn.fetch(
                pg_sql(
                    f"SELECT * FROM table_seats WHERE table_id IN ({inner})"
                    " ORDER BY table_id, position"
                ),
                *params,
            )
            actions = await conn.fetch(
                pg_sql(
                    f"SELECT table_id, seat, action FROM table_actions WHERE table_id IN ({inner})"
                    " ORDER BY table_id, seq"
                ),
                *params,
            )
        return assemble(tables, seats, actions, [row["id"] for row in tables])

    async def get_table(self, table_id: int) -> TableRecord | None:
        """One table as `load_active` would return it, or None (not part of TableStore)."""
        async with self._db.read() as conn:
            row = await conn.fetchrow(
                pg_sql(f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?"), table_id
            )
            if row is None:
                return None
            seats = await conn.fetch(
                pg_sql("SELECT * FROM table_seats WHERE table_id = ? ORDER BY position"), table_id
            )
            actions = await conn.fetch(
                pg_sql(
                    "SELECT table_id, seat, action FROM table_actions WHERE table_id = ?"
                    " ORDER BY seq"
                ),
                table_id,
            )
        return assemble([row], seats, actions, [table_id])[0]


if TYPE_CHECKING:
    # mypy proves the store implements the service's protocol, signature by signature.
    _conforms: type[TableStore] = PgTableStore
