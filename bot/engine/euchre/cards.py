"""Cards of Euchre as small integers, with every ranking precomputed (E4–E7).

The public codes are two characters, rank then suit (`"JH"`, `"TS"`), and `"JO"` for the
joker. Inside the engine a card is an int: `suit * 8 + rank` with suits C D H S = 0..3 and
ranks 7 8 9 T J Q K A = 0..7; the joker is 32. Tables indexed by card id replace every
comparison in the hot path: `EFFECTIVE_SUIT[trump][card]` (the left bower and the joker belong
to trump, E5/E6) and `TRICK_POWER[trump][led][card]` (who wins a trick, E17).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from bot.engine.common import MASK64, Rng

T = TypeVar("T")

SUITS = "CDHS"
RANKS = "789TJQKA"
JOKER = 32
JOKER_CODE = "JO"
NUM_CARD_IDS = 33
JACK = RANKS.index("J")
NO_SUIT = -1

CODES: tuple[str, ...] = (*(r + s for s in SUITS for r in RANKS), JOKER_CODE)
CARD_OF_CODE: dict[str, int] = {code: i for i, code in enumerate(CODES)}
SUIT_OF_CODE: dict[str, int] = {s: i for i, s in enumerate(SUITS)}


def card_id(code: str) -> int:
    return CARD_OF_CODE[code]


def suit_of(card: int) -> int:
    """Printed suit (NO_SUIT for the joker)."""
    return NO_SUIT if card == JOKER else card // 8


def rank_of(card: int) -> int:
    """Rank index 0 (7) .. 7 (A); the joker ranks above everything (8)."""
    return 8 if card == JOKER else card % 8


def same_colour(suit: int) -> int:
    """♣↔♠ and ♦↔♥ (suit indexes C=0, D=1, H=2, S=3)."""
    return 3 - suit


def _deck_for(size: int, joker: bool) -> tuple[int, ...]:
    lowest = {24: RANKS.index("9"), 28: RANKS.index("8"), 32: RANKS.index("7")}[size]
    cards = tuple(s * 8 + r for s in range(4) for r in range(lowest, 8))
    return (*cards, JOKER) if joker else cards


_DECKS = {(size, joker): _deck_for(size, joker) for size in (24, 28, 32) for joker in (False, True)}


def deck_for(size: int, joker: bool) -> tuple[int, ...]:
    """E4: 24 cards (9..A), 28 (8..A) or 32 (7..A), plus the joker if asked."""
    return _DECKS[size, bool(joker)]


# --- precomputed rankings ----------------------------------------------------------------------


def _effective_suit(trump: int, card: int) -> int:
    if card == JOKER:
        return trump
    suit, rank = divmod(card, 8)
    if rank == JACK and suit == same_colour(trump):
        return trump  # the left bower (E5)
    return suit


def _trump_power(trump: int, card: int) -> int:
    """Joker > right bower > left bower > A K Q T 9 8 7 of trump (E5, E6); all above 20."""
    if card == JOKER:
        return 30
    if card == trump * 8 + JACK:
        return 29
    if card == same_colour(trump) * 8 + JACK:
        return 28
    return 20 + card % 8


EFFECTIVE_SUIT: tuple[tuple[int, ...], ...] = tuple(
    tuple(_effective_suit(t, c) for c in range(NUM_CARD_IDS)) for t in range(4)
)

# TRICK_POWER[trump][led][card]: trumps beat the suit led, which beats the rest (-1, E17).
TRICK_POWER: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(
            _trump_power(t, c)
            if EFFECTIVE_SUIT[t][c] == t
            else (c % 8 if EFFECTIVE_SUIT[t][c] == led else -1)
            for c in range(NUM_CARD_IDS)
        )
        for led in range(4)
    )
    for t in range(4)
)

# Display order: suits alternate colours (♠ ♥ ♣ ♦), high cards first; once trump is known,
# trump comes first, the joker and the bowers at its head.
_DISPLAY_SUITS = (SUITS.index("S"), SUITS.index("H"), SUITS.index("C"), SUITS.index("D"))


def _display_key(trump: int, card: int) -> int:
    if trump == NO_SUIT:
        if card == JOKER:
            return -1
        return _DISPLAY_SUITS.index(card // 8) * 10 + (7 - card % 8)
    if EFFECTIVE_SUIT[trump][card] == trump:
        return 30 - _trump_power(trump, card)
    order = [s for s in _DISPLAY_SUITS if s != trump]
    return 100 + order.index(card // 8) * 10 + (7 - card % 8)


DISPLAY_KEY: tuple[tuple[int, ...], ...] = tuple(
    tuple(_display_key(t, c) for c in range(NUM_CARD_IDS)) for t in (*range(4), NO_SUIT)
)  # DISPLAY_KEY[trump] with trump = NO_SUIT (-1) picking the last row


def display_sorted(cards: Sequence[int], trump: int) -> list[str]:
    keys = DISPLAY_KEY[trump]
    return [CODES[c] for c in sorted(cards, key=keys.__getitem__)]


# --- E2: ranking for the draw for partners -----------------------------------------------------

# K (high), Q, J, 10, 9, 8, 7, A (low); higher value = higher card.
DRAW_VALUE: dict[str, int] = {r: v for v, r in enumerate("A789TJQK")}


# --- drawing cards ------------------------------------------------------------------------------

_TWO64 = MASK64 + 1
_CHUNKS: dict[tuple[int, int], tuple[tuple[int, int, int, int], ...]] = {}


def _chunks(size: int, count: int) -> tuple[tuple[int, int, int, int], ...]:
    """Radices size, size - 1, ..., size - count + 1 (one per card drawn) grouped so that each
    group's product fits in 64 bits: (first radix, last radix exclusive, product, rejection
    limit = the largest multiple of the product not above 2**64)."""
    out = []
    radix, last = size, size - count
    while radix > last:
        prod, stop = 1, radix
        while stop > last and prod * stop <= _TWO64:
            prod *= stop
            stop -= 1
        out.append((radix, stop, prod, _TWO64 - _TWO64 % prod))
        radix = stop
    return tuple(out)


def draw_cards(rng: Rng, deck: Sequence[T], count: int) -> tuple[list[T], list[T]]:
    """Draw `count` cards one by one, each uniformly from those left: (drawn in order, the rest).

    Each draw needs an index uniform in [0, cards left); several are read as mixed-radix digits
    of one 64-bit value of `rng`, taken below a multiple of their radices' product (rejection,
    so no modulo bias). Only `Rng.next64` and integer arithmetic: the same cards on every
    machine. A deal (21 of 24 cards) takes two draws of the generator instead of 21.
    """
    pool = list(deck)
    key = (len(pool), count)
    chunks = _CHUNKS.get(key)
    if chunks is None:
        chunks = _CHUNKS[key] = _chunks(len(pool), count)
    drawn = []
    pop = pool.pop
    for first, stop, prod, limit in chunks:
        value = rng.next64()
        while value >= limit:
            value = rng.next64()
        value %= prod
        for radix in range(first, stop, -1):
            drawn.append(pop(value % radix))
            value //= radix
    return drawn, pool


# The deal of a hand, as `draw_cards(rng, deck, 21)` draws it, straight into hand masks: a
# function per deck, `deal(state, dealer) -> (hand masks by seat, kitty with the turned card
# first)`, with `state` where the draws start (`hand_state(...)`: the Rng of `hand_rng(...)`
# without making one).
DealPlan = Callable[[int, int], tuple[list[int], list[int]]]

_SMALL = 1 << 30


def _groups(radices: Sequence[int]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Radices in groups whose product is under 2**30: a group's digits are then read from a
    one-digit int (CPython's fast path) instead of the 64-bit value."""
    out: list[tuple[tuple[int, ...], int]] = []
    group: list[int] = []
    prod = 1
    for radix in radices:
        if group and prod * radix >= _SMALL:
            out.append((tuple(group), prod))
            group, prod = [], 1
        group.append(radix)
        prod *= radix
    if group:
        out.append((tuple(group), prod))
    return tuple(out)


