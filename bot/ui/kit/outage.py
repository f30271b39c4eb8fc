"""A database outage, logged as one: its start, a count while it lasts, its end.

During an outage every click that needs the database fails the same way; a traceback for each
(2,178 in 7 s under test, issue 25 fault 4) buries everything else in the log. So the first
refusal is logged with its traceback, then one line every `every` seconds counts the clicks
refused meanwhile, and the first success after it says the database is back.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from bot.storage.errors import StorageError

log = logging.getLogger(__name__)

SUMMARY_EVERY = 30.0  # seconds between "still down" lines
_STORAGE_DIR = str(Path(__file__).resolve().parents[2] / "storage")


def is_storage_outage(error: BaseException) -> bool:
    """The database could not be used: a driver or connection error raised inside
    bot/storage (its own StorageErrors are deliberate answers, not an outage)."""
    if isinstance(error, StorageError):
        return False
    driver = isinstance(error, sqlite3.Error | OSError) or type(error).__module__.startswith(
        "asyncpg"
    )
    if not driver:
        return False
    tb = error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.startswith(_STORAGE_DIR):
            return True
        tb = tb.tb_next
    return False


class OutageLog:
    def __init__(
        self, *, every: float = SUMMARY_EVERY, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.every = every
        self._clock = clock
        self._since: float | None = None  # when the outage began; None: the database is up
        self._last_line = 0.0
        self._refused = 0  # since the last line
        self.refused_total = 0  # during the current (or last) outage

    @property
    def down(self) -> bool:
        return self._since is not None

    def refused(self, error: BaseException, what: str) -> None:
        """A click or command refused because the database failed."""
        now = self._clock()
        if self._since is None:
            self._since = self._last_line = now
            self._refused = 0
            self.refused_total = 1
            log.error(
                "database unavailable (%s): refusing clicks until it is back", what, exc_info=error
            )
            return
        self._refused += 1
        self.refused_total += 1
        if now - self._last_line >= self.every:
            log.warning(
                "database still down after %.0f s: %d refused clicks in the last %.0f s",
                now - self._since,
                self._refused,
                now - self._last_line,
            )
            self._last_line = now
            self._refused = 0

    def worked(self) -> None:
        """A click or command used the database successfully."""
        if self._since is None:
            return
        log.warning(
            "database back after %.0f s: %d clicks were refused",
            self._clock() - self._since,
            self.refused_total,
        )
        self._since = None
