"""Storage: SQLite through one aiosqlite connection. All of the project's SQL lives here.

- `Database`: the connection, pragmas (WAL, foreign keys, busy timeout), migrations,
  `transaction()`, `backup()`; `backup_database(src, dest)` for the CLI.
- `SqliteTableStore`: the table service's `TableStore` (tables in play, action log, and the
  finished game recorded in the transaction of its last action).
- `ResultsRepository`: leaderboard, player statistics, history, one finished game.
"""

from bot.storage.database import Database, backup_database
from bot.storage.errors import (
    SchemaTooNew,
    StaleVersion,
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
    "StaleVersion",
    "StorageError",
    "TableNotFound",
    "TableNotPlaying",
    "backup_database",
    "display_rating",
]
