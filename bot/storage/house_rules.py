"""A server's house rules (issue 21): per game, the options and table settings its new tables
start with, set by `/settings` (cogs/settings.py). Only the values an admin set are stored, so a
rule the admin never touched keeps following the bot's own default."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.storage.database import Database, execute
from bot.tables.records import HouseRules

if TYPE_CHECKING:
    from bot.storage.postgres import PgDatabase


class HouseRulesStore:
    """The house rules' rows on either back-end (`db`: a `Database` or a `PgDatabase`)."""

    def __init__(self, db: Database | PgDatabase) -> None:
        self._db = db

    async def _write(self, sql: str, params: Sequence[Any]) -> None:
        if isinstance(self._db, Database):
            async with self._db.transaction() as conn:
                await execute(conn, sql, params)
            return
        from bot.storage.postgres import pg_sql

        async with self._db.transaction() as conn:
            await conn.execute(pg_sql(sql), *params)

    async def get(self, guild_id: int, game: str) -> HouseRules:
        """The server's house rules for `game` (none set: empty)."""
        async with self._db.reader() as conn:
            row = await conn.one(
                "SELECT options, settings FROM house_rules WHERE guild_id = ? AND game = ?",
                (guild_id, game),
            )
        if row is None:
            return HouseRules()
        return HouseRules(json.loads(row[0]), json.loads(row[1]))

    async def set(
        self, guild_id: int, game: str, rules: HouseRules, by: int, now: float
    ) -> HouseRules:
        """Replace the server's house rules for `game` (the caller merged and checked them)."""
        await self._write(
            "INSERT INTO house_rules (guild_id, game, options, settings, set_by, set_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game) DO UPDATE SET"
            " options = excluded.options, settings = excluded.settings,"
            " set_by = excluded.set_by, set_at = excluded.set_at",
            (
                guild_id,
                game,
                json.dumps(rules.options, sort_keys=True),
                json.dumps(rules.settings, sort_keys=True),
                by,
                now,
            ),
        )
        return rules

    async def clear(self, guild_id: int, game: str) -> None:
        """Back to the bot's defaults for `game`."""
        await self._write(
            "DELETE FROM house_rules WHERE guild_id = ? AND game = ?", (guild_id, game)
        )
