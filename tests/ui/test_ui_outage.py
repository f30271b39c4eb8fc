"""A database outage is logged as one (issue 25 fault 4): once when it starts, a count every
30 s while it lasts, once when it is back — not a traceback per refused click."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from bot.storage import Database
from bot.storage.errors import StaleAppend
from bot.ui.kit.outage import OutageLog, is_storage_outage


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_an_outage_of_2000_refused_clicks_logs_a_handful_of_lines(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    outage = OutageLog(clock=clock)
    caplog.set_level(logging.INFO, "bot.ui.kit.outage")
    error = sqlite3.OperationalError("disk I/O error")
    for _ in range(2000):  # 2,000 refused clicks over 70 s
        outage.refused(error, "act")
        clock.now += 0.035
    assert outage.down and outage.refused_total == 2000
    outage.worked()
    outage.worked()  # up already: nothing more to say
    lines = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert lines[0][0] == logging.ERROR and "unavailable" in lines[0][1]
    assert sum(1 for r in caplog.records if r.exc_info) == 1  # one traceback, the first
    middles = [m for _, m in lines[1:-1]]
    assert len(middles) == 2 and all("still down" in m for m in middles)  # at 30 s and 60 s
    assert "back" in lines[-1][1] and "2000 clicks" in lines[-1][1]
    assert not outage.down


def test_a_second_outage_is_announced_again(caplog: pytest.LogCaptureFixture) -> None:
    outage = OutageLog(clock=Clock())
    caplog.set_level(logging.INFO, "bot.ui.kit.outage")
    outage.refused(OSError("gone"), "act")
    outage.worked()
    outage.refused(OSError("gone again"), "act")
    assert [r.levelno for r in caplog.records] == [logging.ERROR, logging.WARNING, logging.ERROR]


async def test_only_driver_errors_raised_inside_storage_are_an_outage(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "t.sqlite3")
    try:
        with pytest.raises(sqlite3.Error) as raised:
            async with db.reader() as reader:
                await reader.all("SELECT * FROM no_such_table")
    finally:
        await db.close()
    assert is_storage_outage(raised.value)
    assert not is_storage_outage(sqlite3.OperationalError("raised outside storage"))
    assert not is_storage_outage(StaleAppend(1, 2, 4))
    assert not is_storage_outage(ValueError("a bug"))
