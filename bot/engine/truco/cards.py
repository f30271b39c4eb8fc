"""Truco Mineiro cards: the 40-card deck (T2), the ranking (T4, T5) and the seeded deal (T3).

A card is a two-character code, rank then suit: ranks `A 2 3 4 5 6 7 J Q K`, suits `C D H S`.
`"4C"` is the zap, `"7H"` copas, `"AS"` espadilha, `"7D"` ouros.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.engine.common import InvalidOptions, hand_rng

RANKS: Final = "A234567JQK"
SUITS: Final = "CDHS"

# T2: a 52-card deck without the 8s, 9s and 10s, in a fixed order (the shuffle starts from it).
DECK: Final[tuple[str, ...]] = tuple(rank + suit for suit in SUITS for rank in RANKS)
DECK_SET: Final[frozenset[str]] = frozenset(DECK)

HAND_SIZE: Final = 3
CARDS_DEALT: Final = 4 * HAND_SIZE

# T4: the manilhas, high to low: zap, copas, espadilha, ouros.
MANILHAS: Final[tuple[str, ...]] = ("4C", "7H", "AS", "7D")
MANILHA_NAMES: Final[dict[str, str]] = {
    "4C": "zap",
    "7H": "copas",
    "AS": "espadilha",
    "7D": "ouros",
}
# T5: every other card by face alone, high to low; suits do not matter.
COMMON_ORDER: Final = "32AKJQ7654"


def _strength_table() -> dict[str, int]:
    table: dict[str, int] = {}
    for card in DECK:
        # Commons take 0..9 by face (4 lowest), so equal faces get equal strength (a tie, T6).
        table[card] = len(COMMON_ORDER) - 1 - COMMON_ORDER.index(card[0])
    for place, card in enumerate(MANILHAS):
        table[card] = len(COMMON_ORDER) + len(MANILHAS) - 1 - place
    return table


# The hot path looks strength up here instead of computing it: one dict access per card.
STRENGTH: Final[dict[str, int]] = _strength_table()


def strength(card: str) -> int:
    """Higher beats lower; equal strengths tie (T6). Manilhas are 10..13, commons 0..9."""
    return STRENGTH[card]


def is_manilha(card: str) -> bool:
    return card in MANILHA_NAMES


def display_key(card: str) -> tuple[int, int]:
    """Strongest first; equal faces by suit, so every seat sees the same stable order."""
    return (-STRENGTH[card], SUITS.index(card[1]))


def sort_for_display(cards: Sequence[str]) -> list[str]:
    return sorted(cards, key=display_key)


# --- the deal ------------------------------------------------------------------------------------

# One uniform 64-bit draw carries all twelve Fisher-Yates picks (40 * 39 * ... * 29 < 2**62), so
# a deal costs one or two PRNG calls instead of twelve. Draws at or above the largest multiple of
# the product are rejected, which keeps every pick exactly uniform.
_PICKS: Final[tuple[int, ...]] = tuple(range(len(DECK), len(DECK) - CARDS_DEALT, -1))
_PICK_PRODUCT: Final = 1
for _n in _PICKS:
    _PICK_PRODUCT *= _n
_DRAW_LIMIT: Final = (1 << 64) - ((1 << 64) % _PICK_PRODUCT)
del _n


def seeded_deal(seed: int, hand_number: int, dealer: int, next_seat: Sequence[int]) -> list[list[str]]:
    """The four hands (indexed by seat) of hand `hand_number`: a partial Fisher-Yates shuffle of
    DECK drawn from `hand_rng(seed, hand_number)`, dealt one card at a time from the player after
    the dealer, in turn order."""
    rng = hand_rng(seed, hand_number)
    draw = rng.next64()
    while draw >= _DRAW_LIMIT:
        draw = rng.next64()
    deck = list(DECK)
    hands: list[list[str]] = [[], [], [], []]
    seat = dealer
    last = len(deck) - 1
    for n in _PICKS:
        draw, j = divmod(draw, n)
        # Fisher-Yates from the end: the picked card moves to the end and leaves the pool.
        card = deck[j]
        deck[j] = deck[last]
        last -= 1
        seat = next_seat[seat]
        hands[seat].append(card)
    for hand in hands:
        hand.sort(key=display_key)
    return hands


def checked_hands(hands: object) -> list[list[str]]:
    """A hand-built deal (tests, puzzles): four lists of three distinct cards of the deck."""
    if not isinstance(hands, list | tuple) or len(hands) != 4:
        raise InvalidOptions("a deal is four hands, indexed by seat")
    out: list[list[str]] = []
    seen: set[str] = set()
    for hand in hands:
        if not isinstance(hand, list | tuple) or len(hand) != HAND_SIZE:
            raise InvalidOptions(f"each hand has {HAND_SIZE} cards")
        for card in hand:
            if not isinstance(card, str) or card not in DECK_SET:
                raise InvalidOptions(f"not a card of the 40-card deck: {card!r}")
            if card in seen:
                raise InvalidOptions(f"card dealt twice: {card}")
            seen.add(card)
        out.append(sorted(hand, key=display_key))
    return out
