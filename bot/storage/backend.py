"""Choosing the back-end: `DATABASE_URL`.

- unset or empty: the SQLite file of `DATABASE_PATH` (default ./data/cardtable.sqlite3), as
  before: nothing changes for a user who sets nothing.
- `sqlite:///relative/path.sqlite3` or `sqlite:////absolute/path.sqlite3`: that SQLite file.
- `postgresql://user:password@host:port/dbname` (or `postgres://`): PostgreSQL through an asyncpg
  pool (bot/storage/postgres.py).

The URL is read by `bot.settings` (standard library only, so a bad URL is said before anything
is installed). `open_storage` returns a `Storage`: the database, its table store and its
results repository, the same interface on both back-ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.settings import DatabaseTarget
from bot.storage.database import Database
from bot.storage.results import ResultsRepository
from bot.storage.table_store import SqliteTableStore

if TYPE_CHECKING:
    from bot.storage.postgres import PgDatabase
    from bot.tables.records import TableStore


@dataclass
class Storage:
    db: Database | PgDatabase
    tables: TableStore
    results: ResultsRepository

    async def close(self) -> None:
        await self.db.close()


async def open_storage(target: DatabaseTarget) -> Storage:
    """Open (and migrate) the database `target` names."""
    if target.kind == "postgresql":
        from bot.storage.postgres import PgDatabase, PgTableStore  # asyncpg only when asked

        assert target.dsn is not None
        pg = await PgDatabase.open(target.dsn)
        return Storage(pg, PgTableStore(pg), ResultsRepository(pg))
    assert target.path is not None
    db = await Database.open(target.path)
    return Storage(db, SqliteTableStore(db), ResultsRepository(db))
