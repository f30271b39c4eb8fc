"""`SqliteTableStore`: the table service's `TableStore`, on SQLite. Every method is one transaction,
and every write is ONE trip to the writer's thread (`Database.run_write`): the statements of a
method run together as one plain-sqlite3 function there, instead of one await per statement.

The version is the guard against double application: `append_action` writes only when the
version it carries is exactly the stored one + 1, checked after BEGIN IMMEDIATE has taken the
write lock, so neither a double click nor a second process can apply the same step twice.

The SQL is written once, with `?` placeholders, in a dialect PostgreSQL reads too:
`bot.storage.postgres.PgTableStore` runs the same statements through asyncpg.

Group commit (on by default): appends that queue up while the writer is busy go to the database
together, in one transaction and one trip, each under its own SAVEPOINT, so one append's
StaleAppend (or any error) undoes only that append, and each caller gets its own outcome. An
append alone goes at once (a batch of one). Measured in scripts/bench_storage.py: with 50
tables appending at once, 5.2x the old five-trip path for one trip per append, 33x with group
commit (the machine shared, best of 3 rounds); adopted for that.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

from bot.storage.database import (
    Database,
    WriteUnit,
    completed_even_if_cancelled,
    fetch_all,
    fetch_one,
)
from bot.storage.recording import record_game_sync
from bot.tables.records import (
    ChannelTaken,
    GameResult,
    SeatRecord,
    StaleAppend,
    StoreConflict,
    TableNotFound,
    TableNotPlaying,
    TableRecord,
    TableStore,
)

TABLE_COLUMNS = (
    "id, guild_id, channel_id, message_id, host_id, game, options, status, seed, first_dealer,"
    " version, created_at, started_at, settings, turn_deadline, turn_warned, ping_message_id,"
    " ready, turn_since, alone_intents"
)
_TABLE_COLUMNS = TABLE_COLUMNS
# The unique index of migration 004: one open (lobby or playing) table per channel.
ONE_OPEN_TABLE_INDEX = "tables_one_open_per_channel"

INSERT_TABLE = (
    "INSERT INTO tables (guild_id, channel_id, message_id, host_id, game, options,"
    " status, seed, first_dealer, version, created_at, started_at, settings)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"
)
UPDATE_LOBBY = (
    "UPDATE tables SET host_id = ?, options = ?, settings = ?, status = ?, version = ?,"
    " turn_deadline = ?, turn_warned = ?, ready = ?, turn_since = ? WHERE id = ?"
)
UPDATE_MESSAGE = "UPDATE tables SET message_id = ? WHERE id = ?"
UPDATE_TURN = "UPDATE tables SET turn_deadline = ?, turn_warned = ? WHERE id = ?"
UPDATE_PING = "UPDATE tables SET ping_message_id = ? WHERE id = ?"
UPDATE_START = (
    "UPDATE tables SET options = ?, seed = ?, first_dealer = ?, status = ?,"
    " version = ?, started_at = ?, turn_deadline = ?, turn_warned = 0, ready = ?,"
    " turn_since = ?, alone_intents = ? WHERE id = ?"
)
# A private switch: no new version, but only onto the table as the caller holds it.
UPDATE_ALONE = "UPDATE tables SET alone_intents = ? WHERE id = ? AND version = ?"
DELETE_ACTIONS = "DELETE FROM table_actions WHERE table_id = ?"
DELETE_SEATS = "DELETE FROM table_seats WHERE table_id = ?"
INSERT_SEAT = (
    "INSERT INTO table_seats (table_id, position, user_id, is_bot, name, level, missed, away,"
    " left_user_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
INSERT_ACTION = "INSERT INTO table_actions (table_id, seq, seat, action) VALUES (?, ?, ?, ?)"
APPEND_CHECK = (
    "SELECT version, status,"
    " (SELECT coalesce(max(seq) + 1, 0) FROM table_actions WHERE table_id = ?)"
    " FROM tables WHERE id = ?"
)
# The going-alone intents: NULL keeps them (most actions do not change them).
UPDATE_AFTER_APPEND = (
    "UPDATE tables SET version = ?, status = ?, turn_deadline = ?, turn_warned = 0,"
    " turn_since = ?, alone_intents = coalesce(?, alone_intents) WHERE id = ?"
)
DELETE_TABLE = "DELETE FROM tables WHERE id = ?"
# The shard filter of load_active: discord's routing of a guild to a shard.
SHARD_FILTER = " WHERE (guild_id / 4194304) % ? = ?"


def table_row(table: TableRecord) -> tuple[Any, ...]:
    return (
        table.guild_id,
        table.channel_id,
        table.message_id,
        table.host_id,
        table.game,
        json.dumps(table.options),
        table.status,
        encode_seed(table.seed),
        table.first_dealer,
        table.version,
        table.created_at,
        table.started_at,
        json.dumps(table.settings),
    )


def lobby_row(table: TableRecord) -> tuple[Any, ...]:
    return (
        table.host_id,
        json.dumps(table.options),
        json.dumps(table.settings),
        table.status,
        table.version,
        table.turn_deadline,
        int(table.turn_warned),
        json.dumps(table.ready),
        table.turn_since,
        table.id,
    )


def start_row(table: TableRecord) -> tuple[Any, ...]:
    return (
        json.dumps(table.options),
        encode_seed(table.seed),
        table.first_dealer,
        table.status,
        table.version,
        table.started_at,
        table.turn_deadline,
        json.dumps(table.ready),
        table.turn_since,
        encode_intents(table.alone_intents),
        table.id,
    )


def after_append_row(
    table_id: int,
    version: int,
    result: GameResult | None,
    deadline: float | None,
    since: float | None,
    alone_intents: Collection[tuple[int, int]] | None,
) -> tuple[Any, ...]:
    """The parameters of UPDATE_AFTER_APPEND (both back-ends)."""
    status = "finished" if result is not None else "playing"
    intents = None if alone_intents is None else encode_intents(alone_intents)
    return (version, status, deadline, since, intents, table_id)


def check_alone_update(table_id: int, version: int, changed: int) -> None:
    """UPDATE_ALONE changed no row: the table is gone or not at the caller's version."""
    if changed == 0:
        raise StoreConflict(f"table {table_id} is not stored at version {version}")


