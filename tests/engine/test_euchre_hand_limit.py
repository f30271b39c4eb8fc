"""Euchre with a fixed number of hands (option `hands`, a progressive euchre round, issue 23):
the game ends after that many scored hands or earlier at the target (E21); the side ahead
wins, level the side that scored the last hand. No rule id of rules/euchre.md names it."""

from __future__ import annotations

import random

import pytest

from bot.engine.common import InvalidOptions
from bot.engine.euchre import Options, new_game


def play_out(options: Options, seed: int) -> tuple[list[dict[str, object]], object]:
    rng = random.Random(seed)
    game = new_game(options, seed)
    while not game.is_over:
        seat = rng.choice(game.to_act)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    scored = [e.data for e in game.events if e.kind == "hand_scored"]
    return scored, game


@pytest.mark.parametrize("hands", [1, 2, 3])
@pytest.mark.parametrize("seed", range(15))
def test_the_game_ends_after_its_hands_and_the_side_ahead_wins(hands: int, seed: int) -> None:
    scored, game = play_out(Options(hands=hands), seed)
    scores = game.scores  # type: ignore[attr-defined]
    reached = max(scores) >= 10
    assert len(scored) == hands or (reached and len(scored) < hands)
    last = scored[-1]["scoring_team"]
    if scores[0] != scores[1]:
        assert game.winner == (0 if scores[0] > scores[1] else 1)  # type: ignore[attr-defined]
    else:
        assert game.winner == last  # type: ignore[attr-defined]
    won = [e for e in game.events if e.kind == "game_won"]  # type: ignore[attr-defined]
    assert len(won) == 1 and won[0].data["team"] == game.winner  # type: ignore[attr-defined]
    again = new_game(Options(hands=hands), seed)
    for seat, action in game.actions:  # type: ignore[attr-defined]
        again.apply(seat, action)
    assert again.view(None) == game.view(None)  # type: ignore[attr-defined]


def test_the_option_is_checked_and_written_only_when_set() -> None:
    assert "hands" not in Options().to_dict()
    assert Options(hands=2).to_dict()["hands"] == 2
    assert Options.from_dict({"hands": 3}).hands == 3
    for bad in (-1, 13, True, "2", 1.0):
        with pytest.raises(InvalidOptions):
            Options(hands=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptions):
        Options(hands=2, match="rubber")
