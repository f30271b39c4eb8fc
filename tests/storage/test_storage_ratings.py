"""Ratings and periods, the pure parts: OpenSkill team updates, the shown whole number, and the
calendar periods of the leaderboard."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.storage.periods import period_start
from bot.storage.ratings import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    NEW_PLAYER,
    Skill,
    display_rating,
    rate_game,
    rated_user_ids,
)
from bot.tables.records import PlayerResult


def players(*users: int | None) -> list[PlayerResult]:
    return [
        PlayerResult(
            seat=seat,
            team=seat % 2,
            user_id=user,
            name="Bot" if user is None else f"u{user}",
            is_bot=user is None,
            stats={},
        )
        for seat, user in enumerate(users)
    ]


def test_a_new_player_shows_1000_and_the_scale_is_40_per_ordinal_point() -> None:
    assert DEFAULT_MU == 25.0
    assert abs(DEFAULT_SIGMA - 25 / 3) < 1e-12
    assert display_rating(DEFAULT_MU, DEFAULT_SIGMA) == 1000  # ordinal 25 - 3 * 25/3 = 0
    assert display_rating(30.0, 2.0) == 1000 + 40 * 24
    assert display_rating(10.0, 5.0) == 1000 - 40 * 5
    assert NEW_PLAYER.display == 1000


def test_winners_go_up_losers_go_down_and_everyone_grows_surer() -> None:
    after = rate_game(players(1, 2, 3, 4), winner_team=1, current={})
    assert set(after) == {1, 2, 3, 4}
    for user in (2, 4):  # team 1: seats 1 and 3
        assert after[user].mu > DEFAULT_MU and after[user].display > 1000
    for user in (1, 3):
        assert after[user].mu < DEFAULT_MU
    assert all(skill.sigma < DEFAULT_SIGMA for skill in after.values())
    # Partners with equal ratings move equally.
    assert after[2] == after[4] and after[1] == after[3]


def test_beating_a_stronger_team_is_worth_more() -> None:
    strong = {2: Skill(32.0, 3.0), 4: Skill(32.0, 3.0)}
    upset = rate_game(players(1, 2, 3, 4), winner_team=0, current=strong)
    expected = rate_game(players(1, 2, 3, 4), winner_team=0, current={})
    assert upset[1].mu - DEFAULT_MU > expected[1].mu - DEFAULT_MU


def test_bots_are_not_rated_but_still_make_a_team() -> None:
    after = rate_game(players(1, None, None, None), winner_team=0, current={})
    assert set(after) == {1} and after[1].mu > DEFAULT_MU
    assert rate_game(players(None, None, None, None), winner_team=0, current={}) == {}


def test_a_user_in_two_seats_is_not_rated() -> None:
    seated = players(5, 5, 6, 7)
    assert rated_user_ids(seated) == {6, 7}
    assert set(rate_game(seated, winner_team=0, current={})) == {6, 7}


@pytest.mark.parametrize(
    "moment,week,month",
    [
        ("2024-05-15T12:00", "2024-05-13", "2024-05-01"),  # a Wednesday
        ("2024-05-13T00:00", "2024-05-13", "2024-05-01"),  # Monday midnight starts the week
        ("2024-05-12T23:59:59", "2024-05-06", "2024-05-01"),  # Sunday night is still last week
        ("2024-03-01T00:00", "2024-02-26", "2024-03-01"),  # a week across two months
        ("2024-02-29T23:59:59", "2024-02-26", "2024-02-01"),  # leap day
        ("2025-01-01T03:00", "2024-12-30", "2025-01-01"),  # a week across two years
    ],
)
def test_periods_are_utc_calendar_weeks_from_monday_and_months(
    moment: str, week: str, month: str
) -> None:
    def at(text: str) -> float:
        return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()

    assert period_start("week", at(moment)) == at(week)
    assert period_start("month", at(moment)) == at(month)
    with pytest.raises(ValueError):
        period_start("year", at(moment))
