"""Truco matches, best of 3 or 5 ("melhor de três"): the table option `match`. No rule id in
rules/truco.md names it; it works as euchre's rubber (E22): the next game starts at 0-0 right
after the hand that won the last one, the deal keeps passing, and the match is the result."""

from __future__ import annotations

import random

import pytest

from bot.engine.common import GameOver, InvalidOptions
from bot.engine.truco import Game, Options, new_game
from tests.support.truco_match import STEERED_TARGET, steered_action


def play_steered(game: Game, plan: list[int], rng: random.Random) -> None:
    """Play whole games, the winner of game k being plan[k]."""
    while not game.is_over:
        winners = plan[game.game_number]
        seat = game.to_act[0]
        game.apply(
            seat, steered_action(game.view(seat), seat, game.legal_actions(seat), winners, rng)
        )


def test_match_options_are_one_three_or_five() -> None:
    assert Options().match == 1 and "match" not in Options().to_dict()
    assert Options(match=3).to_dict()["match"] == 3
    assert Options.from_dict({"match": 5}).games_to_win == 3
    assert Options(match=3).games_to_win == 2 and Options().games_to_win == 1
    for bad in (0, 2, 4, 7, "3", True, 3.0):
        with pytest.raises(InvalidOptions):
            Options(match=bad)  # type: ignore[arg-type]


def test_T12_a_best_of_three_won_two_to_one_plays_three_games_from_zero() -> None:
    game = new_game(Options(target=STEERED_TARGET, match=3), seed=7, first_dealer=0)
    assert game.view(None)["games_won"] == [0, 0] and game.view(None)["match"] == 3
    dealers = [game.dealer]  # the first hand is dealt when the game is made
    game_won: list[dict[str, object]] = []
    started: list[tuple[int, tuple[int, int]]] = []
    rng = random.Random(1)
    while not game.is_over:
        winners = [0, 1, 0][game.game_number]
        seat = game.to_act[0]
        action = steered_action(game.view(seat), seat, game.legal_actions(seat), winners, rng)
        events = game.apply(seat, action)
        for event in events:
            if event.kind == "game_won":
                game_won.append(event.data)
            elif event.kind == "game_started":
                started.append((event.data["game_number"], game.scores))
            elif event.kind == "hand_dealt":
                dealers.append(event.data["dealer"])
    assert [d["team"] for d in game_won] == [0, 1, 0]
    assert [d["games_won"] for d in game_won] == [[1, 0], [1, 1], [2, 1]]
    assert [d["game_number"] for d in game_won] == [0, 1, 2]
    # Each next game starts at 0-0 right after the winning hand; the deal keeps passing (T3).
    assert [number for number, _ in started] == [1, 2]
    assert all(scores == (0, 0) for _, scores in started)
    assert dealers == [0, 3, 2]
    assert game.events[-1].kind == "match_won"
    assert game.events[-1].data == {"team": 0, "games_won": [2, 1], "match": 3}
    assert game.winner == 0 and game.games_won == [2, 1] and game.scores == (6, 0)
    with pytest.raises(GameOver):
        game.apply(game.dealer, "raise")
    # State = f(options, seed, actions): the match replays from its log.
    again = new_game(Options(target=STEERED_TARGET, match=3), seed=7, first_dealer=0)
    for seat, action in game.actions:
        again.apply(seat, action)
    assert again == game and again.view(None) == game.view(None)


def test_T12_a_single_game_ends_the_first_time_a_pair_reaches_the_target() -> None:
    game = new_game(Options(target=STEERED_TARGET), seed=7, first_dealer=0)
    play_steered(game, [1], random.Random(2))
    assert game.winner == 1 and game.games_won == [0, 1]
    assert [e.kind for e in game.events][-2:] == ["hand_won", "game_won"]
    assert game.events[-1].data == {"team": 1, "scores": [0, 6]}
    assert "games_won" not in game.view(None)


@pytest.mark.parametrize("match", [3, 5])
@pytest.mark.parametrize("seed", range(12))
def test_random_matches_end_when_a_pair_wins_the_majority(match: int, seed: int) -> None:
    rng = random.Random(seed)
    game = new_game(Options(target=4, match=match), seed=seed)
    while not game.is_over:
        seat = rng.choice(game.to_act)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    wins = [e.data["team"] for e in game.events if e.kind == "game_won"]
    need = match // 2 + 1
    assert wins.count(game.winner) == need and wins[-1] == game.winner
    assert wins.count(1 - game.winner) < need and len(wins) == game.game_number + 1
    assert sum(game.games_won) == len(wins)
    for event, after in zip(game.events, game.events[1:], strict=False):
        if after.kind == "game_started":
            assert event.kind == "game_won"  # the next game comes right after the win
