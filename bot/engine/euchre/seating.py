"""E2, option seating=draw: the draw for partners and the first deal.

Every player (a lobby position 0..3) draws a card from one shuffled deck, ranked K (high), Q,
J, 10, 9, 8, 7, A (low). Players drawing equal cards draw again, among themselves, until every
position has a distinct place. The lowest card takes seat 0 and deals first, the other low card
seat 2; the highest card seat 1 and the other high card seat 3. The joker takes no part in the
draw (the seeds rank no joker for it).
"""

from __future__ import annotations

from typing import Any

from bot.engine.common import Rng
from bot.engine.euchre.cards import CODES, DRAW_VALUE, JOKER

# Ascending order of the draw -> seat: lowest deals (seat 0), partners sit opposite.
_SEAT_BY_PLACE = (0, 2, 3, 1)


def draw_for_seats(rng: Rng, deck: tuple[int, ...]) -> tuple[list[list[dict[str, Any]]], list[int]]:
    """(rounds drawn, seat_of_position). Round 0 is every position; each later round is the
    re-draw of the positions still tied with someone."""
    codes = [CODES[c] for c in deck if c != JOKER]
    pile: list[str] = []
    keys: dict[int, list[int]] = {p: [] for p in range(4)}
    rounds: list[list[dict[str, Any]]] = []
    drawing = [0, 1, 2, 3]
    while drawing:
        this_round: list[dict[str, Any]] = []
        for position in drawing:
            if not pile:  # a long run of ties used up the spread: shuffle a fresh one
                pile = rng.shuffled(codes)
            card = pile.pop()
            keys[position].append(DRAW_VALUE[card[0]])
            this_round.append({"position": position, "card": card})
        rounds.append(this_round)
        # Positions whose draws so far equal another's must draw again; ties only ever arise
        # inside one group of re-drawers, so comparing the whole key lists is exact.
        drawing = [p for p in drawing if any(q != p and keys[q] == keys[p] for q in drawing)]
    order = sorted(range(4), key=lambda p: keys[p])
    seat_of_position = [0] * 4
    for place, position in enumerate(order):
        seat_of_position[position] = _SEAT_BY_PLACE[place]
    return rounds, seat_of_position
