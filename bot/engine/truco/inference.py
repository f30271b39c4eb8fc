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
# How much a deal counts when the other pair's cards look too poor for an answer it gave.
_WEAK_ACCEPT: Final = 0.5
_WEAK_RAISE: Final = 0.8
_WEAK_POWER: Final = 2  # the rule player accepts at 2 (bot_player.ACCEPT_POWER)
# Deals redrawn to fit the partner's signal before one that does not is taken.
SIGNAL_TRIES: Final = 12


def _power(cards: list[str]) -> int:
    power = 0
    for card in cards:
        value = STRENGTH[card]
        power += 2 if value >= _MANILHA else 1 if value >= _STRONG else 0
    return power


class Reading:
    """The seat's reading of this hand's history (its own view of it)."""

    __slots__ = ("after_signal", "partner", "signal", "team", "their_accepts", "their_raises")

    def __init__(self, view: dict[str, Any], history: list[tuple[int, str]]) -> None:
        seat: int = view["seat"]
        self.team = seat & 1
        self.partner = (seat + 2) % 4
        self.signal: str | None = None
        self.after_signal: list[str] = []  # the partner's cards played since its signal
        self.their_accepts = 0
        self.their_raises = 0
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
        return float(_WEAK_ACCEPT**self.their_accepts * _WEAK_RAISE**self.their_raises)
