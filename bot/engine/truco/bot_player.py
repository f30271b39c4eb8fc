"""A simple rule-based Truco player: deterministic, and it decides from `game.view(seat)` only, so
it never sees a card its seat could not see (the partner's only in a hand of ten, T13).

The rules of thumb:
- a hand's power counts manilhas 2, threes and twos 1, plus 2 per round the pair has won and
  minus 2 per round lost;
- ask (raise) when the power is high, accept when it is fair, run when it is poor; never run
  when the points given away would end the game;
- play a hand of ten when the pair's six cards hold two twos, threes or manilhas;
- lead the strongest card; otherwise play the cheapest card that takes the round, let the
  partner's winning card stand with the weakest, tie when a tie wins the hand, else throw the
  weakest;
- sinais: on its first turn to play in a hand it tells its partner, honestly, its best
  manilha, a three, or nothing good (`signal_to_send`; the table sends it before the card);
- coberta (T15): a card thrown below the round's best cannot take or tie it, so it goes face
  down when covering is allowed (it tells the other pair nothing).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.common import IllegalAction
from bot.engine.protocol import GameProtocol
from bot.engine.truco.cards import FACE_DOWN, STRENGTH
from bot.engine.truco.game import COVER_PREFIX
from bot.engine.truco.signals import SIGNAL_PREFIX, honest_signal

RAISE_POWER = 4  # ask or counter-raise at this power or more
ACCEPT_POWER = 2  # accept at this power or more
STRONG = STRENGTH["2C"]  # twos, threes and manilhas
MANILHA = STRENGTH["7D"]  # the lowest manilha
# A card face down in the round (T15) beats and ties nothing.
_STRENGTH = {**STRENGTH, FACE_DOWN: -1}


def signal_to_send(view: dict[str, Any]) -> str | None:
    """Sinais: the honest signal of the seat's hand, sent once a hand on its first turn to play
    (before its card), when the table plays with signals; else None."""
    signals = view.get("signals")
    if not signals or not signals["can_send"] or view["phase"] != "play":
        return None
    if view["turn"] != view["seat"]:
        return None
    return SIGNAL_PREFIX + honest_signal(view["hand"])


def choose_action(game: GameProtocol, seat: int) -> str:
    return choose_from_view(game.view(seat))


def choose_from_view(view: dict[str, Any]) -> str:
    legal: list[str] = view["legal_actions"]
    if not legal:
        raise IllegalAction(f"seat {view['seat']} has nothing to do now")
    phase = view["phase"]
    if phase == "hand_of_ten":
        return _hand_of_ten(view)
    if phase == "answer":
        return _answer(view, legal)
    power = _power(view)
    if "raise" in legal and power >= RAISE_POWER:
        return "raise"
    card = _card_to_play(view)
    cover = COVER_PREFIX + card
    if cover in legal and view["trick"]:
        best = max(_STRENGTH[entry["card"]] for entry in view["trick"])
        if STRENGTH[card] < best:
            return cover
    return "play:" + card


def card_power(cards: Sequence[str]) -> int:
    """Manilhas count 2, threes and twos 1 (the look-ahead's reading of the other seats counts
    alike: inference.py)."""
    power = 0
    for card in cards:
        value = STRENGTH[card]
        power += 2 if value >= MANILHA else 1 if value >= STRONG else 0
    return power


def round_standing(winners: Sequence[int | None], team: int) -> int:
    """2 per round `team` won, minus 2 per round it lost (`winners`: each round's pair, None
    for a tie)."""
    return sum(2 if w == team else -2 for w in winners if w is not None)


def _power(view: dict[str, Any]) -> int:
    team = view["seat"] % 2
    return card_power(view["hand"]) + round_standing(
        [played["winner_team"] for played in view["rounds"]], team
    )


def _hand_of_ten(view: dict[str, Any]) -> str:
    # Refusing never ends the game (the other pair is at most 8), so weigh the six cards only.
    cards = list(view["hand"]) + list(view["partner_hand"] or [])
    strong = sum(1 for card in cards if STRENGTH[card] >= STRONG)
    return "accept" if strong >= 2 else "run"


def _answer(view: dict[str, Any], legal: list[str]) -> str:
    team = view["seat"] % 2
    asked = view["pending_ask"]
    power = _power(view)
    if "raise" in legal and power >= RAISE_POWER + 1:
        return "raise"
    if power >= ACCEPT_POWER:
        return "accept"
    if view["scores"][asked["by_team"]] + view["run_value"] >= view["target"]:
        return "accept"  # running would lose the game anyway
    if view["scores"][team] + asked["value"] >= view["target"] and power >= ACCEPT_POWER - 1:
        return "accept"  # a fair chance to win the game on this hand
    return "run"


def _card_to_play(view: dict[str, Any]) -> str:
    hand: list[str] = sorted(view["hand"], key=lambda card: (STRENGTH[card], card))
    trick: Sequence[dict[str, Any]] = view["trick"]
    if not trick:
        return hand[-1]  # lead the strongest
    seat = view["seat"]
    team = seat % 2
    best = max(_STRENGTH[entry["card"]] for entry in trick)
    teams_on_top = {entry["seat"] % 2 for entry in trick if _STRENGTH[entry["card"]] == best}
    if teams_on_top == {team}:
        return hand[0]  # the partner holds the round: keep the good cards
    beating = [card for card in hand if STRENGTH[card] > best]
    if beating:
        return beating[0]  # the cheapest card that takes the round
    tying = [card for card in hand if STRENGTH[card] == best]
    if tying and _tie_helps(view, team):
        return tying[0]
    return hand[0]


def _tie_helps(view: dict[str, Any], team: int) -> bool:
    """A tie in the first round leaves the hand to the next; later it helps only the pair that
    won the first round (T8)."""
    rounds = view["rounds"]
    return not rounds or rounds[0]["winner_team"] == team
