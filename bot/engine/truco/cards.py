"""Truco Mineiro cards: the 40-card deck (T2), the ranking (T4, T5) and the seeded deal (T3).

A card is a two-character code, rank then suit: ranks `A 2 3 4 5 6 7 J Q K`, suits `C D H S`.
`"4C"` is the zap, `"7H"` copas, `"AS"` espadilha, `"7D"` ouros.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Final

from bot.engine.common import MASK64, InvalidOptions, hand_state

RANKS: Final = "A234567JQK"
SUITS: Final = "CDHS"

# T2: a 52-card deck without the 8s, 9s and 10s, in a fixed order (the shuffle starts from it).
DECK: Final[tuple[str, ...]] = tuple(rank + suit for suit in SUITS for rank in RANKS)
DECK_SET: Final[frozenset[str]] = frozenset(DECK)

HAND_SIZE: Final = 3

# T15 (coberta): what every view and public event shows for a card played face down.
FACE_DOWN: Final = "??"

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


# Display order: strongest first, equal faces by suit, so every seat sees the same stable order.
DISPLAY_INDEX: Final[dict[str, int]] = {
    card: place
    for place, card in enumerate(
        sorted(DECK, key=lambda card: (-STRENGTH[card], SUITS.index(card[1])))
    )
}


def sort_for_display(cards: Sequence[str]) -> list[str]:
    return sorted(cards, key=DISPLAY_INDEX.__getitem__)


# --- the deal ------------------------------------------------------------------------------------

# The deal: one uniform 64-bit draw from the hand's PRNG stream picks every hand at once. Each
# player in turn takes a uniformly random 3-card combination of the cards left: there are
# C(40,3) * C(37,3) * C(34,3) * C(31,3) < 2**51 deals, so one draw holds them all (draws at or
# above the largest multiple of that count are rejected, which keeps the deal exactly uniform).
# The combinations are precomputed (28,129 index triples, i < j < k) and the pool is kept in
# display order, so every hand comes out sorted: no per-card arithmetic and no sort per deal.
_POOL_SIZES: Final = tuple(len(DECK) - HAND_SIZE * k for k in range(4))  # 40, 37, 34, 31
_COMBINATIONS: Final[tuple[tuple[tuple[int, int, int], ...], ...]] = tuple(
    tuple(itertools.combinations(range(n), HAND_SIZE)) for n in _POOL_SIZES
)
_DEAL_COUNT: Final = math.prod(len(table) for table in _COMBINATIONS)
_DRAW_LIMIT: Final = (1 << 64) - ((1 << 64) % _DEAL_COUNT)
DISPLAY_DECK: Final[tuple[str, ...]] = tuple(sorted(DECK, key=DISPLAY_INDEX.__getitem__))
_TRIPLES_40, _TRIPLES_37, _TRIPLES_34, _TRIPLES_31 = _COMBINATIONS
_COUNT_40, _COUNT_37, _COUNT_34, _COUNT_31 = (len(table) for table in _COMBINATIONS)


def seeded_deal(
    seed: int,
    hand_number: int,
    seats: Sequence[int],
    pool: Sequence[str] = DISPLAY_DECK,
) -> list[list[str]]:
    """The four hands (indexed by seat) of hand `hand_number`, drawn from
    `hand_rng(seed, hand_number)`. `seats` lists the four seats in the order they take their
    cards (from the player after the dealer, in turn order). `pool` is the deck in display order
    (the engine passes its `play:` action strings, so its hot path never converts); the hands
    keep that order."""
    # hand_rng(seed, hand_number).next64() until a draw is below the limit, written out (a
    # deal is a good part of a random hand's time: no Rng made, no call per draw).
    state = hand_state(seed, hand_number)
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        draw = z ^ (z >> 31)
        if draw < _DRAW_LIMIT:
            break
    # The four hands written out: pick a triple of the pool left, take it out (highest index
    # first, so the lower ones stay valid).
    left = list(pool)
    first, second, third, fourth = seats
    hands: list[list[str]] = [[]] * 4  # placeholders: each seat's is replaced below
    i, j, k = _TRIPLES_40[draw % _COUNT_40]
    draw //= _COUNT_40
    hands[first] = [left[i], left[j], left[k]]
    del left[k], left[j], left[i]
    i, j, k = _TRIPLES_37[draw % _COUNT_37]
    draw //= _COUNT_37
    hands[second] = [left[i], left[j], left[k]]
    del left[k], left[j], left[i]
    i, j, k = _TRIPLES_34[draw % _COUNT_34]
    draw //= _COUNT_34
    hands[third] = [left[i], left[j], left[k]]
    del left[k], left[j], left[i]
    i, j, k = _TRIPLES_31[draw % _COUNT_31]
    hands[fourth] = [left[i], left[j], left[k]]
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
        out.append(sort_for_display(hand))
    return out
