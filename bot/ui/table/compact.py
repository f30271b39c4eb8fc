"""The compact table and hand messages (issue 30): a few lines beside the picture.

On a phone the table message fits one screen: besides the picture at most `TABLE_LINES` short
lines (whose turn and what to do, the time left as a Discord timestamp the client counts down,
the last action, the hand's state, the score, and the deal's short commitment as small text).
Everything else is one click away ("📜 Log & rules": the hand's log, the rules in force, the
full commitments and reveals). The hand message holds at most `HAND_LINES` lines. A table with
pictures off keeps the complete text instead (bot/ui/table/render.py), for screen readers.

Between two hands (bot/tables/pace.py) both show the last hand's result: tricks or rounds per
team, the points and how they came (euchred, march, alone, truco accepted or run).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.engine.common import team_of
from bot.tables import pace
from bot.tables.service import Table
from bot.texts import t
from bot.ui.fair import deals as fair_deal
from bot.ui.words import round_words
from bot.ui.words.cards import card_text, suit_text
from bot.ui.words.events import event_sentence, team_name

TABLE_LINES = 6
HAND_LINES = 4
# Accent colours of the Container: the team to act (Discord's blurple and a warm orange), grey
# when nobody is to act.
TEAM_COLOURS = (0x5865F2, 0xE67E22)
IDLE_COLOUR = 0x95A5A6

NameOf = Callable[[int], str]


def accent(view: dict[str, Any]) -> int:
    to_act = view.get("to_act") or []
    if not to_act:
        return IDLE_COLOUR
    return TEAM_COLOURS[team_of(int(to_act[0]))]


def small(line: str) -> str:
    """Discord's small grey text."""
    return f"-# {line}" if line else ""


def hand_end_line(table: Table, name_of: NameOf, locale: str | None) -> str | None:
    """The last hand's result while the table is between two hands; None otherwise."""
    game = table.game
    if game is None:
        return None
    events: Sequence[Any] = game.events
    end = pace.last_hand_end(events, cards_down=pace.cards_down(game))
    if end is None:
        return None
    start = max(
        (i for i in range(end) if events[i].kind == pace.HAND_START),
        default=0,
    )
    hand = list(events[start : end + 1])
    ending = events[end]
    if ending.kind == "redeal":  # E12: thrown in, nobody scores
        sentence = event_sentence(table.game_name, ending, name_of, locale, name_of) or ""
        return "🏁 " + sentence
    sentences = [
        s
        for e in hand
        if e.kind in ("hand_scored", "hand_won", "ran", "hand_of_ten_refused")
        and (s := event_sentence(table.game_name, e, name_of, locale, name_of))
    ]
    extras: list[str] = []
    for e in hand:
        if e.kind == "went_alone" and e.seat is not None:
            extras.append(f"{name_of(e.seat)} {t('table.mark.alone', locale)}")
        if e.kind == "accepted":
            extras.append(t(f"truco.ask.{e.data['name']}", locale))
    if table.game_name == "euchre":
        tricks = ending.data.get("tricks") or [0, 0]
        counts = (int(tricks[0]), int(tricks[1]))
        key = "hand_end.euchre"
    else:
        won = [0, 0]
        for e in hand:
            if e.kind == "round_won":
                won[team_of(int(e.data["seat"]))] += 1
        counts = (won[0], won[1])
        key = "hand_end.truco"
    # The hand's number from the game, not by counting deals: a table in play keeps only its
    # latest hands' events (bot/tables/games.py), a rebuilt one all of them.
    dealt_since = any(e.kind == pace.HAND_START for e in events[end + 1 :])
    number = game.hand_number if dealt_since else game.hand_number + 1
    line = t(key, locale, hand=max(number, 1), team0=counts[0], team1=counts[1])
    result = " ".join(sentences)
    if extras:
        result += " (" + ", ".join(dict.fromkeys(extras)) + ")"
    return f"{line} {result}".strip()


