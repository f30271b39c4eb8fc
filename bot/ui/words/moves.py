"""A move named inside a sentence, as players say it: "call clubs", "order up", "pass",
"go alone", "ask seis", "J♥" (a card played is shown as the card).

The hand message's buttons name the same actions as labels (bot.ui.table.render `_action_label`,
capitalised, with suit symbols); a review line reads "you chose call clubs — mistake", so it
takes these lower-case phrases with the suit's name. `moment` is the seat's view at the move
(any subset of "phase", "seat", "dealer", "raise_name"); without it an euchre order reads
"order up" and a truco raise "ask truco".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.common import team_of
from bot.texts import t
from bot.ui.words.cards import card_text


def suit_name(suit: str, locale: str | None) -> str:
    """ "C" -> "clubs" (in the locale's words)."""
    return t(f"suit.{suit}", locale)


def move_text(
    game: str, action: str, locale: str | None, moment: Mapping[str, Any] | None = None
) -> str:
    moment = moment or {}
    verb, _, rest = action.partition(":")
    if verb == "play":
        return card_text(rest)
    if game == "euchre":
        return _euchre_move(verb, rest, locale, moment)
    return _truco_move(verb, rest, locale, moment)


def _euchre_move(verb: str, rest: str, locale: str | None, moment: Mapping[str, Any]) -> str:
    alone = rest.endswith("alone")
    if verb == "order":
        seat, dealer = moment.get("seat"), moment.get("dealer")
        who = "opponent"
        if seat is not None and dealer is not None:
            if seat == dealer:
                who = "dealer"
            elif team_of(seat) == team_of(dealer):
                who = "partner"
        move = t(f"move.euchre.order.{who}", locale)
    elif verb in ("call", "name"):
        move = t(f"move.euchre.{verb}", locale, suit=suit_name(rest.split(":")[0], locale))
    elif verb == "discard":
        move = t("move.euchre.discard", locale, card=card_text(rest))
    else:  # pass, alone, stay
        return t(f"move.euchre.{verb}", locale)
    return t("move.euchre.solo", locale, move=move) if alone else move


def _truco_move(verb: str, rest: str, locale: str | None, moment: Mapping[str, Any]) -> str:
    if verb == "cover":
        return t("move.truco.cover", locale, card=card_text(rest))
    if verb == "raise":
        ask = t(f"truco.ask.{moment.get('raise_name') or 'truco'}", locale)
        return t("move.truco.raise", locale, ask=ask)
    if moment.get("phase") == "hand_of_ten":
        return t(f"move.truco.hand_of_ten.{verb}", locale)
    return t(f"move.truco.{verb}", locale)  # accept, run
