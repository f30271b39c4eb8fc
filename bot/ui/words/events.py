"""Event sentences: an engine Event becomes one line of the table's log, in the game's words.

Every text comes from the catalog (`event.<game>.<kind>[.<variant>]`). Events are public by the
engines' contract (no card still in a hand, never the dealer's discard); this module still only
reads the fields it names, so a future private field could not leak through it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.engine.truco.cards import MANILHA_NAMES
from bot.texts import t
from bot.ui.words.cards import card_text, cards_text, suit_text

# The events worth a line in the log. Others (a card played in Truco, shown in the round
# in progress; a game starting) return None.
NameOf = Callable[[int], str]


def team_name(team: int, locale: str | None) -> str:
    return t("table.team", locale, number=team + 1)


def event_sentence(
    game: str, event: Any, name_of: NameOf, locale: str | None, position_name: NameOf
) -> str | None:
    """One line for `event`, or None when the log skips it. `name_of(seat)` names the player of
    a game seat, `position_name(position)` the player of a lobby position (the euchre draw)."""
    render = _EUCHRE.get(event.kind) if game == "euchre" else _TRUCO.get(event.kind)
    if render is None:
        return None
    return render(event, name_of, locale, position_name)


# --- euchre -------------------------------------------------------------------------------------


def _e_seating(ev: Any, name_of: NameOf, loc: str | None, position_name: NameOf) -> str:
    rounds = ev.data["rounds"]
    draws = "; ".join(
        ", ".join(f"{position_name(int(d['position']))} {card_text(d['card'])}" for d in r)
        for r in rounds
    )
    seat_of_position = ev.data["seat_of_position"]
    dealer_position = seat_of_position.index(0)
    return t("event.euchre.seating_drawn", loc, draws=draws, dealer=position_name(dealer_position))


def _e_game_started(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str | None:
    number = int(ev.data["game_number"])
    if number == 0:
        return None
    return t("event.euchre.game_started", loc, number=number + 1)


def _e_hand_dealt(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
    return t(
        "event.euchre.hand_dealt",
        loc,
        number=int(ev.data["hand_number"]) + 1,
        dealer=name_of(int(ev.data["dealer"])),
        card=card_text(ev.data["turned_card"]),
    )


def _e_bid(kind: str) -> Callable[[Any, NameOf, str | None, NameOf], str]:
    def render(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
        key = f"event.euchre.{kind}" + (".alone" if ev.data.get("alone") else "")
        return t(
            key,
            loc,
            player=name_of(ev.seat),
            card=card_text(ev.data["card"]),
            suit=suit_text(ev.data["suit"]),
        )

    return render


def _e_called(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
    key = "event.euchre.called" + (".alone" if ev.data.get("alone") else "")
    style = t(f"event.euchre.called.{ev.data['style']}", loc)
    return t(key, loc, player=name_of(ev.seat), suit=suit_text(ev.data["suit"]), style=style)


def _e_simple(key: str) -> Callable[[Any, NameOf, str | None, NameOf], str]:
    def render(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
        return t(key, loc, player=name_of(ev.seat) if ev.seat is not None else "")

    return render


def _e_suit_named(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
    return t(
        "event.euchre.suit_named", loc, player=name_of(ev.seat), suit=suit_text(ev.data["suit"])
    )


def _e_turned_down(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
    return t("event.euchre.turned_down", loc, card=card_text(ev.data["card"]))


def _e_went_alone(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
    return t(
        "event.euchre.went_alone",
        loc,
        player=name_of(ev.seat),
        partner=name_of(int(ev.data["partner"])),
    )


def _e_trick_won(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
    winner = ev.seat
    card = next(c["card"] for c in ev.data["cards"] if c["seat"] == winner)
    return t(
        "event.euchre.trick_won",
        loc,
        player=name_of(winner),
        number=int(ev.data["number"]),
        card=card_text(card),
    )


def _e_hand_scored(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
    data = ev.data
    return t(
        f"event.euchre.hand_scored.{data['reason']}",
        loc,
        team=team_name(int(data["scoring_team"]), loc),
        points=int(data["points"]),
        maker=name_of(int(data["maker"])),
        tricks=int(data["tricks"][int(data["makers"])]),
    )


def _e_redeal(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
    return t("event.euchre.redeal", loc, dealer=name_of(int(ev.data["next_dealer"])))


def _e_game_won(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
    scores = ev.data["scores"]
    if scores[0] == scores[1]:  # a fixed number of hands ended level (issue 34): a tie
        return t("event.euchre.game_tied", loc, score=scores[0])
    return t(
        "event.euchre.game_won",
        loc,
        team=team_name(int(ev.data["team"]), loc),
        winner_score=scores[int(ev.data["team"])],
        loser_score=scores[1 - int(ev.data["team"])],
    )


def _e_rubber_won(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
    return t(
        "event.euchre.rubber_won",
        loc,
        team=team_name(int(ev.data["team"]), loc),
        margin=ev.data["margin"],
    )


_EUCHRE: dict[str, Callable[[Any, NameOf, str | None, NameOf], str | None]] = {
    "seating_drawn": _e_seating,
    "game_started": _e_game_started,
    "hand_dealt": _e_hand_dealt,
    "suit_named": _e_suit_named,
    "passed": _e_simple("event.euchre.passed"),
    "ordered_up": _e_bid("ordered_up"),
    "assisted": _e_bid("assisted"),
    "picked_up": _e_bid("picked_up"),
    "turned_down": _e_turned_down,
    "called": _e_called,
    "dealer_discarded": _e_simple("event.euchre.dealer_discarded"),
    "went_alone": _e_went_alone,
    "stayed": _e_simple("event.euchre.stayed"),
    "trick_won": _e_trick_won,
    "hand_scored": _e_hand_scored,
    "redeal": _e_redeal,
    "game_won": _e_game_won,
    "rubber_won": _e_rubber_won,
}


# --- truco --------------------------------------------------------------------------------------


def _t_hand_dealt(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
    return t(
        "event.truco.hand_dealt",
        loc,
        number=int(ev.data["hand_number"]) + 1,
        dealer=name_of(int(ev.data["dealer"])),
        leader=name_of(int(ev.data["leader"])),
    )


def _t_team(key: str) -> Callable[[Any, NameOf, str | None, NameOf], str]:
    def render(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
        return t(key, loc, team=team_name(int(ev.data["team"]), loc))

    return render


def _t_ask(name: str) -> Callable[[Any, NameOf, str | None, NameOf], str]:
    def render(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
        return t(
            f"event.truco.{name}_asked",
            loc,
            player=name_of(ev.seat),
            value=int(ev.data["value"]),
            run_value=int(ev.data["run_value"]),
        )

    return render


def _t_accepted(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
    return t(
        "event.truco.accepted",
        loc,
        player=name_of(ev.seat),
        ask=t(f"truco.ask.{ev.data['name']}", loc),
        value=int(ev.data["value"]),
    )


def _t_ran(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
    return t(
        "event.truco.ran",
        loc,
        player=name_of(ev.seat),
        team=team_name(int(ev.data["to_team"]), loc),
        points=int(ev.data["points"]),
    )


def _t_ten_played(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
    return t(
        "event.truco.hand_of_ten_played", loc, player=name_of(ev.seat), value=int(ev.data["value"])
    )


def _t_ten_refused(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
    return t(
        "event.truco.hand_of_ten_refused",
        loc,
        player=name_of(ev.seat),
        team=team_name(int(ev.data["to_team"]), loc),
        points=int(ev.data["points"]),
    )


def _t_round_won(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
    card = ev.data["card"]
    manilha = MANILHA_NAMES.get(card)
    return t(
        "event.truco.round_won.manilha" if manilha else "event.truco.round_won",
        loc,
        player=name_of(int(ev.data["seat"])),
        number=int(ev.data["round"]) + 1,
        card=card_text(card),
        manilha=t(f"truco.manilha.{manilha}", loc) if manilha else "",
    )


def _t_round_tied(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
    return t(
        "event.truco.round_tied",
        loc,
        number=int(ev.data["round"]) + 1,
        card=card_text(ev.data["card"]),
    )


def _t_hand_won(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str | None:
    reason = ev.data["reason"]
    if reason in ("run", "hand_of_ten_refused"):
        return None  # the run / refusal line already said who scores
    scores = ev.data["scores"]
    return t(
        f"event.truco.hand_won.{reason}",
        loc,
        team=team_name(int(ev.data["team"]), loc),
        points=int(ev.data["points"]),
        score0=scores[0],
        score1=scores[1],
    )


def _t_game_won(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
    scores = ev.data["scores"]
    return t(
        "event.truco.game_won",
        loc,
        team=team_name(int(ev.data["team"]), loc),
        winner_score=scores[int(ev.data["team"])],
        loser_score=scores[1 - int(ev.data["team"])],
    )


def _t_game_started(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
    return t("event.truco.game_started", loc, number=int(ev.data["game_number"]) + 1)


def _t_match_won(ev: Any, name_of: NameOf, loc: str | None, _: NameOf) -> str:
    team = int(ev.data["team"])
    games = ev.data["games_won"]
    return t(
        "event.truco.match_won",
        loc,
        team=team_name(team, loc),
        won=games[team],
        lost=games[1 - team],
    )


_TRUCO: dict[str, Callable[[Any, NameOf, str | None, NameOf], str | None]] = {
    "hand_dealt": _t_hand_dealt,
    "hand_of_ten": _t_team("event.truco.hand_of_ten"),
    "iron_hand": lambda ev, name_of, loc, _: t("event.truco.iron_hand", loc),
    "truco_asked": _t_ask("truco"),
    "six_asked": _t_ask("six"),
    "ten_asked": _t_ask("ten"),
    "twelve_asked": _t_ask("twelve"),
    "accepted": _t_accepted,
    "ran": _t_ran,
    "hand_of_ten_played": _t_ten_played,
    "hand_of_ten_refused": _t_ten_refused,
    "round_won": _t_round_won,
    "round_tied": _t_round_tied,
    "hand_won": _t_hand_won,
    "game_won": _t_game_won,
    "game_started": _t_game_started,
    "match_won": _t_match_won,
}

LOGGED_KINDS: dict[str, frozenset[str]] = {
    "euchre": frozenset(_EUCHRE),
    "truco": frozenset(_TRUCO),
}


def cards_line(cards: list[dict[str, Any]], name_of: NameOf) -> str:
    """'Ana J♥ · Bia 9♥' for a trick or round's cards in play order."""
    return " · ".join(f"{name_of(int(c['seat']))} {card_text(c['card'])}" for c in cards)


__all__ = ["LOGGED_KINDS", "cards_line", "cards_text", "event_sentence", "team_name"]
