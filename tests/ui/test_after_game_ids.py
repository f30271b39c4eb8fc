"""The after-game custom ids (issue 22): made and parsed back; anything else is refused."""

from __future__ import annotations

import pytest

from bot.ui.kit.custom_ids import (
    AfterGameId,
    EndedGameId,
    PostStatsId,
    after_game_id,
    ended_game_at,
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


def test_end_of_game_ids_name_the_game_by_its_start_not_its_seed() -> None:
    """Fair deals' seeds are 256-bit (78 digits): the id carries the game's start instead,
    short whatever the seed; the older seed form still parses."""
    custom_id = ended_game_at(2**63 - 1, 1_780_000_000.1234, "review")
    assert custom_id == f"ge:{2**63 - 1}:t1780000000123:review" and len(custom_id) <= 100
    assert parse_ended_game(custom_id) == EndedGameId(2**63 - 1, None, "review", 1780000000123)
    assert parse_ended_game("ge:7:12345678901234567890:open") == EndedGameId(
        7, 12345678901234567890, "open"
    )


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
        f"ge:1:t{2**63}:open",
        "ge:1:t:open",
        "ge:1:t012:open",
        "ge:1:x12:open",
        "ps:1:poker",
    ],
)
def test_forged_after_game_ids_are_refused(forged: str) -> None:
    assert parse_after_game(forged) is None
    assert parse_ended_game(forged) is None
    assert parse_post_stats(forged) is None
