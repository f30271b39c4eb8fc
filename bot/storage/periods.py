"""Leaderboard periods: calendar weeks and months in UTC.

The week and month views count the games a player finished in the current calendar week (from
Monday 00:00 UTC) or month (from the 1st, 00:00 UTC). Calendar periods rather than rolling
windows: "this week's leaderboard" means the same thing to everyone in a server, and a game
belongs to exactly one week and one month, so the counts can be kept in a small table updated
with each game instead of being summed over millions of game rows for every query.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

PERIODS = ("all", "month", "week")
COUNTED_PERIODS = ("week", "month")


def period_start(period: str, timestamp: float) -> int:
    """The Unix time at which the week or month holding `timestamp` began (UTC)."""
    moment = datetime.fromtimestamp(timestamp, UTC)
    day = moment.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "week":
        start = day - timedelta(days=day.weekday())
    elif period == "month":
        start = day.replace(day=1)
    else:
        raise ValueError(f"period must be one of {COUNTED_PERIODS}, not {period!r}")
    return int(start.timestamp())
