"""T15, the `coberta` house rule (not in the seed): from the second round of a hand on, a card may
be played face down; it beats and ties nothing, and its face stays hidden until the hand ends.

first_dealer=1, so seat 0 leads and a round goes 0, 3, 2, 1 (T1, T3). In DEAL seat 0 takes the
first round with 3C and leads the second.
"""

from __future__ import annotations

import json

import pytest

from bot.engine.common import IllegalAction, InvalidOptions
from bot.engine.truco import Game, Options, bot_player, new_game, search
from bot.engine.truco.cards import FACE_DOWN
from tests.support.coberta import DEAL, FIRST_ROUND, coberta_game, play

Hands = list[list[str]]


def snapshot(game: Game) -> str:
    views = [game.view(seat) for seat in (None, 0, 1, 2, 3)]
    return json.dumps([game.to_json(), views, [e.to_dict() for e in game.events]], sort_keys=True)


def test_T15_off_by_default_as_in_the_seed() -> None:
    assert Options().coberta is False and Options().to_dict() == {"target": 12}
    game = coberta_game(coberta=False)
    play(game, FIRST_ROUND)
    assert not [a for a in game.legal_actions(0) if a.startswith("cover:")]
    before = snapshot(game)
    with pytest.raises(IllegalAction):
        game.apply(0, "cover:4C")
    assert snapshot(game) == before


def test_T15_no_covering_in_the_first_round() -> None:
    game = coberta_game()
    assert game.legal_actions(0) == ["play:4C", "play:3C", "play:6H", "raise"]
    before = snapshot(game)
    with pytest.raises(IllegalAction):
        game.apply(0, "cover:4C")
    assert snapshot(game) == before


def test_T15_from_the_second_round_every_card_may_be_covered() -> None:
    game = coberta_game()
    play(game, FIRST_ROUND)
    assert game.legal_actions(0) == [
        "play:4C",
        "play:6H",
        "cover:4C",
        "cover:6H",
        "raise",
    ]
    with pytest.raises(IllegalAction):
        game.apply(0, "cover:7H")  # not in the hand


def test_T15_a_covered_card_beats_nothing() -> None:
    game = coberta_game()
    play(game, FIRST_ROUND)
    events = play(game, {0: "cover:4C", 3: "play:6D", 2: "play:5H", 1: "play:5D"})
    won = events[0]
    assert won.kind == "round_won" and won.data["seat"] == 3 and won.data["team"] == 1
    assert won.data["cards"][0] == {"seat": 0, "card": FACE_DOWN}


def test_T15_a_covered_card_ties_nothing() -> None:
    game = coberta_game()
    play(game, FIRST_ROUND)
    # 6H face up would tie 6D (T6); face down it leaves the round to 6D.
    events = play(game, {0: "cover:6H", 3: "play:6D", 2: "play:5H", 1: "play:5D"})
    assert events[0].kind == "round_won" and events[0].data["seat"] == 3


def test_T15_a_round_of_four_covered_cards_is_tied() -> None:
    game = coberta_game()
    play(game, FIRST_ROUND)
    events = play(game, {0: "cover:6H", 3: "cover:6D", 2: "cover:5H", 1: "cover:5D"})
    assert [e.kind for e in events] == ["round_tied", "hand_won", "hand_dealt"]
    assert events[0].data["card"] == FACE_DOWN
    # T8: second round tied, the first round's winner takes the hand.
    assert events[1].data["team"] == 0 and events[1].data["reason"] == "tie_rule"
    assert sorted(c["card"] for c in events[1].data["covered"]) == ["5D", "5H", "6D", "6H"]


def test_T15_the_face_is_hidden_from_every_view_until_the_hand_ends() -> None:
    game = coberta_game()
    play(game, FIRST_ROUND)
    game.apply(0, "cover:4C")
    for seat in (None, 0, 1, 2, 3):
        view = game.view(seat)
        assert "4C" not in json.dumps(view), seat
        assert view["trick"] == [{"seat": 0, "card": FACE_DOWN}]
    for seat in (1, 2, 3):
        assert game.hand_history(seat)[-1] == (0, "cover:?")
    assert game.hand_history(0)[-1] == (0, "cover:4C")  # its own card, known to it
    events = play(game, {3: "play:6D", 2: "play:5H", 1: "play:5D"})
    assert "4C" not in json.dumps([e.to_dict() for e in game.events])
    assert "4C" not in json.dumps(game.view(None))
    # The third round ends the hand; then its covered card is shown.
    events = play(game, {3: "play:7D", 2: "play:AS", 1: "play:7H", 0: "play:6H"})
    hand_won = next(e for e in events if e.kind == "hand_won")
    assert hand_won.data["team"] == 1
    assert hand_won.data["covered"] == [{"seat": 0, "card": "4C"}]


def test_T15_a_run_shows_the_covered_cards_of_the_round_in_play() -> None:
    game = coberta_game()
    play(game, FIRST_ROUND)
    game.apply(0, "cover:4C")
    game.apply(3, "raise")
    events = game.apply(0, "run")
    hand_won = next(e for e in events if e.kind == "hand_won")
    assert hand_won.data["covered"] == [{"seat": 0, "card": "4C"}]


def test_T15_the_option_is_stored_and_replayed() -> None:
    options = Options.from_dict({"target": 12, "coberta": True})
    assert options.coberta and options.to_dict() == {"target": 12, "coberta": True}
    with pytest.raises(InvalidOptions):
        Options(coberta="yes")  # type: ignore[arg-type]
    game = coberta_game()
    play(game, FIRST_ROUND)
    game.apply(0, "cover:4C")
    again = Game.from_json(game.to_json(), deals=lambda _n, _d: DEAL)
    assert again == game and snapshot(again) == snapshot(game)


def test_T15_bots_cover_from_what_they_may_see() -> None:
    # Both players play whole games with coberta; the look-ahead replays each hand from
    # `cover:?` in its history, drawing the hidden faces itself.
    covers = 0
    for seed in range(3):
        game = new_game(Options(coberta=True, target=6), seed)
        step = 0
        while not game.is_over:
            seat = game.to_act[0]
            if seat % 2:
                action = search.choose_action(game, seat, 8, step)
            else:
                action = bot_player.choose_action(game, seat)
            assert action in game.legal_actions(seat)
            covers += action.startswith("cover:")
            game.apply(seat, action)
            step += 1
    assert covers > 0


def test_T15_the_look_ahead_does_not_depend_on_a_hidden_face() -> None:
    # Two deals that differ only in the card seat 0 covers: seat 3's view and history are the
    # same, and so is every figure the look-ahead gives it.
    other = [["7C", "3C", "6H"], *DEAL[1:]]
    values = []
    for deal in (DEAL, other):
        game = new_game(Options(coberta=True), 3, first_dealer=1, deals=lambda _n, _d, d=deal: d)
        play(game, FIRST_ROUND)
        game.apply(0, "cover:" + deal[0][0])
        view, history = game.view(3), game.hand_history(3)
        values.append(search.evaluate(view, history, 20, 5))
    assert values[0] == values[1]
    assert any(action.startswith("cover:") for action, _ in values[0])
