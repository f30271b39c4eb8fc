"""The storage layer's own errors. The table service catches `StaleVersion`; the rest are bugs or
operational problems (a missing table, a database newer than the code)."""

from __future__ import annotations


class StorageError(Exception):
    """Base of every error this package raises on purpose."""


class StaleVersion(StorageError):
    """An append carried a version that is not exactly the stored version + 1: someone else (a
    double click, a racing partner, a second process) already moved the table on. Nothing was
    written."""

    def __init__(self, table_id: int, stored: int, given: int) -> None:
        super().__init__(f"table {table_id}: stored version {stored}, append carried {given}")
        self.table_id = table_id
        self.stored = stored
        self.given = given


class TableNotFound(StorageError):
    """No table with this id (never created, or already deleted)."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id} does not exist")
        self.table_id = table_id


class TableNotPlaying(StorageError):
    """An action was appended to a table that is in its lobby or already finished."""

    def __init__(self, table_id: int, status: str) -> None:
        super().__init__(f"table {table_id} is {status!r}, not 'playing'")
        self.table_id = table_id
        self.status = status


class SchemaTooNew(StorageError):
    """The database was migrated by newer code than this; refusing to run on it."""
