"""Regression scenarios named after real complaints about card-game bots (issue 35), each a
position the hard look-ahead must get right at its real budget (bot_moves.ITERATIONS), for a few
seeds. Rule ids: E6-E10 (euchre bidding, going alone), E13 (following), T9-T13 (truco's asks,
the hand of ten)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.euchre import Options as EuchreOptions
from bot.engine.euchre import new_game as new_euchre
from bot.engine.euchre import search as euchre_search
from bot.engine.truco import Options as TrucoOptions
from bot.engine.truco import search as truco_search
from bot.engine.truco.game import Game as TrucoGame
from bot.engine.truco.search import bluff_rate
from bot.tables.bot_moves import ITERATIONS

EUCHRE_HARD = ITERATIONS["euchre"]["hard"]
TRUCO_HARD = ITERATIONS["truco"]["hard"]
SEEDS = (1, 2, 3)


def euchre(hands: list[list[str]], kitty: list[str], dealer: int, **options: Any) -> Any:
    return new_euchre(
        EuchreOptions(**options), 0, first_dealer=dealer, deals=lambda _n, _d: (hands, kitty)
    )


def hard(game: Any, seat: int, seed: int) -> str:
    return euchre_search.choose_action(game, seat, EUCHRE_HARD, seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_weak_loner_is_not_called(seed: int) -> None:
    """E15: "their alone calls made us want to find another app". The right bower, the ace and
    the nine of trump and two poor cards order up, but alone they lose the march and risk the
    euchre: the bot orders with its partner."""
    hands = [
        ["JH", "AH", "9H", "KS", "QC"],
        ["9S", "TS", "JS", "QS", "AS"],
        ["9C", "TC", "JC", "KC", "AC"],
        ["9D", "TD", "JD", "QD", "KD"],
    ]
    game = euchre(hands, ["TH", "QH", "KH", "AD"], dealer=3, alone="maker")
    assert game.to_act == [0] and "order:alone" in game.legal_actions(0)
    assert hard(game, 0, seed) == "order"


@pytest.mark.parametrize("seed", SEEDS)
def test_ordering_up_into_the_partners_bower(seed: int) -> None:
    """E7: the partner deals and turns the right bower; with the ace and queen of trump and two
    off aces beside it, the pair holds the hand: order it up (the partner picks up the bower)."""
    hands = [
        ["9S", "TS", "JS", "9C", "TC"],
        ["AH", "QH", "AS", "AC", "9D"],
        ["KS", "QS", "JC", "QC", "KC"],
        ["TD", "JD", "QD", "KD", "AD"],
    ]
    # Seat 3 deals: seat 0 bids first, then seat 1 (the dealer's partner).
    game = euchre(hands, ["JH", "9H", "TH", "KH"], dealer=3)
    game.apply(0, "pass")
    assert game.to_act == [1]
    assert hard(game, 1, seed) == "order"


@pytest.mark.parametrize("seed", SEEDS)
def test_never_trump_the_partners_sure_winner(seed: int) -> None:
    """E13 etiquette: the partner's ace of spades holds the trick and we play last with no
    spade: we throw an off card and keep our trumps (trumping it wins nothing)."""
    hands = [
        ["9S", "9C", "TC", "9D", "TD"],
        ["AS", "QC", "KC", "JD", "QD"],
        ["TS", "JH", "AH", "KH", "AC"],
        ["9H", "QH", "KD", "AD", "JC"],
    ]
    game = euchre(hands, ["TH", "JS", "QS", "KS"], dealer=3, alone="maker")
    game.apply(0, "pass")
    game.apply(1, "pass")
    game.apply(2, "order")  # hearts; the dealer (3, us) picks up the ten
    game.apply(3, "discard:JC")
    game.apply(0, "play:9S")
    game.apply(1, "play:AS")  # the partner's ace holds the trick
    game.apply(2, "play:TS")
    assert game.to_act == [3]
    choice = hard(game, 3, seed)
    assert choice in ("play:KD", "play:AD"), choice


@pytest.mark.parametrize("seed", SEEDS)
def test_the_maker_with_both_bowers_leads_trump(seed: int) -> None:
    """E13 etiquette: a maker on lead with both bowers and the ace of trump draws the other
    pair's trumps first (a bower), so that his off ace stands later."""
    hands = [
        ["JH", "JD", "AH", "AS", "KC"],
        ["9S", "TS", "QS", "9C", "TC"],
        ["KS", "QC", "JC", "AC", "9D"],
        ["TD", "QD", "KD", "AD", "JS"],
    ]
    game = euchre(hands, ["9H", "TH", "QH", "KH"], dealer=3, alone="maker")
    game.apply(0, "order")  # hearts; the dealer picks up the nine
    game.apply(3, "discard:JS")
    assert game.to_act == [0]
    assert hard(game, 0, seed) in ("play:JH", "play:JD")


def truco(hands: list[list[str]], dealer: int, scores: tuple[int, int] = (0, 0)) -> TrucoGame:
    return TrucoGame(TrucoOptions(), 0, dealer, lambda _n, _d: hands, scores=scores)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_truco_already_lost_is_not_accepted(seed: int) -> None:
    """T9/T11: "the bot accepted a truco already lost". The other pair took the first round and
    leads the zap in the second: nothing can take the hand back, so the ask is run from (2
    points lost, not 4)."""
    # Dealer 0; seat 3 leads, then 2, 1, 0 (T1: counter-clockwise).
    hands = [["6H", "5S", "7S"], ["5H", "KS", "QD"], ["4H", "6S", "JD"], ["3C", "4C", "KC"]]
    game = truco(hands, dealer=0)
    for seat, card in ((3, "3C"), (2, "4H"), (1, "5H"), (0, "6H")):
        game.apply(seat, "play:" + card)
    game.apply(3, "play:4C")  # the zap
    game.apply(2, "play:6S")
    game.apply(1, "raise")  # truco, with the hand already theirs
    assert game.phase == "answer"
    for seat in game.to_act:
        assert truco_search.choose_action(game, seat, TRUCO_HARD, seed) == "run"


@pytest.mark.parametrize("seed", SEEDS)
def test_a_won_hand_of_ten_is_not_run_from(seed: int) -> None:
    """T13: "the bot ran from a mão de dez it had won". At 10, the pair sees its six cards:
    the zap, copas and espadilha with two threes beside them is played, never refused."""
    hands = [["4C", "3H", "5D"], ["6S", "QD", "KH"], ["7H", "AS", "3S"], ["5C", "4D", "JS"]]
    game = truco(hands, dealer=3, scores=(10, 6))
    assert game.phase == "hand_of_ten"
    for seat in game.to_act:
        assert truco_search.choose_action(game, seat, TRUCO_HARD, seed) == "accept"


def test_the_bluff_rate_comes_from_the_stakes() -> None:
    """Bluffs happen, at the rate that leaves the other pair no better off calling than running:
    bet / (pot + 2 bet)."""
    view = {"raise_name": "truco", "hand_value": 2, "pending_ask": None}
    assert bluff_rate(view) == pytest.approx(1 / 3)
    view = {"raise_name": "six", "hand_value": 4, "pending_ask": {"value": 4}}
    assert bluff_rate(view) == pytest.approx(1 / 4)
    assert bluff_rate({"raise_name": None, "hand_value": 2, "pending_ask": None}) == 0.0
