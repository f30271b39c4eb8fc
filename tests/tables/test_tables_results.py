"""Per-player statistics and the GameResult of finished games.

The statistics come from the engine's events; these tests count the same things a second way,
from the action log and the public views, over many seeded random games.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine.common import team_of
from bot.tables.games import rules_for
from bot.tables.records import SeatRecord, TableRecord
from bot.tables.results import STATS, build_result, player_stats


def random_game(game_name: str, options: dict[str, Any], seed: int) -> tuple[Any, list[Any]]:
    """A finished random game and the public view before each action."""
    rules = rules_for(game_name)
    game = rules.new_game(rules.normalise_options(options), seed)
    rng = random.Random(seed)
    before = []
    while not game.is_over:
        seat = rng.choice(game.to_act)
        action = rng.choice(game.legal_actions(seat))
        before.append((seat, action, game.view(None)))
        game.apply(seat, action)
    return game, before


EUCHRE_OPTIONS = [
    {},
    {"alone": "maker"},
    {"stick_the_dealer": True, "joker": True},
    {"match": "rubber", "target": 5},
]


@pytest.mark.parametrize("options", EUCHRE_OPTIONS)
def test_euchre_statistics_agree_with_the_action_log(options: dict[str, Any]) -> None:
    for seed in range(40):
        game, before = random_game("euchre", options, seed)
        stats = player_stats("euchre", game.events)
        made_trump = [0] * 4
        alone = [0] * 4
        for seat, action, view in before:
            verb = action.split(":")[0]
            if view["phase"] in ("bidding1", "bidding2") and verb in ("order", "call"):
                made_trump[seat] += 1
            if action == "alone" or action.endswith(":alone"):
                alone[seat] += 1
        assert [s["made_trump"] for s in stats] == made_trump
        assert [s["alone_calls"] for s in stats] == alone
        for seat in range(4):
            s = stats[seat]
            # Every hand with trump made is scored: the maker made it or got euchred.
            assert s["made_it"] + s["got_euchred"] == s["made_trump"]
            assert s["lone_marches"] <= s["marches"] and s["lone_marches"] <= s["alone_calls"]
        euchres = sum(s["got_euchred"] for s in stats)
        # Each euchre credits the one or two defenders who played it.
        assert euchres <= sum(s["euchred_others"] for s in stats) <= 2 * euchres


@pytest.mark.parametrize("seed", range(60))
def test_truco_statistics_agree_with_the_action_log(seed: int) -> None:
    game, before = random_game("truco", {}, seed)
    stats = player_stats("truco", game.events)
    expected = [dict.fromkeys(STATS["truco"], 0) for _ in range(4)]
    for seat, action, view in before:
        phase = view["phase"]
        if action == "raise":
            expected[seat]["truco_asks"] += 1
        elif phase == "answer" and action in ("accept", "run"):
            expected[seat]["accepted" if action == "accept" else "ran"] += 1
        elif phase == "hand_of_ten":
            key = "hands_of_ten_played" if action == "accept" else "hands_of_ten_refused"
            for s in range(4):
                if team_of(s) == team_of(seat):
                    expected[s][key] += 1
    for seat in range(4):
        expected[seat]["iron_hands_won"] = stats[seat]["iron_hands_won"]
    assert stats == expected
    iron_wins = {s: stats[s]["iron_hands_won"] for s in range(4)}
    if any(iron_wins.values()):
        # T14: the iron hand decides the game, so only the winners have one.
        assert all(team_of(s) == game.winner for s, n in iron_wins.items() if n)


@pytest.mark.parametrize(
    ("game_name", "options"), [("euchre", {"match": "rubber", "target": 5}), ("truco", {})]
)
def test_the_result_names_every_seat_and_the_final_score(
    game_name: str, options: dict[str, Any]
) -> None:
    game, _ = random_game(game_name, options, 3)
    rules = rules_for(game_name)
    seats = [SeatRecord(10 + p, f"P{p}") for p in range(3)] + [SeatRecord(None, "Bot 4", True)]
    record = TableRecord(
        id=5,
        guild_id=1,
        channel_id=2,
        host_id=10,
        game=game_name,
        options=rules.normalise_options(options),
        status="playing",
        version=9,
        seats=seats,
        seed=game.seed,
        first_dealer=game.first_dealer,
        started_at=100.0,
    )
    result = build_result(record, [0, 1, 2, 3], game, 200.0)
    assert result.scores == game.scores and result.winner_team == game.winner
    assert result.hands_played == game.hand_number + 1
    assert [p.seat for p in result.players] == [0, 1, 2, 3]
    assert [p.team for p in result.players] == [0, 1, 0, 1]
    assert result.players[3].is_bot and result.players[3].user_id is None
    assert result.actions == game.actions and (result.started_at, result.ended_at) == (100, 200)
    if game_name == "euchre":
        assert result.margin is not None and result.margin == game.margin
    else:
        assert result.margin is None


def test_a_game_in_progress_has_no_result() -> None:
    rules = rules_for("truco")
    game = rules.new_game(rules.normalise_options({}), 1)
    record = TableRecord(
        id=5,
        guild_id=1,
        channel_id=2,
        host_id=10,
        game="truco",
        options={},
        seats=[SeatRecord(p, "x") for p in range(4)],
        seed=1,
    )
    with pytest.raises(ValueError, match="not over"):
        build_result(record, [0, 1, 2, 3], game, 1.0)