def last_action(table: Table, name_of: NameOf, locale: str | None) -> str:
    """The latest logged event, as one sentence."""
    game = table.game
    if game is None:
        return ""
    for event in reversed(game.events):
        line = event_sentence(table.game_name, event, name_of, locale, name_of)
        if line:
            return line
    return ""


def state_line(
    table: Table,
    view: dict[str, Any],
    name_of: NameOf,
    locale: str | None,
    *,
    seat: int | None = None,
) -> str:
    """The hand's state in one line: trump or the turned card and the tricks (euchre), the
    hand's worth, a pending ask and the rounds (truco)."""
    parts: list[str] = []
    if table.game_name == "euchre":
        if view.get("trump") is not None and seat is not None and view["maker"] == seat:
            parts.append(t("hand.trump_made.you", locale, suit=suit_text(view["trump"])))
        elif view.get("trump") is not None:
            parts.append(
                t(
                    "table.trump_made",
                    locale,
                    suit=suit_text(view["trump"]),
                    maker=name_of(view["maker"]),
                )
            )
        elif view.get("turned_card") is not None:
            key = "table.turned_down" if view["turned_down"] else "table.turned_up"
            parts.append(t(key, locale, card=card_text(view["turned_card"])))
        tricks = view["tricks_won"]
        if any(tricks):
            parts.append(t("layout.tricks", locale, team0=tricks[0], team1=tricks[1]))
    else:
        parts.append(t("table.hand_value", locale, value=view["hand_value"]))
        if view.get("hand_of_ten") is not None and view.get("phase") == "hand_of_ten":
            parts.append(
                t("table.hand_of_ten", locale, team=team_name(view["hand_of_ten"], locale))
            )
        rounds = view.get("rounds") or []
        won = [0, 0]
        for r in rounds:
            if r.get("winner_team") is not None:
                won[int(r["winner_team"])] += 1
        if rounds:
            parts.append(t("layout.rounds", locale, team0=won[0], team1=won[1]))
    return " · ".join(parts)


def score_line(table: Table, view: dict[str, Any], locale: str | None) -> str:
    """The score, and in a match (truco best of 3 or 5, a euchre rubber) the games won."""
    scores = view["scores"]
    line = t("table.scores", locale, team0=scores[0], team1=scores[1])
    games = view.get("games_won")
    if games is not None and table.game_name == "truco":
        name = t("table.field.match", locale, games=view["match"])
        line += f" · {name}: " + t("table.match", locale, team0=games[0], team1=games[1])
    elif games is not None:
        name = t("table.field.rubber", locale)
        line += f" · {name}: " + t("table.rubber", locale, team0=games[0], team1=games[1])
    return line


def small_line(table: Table, locale: str | None, view: dict[str, Any] | None = None) -> str:
    """As small text: the table and the hand in play (a count people know), and the deal's
    commitment, short (the full one and the reveals: 🔒 Deal). `view`: the game's public view
    of the current state, where the caller has one."""
    game = table.game
    if game is None or game.is_over:
        return ""
    if view is None:
        view = game.view(None)
    hands = round_words.fixed_hands(view)
    if hands:  # a tournament round of a few hands says which of them this is (issue 34)
        title = round_words.table_title(t(f"game.{table.game_name}", locale), view, locale)
        parts = [t("table.footer", locale, table=table.id), title]
    else:
        parts = [t("table.footer.hand", locale, table=table.id, hand=game.hand_number + 1)]
    lines = fair_deal.table_lines(table, locale, view)
    if lines:  # already small text: one "-# " at the line's start, not two
        parts.append(lines[0].removeprefix("-# "))
    return small(" · ".join(parts))


def at_most(lines: list[str], limit: int) -> list[str]:
    """The non-empty lines, at most `limit` (the last ones dropped)."""
    return [line for line in lines if line][:limit]
