"""`SqliteTableStore`: the table service's `TableStore`, on SQLite. Every method is one transaction.

The version is the guard against double application: `append_action` writes only when the
version it carries is exactly the stored one + 1, checked after BEGIN IMMEDIATE has taken the
write lock, so neither a double click nor a second process can apply the same step twice.
"""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING

import aiosqlite

from bot.storage.database import Database, execute, execute_many, fetch_all, fetch_one
from bot.storage.errors import StaleVersion, TableNotFound, TableNotPlaying
from bot.storage.recording import record_game
from bot.tables.records import GameResult, SeatRecord, TableRecord, TableStore

_TABLE_COLUMNS = (
    "id, guild_id, channel_id, message_id, host_id, game, options, status, seed, first_dealer,"
    " version, created_at, started_at, settings, turn_deadline, turn_warned, ping_message_id, ready"
)


class SqliteTableStore:
    """Tables in play: lobby, seats, the running game's action log, version and message id."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def create_table(self, table: TableRecord) -> int:
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "INSERT INTO tables (guild_id, channel_id, message_id, host_id, game, options,"
                " status, seed, first_dealer, version, created_at, started_at, settings)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    table.guild_id,
                    table.channel_id,
                    table.message_id,
                    table.host_id,
                    table.game,
                    json.dumps(table.options),
                    table.status,
                    _encode_seed(table.seed),
                    table.first_dealer,
                    table.version,
                    table.created_at,
                    table.started_at,
                    json.dumps(table.settings),
                ),
            )
            table_id = cursor.lastrowid
            assert table_id is not None
            await _write_seats(conn, table_id, table.seats)
            await _write_actions(conn, table_id, table.actions)
        return table_id

    async def save_lobby(self, table: TableRecord) -> None:
        async with self._db.transaction() as conn:
            changed = await execute(
                conn,
                "UPDATE tables SET host_id = ?, options = ?, settings = ?, status = ?, version = ?,"
                " turn_deadline = ?, turn_warned = ?, ready = ? WHERE id = ?",
                (
                    table.host_id,
                    json.dumps(table.options),
                    json.dumps(table.settings),
                    table.status,
                    table.version,
                    table.turn_deadline,
                    int(table.turn_warned),
                    json.dumps(table.ready),
                    table.id,
                ),
            )
            if not changed:
                raise TableNotFound(table.id)
            await _write_seats(conn, table.id, table.seats)

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        async with self._db.transaction() as conn:
            changed = await execute(
                conn, "UPDATE tables SET message_id = ? WHERE id = ?", (message_id, table_id)
            )
            if not changed:
                raise TableNotFound(table_id)

    async def set_turn(self, table_id: int, deadline: float | None, warned: bool) -> None:
        async with self._db.transaction() as conn:
            changed = await execute(
                conn,
                "UPDATE tables SET turn_deadline = ?, turn_warned = ? WHERE id = ?",
                (deadline, int(warned), table_id),
            )
            if not changed:
                raise TableNotFound(table_id)

    async def set_ping(self, table_id: int, message_id: int | None) -> None:
        async with self._db.transaction() as conn:
            changed = await execute(
                conn, "UPDATE tables SET ping_message_id = ? WHERE id = ?", (message_id, table_id)
            )
            if not changed:
                raise TableNotFound(table_id)

    async def start_game(self, table: TableRecord) -> None:
        """Also stores the options (harmless, and the game must replay with exactly these)."""
        async with self._db.transaction() as conn:
            changed = await execute(
                conn,
                "UPDATE tables SET options = ?, seed = ?, first_dealer = ?, status = ?,"
                " version = ?, started_at = ?, turn_deadline = ?, turn_warned = 0, ready = ?"
                " WHERE id = ?",
                (
                    json.dumps(table.options),
                    _encode_seed(table.seed),
                    table.first_dealer,
                    table.status,
                    table.version,
                    table.started_at,
                    table.turn_deadline,
                    json.dumps(table.ready),
                    table.id,
                ),
            )
            if not changed:
                raise TableNotFound(table.id)
            await _write_seats(conn, table.id, table.seats)
            await execute(conn, "DELETE FROM table_actions WHERE table_id = ?", (table.id,))

    async def append_action(
        self,
        table_id: int,
        seat: int,
        action: str,
        version: int,
        result: GameResult | None = None,
        *,
        deadline: float | None = None,
        seats: list[SeatRecord | None] | None = None,
    ) -> None:
        """Raises StaleVersion (nothing written) unless `version` is the stored version + 1,
        TableNotFound, or TableNotPlaying when the table is in its lobby or finished."""
        if result is not None and result.table_id != table_id:
            raise ValueError(f"result of table {result.table_id} appended to table {table_id}")
        async with self._db.transaction() as conn:
            row = await fetch_one(
                conn,
                "SELECT version, status,"
                " (SELECT coalesce(max(seq) + 1, 0) FROM table_actions WHERE table_id = ?)"
                " FROM tables WHERE id = ?",
                (table_id, table_id),
            )
            if row is None:
                raise TableNotFound(table_id)
            stored, status, next_seq = row
            if version != stored + 1:
                raise StaleVersion(table_id, stored, version)
            if status != "playing":
                raise TableNotPlaying(table_id, status)
            await execute(
                conn,
                "INSERT INTO table_actions (table_id, seq, seat, action) VALUES (?, ?, ?, ?)",
                (table_id, next_seq, seat, action),
            )
            await execute(
                conn,
                "UPDATE tables SET version = ?, status = ?, turn_deadline = ?, turn_warned = 0"
                " WHERE id = ?",
                (version, "finished" if result is not None else "playing", deadline, table_id),
            )
            if seats is not None:
                await _write_seats(conn, table_id, seats)
            if result is not None:
                await record_game(conn, result)

    async def delete_table(self, table_id: int) -> None:
        """Forget the table, its seats and its action log (its recorded games stay). Deleting
        a table that is already gone is not an error: closing twice closes once."""
        async with self._db.transaction() as conn:
            await execute(conn, "DELETE FROM tables WHERE id = ?", (table_id,))

    async def load_active(self, shard: tuple[int, int] | None = None) -> list[TableRecord]:
        """Every stored table (lobby, playing, or finished and still showing), by id; with
        `shard=(shard_id, shard_count)` only those of the shard's guilds (Discord's rule:
        `(guild_id >> 22) % shard_count == shard_id`)."""
        where, of_shard = "", ""
        params: tuple[int, ...] = ()
        if shard is not None:
            shard_id, shard_count = shard
            if not 0 <= shard_id < shard_count:
                raise ValueError(f"shard {shard_id} is not in 0..{shard_count - 1}")
            where = " WHERE (guild_id >> 22) % ? = ?"
            of_shard = f" WHERE table_id IN (SELECT id FROM tables{where})"
            params = (shard_count, shard_id)
        async with self._db.read() as conn:
            tables = await fetch_all(
                conn, f"SELECT {_TABLE_COLUMNS} FROM tables{where} ORDER BY id", params
            )
            seats = await fetch_all(
                conn, f"SELECT * FROM table_seats{of_shard} ORDER BY table_id, position", params
            )
            actions = await fetch_all(
                conn,
                f"SELECT table_id, seat, action FROM table_actions{of_shard}"
                " ORDER BY table_id, seq",
                params,
            )
        records = {row["id"]: _decode_table(row) for row in tables}
        for seat in seats:
            records[seat["table_id"]].seats[seat["position"]] = _decode_seat(seat)
        for action in actions:
            records[action["table_id"]].actions.append((action["seat"], action["action"]))
        return list(records.values())

    async def get_table(self, table_id: int) -> TableRecord | None:
        """One table as `load_active` would return it, or None (not part of TableStore)."""
        async with self._db.read() as conn:
            row = await fetch_one(
                conn, f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
            )
            if row is None:
                return None
            seats = await fetch_all(
                conn, "SELECT * FROM table_seats WHERE table_id = ? ORDER BY position", (table_id,)
            )
            actions = await fetch_all(
                conn,
                "SELECT seat, action FROM table_actions WHERE table_id = ? ORDER BY seq",
                (table_id,),
            )
        record = _decode_table(row)
        for seat in seats:
            record.seats[seat["position"]] = _decode_seat(seat)
        record.actions.extend((a["seat"], a["action"]) for a in actions)
        return record


async def _write_seats(
    conn: aiosqlite.Connection, table_id: int, seats: list[SeatRecord | None]
) -> None:
    if len(seats) > 4:
        raise ValueError(f"a table has 4 positions, not {len(seats)}")
    await execute(conn, "DELETE FROM table_seats WHERE table_id = ?", (table_id,))
    await execute_many(
        conn,
        "INSERT INTO table_seats (table_id, position, user_id, is_bot, name, level, missed, away,"
        " left_user_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
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
        ],
    )


async def _write_actions(
    conn: aiosqlite.Connection, table_id: int, actions: list[tuple[int, str]]
) -> None:
    await execute_many(
        conn,
        "INSERT INTO table_actions (table_id, seq, seat, action) VALUES (?, ?, ?, ?)",
        [(table_id, seq, seat, action) for seq, (seat, action) in enumerate(actions)],
    )


def _encode_seed(seed: int | None) -> str | None:
    # TEXT: the engine's seeds are unsigned 64-bit and overflow SQLite's signed INTEGER.
    return None if seed is None else str(int(seed))


def _decode_table(row: sqlite3.Row) -> TableRecord:
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
    )


def _decode_seat(row: sqlite3.Row) -> SeatRecord:
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
