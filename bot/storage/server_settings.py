"""A server's competition settings (table server_settings, migration 008), on either back-end.

A setting missing from the table has its default; writing one is one upsert. The recording of a
game reads `count_matches` inside its own transaction (bot.storage.recording)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.storage.database import Database
from bot.storage.recording import COUNT_MATCHES, COUNT_PER_GAME, COUNT_PER_MATCH

if TYPE_CHECKING:
    from bot.storage.postgres import PgDatabase

COUNT_CHOICES = (COUNT_PER_MATCH, COUNT_PER_GAME)
DEFAULTS = {COUNT_MATCHES: COUNT_PER_MATCH}
SELECT = "SELECT value FROM server_settings WHERE guild_id = ? AND name = ?"
UPSERT = (
    "INSERT INTO server_settings (guild_id, name, value) VALUES (?, ?, ?)"
    " ON CONFLICT (guild_id, name) DO UPDATE SET value = excluded.value"
)


class ServerSettings:
    def __init__(self, db: Database | PgDatabase) -> None:
        self._db = db

    async def get(self, guild_id: int, name: str) -> str:
        async with self._db.reader() as reader:
            row = await reader.one(SELECT, (guild_id, name))
        return DEFAULTS[name] if row is None else str(row[0])

    async def set(self, guild_id: int, name: str, value: str) -> None:
        if name not in DEFAULTS:
            raise ValueError(f"no server setting {name!r}")
        if name == COUNT_MATCHES and value not in COUNT_CHOICES:
            raise ValueError(f"count_matches must be one of {COUNT_CHOICES}, not {value!r}")
        params = (guild_id, name, value)
        if isinstance(self._db, Database):
            await self._db.run_write(lambda conn: conn.execute(UPSERT, params))
            return
        from bot.storage.postgres import pg_sql  # asyncpg only on that back-end

        async with self._db.transaction() as conn:
            await conn.execute(pg_sql(UPSERT), *params)
