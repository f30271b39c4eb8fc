"""Button ids: keys only, at most 100 characters, parsed strictly; card text both ways."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine.euchre.cards import CODES as EUCHRE_CARDS
from bot.engine.truco.cards import DECK as TRUCO_CARDS
from bot.ui.kit.custom_ids import (
    GameActionId,
    TableButtonId,
    game_action_id,
    parse_game_action,
    parse_table_button,
    table_button_id,
)
from bot.ui.words.cards import card_text, cards_in_text, cards_text

BIG = 2**63 - 1
ACTIONS = [
    "play:JH",
    "play:JO",
    "discard:9C",
    "call:H:alone",
    "call:S",
    "name:D",
    "order",
    "order:alone",
    "pass",
    "alone",
    "stay",
    "raise",
    "accept",
    "run",
]


@pytest.mark.parametrize("action", ACTIONS)
def test_every_action_fits_with_the_largest_ids(action: str) -> None:
    custom_id = game_action_id(BIG, BIG, action)
    assert len(custom_id) <= 100
    assert parse_game_action(custom_id) == GameActionId(BIG, BIG, action)


def test_table_buttons_round_trip() -> None:
    for verb in ("hand", "refresh", "join", "leave", "bot", "start", "cancel", "again"):
        assert parse_table_button(table_button_id(BIG, verb)) == TableButtonId(BIG, verb)
    for position in range(4):
        assert parse_table_button(table_button_id(42, "seat", position)) == TableButtonId(
            42, "seat", position
        )
    assert table_button_id(42, "seat", 2) == "tb:42:seat:2"
    assert game_action_id(42, 17, "play:JH") == "t:42:17:play:JH"


@pytest.mark.parametrize(
    "garbled",
    [
        "t:42:17",
        "t:42:x:play:JH",
        "t:-1:17:pass",
        "t:042:17:pass",
        "t:42:17:PASS",
        "t:42:17:play:JH:x:y",
        f"t:{2**64}:1:pass",
        "t:42:17:pass ",
        "tb:42:explode",
        "tb:42:seat:4",
        "tb:42",
        "tb:x:hand",
        "t:42:17:" + "a" * 11,
        "x:42:17:pass",
    ],
)
def test_garbled_ids_are_refused(garbled: str) -> None:
    assert parse_game_action(garbled) is None
    assert parse_table_button(garbled) is None


@given(st.text(max_size=120))
def test_parsing_never_fails_on_anything(text: str) -> None:
    game, table = parse_game_action(text), parse_table_button(text)
    assert game is None or str(game) == text
    assert table is None or str(table) == text


def test_card_text_reads_back_for_both_decks() -> None:
    for code in set(EUCHRE_CARDS) | set(TRUCO_CARDS):
        assert cards_in_text(f"x {card_text(code)} y") == {code}
    assert card_text("TS") == "10♠" and card_text("JO") == "🃏"
    everything = sorted(set(EUCHRE_CARDS) | set(TRUCO_CARDS))
    assert cards_in_text(cards_text(everything)) == set(everything)
    # Numbers next to text are not cards: scores and counts stay readable.
    assert cards_in_text("Team 1: 10 · Team 2: 4 pts, hand 3") == set()
