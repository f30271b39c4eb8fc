"""Seasons, the pure part (issue 23): when a season ends and its final standings."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.tables.seasons import SeasonEntry, SeasonError, final_standings, season_end


def at(*parts: int) -> float:
    return datetime(*parts, tzinfo=UTC).timestamp()  # type: ignore[misc]


def test_a_month_or_a_quarter_ends_on_the_same_day_and_time_later() -> None:
    assert season_end(at(2026, 1, 15, 20, 30), "month") == at(2026, 2, 15, 20, 30)
    assert season_end(at(2026, 11, 2), "quarter") == at(2027, 2, 2)
    assert season_end(at(2026, 12, 31), "month") == at(2027, 1, 31)
    # The 31st becomes the month's last day.
    assert season_end(at(2026, 1, 31), "month") == at(2026, 2, 28)
    assert season_end(at(2027, 11, 30), "quarter") == at(2028, 2, 29)
    assert season_end(at(2026, 1, 1), "open") is None
    with pytest.raises(SeasonError):
        season_end(0.0, "week")


def entry(user_id: int, rating: int, games: int) -> SeasonEntry:
    return SeasonEntry(user_id, f"p{user_id}", (rating - 1000) / 40, rating, games, games // 2)


def test_final_standings_rank_those_who_met_the_minimums_and_crown_the_first() -> None:
    entries = [entry(1, 1200, 4), entry(2, 1300, 2), entry(3, 1100, 9), entry(4, 900, 5)]
    standings = final_standings(entries, min_games=3, min_rating=1000)
    assert [(e.user_id, e.final_rank, e.champion) for e in standings] == [
        (1, 1, True),
        (3, 2, False),
        (2, None, False),  # the best rating, but two games: unranked
        (4, None, False),  # enough games, rating under the minimum
    ]


def test_a_tie_at_the_top_is_broken_by_games_then_shared_only_when_level() -> None:
    tied = final_standings([entry(5, 1200, 6), entry(6, 1200, 8)], 1, 0)
    assert [(e.user_id, e.final_rank, e.champion) for e in tied] == [(6, 1, True), (5, 2, False)]
    level = final_standings([entry(7, 1200, 6), entry(8, 1200, 6)], 1, 0)
    assert [(e.user_id, e.champion) for e in level] == [(7, True), (8, True)]
    assert final_standings([entry(9, 1000, 1)], 2, 0)[0].final_rank is None
