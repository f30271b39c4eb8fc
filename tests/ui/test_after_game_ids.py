"""The after-game custom ids (issue 22): made and parsed back; anything else is refused."""

from __future__ import annotations

import pytest

from bot.ui.custom_ids import (
    AfterGameId,
    EndedGameId,
    PostStatsId,
    after_game_id,
    ended_game_id,
    parse_after_game,
    parse_ended_game,
    parse_post_stats,
)


def test_after_game_ids_round_trip() -> None:
    for verb, step in (("hand", None), ("export", None), ("review", None), ("post", None)):
        assert parse_after_game(after_game_id(12, verb, step)) == AfterGameId(12, verb, step)
    for verb in ("open", "step", "jump"):
        assert parse_after_game(after_game_id(12, verb, 40)) == AfterGameId(12, verb, 40)
    assert parse_ended_game(ended_game_id(3, 2**64 - 1, "review")) == EndedGameId(
        3, 2**64 - 1, "review"
    )
    assert parse_post_stats("ps:99:all") == PostStatsId(99, None)


@pytest.mark.parametrize(
    "forged",
    [
        "ag:0:hand",  # no game 0
        "ag:12:steal",
        "ag:12:step",  # a move without its step
        "ag:12:hand:3",  # the picker takes its step from the select's value
        "ag:12:step:123456",
        "ag:12:step:-1",
        "ag:012:post",
        f"ag:{2**63}:post",
        "ag: 12:post",
        "ag:12:post ",
        "ge:1:2:post",
        f"ge:1:{2**64}:open",
        "ps:1:poker",
    ],
)
def test_forged_after_game_ids_are_refused(forged: str) -> None:
    assert parse_after_game(forged) is None
    assert parse_ended_game(forged) is None
    assert parse_post_stats(forged) is None
