"""Seasons on either back-end (migration 009): start, end, the keeper's claim, season boards
and a player's seasons. The SQL is written once in the dialect both back-ends read; writes go
through `_Tx`, one transaction on SQLite (aiosqlite) or PostgreSQL (asyncpg)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, Any

from bot.storage.database import Database
from bot.storage.ratings import display_from_ordinal
from bot.tables.seasons import Season, SeasonEntry, SeasonError, final_standings, season_end

if TYPE_CHECKING:
    from bot.storage.postgres import PgDatabase

COLUMNS = (
    "id, guild_id, game, number, channel_id, length, min_games, min_rating, started_at, ends_at,"
    " status, closed_at, announced_at, announcing_at"
)
SEASON_FIELDS = len(COLUMNS.split(","))
ENTRY_COLUMNS = "user_id, name, ordinal, games, wins, final_rank, champion"
ORDER = " ORDER BY ordinal DESC, games DESC, user_id"


def _season(row: Sequence[Any]) -> Season:
    return Season(
        id=int(row[0]), guild_id=int(row[1]), game=str(row[2]), number=int(row[3]),
        channel_id=int(row[4]), length=str(row[5]), min_games=int(row[6]),
        min_rating=int(row[7]), started_at=float(row[8]),
        ends_at=None if row[9] is None else float(row[9]), status=str(row[10]),
        closed_at=None if row[11] is None else float(row[11]),
        announced_at=None if row[12] is None else float(row[12]),
        announcing_at=None if row[13] is None else float(row[13]),
    )  # fmt: skip


def _entry(row: Sequence[Any]) -> SeasonEntry:
    return SeasonEntry(
        user_id=int(row[0]), name=str(row[1]), ordinal=float(row[2]),
        rating=display_from_ordinal(float(row[2])), games=int(row[3]), wins=int(row[4]),
        final_rank=None if row[5] is None else int(row[5]), champion=bool(row[6]),
    )  # fmt: skip


class _Tx:
    """One write transaction, the same calls on both back-ends."""

    def __init__(self, conn: Any, postgres: bool) -> None:
        self._conn = conn
        self._pg = postgres

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        if self._pg:
            from bot.storage.postgres import pg_sql

            return list(await self._conn.fetch(pg_sql(sql), *params))
        cursor = await self._conn.execute(sql, tuple(params))
        return list(await cursor.fetchall())

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a write; the number of rows it changed."""
        if self._pg:
            from bot.storage.postgres import pg_sql

            status = await self._conn.execute(pg_sql(sql), *params)
            return int(str(status).rsplit(" ", 1)[-1])
        cursor = await self._conn.execute(sql, tuple(params))
        return int(cursor.rowcount)


