"""The look-ahead's reading of the table (issue 35): euchre deals weighted by the bids (E6, E7),
the game's win chance at a score (E21), truco deals weighted by the other pair's accepts (T9)."""

from __future__ import annotations

from bot.engine.euchre.cards import CARD_OF_CODE, SUIT_OF_CODE
from bot.engine.euchre.inference import bid_weight, win_chance
from bot.engine.truco.inference import Reading


def cards(*codes: str) -> list[int]:
    return [CARD_OF_CODE[c] for c in codes]


HEARTS = SUIT_OF_CODE["H"]
WEAK = cards("9C", "TC", "9D", "TS", "QS")
STRONG = cards("JD", "AH", "KH", "QH", "AC")  # the left bower and three hearts


def test_a_seat_that_passed_the_turned_bower_rarely_holds_the_rest_of_trump() -> None:
    """E7: seat 1 passed the turned jack of hearts: a deal giving it three more hearts and the
    left bower counts for less than one giving it nothing."""
    turned = CARD_OF_CODE["JH"]
    bids = [(1, "pass")]
    strong = [WEAK, STRONG, WEAK, WEAK]
    weak = [WEAK, WEAK, WEAK, WEAK]
    assert bid_weight(bids, strong, 0, 3, turned, HEARTS) < bid_weight(
        bids, weak, 0, 3, turned, HEARTS
    )
    # Our own bids tell us nothing.
    assert bid_weight([(0, "pass")], [STRONG, WEAK, WEAK, WEAK], 0, 3, turned, HEARTS) == 1.0


def test_an_order_makes_a_strong_hand_likelier() -> None:
    turned = CARD_OF_CODE["9H"]
    bids = [(1, "order")]
    assert bid_weight(bids, [WEAK, WEAK, WEAK, WEAK], 0, 3, turned, HEARTS) < 1.0
    assert bid_weight(bids, [WEAK, STRONG, WEAK, WEAK], 0, 3, turned, HEARTS) == 1.0


def test_the_win_chance_knows_the_score() -> None:
    """E21: a point at 9-9 wins the game; at 0-0 it is worth little."""
    assert win_chance(10, 3, 10) == 1.0 and win_chance(3, 10, 10) == 0.0
    assert abs(win_chance(0, 0, 10) - 0.5) < 1e-9
    at_nine = win_chance(10, 9, 10) - win_chance(9, 10, 10)
    at_zero = win_chance(1, 0, 10) - win_chance(0, 1, 10)
    assert at_nine > 5 * at_zero
    # A two-point march is worth no more than a point at 9.
    assert win_chance(11, 9, 10) == win_chance(10, 9, 10)


def test_a_truco_accepted_by_the_other_pair_makes_poor_hands_for_it_rarer() -> None:
    view = {"seat": 0, "partner_hand": None}
    reading = Reading(view, [(3, "play:4H"), (0, "raise"), (1, "accept")])
    poor = [[], ["4S", "5S"], [], ["6S", "7C"]]
    rich = [[], ["4C", "3S"], [], ["2S", "7C"]]
    played: list[list[str]] = [[], [], [], ["4H"]]
    assert reading.weight(poor, played) < reading.weight(rich, played) == 1.0
    # Nothing said by the other pair: every deal counts alike.
    assert Reading(view, [(3, "play:4H")]).weight(poor, played) == 1.0
