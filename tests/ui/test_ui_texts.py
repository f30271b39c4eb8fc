"""Every sentence the tables show comes from the catalog, and the catalog has all of them."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from bot.engine.euchre import game as euchre_game
from bot.engine.truco import game as truco_game
from bot.texts.en import STRINGS

ROOT = Path(__file__).resolve().parents[2]
MY_CODE = [
    *sorted((ROOT / "bot" / "ui").glob("*.py")),
    *(ROOT / "cogs" / f"{name}.py" for name in ("euchre", "truco", "table")),
]
LITERAL_KEY = re.compile(r"""\b(?:t|command_text)\(\s*["']([a-z0-9_.]+)["']""")


@pytest.mark.parametrize("path", MY_CODE, ids=lambda p: p.name)
def test_every_literal_key_is_in_the_catalog(path: Path) -> None:
    keys = LITERAL_KEY.findall(path.read_text(encoding="utf-8"))
    missing = [k for k in keys if k not in STRINGS]
    assert not missing


def test_every_phase_has_a_prompt_and_a_turn_line() -> None:
    phases = {
        "euchre": [p for p in euchre_game.PHASE_KEYS if p != "over"],
        "truco": [truco_game.PHASE_PLAY, truco_game.PHASE_ANSWER, truco_game.PHASE_HAND_OF_TEN],
    }
    for game, keys in phases.items():
        for phase in keys:
            assert f"hand.prompt.{game}.{phase}" in STRINGS
            assert f"turn.{game}.{phase}" in STRINGS


def test_event_sentences_cover_every_variant() -> None:
    for reason in (
        "made",
        "march",
        "lone_march",
        "euchred",
        "defended_alone",
        "defended_alone_march",
    ):
        assert f"event.euchre.hand_scored.{reason}" in STRINGS
    for kind in ("ordered_up", "assisted", "picked_up", "called"):
        assert f"event.euchre.{kind}" in STRINGS and f"event.euchre.{kind}.alone" in STRINGS
    for reason in ("two_rounds", "tie_rule"):
        assert f"event.truco.hand_won.{reason}" in STRINGS
    for name, _ in truco_game.RAISES:
        assert f"truco.ask.{name}" in STRINGS and f"action.truco.raise.{name}" in STRINGS


def test_table_sentences_are_well_formed_templates() -> None:
    for key, text in STRINGS.items():
        if key.startswith(("table.", "hand.", "event.", "turn.", "lobby.", "action.")):
            list(string.Formatter().parse(text))  # raises on a broken template
            assert len(text) <= 200, key
            if key not in ("table.or", "table.and", "options.joker"):  # joiners keep spaces
                assert text.strip() == text, key