def seat_rows(table_id: int, seats: Sequence[SeatRecord | None]) -> list[tuple[Any, ...]]:
    if len(seats) > 4:
        raise ValueError(f"a table has 4 positions, not {len(seats)}")
    return [
        (
            table_id,
            position,
            seat.user_id,
            int(seat.is_bot),
            seat.name,
            seat.level,
            seat.missed,
            int(seat.away),
            seat.left_user_id,
        )
        for position, seat in enumerate(seats)
        if seat is not None
    ]


def action_rows(table_id: int, actions: list[tuple[int, str]]) -> list[tuple[Any, ...]]:
    return [(table_id, seq, seat, action) for seq, (seat, action) in enumerate(actions)]


def check_append(table_id: int, row: Sequence[Any] | None, version: int) -> int:
    """The version guard: returns the next action's seq, or raises (nothing written)."""
    if row is None:
        raise TableNotFound(table_id)
    stored, status, next_seq = row[0], row[1], row[2]
    if version != stored + 1:
        raise StaleAppend(table_id, stored, version)
    if status != "playing":
        raise TableNotPlaying(table_id, status)
    return int(next_seq)


def check_result(table_id: int, result: GameResult | None) -> None:
    if result is not None and result.table_id != table_id:
        raise ValueError(f"result of table {result.table_id} appended to table {table_id}")


def shard_params(shard: tuple[int, int] | None) -> tuple[str, tuple[int, ...]]:
    """(WHERE clause, parameters) keeping the tables of guilds routed to `shard` =
    (shard_id, shard_count): `(guild_id >> 22) % shard_count == shard_id`."""
    if shard is None:
        return "", ()
    shard_id, count = shard
    if count < 1 or not 0 <= shard_id < count:
        raise ValueError(f"bad shard {shard!r}: need 0 <= shard_id < shard_count")
    return SHARD_FILTER, (count, shard_id)


# --- the units of work (plain sqlite3, run in the writer's thread) ------------------------------


def _write_seats(
    conn: sqlite3.Connection, table_id: int, seats: Sequence[SeatRecord | None]
) -> None:
    rows = seat_rows(table_id, seats)
    conn.execute(DELETE_SEATS, (table_id,))
    conn.executemany(INSERT_SEAT, rows)


def _changed(cursor: sqlite3.Cursor, table_id: int) -> None:
    if cursor.rowcount == 0:
        raise TableNotFound(table_id)


def _create(conn: sqlite3.Connection, table: TableRecord) -> int:
    try:
        (row,) = conn.execute(INSERT_TABLE, table_row(table)).fetchall()
    except sqlite3.IntegrityError as error:
        if ONE_OPEN_TABLE_INDEX in str(error) or "tables.channel_id" in str(error):
            raise ChannelTaken(table.channel_id) from None
        raise
    table_id = int(row[0])
    _write_seats(conn, table_id, table.seats)
    conn.executemany(INSERT_ACTION, action_rows(table_id, table.actions))
    return table_id


