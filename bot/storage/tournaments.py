"""Tournaments on either back-end (migration 010): bot.tables.tournament_records.TournamentStore.
The SQL is written once; writes go through the seasons module's transaction adapter."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from bot.storage.database import Database
from bot.storage.seasons import _Tx
from bot.tables.tournament_records import TournamentRecord, TournamentStale, TournamentTaken

if TYPE_CHECKING:
    from bot.storage.postgres import PgDatabase

COLUMNS = "id, guild_id, channel_id, host_id, config, status, version, created_at, message_id"


def _record(row: Any, actions: list[str]) -> TournamentRecord:
    return TournamentRecord(
        id=int(row[0]), guild_id=int(row[1]), channel_id=int(row[2]), host_id=int(row[3]),
        config=json.loads(row[4]), status=str(row[5]), version=int(row[6]),
        created_at=float(row[7]), message_id=None if row[8] is None else int(row[8]),
        actions=actions,
    )  # fmt: skip


class TournamentRepository:
    def __init__(self, db: Database | PgDatabase) -> None:
        self._db = db
        self._pg = not isinstance(db, Database)

    async def create_tournament(self, record: TournamentRecord) -> int:
        try:
            async with self._db.transaction() as conn:
                tx = _Tx(conn, self._pg)
                open_here = await tx.all(
                    "SELECT id FROM tournaments WHERE channel_id = ? AND status <> 'finished'",
                    (record.channel_id,),
                )
                if open_here:
                    raise TournamentTaken(f"channel {record.channel_id} holds a tournament")
                rows = await tx.all(
                    "INSERT INTO tournaments (guild_id, channel_id, host_id, config, status,"
                    " version, created_at) VALUES (?, ?, ?, ?, ?, 0, ?) RETURNING id",
                    (
                        record.guild_id,
                        record.channel_id,
                        record.host_id,
                        json.dumps(record.config, sort_keys=True),
                        record.status,
                        record.created_at,
                    ),
                )
        except TournamentTaken:
            raise
        except Exception as error:  # the unique index, when two processes race
            if "unique" in str(error).lower():
                raise TournamentTaken(str(error)) from None
            raise
        return int(rows[0][0])

    async def append_tournament_action(
        self, tournament_id: int, version: int, action: str, status: str
    ) -> None:
        async with self._db.transaction() as conn:
            tx = _Tx(conn, self._pg)
            moved = await tx.execute(
                "UPDATE tournaments SET version = version + 1, status = ?"
                " WHERE id = ? AND version = ?",
                (status, tournament_id, version),
            )
            if moved != 1:
                raise TournamentStale(f"tournament {tournament_id}: not at version {version}")
            await tx.execute(
                "INSERT INTO tournament_actions (tournament_id, seq, action) VALUES (?, ?, ?)",
                (tournament_id, version, action),
            )

    async def set_tournament_message(self, tournament_id: int, message_id: int | None) -> None:
        async with self._db.transaction() as conn:
            await _Tx(conn, self._pg).execute(
                "UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id)
            )

    async def load_tournaments(self) -> list[TournamentRecord]:
        async with self._db.reader() as reader:
            rows = await reader.all(
                f"SELECT {COLUMNS} FROM tournaments WHERE status <> 'finished' ORDER BY id"
            )
            out = []
            for row in rows:
                actions = await reader.all(
                    "SELECT action FROM tournament_actions WHERE tournament_id = ? ORDER BY seq",
                    (int(row[0]),),
                )
                out.append(_record(row, [str(a[0]) for a in actions]))
        return out

    async def get_tournament(self, tournament_id: int) -> TournamentRecord | None:
        async with self._db.reader() as reader:
            row = await reader.one(
                f"SELECT {COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)
            )
            if row is None:
                return None
            actions = await reader.all(
                "SELECT action FROM tournament_actions WHERE tournament_id = ? ORDER BY seq",
                (tournament_id,),
            )
        return _record(row, [str(a[0]) for a in actions])

    async def latest_tournament(self, channel_id: int) -> int | None:
        async with self._db.reader() as reader:
            row = await reader.one(
                "SELECT max(id) FROM tournaments WHERE channel_id = ?", (channel_id,)
            )
        return None if row is None or row[0] is None else int(row[0])

    async def table_scores(self, table_id: int) -> tuple[int, int] | None:
        async with self._db.reader() as reader:
            row = await reader.one(
                "SELECT score0, score1 FROM games WHERE table_id = ? ORDER BY id DESC LIMIT 1",
                (table_id,),
            )
        return None if row is None else (int(row[0]), int(row[1]))