_SEATS = ("first", "second", "third", "fourth", "turned")  # five cards each from the left


def deal_plan(deck: Sequence[int]) -> DealPlan:
    """E8: a uniform deal, exactly the cards of `draw_cards(rng, deck, 21)` (five each clockwise
    from the dealer's left, then the turned card), as (hand masks by seat, kitty with the
    turned card first): bits are drawn instead of ids, so a hand is five ORs.

    A deal is the hot spot of a hand that is dealt, played quickly and scored
    (scripts/bench_euchre.py), so the function is written out for the deck, as Python source
    made here from its radices: Rng.next64 inline, each card drawn straight into its hand, the
    radices as constants and no loop (a third less time than the same steps in loops)."""
    lines = ["def deal(state, dealer):", "    pool = list(BITS)"]
    drawn = 0
    for first, stop, prod, limit in _chunks(len(deck), 21):
        lines += [
            "    while True:",
            "        state = (state + 0x9E3779B97F4A7C15) & MASK64",
            "        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64",
            "        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64",
            "        value = z ^ (z >> 31)",
            f"        if value < {limit}:",
            "            break",
            f"    value %= {prod}",
        ]
        # Mixed-radix digits, lowest first: a group's digits are those of value % its product.
        for radices, group_prod in _groups(range(first, stop, -1)):
            lines += [f"    part = value % {group_prod}", f"    value //= {group_prod}"]
            for i, radix in enumerate(radices):
                into = "=" if drawn % 5 == 0 else "|="
                lines.append(f"    {_SEATS[drawn // 5]} {into} pool.pop(part % {radix})")
                if i + 1 < len(radices):
                    lines.append(f"    part //= {radix}")
                drawn += 1
    lines += [
        "    kitty = [turned.bit_length() - 1]",
        "    for bit in pool:",
        "        kitty.append(bit.bit_length() - 1)",
        "    if dealer == 0:",
        "        return [fourth, first, second, third], kitty",
        "    if dealer == 1:",
        "        return [third, fourth, first, second], kitty",
        "    if dealer == 2:",
        "        return [second, third, fourth, first], kitty",
        "    return [first, second, third, fourth], kitty",
    ]
    scope: dict[str, Any] = {"BITS": tuple(1 << c for c in deck), "MASK64": MASK64}
    # The source is made above from this deck's ints only; its name is what a profile or a
    # traceback shows for it.
    exec(compile("\n".join(lines), f"<euchre deal of {len(deck)} cards>", "exec"), scope)
    deal: DealPlan = scope["deal"]
    return deal


# --- hands as bit masks (the hot path) ---------------------------------------------------------

BIT: tuple[int, ...] = tuple(1 << c for c in range(NUM_CARD_IDS))

# SUIT_MASK[trump][suit]: the cards whose suit, with that trump, is `suit` (E5, E6).
SUIT_MASK: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(BIT[c] for c in range(NUM_CARD_IDS) if EFFECTIVE_SUIT[t][c] == s) for s in range(4))
    for t in range(4)
)


# LEAD[trump][card]: what leading `card` fixes for its trick, read in one lookup on the hot
# path: (the suit led, SUIT_MASK of that suit = the cards that follow it, the trick's power
# row TRICK_POWER[trump][led]).
LEAD: tuple[tuple[tuple[int, int, tuple[int, ...]], ...], ...] = tuple(
    tuple(
        (led, SUIT_MASK[t][led], TRICK_POWER[t][led])
        for led in (EFFECTIVE_SUIT[t][c] for c in range(NUM_CARD_IDS))
    )
    for t in range(4)
)


def mask_of(cards: Sequence[int]) -> int:
    mask = 0
    for c in cards:
        mask |= BIT[c]
    return mask


def cards_in(mask: int) -> list[int]:
    """The card ids of a mask, lowest id first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
