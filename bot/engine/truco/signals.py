"""Sinais: the partner talk of Truco Mineiro (a table option, on by default; not in the seed).

A seat may tell its partner, once per hand while the cards are being played, what it holds:
`signal:<kind>` with kind one of SIGNALS. It is an action in the game's log (so a restored
table still knows it) that changes nothing in play and makes no event: the views show it to the
sender and the partner only, and the hand history of an opponent leaves it out, so no message,
picture or look-ahead of the other pair can learn it. A person may signal what he likes (a
bluff is his); the bots signal honestly (`honest_signal`) and read their partner's
(search.py weights its sampled deals by it).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

SIGNAL_PREFIX: Final = "signal:"
# The traditional signals, strongest first: the four manilhas (T4), a three, nothing good.
# Short codes (a button's id carries them): espada is espadilha, pica pica-fumo, none "nothing
# good".
SIGNALS: Final[tuple[str, ...]] = ("zap", "copas", "espada", "pica", "three", "none")
SIGNAL_ACTIONS: Final[frozenset[str]] = frozenset(SIGNAL_PREFIX + kind for kind in SIGNALS)
# The card each manilha signal names.
SIGNAL_CARD: Final[dict[str, str]] = {
    "zap": "4C",
    "copas": "7H",
    "espada": "AS",
    "pica": "7D",
}


def kind_of(action: str) -> str:
    """`signal:zap` -> `zap`."""
    return action[len(SIGNAL_PREFIX) :]


def honest_signal(hand: Iterable[str]) -> str:
    """The signal that tells the truth about `hand`: its best manilha, else a three, else
    nothing good."""
    cards = set(hand)
    for kind, card in SIGNAL_CARD.items():
        if card in cards:
            return kind
    if any(card[0] == "3" for card in cards):
        return "three"
    return "none"


def fits(kind: str, cards: Iterable[str]) -> bool:
    """Whether `cards` (what the signaller held when he signalled) agree with `kind`: the named
    manilha held; a three held; "none": no manilha and no three."""
    cards = set(cards)
    card = SIGNAL_CARD.get(kind)
    if card is not None:
        return card in cards
    has_three = any(c[0] == "3" for c in cards)
    if kind == "three":
        return has_three
    return not has_three and not any(c in cards for c in SIGNAL_CARD.values())
