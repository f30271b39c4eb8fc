"""Points of a hand (E18–E20), the bridge (E21) and rubber points (E22): pure functions."""

from __future__ import annotations

from bot.engine.euchre import events as ev


def score_hand(
    makers: int, makers_tricks: int, maker_alone: bool, defender_alone: bool
) -> tuple[int, int, str]:
    """(points, scoring team, reason) for a hand whose makers took `makers_tricks` of five.

    A lone player of the making side is "a maker alone" (E19) whoever named trump; a lone
    defender (alone=anyone only) scores 2 for 3 or 4 tricks and 4 for all five (E20).
    """
    if makers_tricks == 5:
        return (4, makers, ev.LONE_MARCH) if maker_alone else (2, makers, ev.MARCH)
    if makers_tricks >= 3:
        return 1, makers, ev.MADE
    defenders = 1 - makers
    if defender_alone:
        if makers_tricks == 0:
            return 4, defenders, ev.DEFENDED_ALONE_MARCH
        return 2, defenders, ev.DEFENDED_ALONE
    return 2, defenders, ev.EUCHRED


def bridge(scores: tuple[int, int] | list[int], target: int) -> int | None:
    """E21: in a 5-point game a side with 4 points is "at the bridge" while the opponents have
    2 or fewer."""
    if target != 5:
        return None
    for team in (0, 1):
        if scores[team] == 4 and scores[1 - team] <= 2:
            return team
    return None


def rubber_points(losers_score: int) -> int:
    """E22: 3 if the losers scored 0 or less in that game, 2 for 1 or 2, 1 for 3 or more."""
    if losers_score <= 0:
        return 3
    if losers_score <= 2:
        return 2
    return 1


def rubber_margin(winners_points: int, losers_points: int) -> int:
    """E22: 2 bonus points plus the winners' rubber points minus the losers'."""
    return 2 + winners_points - losers_points
