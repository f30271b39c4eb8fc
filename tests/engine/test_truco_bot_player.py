"""The rule-based Truco player: always legal, deterministic, blind to hidden cards, and better
than chance; plus its rules of thumb on hand-built deals."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.common import IllegalAction, Rng
from bot.engine.truco import Game, Options, new_game
from bot.engine.truco.bot_player import choose_action, choose_from_view

Hands = list[list[str]]
FILLER: Hands = [["4H", "5H", "6H"], ["4S", "5S", "6S"], ["QH", "JH", "KH"], ["QS", "JS", "KS"]]


def game_with(*hands: Hands, first_dealer: int = 1) -> Game:
    """Hand n gets hands[n], later hands FILLER. Dealer 1: seat 0 leads, then 3, 2, 1."""

    def deals(hand_number: int, dealer: int) -> Hands:
        return hands[hand_number] if hand_number < len(hands) else FILLER

    return new_game(Options(), 1, first_dealer=first_dealer, deals=deals)


class ViewOnly:
    """Hands the player nothing but `view`: any other access would fail."""

    def __init__(self, game: Game) -> None:
        self._game = game

    def view(self, seat: int | None) -> dict[str, Any]:
        return self._game.view(seat)


def play_game(seed: int, bots: set[int]) -> Game:
    game = new_game(Options(), seed)
    chooser = Rng(seed, 99)
    while not game.is_over:
        to_act = game.to_act
        seat = to_act[chooser.below(len(to_act))]
        if seat in bots:
            action = choose_action(game, seat)
            assert action in game.legal_actions(seat)
            assert choose_action(ViewOnly(game), seat) == action  # type: ignore[arg-type]
        else:
            legal = game.legal_actions(seat)
            action = legal[chooser.below(len(legal))]
        game.apply(seat, action)
    return game


def test_bot_always_chooses_a_legal_action_and_games_end() -> None:
    for seed in range(60):
        game = play_game(seed, {0, 1, 2, 3})
        assert game.winner in (0, 1)


def test_bot_is_deterministic_and_uses_the_view_only() -> None:
    game = play_game(5, {0, 2})
    replayed = Game.replay(game.options, game.seed, game.first_dealer, game.actions[:40])
    for seat in replayed.to_act:
        view = replayed.view(seat)
        assert choose_action(replayed, seat) == choose_from_view(view)
        assert choose_from_view(view) == choose_from_view(replayed.copy().view(seat))


def test_bot_ignores_the_cards_it_cannot_see() -> None:
    # Same hand for seat 3, different opponents' and partner's cards: same choices.
    mine = ["3S", "AH", "5S"]
    a = game_with([["KC", "4H", "6H"], ["4D", "5D", "6D"], ["QC", "QH", "JD"], mine])
    b = game_with([["KC", "7H", "AS"], ["4C", "2D", "3D"], ["QC", "2H", "7D"], mine])
    for game in (a, b):
        game.apply(0, "play:KC")
    assert a.view(3) == b.view(3)
    assert choose_action(a, 3) == choose_action(b, 3) == "play:AH"


@pytest.mark.parametrize("bots", [{0, 2}, {1, 3}])
def test_bot_pair_beats_a_random_pair(bots: set[int]) -> None:
    wins = sum(1 for seed in range(150) if play_game(seed, bots).winner == min(bots) % 2)
    assert wins >= 100  # two thirds; it wins about three quarters


def test_bot_refuses_to_act_without_legal_actions() -> None:
    game = game_with(FILLER)
    with pytest.raises(IllegalAction):
        choose_action(game, 1)


# --- rules of thumb on hand-built deals -------------------------------------------------------


def test_bot_asks_truco_with_a_strong_hand_and_leads_its_best_card_otherwise() -> None:
    strong = game_with([["4C", "7H", "AS"], ["4H", "5H", "6H"], ["7D", "3C", "3H"], FILLER[3]])
    assert choose_action(strong, 0) == "raise"
    plain = game_with([["3C", "5H", "6H"], ["4H", "5D", "6D"], ["7C", "QC", "JC"], FILLER[3]])
    assert choose_action(plain, 0) == "play:3C"


@pytest.mark.parametrize(
    "hand,answer",
    [
        (["4S", "5S", "6S"], "run"),
        (["3S", "2S", "5S"], "accept"),
        (["4C", "7H", "3S"], "raise"),
    ],
)
def test_bot_answers_an_ask_by_the_strength_of_its_hand(hand: list[str], answer: str) -> None:
    game = game_with([["4H", "5H", "6H"], ["4D", "5D", "6D"], ["QC", "JC", "KC"], hand])
    game.apply(0, "raise")
    assert choose_action(game, 3) == answer


def test_bot_accepts_when_running_would_lose_the_game() -> None:
    game = game_with([["4H", "5H", "6H"], ["4D", "5D", "6D"], ["QC", "JC", "KC"], FILLER[1]])
    for _ in range(4):  # team 0 to 8 by truco runs
        seat = game.to_act[0]
        if seat % 2:
            game.apply(seat, game.legal_actions(seat)[0])
            seat = game.to_act[0]
        game.apply(seat, "raise")
        game.apply(game.to_act[0], "run")
    assert game.scores == (8, 0)
    seat = game.to_act[0]
    assert seat % 2 == 0
    game.apply(seat, "raise")  # truco: a run gives 2 (10)
    responder = game.to_act[0]
    game.apply(responder, "raise")  # six
    game.apply(game.to_act[0], "raise")  # ten: a run gives team 0 six points, the game
    answerer = game.to_act[0]
    assert game.view(answerer)["run_value"] == 6
    assert choose_action(game, answerer) in ("accept", "raise")


def test_bot_lets_its_partner_hold_the_round_and_takes_it_cheaply_otherwise() -> None:
    game = game_with([["3C", "5H", "6H"], ["4D", "5D", "6D"], ["2C", "QD", "7C"], FILLER[1]])
    game.apply(0, "play:3C")
    game.apply(3, "play:4S")
    assert choose_action(game, 2) == "play:7C"  # partner's three holds: throw the weakest
    game.apply(2, "play:7C")
    assert choose_action(game, 1) == "play:4D"  # nothing beats a three here

    game = game_with(
        [["KC", "4H", "6H"], ["4D", "5D", "6D"], ["QC", "QH", "JD"], ["3S", "AH", "5S"]]
    )
    game.apply(0, "play:KC")
    assert choose_action(game, 3) == "play:AH"  # the cheapest card above the king


def test_bot_ties_the_first_round_when_it_cannot_win_it() -> None:
    game = game_with(
        [["KC", "4H", "6H"], ["4D", "5D", "6D"], ["QC", "QH", "JD"], ["KH", "5S", "6S"]]
    )
    game.apply(0, "play:KC")
    assert choose_action(game, 3) == "play:KH"


def _at_ten(hands: Hands) -> Game:
    game = game_with(*([FILLER] * 5), hands)
    for _ in range(5):  # team 0 to 10 by truco runs: the sixth hand is a hand of ten
        seat = game.to_act[0]
        if seat % 2:
            game.apply(seat, game.legal_actions(seat)[0])
            seat = game.to_act[0]
        game.apply(seat, "raise")
        game.apply(game.to_act[0], "run")
    assert game.phase == "hand_of_ten"
    return game


def test_bot_plays_a_strong_hand_of_ten_and_refuses_a_weak_one() -> None:
    strong = _at_ten([["4C", "7H", "KC"], ["4H", "5H", "6H"], ["AS", "3C", "QC"], FILLER[3]])
    assert choose_action(strong, 0) == choose_action(strong, 2) == "accept"
    weak = _at_ten([["4H", "5H", "6H"], ["4C", "7H", "KC"], ["4S", "5S", "QS"], FILLER[2]])
    assert choose_action(weak, 0) == choose_action(weak, 2) == "run"
    # The partner's cards count: seat 0 alone is weak, the pair is not.
    shared = _at_ten([["4H", "5H", "6H"], ["4S", "5S", "6S"], ["4C", "3C", "QC"], FILLER[3]])
    assert choose_action(shared, 0) == "accept"