def _save_lobby(conn: sqlite3.Connection, table: TableRecord) -> None:
    _changed(conn.execute(UPDATE_LOBBY, lobby_row(table)), table.id)
    _write_seats(conn, table.id, table.seats)


def _start(conn: sqlite3.Connection, table: TableRecord) -> None:
    try:
        cursor = conn.execute(UPDATE_START, start_row(table))
    except sqlite3.IntegrityError as error:
        if "tables.channel_id" in str(error):
            raise ChannelTaken(table.channel_id) from None
        raise
    _changed(cursor, table.id)
    _write_seats(conn, table.id, table.seats)
    conn.execute(DELETE_ACTIONS, (table.id,))


def _update(sql: str, params: tuple[Any, ...], table_id: int) -> WriteUnit:
    return lambda conn: _changed(conn.execute(sql, params), table_id)


def _append_unit(
    table_id: int,
    seat: int,
    action: str,
    version: int,
    result: GameResult | None,
    deadline: float | None,
    since: float | None,
    seats: list[SeatRecord | None] | None,
    alone_intents: Collection[tuple[int, int]] | None,
) -> WriteUnit:
    after = after_append_row(table_id, version, result, deadline, since, alone_intents)

    def unit(conn: sqlite3.Connection) -> None:
        row = conn.execute(APPEND_CHECK, (table_id, table_id)).fetchone()
        next_seq = check_append(table_id, row, version)
        conn.execute(INSERT_ACTION, (table_id, next_seq, seat, action))
        conn.execute(UPDATE_AFTER_APPEND, after)
        if seats is not None:
            _write_seats(conn, table_id, seats)
        if result is not None:
            record_game_sync(conn, result)

    return unit


