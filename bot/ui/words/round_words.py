"""The words of a table that plays a fixed number of hands (euchre option `hands`: a progressive
night's round, issue 34): its title counts the hands ("hand 1 of 2", not "first to 10", which
is not what ends it), and a round that ends level reads as a tie, as the night's standings count
it (neither partnership won the round), not as a win of the side that scored last."""

from __future__ import annotations

from typing import Any

from bot.texts import n, t
from bot.ui.words.events import team_name


def fixed_hands(view: dict[str, Any]) -> int:
    """The hands the game is limited to (0: played to its target)."""
    return int((view.get("options") or {}).get("hands") or 0)


def tied(view: dict[str, Any]) -> bool:
    """A finished game with both sides level: only a fixed number of hands ends that way (a
    target game ends when one side reaches it, ahead)."""
    scores = view["scores"]
    return bool(view.get("is_over")) and scores[0] == scores[1]


def table_title(game_title: str, view: dict[str, Any], locale: str | None) -> str:
    hands = fixed_hands(view)
    hand = view["hand_number"] + 1
    if hands:
        return t("table.title.hands", locale, game=game_title, hand=min(hand, hands), hands=hands)
    return t("table.title", locale, game=game_title, hand=hand, target=view["target"])


def result_description(view: dict[str, Any], winners: str, locale: str | None) -> str:
    scores = view["scores"]
    hands = view["hand_number"] + 1
    if tied(view):
        return t("result.tied", locale, score=scores[0], hands=n("plural.hands", locale, hands))
    winner = view["winner"]
    return t(
        "result.description",
        locale,
        team=team_name(winner, locale),
        players=winners,
        winner_score=scores[winner],
        loser_score=scores[1 - winner],
        hands=hands,
    )


def result_content(view: dict[str, Any], winners: str, locale: str | None) -> str:
    if tied(view):
        return t("result.content.tied", locale, score=view["scores"][0])
    return t("result.content", locale, team=team_name(view["winner"], locale), players=winners)
