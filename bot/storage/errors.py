"""The storage layer's errors. Those a `TableStore` raises to the table service (StaleAppend,
TableNotFound, TableNotPlaying, under StoreConflict) are declared beside the store's interface, in
bot/tables/records.py, so the service never imports storage; they are re-exported here. The rest
are operational problems (a database newer than the code)."""

from __future__ import annotations

from bot.tables.records import (
    StaleAppend,
    StorageError,
    StoreConflict,
    TableNotFound,
    TableNotPlaying,
)

__all__ = [
    "SchemaTooNew",
    "StaleAppend",
    "StorageError",
    "StoreConflict",
    "TableNotFound",
    "TableNotPlaying",
]


class SchemaTooNew(StorageError):
    """The database was migrated by newer code than this; refusing to run on it."""
