"""The pieces of the leaderboard UI without Discord: strict custom ids, and the hand-by-hand log
of many real games of every option (replayed by the engines) cut into pages within Discord's
limits, whole hands per page, nothing lost. Also a garbled id on a real message, answered."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.client import CardTableBot
from bot.storage import FinishedGame, FinishedPlayer, GameKindRecord, PlayerStats
from bot.texts import t
from bot.ui.boards.history import log_message
from bot.ui.boards.stats_record import stats_message
from bot.ui.kit.custom_ids import (
    BoardId,
    HistoryId,
    LogId,
    parse_board_id,
    parse_history_id,
    parse_log_id,
)
from bot.ui.words.game_log import LOG_PAGE_CHARS, log_pages, paginate
from tests.support.leaderboard import play_out
from tests.support.world import World, raw_channel_message

BIGGEST = 2**63 - 1


def test_custom_ids_round_trip_and_stay_short() -> None:
    for board in (BoardId("euchre", "all", 0), BoardId("truco", "week", 99_999)):
        assert parse_board_id(str(board)) == board
    for history in (HistoryId(None, 0), HistoryId("truco", 12)):
        assert parse_history_id(str(history)) == history
    for log in (LogId(1, None), LogId(BIGGEST, 99_999), LogId(42, 0)):
        assert parse_log_id(str(log)) == log
    assert len(str(LogId(BIGGEST, 99_999))) <= 100


@pytest.mark.parametrize(
    "custom_id",
    [
        "lb:poker:all:0",
        "lb:euchre:year:0",
        "lb:euchre:all:01",
        "lb:euchre:all:-1",
        "lb:euchre:all:1:2",
        "lb:euchre:all:100000",
        "lb:euchre:all:",
        "hi:both:0",
        "hi:all:x",
        "hl:0",
        "hl:007",
        f"hl:{BIGGEST + 1}",
        "hl:5:",
        "hl:5:01",
        "hl:5:1:2",
        " hl:5",
    ],
)
def test_garbled_custom_ids_are_refused(custom_id: str) -> None:
    assert parse_board_id(custom_id) is None
    assert parse_history_id(custom_id) is None
    assert parse_log_id(custom_id) is None


def finished(
    game: str, options: dict[str, Any], seed: int, bots: set[int]
) -> tuple[FinishedGame, Any]:
    """A FinishedGame as storage returns it, of a game the engine played to the end (and that
    game)."""
    played = play_out(game, options, seed)
    players = [
        FinishedPlayer(
            seat=seat,
            team=seat % 2,
            user_id=None if seat in bots else 100 + seat,
            is_bot=seat in bots,
            name=f"Bot {seat + 1}" if seat in bots else f"p*{seat}_x",  # markdown in names
            won=seat % 2 == played.winner,
            stats={},
            rating_before=None,
            rating_after=None,
        )
        for seat in range(4)
    ]
    stored = FinishedGame(
        id=seed,
        guild_id=1,
        channel_id=2,
        table_id=3,
        game=game,
        options=dict(options),
        seed=seed,
        first_dealer=played.first_dealer,
        actions=list(played.actions),
        started_at=0.0,
        ended_at=1_800_000_000.0,
        hands_played=played.hand_number + 1,
        scores=(played.scores[0], played.scores[1]),
        winner_team=int(played.winner),
        margin=None,
        players=players,
    )
    return stored, played


EUCHRE_OPTIONS: list[dict[str, Any]] = [
    {"target": 5},
    {"target": 10, "match": "rubber", "seating": "draw"},
    {"target": 7, "deck": 32, "joker": True, "stick_the_dealer": True, "alone": "maker"},
    {"target": 10, "deck": 28, "lead": "left_of_dealer", "seating": "draw"},
]
TRUCO_OPTIONS: list[dict[str, Any]] = [{"target": 12}, {"target": 24}, {"target": 6}]


def test_every_log_fits_discord_and_keeps_every_hand() -> None:
    rng = random.Random(3)
    checked = 0
    for game, variants in (("euchre", EUCHRE_OPTIONS), ("truco", TRUCO_OPTIONS)):
        for seed in range(1, 25):
            options = variants[seed % len(variants)]
            bots = set(rng.sample(range(4), rng.randrange(0, 3)))
            stored, played = finished(game, options, seed, bots)
            header, pages = log_pages(stored)
            dealt = [e for e in played.events if e.kind == "hand_dealt"]
            text = "\n\n".join(pages)
            assert len(re.findall(r"^\*\*Hand \d+: ", text, re.MULTILINE)) == len(dealt)
            assert "p\\*0\\_x" in header or 0 in bots  # names escaped as typed
            for number, page in enumerate(pages):
                assert len(header) + 2 + len(page) <= LOG_PAGE_CHARS
                if number:
                    assert page.startswith(("**Hand", "Game")), page[:80]
                message = log_message(stored, number)
                assert message.embed is not None
                assert len(message.embed) <= 6000 and len(message.embed.description or "") <= 4096
            checked += 1
    assert checked == 48


def test_paginate_keeps_whole_blocks_and_cuts_only_oversized_ones() -> None:
    rng = random.Random(9)
    for _ in range(200):
        budget = rng.randrange(60, 400)
        blocks = [
            [f"line {b}.{i} " + "x" * rng.randrange(0, 70) for i in range(rng.randrange(1, 12))]
            for b in range(rng.randrange(1, 15))
        ]
        pages = paginate(blocks, budget)
        assert all(len(page) <= budget for page in pages)
        shown = [line for page in pages for line in page.split("\n") if line]
        assert shown == [line[:budget] for block in blocks for line in block]
        for block in blocks:
            text = "\n".join(block)
            if len(text) <= budget:
                assert any(text in page for page in pages), "a block that fits is never split"


async def test_a_garbled_button_is_answered_not_ignored(
    world: World, running_bot: CardTableBot
) -> None:
    # A message with buttons whose ids match the templates but not the formats (as a client
    # of an older or newer version could have left): each click gets one private sentence.
    payload = {
        "content": "old buttons",
        "components": [
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 2, "label": label, "custom_id": custom_id}
                    for label, custom_id in (
                        ("a", "lb:euchre:forever:0"),
                        ("b", "hi:all:-3"),
                        ("c", "hl:nope"),
                    )
                ],
            }
        ],
    }
    await raw_channel_message(running_bot, world.table.id, payload)
    message = await world.table.wait_for_message(lambda m: m.content == "old buttons")
    for label in ("a", "b", "c"):
        reply = await world.bob.click(message, label)
        assert reply.ephemeral and reply.text == t("button.invalid", world.bob.locale)


def test_long_names_keep_titles_within_discord_limits() -> None:
    record = GameKindRecord(
        game="truco",
        name="x",
        games=4,
        wins=3,
        win_pct=75.0,
        rating=1100,
        rank=1,
        ranked_players=1,
        stats={"truco_asks": 2},
    )
    stats = PlayerStats(guild_id=1, user_id=2, name="x", records={"truco": record})
    message = stats_message(stats, "_" * 32, "*" * 100)
    assert not isinstance(message, str) and message.embed is not None
    assert len(message.embed.title or "") <= 256
    assert "Truco asks and raises: **2**" in (message.embed.fields[0].value or "")
    assert "Mão de ferro won: **0**" in (message.embed.fields[0].value or "")
