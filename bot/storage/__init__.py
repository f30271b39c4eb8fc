"""Storage: SQLite (the default, aiosqlite) or PostgreSQL (asyncpg), chosen by DATABASE_URL
(`bot.storage.backend.open_storage`). All of the project's SQL lives here.

- `Database`: SQLite's writing and reading connections, pragmas (WAL, foreign keys, busy
  timeout), migrations, `transaction()`, `run_write()` (one trip), `backup()`;
  `backup_database(src, dest)` for the CLI. `bot.storage.postgres.PgDatabase`: the same for
  PostgreSQL (a pool; imported only when asked for, so asyncpg loads only then).
- `SqliteTableStore` / `PgTableStore`: the table service's `TableStore` (tables in play, action
  log, and the finished game recorded in the transaction of its last action).
- `ResultsRepository`: leaderboard, player statistics, history, one finished game, on either.
"""

from bot.storage.database import Database, backup_database
from bot.storage.errors import (
    SchemaTooNew,
    StaleAppend,
    StorageError,
    TableNotFound,
    TableNotPlaying,
)
from bot.storage.ratings import display_rating
from bot.storage.results import (
    FinishedGame,
    FinishedPlayer,
    GameKindRecord,
    HistoryEntry,
    LeaderboardPage,
    LeaderboardRow,
    PlayerStats,
    ResultsRepository,
)
from bot.storage.table_store import SqliteTableStore

__all__ = [
    "Database",
    "FinishedGame",
    "FinishedPlayer",
    "GameKindRecord",
    "HistoryEntry",
    "LeaderboardPage",
    "LeaderboardRow",
    "PlayerStats",
    "ResultsRepository",
    "SchemaTooNew",
    "SqliteTableStore",
    "StaleAppend",
    "StorageError",
    "TableNotFound",
    "TableNotPlaying",
    "backup_database",
    "display_rating",
]
