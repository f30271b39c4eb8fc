"""What the other seats' bids say about their cards, and what a hand's points are worth at the
score, for the look-ahead (search.py).

Inference: uniform deals (only voids ruled out) weigh every hand alike, yet a seat that passed
the turned bower rarely holds three trumps to go with it, and one that ordered up rarely holds
nothing. Each sampled deal counts by how well the other seats' bids fit their sampled hands
under the rule player's measure of a hand (bot_player.strength): a bid that hand would not have
made counts for less (a weight, not a rule: people bid otherwise). Voids, the trumping in and
the throwing off, are rules already (search.py deals them out).

Score: a hand's points are worth what they do to the chance of winning the game (`win_chance`:
each hand a draw of the usual outcomes), so one point at 9-9 weighs what it is worth and a
euchre near 10 is feared as it should be.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from bot.engine.common import partner_of
from bot.engine.euchre.bot_player import ALONE_AT, ORDER_AT, strength
from bot.engine.euchre.cards import SUIT_OF_CODE

# A bid the sampled hand would not have made: how much the deal counts.
_PASSED_STRONG: Final = 0.3  # passed with a hand the rule player orders with
_BID_WEAK: Final = 0.35  # ordered / called with a hand well below an order
_ALONE_WEAK: Final = 0.3  # went alone well below a loner
_MARGIN: Final = 4.0  # how far under the threshold a bid counts as weak
# One hand's outcomes for one pair, by points (the other pair's are the same): from play.
_OUTCOMES: Final = ((1, 0.33), (2, 0.13), (4, 0.04))


@cache
def win_chance(ours: int, theirs: int, target: int) -> float:
    """Our chance of reaching `target` first if every hand from here is a draw of the usual
    outcomes (one, two or four points to either pair)."""
    if ours >= target:
        return 1.0
    if theirs >= target:
        return 0.0
    total = 0.0
    for points, chance in _OUTCOMES:
        total += chance * (
            win_chance(ours + points, theirs, target) + win_chance(ours, theirs + points, target)
        )
    return total


def bid_weight(
    bids: list[tuple[int, str]],
    start: list[list[int]],
    seat: int,
    dealer: int,
    turned: int,
    turned_suit: int,
) -> float:
    """How much a deal (`start`: each seat's five dealt cards) counts by the other seats' bids
    (`bids`: this hand's bidding actions in order)."""
    weight = 1.0
    round_two = False
    for s, action in bids:
        second = round_two
        if action == "pass" and s == dealer:
            round_two = True  # the dealer's pass turns the card down
        if s == seat:
            continue
        cards = start[s]
        if not second and action in ("pass", "order", "order:alone"):
            value = strength(cards, turned_suit)
            help_ = strength([turned], turned_suit)
            if s == dealer:
                value += help_
            else:
                value += help_ / 2 if s == partner_of(dealer) else -help_ / 2
        elif action.startswith("call:"):
            value = strength(cards, SUIT_OF_CODE[action[5]])
        elif action == "pass":  # round two: his best suit but the turned one
            value = max(strength(cards, t) for t in range(4) if t != turned_suit)
        else:
            continue
        if action == "pass":
            if value >= ORDER_AT:
                weight *= _PASSED_STRONG
        elif value < ORDER_AT - _MARGIN:
            weight *= _BID_WEAK
        elif action.endswith(":alone") and value < ALONE_AT - 2 * _MARGIN:
            weight *= _ALONE_WEAK
    return weight