class SeasonRepository:
    def __init__(self, db: Database | PgDatabase) -> None:
        self._db = db

    @contextlib.asynccontextmanager
    async def _tx(self) -> AsyncIterator[_Tx]:
        async with self._db.transaction() as conn:
            yield _Tx(conn, not isinstance(self._db, Database))

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._db.reader() as reader:
            return list(await reader.all(sql, params))

    # --- admin ------------------------------------------------------------------------------

    async def start(
        self,
        guild_id: int,
        game: str,
        channel_id: int,
        length: str,
        min_games: int,
        min_rating: int,
        now: float,
    ) -> Season:
        """A new season of `game` in the server from `now`; SeasonError when one is open."""
        ends_at = season_end(now, length)
        if min_games < 1:
            raise SeasonError("season.error.min_games")
        async with self._tx() as tx:
            if await tx.all(
                "SELECT id FROM seasons WHERE guild_id = ? AND game = ? AND status = 'open'",
                (guild_id, game),
            ):
                raise SeasonError("season.error.already_open")
            last = await tx.all(
                "SELECT max(number) FROM seasons WHERE guild_id = ? AND game = ?", (guild_id, game)
            )
            number = int(last[0][0] or 0) + 1
            rows = await tx.all(
                "INSERT INTO seasons (guild_id, game, number, channel_id, length, min_games,"
                " min_rating, started_at, ends_at, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?,"
                f" 'open') RETURNING {COLUMNS}",
                (guild_id, game, number, channel_id, length, min_games, min_rating, now, ends_at),
            )
        return _season(rows[0])

    async def end(self, guild_id: int, game: str, now: float) -> Season:
        """An admin ends the open season now: its window closes at `now` and it is closed with
        its final ranks in the same transaction (the keeper's next tick posts it). SeasonError
        when none is open."""
        async with self._tx() as tx:
            rows = await tx.all(
                "UPDATE seasons SET ends_at = ? WHERE guild_id = ? AND game = ?"
                " AND status = 'open' RETURNING id",
                (now, guild_id, game),
            )
            if not rows:
                raise SeasonError("season.error.none_open")
            closed = await _close_in(tx, int(rows[0][0]), now)
        assert closed is not None
        return closed[0]

    # --- reading ------------------------------------------------------------------------------

    async def current(self, guild_id: int, game: str) -> Season | None:
        rows = await self._read(
            f"SELECT {COLUMNS} FROM seasons WHERE guild_id = ? AND game = ? AND status = 'open'",
            (guild_id, game),
        )
        return _season(rows[0]) if rows else None

    async def numbered(self, guild_id: int, game: str, number: int) -> Season | None:
        rows = await self._read(
            f"SELECT {COLUMNS} FROM seasons WHERE guild_id = ? AND game = ? AND number = ?",
            (guild_id, game, number),
        )
        return _season(rows[0]) if rows else None

    async def entries(self, season_id: int) -> list[SeasonEntry]:
        rows = await self._read(
            f"SELECT {ENTRY_COLUMNS} FROM season_ratings WHERE season_id = ?" + ORDER,
            (season_id,),
        )
        return [_entry(r) for r in rows]

    async def player_seasons(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> list[tuple[Season, SeasonEntry]]:
        """The player's seasons in the server (closed ones with their final rank), newest first."""
        cols = ", ".join(f"s.{c.strip()}" for c in COLUMNS.split(","))
        entry = ", ".join(f"r.{c.strip()}" for c in ENTRY_COLUMNS.split(","))
        game_filter = "" if game is None else " AND s.game = ?"
        rows = await self._read(
            f"SELECT {cols}, {entry} FROM season_ratings r JOIN seasons s ON s.id = r.season_id"
            " WHERE s.guild_id = ? AND r.user_id = ?"
            + game_filter
            + " ORDER BY s.game, s.number DESC",
            (guild_id, user_id) if game is None else (guild_id, user_id, game),
        )
        return [(_season(r[:SEASON_FIELDS]), _entry(r[SEASON_FIELDS:])) for r in rows]

    # --- the keeper's store (bot.tables.seasons.SeasonStore) ----------------------------------

    async def due(self, now: float) -> list[Season]:
        rows = await self._read(
            f"SELECT {COLUMNS} FROM seasons WHERE status = 'open' AND ends_at IS NOT NULL"
            " AND ends_at <= ? ORDER BY ends_at, id",
            (now,),
        )
        return [_season(r) for r in rows]

    async def close(self, season_id: int, now: float) -> list[SeasonEntry] | None:
        async with self._tx() as tx:
            closed = await _close_in(tx, season_id, now)
        return None if closed is None else closed[1]

    async def unannounced(self) -> list[Season]:
        rows = await self._read(
            f"SELECT {COLUMNS} FROM seasons WHERE status = 'closed' AND announced_at IS NULL"
            " ORDER BY closed_at, id"
        )
        return [_season(r) for r in rows]

    async def mark_announcing(self, season_id: int, now: float) -> None:
        """The post is about to be sent: after a crash from here on, it may have gone out."""
        async with self._tx() as tx:
            await tx.execute(
                "UPDATE seasons SET announcing_at = ? WHERE id = ? AND announced_at IS NULL",
                (now, season_id),
            )

    async def mark_announced(self, season_id: int, now: float) -> None:
        async with self._tx() as tx:
            await tx.execute(
                "UPDATE seasons SET announced_at = ? WHERE id = ? AND announced_at IS NULL",
                (now, season_id),
            )


async def _close_in(tx: _Tx, season_id: int, now: float) -> tuple[Season, list[SeasonEntry]] | None:
    """Claim the season (open -> closed) and write its final ranks, inside `tx`; None when it
    was closed already."""
    claimed = await tx.all(
        "UPDATE seasons SET status = 'closed', closed_at = ? WHERE id = ?"
        f" AND status = 'open' RETURNING {COLUMNS}",
        (now, season_id),
    )
    if not claimed:
        return None
    season = _season(claimed[0])
    rows = await tx.all(
        f"SELECT {ENTRY_COLUMNS} FROM season_ratings WHERE season_id = ?" + ORDER, (season_id,)
    )
    standings = final_standings([_entry(r) for r in rows], season.min_games, season.min_rating)
    for entry in standings:
        await tx.execute(
            "UPDATE season_ratings SET final_rank = ?, champion = ?"
            " WHERE season_id = ? AND user_id = ?",
            (entry.final_rank, int(entry.champion), season_id, entry.user_id),
        )
    return season, standings