class SqliteTableStore:
    """Tables in play: lobby, seats, the running game's action log, version and message id."""

    def __init__(self, db: Database, *, group_commit: bool = True) -> None:
        self._db = db
        self._group_commit = group_commit
        self._pending: list[tuple[WriteUnit, asyncio.Future[Any]]] = []
        self._flusher: asyncio.Task[None] | None = None

    async def create_table(self, table: TableRecord) -> int:
        """Raises ChannelTaken when the channel already has an open (lobby or playing) table."""
        return await self._db.run_write(lambda conn: _create(conn, table))

    async def save_lobby(self, table: TableRecord) -> None:
        await self._db.run_write(lambda conn: _save_lobby(conn, table))

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        await self._db.run_write(_update(UPDATE_MESSAGE, (message_id, table_id), table_id))

    async def set_turn(self, table_id: int, deadline: float | None, warned: bool) -> None:
        await self._db.run_write(_update(UPDATE_TURN, (deadline, int(warned), table_id), table_id))

    async def set_ping(self, table_id: int, message_id: int | None) -> None:
        await self._db.run_write(_update(UPDATE_PING, (message_id, table_id), table_id))

    async def set_alone_intents(
        self, table_id: int, version: int, intents: Collection[tuple[int, int]]
    ) -> None:
        params = (encode_intents(intents), table_id, version)

        def unit(conn: sqlite3.Connection) -> None:
            check_alone_update(table_id, version, conn.execute(UPDATE_ALONE, params).rowcount)

        await self._db.run_write(unit)

    async def start_game(self, table: TableRecord) -> None:
        """Also stores the options (harmless, and the game must replay with exactly these)."""
        await self._db.run_write(lambda conn: _start(conn, table))

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
        TableNotFound, or TableNotPlaying when the table is in its lobby or finished.

        At once on the event loop's connection when the database is free this instant
        (bot.storage.database): no turn of the event loop to wait for (but the fairness pause
        after many writes in one turn), nothing to cancel. Else
        grouped with the appends queued meanwhile (or alone on the writer's thread), a write
        that a cancelled caller does not abandon halfway: it completes."""
        check_result(table_id, result)
        unit = _append_unit(
            table_id, seat, action, version, result, deadline, since, seats, alone_intents
        )
        done, _ = self._db.write_at_once(unit)
        if done:
            # A caller appending in a loop must still let the loop turn (checkpoints, others).
            await self._db.let_others_run()
            return
        if self._group_commit and not self._db.writes_at_once:
            await completed_even_if_cancelled(self._grouped(unit))
        else:
            await completed_even_if_cancelled(self._db.run_write(unit))

    async def _grouped(self, unit: WriteUnit) -> Any:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending.append((unit, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        return await future

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                outcomes = await self._db.run_batch([unit for unit, _ in batch])
            except BaseException as error:
                outcomes = [(False, error)] * len(batch)
                if not isinstance(error, Exception):
                    # The flusher itself is cancelled (shutdown): nobody may wait forever.
                    for _, future in batch + self._pending:
                        future.cancel()
                    self._pending = []
                    raise
            for (_, future), (ok, value) in zip(batch, outcomes, strict=True):
                if future.done():
                    continue  # its caller was cancelled; the unit ran (or not) all the same
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)

    async def delete_table(self, table_id: int) -> None:
        """Forget the table, its seats and its action log (its recorded games stay). Deleting
        a table that is already gone is not an error: closing twice closes once."""
        await self._db.run_write(lambda conn: conn.execute(DELETE_TABLE, (table_id,)))

    async def load_active(self, shard: tuple[int, int] | None = None) -> list[TableRecord]:
        """Every stored table (lobby, playing, or finished and still showing), by id; with
        `shard` = (shard_id, shard_count) only those of guilds routed to that shard."""
        where, params = shard_params(shard)
        async with self._db.read() as conn:
            tables = await fetch_all(
                conn, f"SELECT {TABLE_COLUMNS} FROM tables{where} ORDER BY id", params
            )
            ids = tuple(row["id"] for row in tables)
            inner = f"SELECT id FROM tables{where}"
            seats = await fetch_all(
                conn,
                f"SELECT * FROM table_seats WHERE table_id IN ({inner})"
                " ORDER BY table_id, position",
                params,
            )
            actions = await fetch_all(
                conn,
                f"SELECT table_id, seat, action FROM table_actions WHERE table_id IN ({inner})"
                " ORDER BY table_id, seq",
                params,
            )
        return assemble(tables, seats, actions, ids)

    async def get_table(self, table_id: int) -> TableRecord | None:
        """One table as `load_active` would return it, or None (not part of TableStore)."""
        async with self._db.read() as conn:
            row = await fetch_one(
                conn, f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
            )
            if row is None:
                return None
            seats = await fetch_all(
                conn, "SELECT * FROM table_seats WHERE table_id = ? ORDER BY position", (table_id,)
            )
            actions = await fetch_all(
                conn,
                "SELECT table_id, seat, action FROM table_actions WHERE table_id = ? ORDER BY seq",
                (table_id,),
            )
        return assemble([row], seats, actions, (table_id,))[0]


def assemble(
    tables: Sequence[Any], seats: Sequence[Any], actions: Sequence[Any], ids: Sequence[int]
) -> list[TableRecord]:
    """TableRecords from the rows of tables, table_seats and table_actions (either back-end's
    rows: both can be read by column name)."""
    records = {row["id"]: decode_table(row) for row in tables}
    for seat in seats:
        record = records.get(seat["table_id"])
        if record is not None:
            record.seats[seat["position"]] = decode_seat(seat)
    for action in actions:
        record = records.get(action["table_id"])
        if record is not None:
            record.actions.append((action["seat"], action["action"]))
    return list(records.values())


def encode_seed(seed: int | None) -> str | None:
    # TEXT: the engine's seeds are unsigned 64-bit and overflow SQLite's signed INTEGER.
    return None if seed is None else str(int(seed))


def encode_intents(intents: Collection[tuple[int, int]]) -> str:
    """The going-alone intents as stored: a JSON list of [hand number, game seat], sorted."""
    return json.dumps(sorted([int(hand), int(seat)] for hand, seat in intents))


def decode_intents(text: str) -> set[tuple[int, int]]:
    return {(int(hand), int(seat)) for hand, seat in json.loads(text)}


def decode_table(row: Any) -> TableRecord:
    return TableRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        host_id=row["host_id"],
        game=row["game"],
        options=json.loads(row["options"]),
        status=row["status"],
        version=row["version"],
        seats=[None, None, None, None],
        message_id=row["message_id"],
        seed=None if row["seed"] is None else int(row["seed"]),
        first_dealer=row["first_dealer"],
        actions=[],
        created_at=row["created_at"],
        started_at=row["started_at"],
        settings=json.loads(row["settings"]),
        turn_deadline=row["turn_deadline"],
        turn_warned=bool(row["turn_warned"]),
        ping_message_id=row["ping_message_id"],
        ready=json.loads(row["ready"]),
        turn_since=row["turn_since"],
        alone_intents=decode_intents(row["alone_intents"]),
    )


def decode_seat(row: Any) -> SeatRecord:
    return SeatRecord(
        user_id=row["user_id"],
        name=row["name"],
        is_bot=bool(row["is_bot"]),
        level=row["level"],
        missed=row["missed"],
        away=bool(row["away"]),
        left_user_id=row["left_user_id"],
    )


if TYPE_CHECKING:
    # mypy proves the store implements the service's protocol, signature by signature.
    _conforms: type[TableStore] = SqliteTableStore
