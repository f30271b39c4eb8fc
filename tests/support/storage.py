"""Storage on both back-ends: the target of a test's database, a second connection to it, and
committed rows read back for assertions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.settings import DatabaseTarget
from bot.storage.backend import Storage, open_storage
from tests.support.postgres import empty_pg_database

BACKENDS = ["sqlite", "postgres"]


async def storage_target(
    request: pytest.FixtureRequest, backend: str, folder: Path
) -> DatabaseTarget:
    if backend == "sqlite":
        return DatabaseTarget("sqlite", path=folder / "bot.db")
    dsn = request.getfixturevalue("pg_scratch")
    await empty_pg_database(dsn)
    return DatabaseTarget("postgresql", dsn=dsn)


async def reopen(storage: Storage) -> Storage:
    """A second, independent connection (pool) to the same database: like another process."""
    from bot.storage.postgres import PgDatabase

    if isinstance(storage.db, PgDatabase):
        return await open_storage(DatabaseTarget("postgresql", dsn=storage.db.dsn))
    return await open_storage(DatabaseTarget("sqlite", path=storage.db.path))


async def fetch_rows(
    storage: Storage, sql: str, params: tuple[Any, ...] = ()
) -> list[tuple[Any, ...]]:
    """What is committed, read through the store's own database (`?` placeholders)."""
    async with storage.db.reader() as reader:
        return [tuple(row) for row in await reader.all(sql, params)]


COUNTED_TABLES = ("tables", "table_seats", "table_actions", "games", "game_players",
                  "player_stats", "ratings", "player_periods")  # fmt: skip


async def count_rows(storage: Storage) -> dict[str, int]:
    return {
        t: (await fetch_rows(storage, f"SELECT count(*) FROM {t}"))[0][0] for t in COUNTED_TABLES
    }
