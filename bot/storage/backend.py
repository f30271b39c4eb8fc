"""Choosing the back-end: `DATABASE_URL`.

- unset or empty: the SQLite file of `DATABASE_PATH` (default ./data/cardtable.sqlite3), as
  before: nothing changes for a user who sets nothing.
- `sqlite:///relative/path.sqlite3` or `sqlite:////absolute/path.sqlite3`: that SQLite file.
- `postgresql://user:password@host:port/dbname` (or `postgres://`): PostgreSQL through an asyncpg
  pool (bot/storage/postgres.py).

`open_storage` returns a `Storage`: the database, its table store and its results repository,
the same interface on both back-ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bot.storage.database import Database
from bot.storage.results import ResultsRepository
from bot.storage.table_store import SqliteTableStore

if TYPE_CHECKING:
    from bot.storage.postgres import PgDatabase
    from bot.tables.records import TableStore


class DatabaseUrlError(ValueError):
    """DATABASE_URL names no back-end this bot has."""


@dataclass(frozen=True)
class DatabaseTarget:
    kind: str  # "sqlite" | "postgresql"
    path: Path | None = None  # sqlite
    dsn: str | None = None  # postgresql

    def describe(self) -> str:
        """For logs: never the password."""
        if self.kind == "sqlite":
            return f"SQLite {self.path}"
        assert self.dsn is not None
        rest = self.dsn.split("://", 1)[1]
        return f"PostgreSQL {rest.rsplit('@', 1)[-1]}"


def parse_database_url(url: str | None, default_path: Path) -> DatabaseTarget:
    url = (url or "").strip()
    if not url:
        return DatabaseTarget("sqlite", path=default_path)
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///")
        if not path or path == ":memory:":
            raise DatabaseUrlError("DATABASE_URL=sqlite:///PATH needs a file path")
        return DatabaseTarget("sqlite", path=Path(path))
    if url.startswith(("postgresql://", "postgres://")):
        return DatabaseTarget("postgresql", dsn=url)
    scheme = url.split(":", 1)[0]
    raise DatabaseUrlError(
        f"DATABASE_URL must start with sqlite:/// or postgresql://, not {scheme!r}."
    )


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
