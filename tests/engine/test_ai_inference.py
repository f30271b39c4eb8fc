"""The look-ahead's reading of the table (issue 35): euchre deals weighted by the bids (E6, E7),
the game's win chance at a score (E21), truco deals weighted by the other pair's accepts and
raises seat by seat (T9), and the other pair's answers to our asks modelled on its cards."""

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


def test_the_betting_record_counts_asks_answers_and_runs() -> None:
    """T9-T11: a raise back is an answer and an ask; a run answers; the hand-of-ten accept (T13,
    no ask pending) is no answer."""
    from bot.engine.truco.game import betting_record

    log = [
        (1, "raise"),  # pair 1 asks truco
        (0, "raise"),  # pair 0 raises back: an answer
        (1, "accept"),
        (2, "play:4H"),
        (3, "raise"),
        (0, "run"),
        (1, "accept"),  # a hand-of-ten decision: nothing pending
    ]
    record = betting_record(log, 2)
    assert record == {
        "raises": [1, 2],
        "accepts": [0, 1],
        "runs": [1, 0],
        "answers": [2, 1],
        "hands": 2,
    }


def test_an_always_raise_bluffers_raises_and_accepts_tell_nothing() -> None:
    """T9: a pair that raised in every hand and never ran: its raises and accepts leave a poor
    deal counting as much as a rich one, it is not counted on to run from our raise, and it is
    counted on to raise whatever it holds. An honest pair that raises now and then still makes
    poor deals rarer."""
    from bot.engine.truco.inference import Bettor

    bluffer = {"raises": [0, 14], "accepts": [0, 4], "runs": [3, 0], "answers": [5, 8], "hands": 10}
    view = {"seat": 0, "partner_hand": None, "betting": bluffer}
    history = [(1, "raise"), (0, "raise"), (1, "raise"), (0, "accept")]
    poor = [[], ["4S", "5S"], [], ["6S", "7C"]]
    played: list[list[str]] = [[], [], [], []]
    assert Reading(view, history).weight(poor, played) == 1.0
    reading = Bettor(bluffer, 1)
    assert reading.runs < 0.3 and reading.reckless == 1.0
    honest = {"raises": [0, 3], "accepts": [0, 2], "runs": [3, 2], "answers": [5, 4], "hands": 10}
    careful = Bettor(honest, 1)
    assert careful.weak_raise < 0.5 and careful.runs == 1.0 and careful.reckless == 0.0
    assert Reading({**view, "betting": honest}, history).weight(poor, played) < 0.5
    # No record (an old view): the prior, which mostly believes a raise.
    assert 0.0 < Bettor(None, 1).weak_raise < 0.5 and Bettor(None, 1).runs == 1.0
    assert Bettor(None, 1).follows == 0.0


def test_a_pair_that_never_runs_pays_off_a_strong_hand() -> None:
    """T9-T11: against a pair that answers at its best on the cards, our truco with a hand won
    nine times in ten is worth the run it draws; against one that never runs (an always-raise
    bluffer) it is worth playing at the stakes it raises to, and more."""
    from bot.engine.truco.search import _Stakes, win_chance

    honest = _Stakes((0, 0), 12)
    bluffer = _Stakes((0, 0), 12, runs=0.0, reckless=1.0)
    assert bluffer.ask(0.9, 0, 2, True) > honest.ask(0.9, 0, 2, True)
    # Their choice: a reckless pair raises whatever the values say.
    choices = [("run", 0.9), ("accept", 0.6), ("raise", 0.7)]
    assert honest.their(choices) == 0.6 and bluffer.their(choices) == 0.7
    # A later hand better than a coin: the score is worth more, and a game staked on one hand
    # at 0-0 less than it.
    assert win_chance(0, 0, 12, 0.6) > win_chance(0, 0, 12) == 0.5


def test_a_truco_is_weighed_on_the_cards_of_the_seat_that_asked() -> None:
    """T9 (issue 35, policy inference): the rule player asks with a power of 4 (bot_player): a
    deal where the asker holds little counts far less, whatever its partner holds, and a first
    raise is mostly believed before the game shows how the pair bets (people bluff: not wholly)."""
    first_hand = {
        "raises": [0, 1],
        "accepts": [0, 0],
        "runs": [0, 0],
        "answers": [0, 0],
        "hands": 1,
    }
    view = {"seat": 0, "partner_hand": None, "rounds": [], "betting": first_hand}
    reading = Reading(view, [(3, "raise")])
    strong_asker = [[], ["4S", "5S", "6S"], [], ["4C", "7H", "5C"]]  # two manilhas at seat 3
    weak_asker = [[], ["4C", "7H", "AS"], [], ["4S", "5S", "6S"]]  # the manilhas at seat 1
    assert reading.weight(strong_asker, [[]] * 4) == 1.0
    assert 0.0 < reading.weight(weak_asker, [[]] * 4) < 0.5
    # The cards it has played since count as held when it asked.
    later = Reading(
        {**view, "rounds": []}, [(3, "raise"), (0, "accept"), (3, "play:4C"), (0, "play:5D")]
    )
    assert later.weight([[], [], [], ["7H", "5C"]], [[], [], [], ["4C"]]) == 1.0


def test_a_round_won_counts_in_the_askers_power() -> None:
    """T7, T9: a pair that took the first round asks with less in hand (the rule player counts
    2 a round won): one three left after a round won is a power of 3, short by one."""
    history = [(1, "play:4D"), (2, "play:5D"), (3, "play:3C"), (0, "play:6D"), (3, "raise")]
    won = Reading({"seat": 0, "partner_hand": None, "rounds": [{"winner_team": 1}]}, history)
    lost = Reading({"seat": 0, "partner_hand": None, "rounds": [{"winner_team": 0}]}, history)
    hands = [["KD", "QD"], ["JS", "QS"], ["KC", "QC"], ["3S", "4H"]]
    assert won.weight(hands, [[]] * 4) > lost.weight(hands, [[]] * 4)
    assert won.weight([[], [], [], ["3S", "2S"]], [[]] * 4) == 1.0


def test_a_bluffers_raise_and_an_honest_pairs_answers_are_read_as_they_bet() -> None:
    """T9-T11: `follows` (how far a pair's answers to our asks follow its cards) is shown only
    by running: 0 for a pair that never ran (an always-raise bluffer), 1 for a pair that ran
    from half its answers (the rule player), nothing known before any answer."""
    from bot.engine.truco.inference import Bettor

    never = {"raises": [2, 6], "accepts": [0, 3], "runs": [1, 0], "answers": [2, 5], "hands": 4}
    often = {"raises": [3, 1], "accepts": [0, 2], "runs": [1, 2], "answers": [1, 4], "hands": 4}
    fresh = {"raises": [0, 0], "accepts": [0, 0], "runs": [0, 0], "answers": [0, 0], "hands": 1}
    assert Bettor(never, 1).follows == 0.0
    assert Bettor(often, 1).follows == 1.0
    assert Bettor(fresh, 1).follows == 0.0
