"""What the other seats' choices this hand say about their cards, for the look-ahead's samples
(search.py): the partner's signal (sinais) narrows the partner's cards, and the other pair's
accepts and raises make strong hands for them likelier.

Uniform deals weigh every hand of the other pair alike; a pair that accepted a truco rarely
holds nothing, so a deal where it does counts less (a weight, not a rule: people accept
weak hands too, and a bluffer raises with anything, so a raise counts for less than an accept).
The partner's signal is a rule for the deals drawn (an honest bot's signal is the truth): a
signalled manilha still unseen is put in the partner's hand (swapped with a card of it), a three
or "nothing good" is drawn again a few times; a signal no deal fits (a person's bluff) is let go.
"""

from __future__ import annotations

from typing import Any, Final

from bot.engine.common import Rng
from bot.engine.truco.cards import STRENGTH
from bot.engine.truco.signals import SIGNAL_ACTIONS, SIGNAL_CARD, fits, kind_of

_STRONG: Final = STRENGTH["2C"]  # twos, threes and manilhas (as the rule player counts them)
_MANILHA: Final = STRENGTH["7D"]
# How much a deal counts when the other pair's cards look too poor for an answer it gave,
# before the game shows how that pair bets (`Bettor`).
_WEAK_ACCEPT: Final = 0.5
_WEAK_RAISE: Final = 0.8
# The least a weak deal counts per raise or accept, however honest the pair looks.
_WEAK_FLOOR: Final = 0.2
# Raises per hand of a pair that raises only on strong cards, and the prior rate (the old 0.8).
_HONEST_RATE: Final = 0.35
_PRIOR_RATE: Final = _HONEST_RATE + _WEAK_RAISE * (1 - _HONEST_RATE)
_WEAK_POWER: Final = 2  # the rule player accepts at 2 (bot_player.ACCEPT_POWER)
# Deals redrawn to fit the partner's signal before one that does not is taken.
SIGNAL_TRIES: Final = 12


def _power(cards: list[str]) -> int:
    power = 0
    for card in cards:
        value = STRENGTH[card]
        power += 2 if value >= _MANILHA else 1 if value >= _STRONG else 0
    return power


class Bettor:
    """How the other pair bets, read from the game's public betting record (the view's
    "betting"), as numbers the look-ahead uses:

    - `weak_raise` / `weak_accept`: how much a deal where the pair holds little counts per raise /
      accept this hand. A pair that raises in every hand (an always-raise bluffer) tells nothing
      by raising: its raises per hand above an honest pair's third, over the rest, capped at 1,
      is the weight (floored at 0.2: people bluff too). Accepts alike: 2 * (its share of
      answers that were not runs) - 1, so a pair that never runs tells nothing by accepting.
    - `runs`: how far the pair's answers to our asks follow its best answer on the cards, run
      included (1.0), or leave running out (0.0: a pair that never runs is not counted on to run
      from our raise): its runs per answer against a quarter, capped at 1.
    - `reckless`: how far the pair raises whatever its cards (1.0: every chance): its raises per
      hand above one half, over one half, capped at 1.

    Small samples lean on a prior that gives the fixed weights of old (0.8 a raise, 0.5 an accept,
    runs 1.0, reckless 0.0) before the game has shown anything."""

    __slots__ = ("reckless", "runs", "weak_accept", "weak_raise")

    def __init__(self, betting: dict[str, Any] | None, team: int) -> None:
        if betting is None:  # a view without the record (an old one): the fixed weights
            self.weak_raise, self.weak_accept, self.runs, self.reckless = (
                _WEAK_RAISE,
                _WEAK_ACCEPT,
                1.0,
                0.0,
            )
            return
        hands = betting["hands"]
        answers = betting["answers"][team]
        runs = betting["runs"][team]
        raises = betting["raises"][team]
        # Half a hand of prior only: games against a pair that re-raises every ask last one or
        # two hands, so its first hand must already count (one ask in hand 1: 0.33).
        per_hand = raises / (hands + 0.5)
        kept = (answers - runs + 1.5) / (answers + 2)
        # Raises per hand, the prior two hands at the rate that gives the old weight; an honest
        # pair raises in about a third of its hands (its strong ones): weight 0 there, 1 at a
        # raise every hand.
        rate = (raises + 2 * _PRIOR_RATE) / (hands + 2)
        self.weak_raise = _clip((rate - _HONEST_RATE) / (1 - _HONEST_RATE), _WEAK_FLOOR, 1.0)
        self.weak_accept = _clip(2 * kept - 1, _WEAK_FLOOR, 1.0)
        self.runs = _clip((runs + 0.5) / (answers + 1) / 0.25, 0.0, 1.0)
        self.reckless = _clip((per_hand - 0.5) / 0.5, 0.0, 1.0)


def _clip(value: float, low: float, high: float) -> float:
    return low if value < low else high if value > high else value


class Reading:
    """The seat's reading of this hand's history (its own view of it)."""

    __slots__ = (
        "after_signal",
        "bettor",
        "partner",
        "signal",
        "team",
        "their_accepts",
        "their_raises",
    )

    def __init__(self, view: dict[str, Any], history: list[tuple[int, str]]) -> None:
        seat: int = view["seat"]
        self.team = seat & 1
        self.partner = (seat + 2) % 4
        self.signal: str | None = None
        self.after_signal: list[str] = []  # the partner's cards played since its signal
        self.their_accepts = 0
        self.their_raises = 0
        self.bettor = Bettor(view.get("betting"), 1 - self.team)
        for s, action in history:
            if s == self.partner and action in SIGNAL_ACTIONS:
                self.signal = kind_of(action)
                self.after_signal = []
            elif s == self.partner and self.signal is not None and ":" in action:
                card = action.split(":", 1)[1]
                if card in STRENGTH:  # a played card (a covered one of ours is seen too)
                    self.after_signal.append(card)
            elif s & 1 != self.team:
                if action == "accept":
                    self.their_accepts += 1
                elif action == "raise":
                    self.their_raises += 1
        if view.get("partner_hand") is not None:
            self.signal = None  # a hand of ten: the partner's cards are seen (T13)

    def fits_partner(self, hands: list[list[str]]) -> bool:
        """Whether the partner's drawn cards agree with its signal (True without one)."""
        if self.signal is None:
            return True
        return fits(self.signal, hands[self.partner] + self.after_signal)

    def place_signalled(
        self, hands: list[list[str]], faces: list[list[str]], unseen: set[str], rng: Rng
    ) -> None:
        """A signalled manilha the seat has not seen goes to the partner's drawn cards, swapped
        with one of them wherever the deal put it (another hand, a covered card, the rest)."""
        card = SIGNAL_CARD.get(self.signal or "")
        partner = hands[self.partner]
        if card is None or card not in unseen or card in partner or not partner:
            return
        i = rng.below(len(partner))
        out = partner[i]
        for held in [*hands, *faces]:
            if card in held:
                held[held.index(card)] = out
                break
        partner[i] = card

    def weight(self, hands: list[list[str]], played: list[list[str]]) -> float:
        """How much a deal counts, by the other pair's answers this hand."""
        if not self.their_accepts and not self.their_raises:
            return 1.0
        other = 1 - self.team
        cards = hands[other] + hands[other + 2] + played[other] + played[other + 2]
        if _power(cards) >= _WEAK_POWER:
            return 1.0
        bettor = self.bettor
        return float(bettor.weak_accept**self.their_accepts * bettor.weak_raise**self.their_raises)
