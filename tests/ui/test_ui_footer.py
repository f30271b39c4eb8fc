"""Issue 21 item 5: the table message's footer counts hands, not the table's version (which
also moves on lobby settings, fair-deal cuts and automatic going-alone answers)."""

from __future__ import annotations

import random

from bot.tables.service import Table
from bot.ui.table import render
from tests.support.render import make_table


def footer(table: Table, locale: str | None = None) -> str:
    embed = render.table_message(table, locale).embed
    assert embed is not None and embed.footer.text is not None
    return embed.footer.text


def test_item5_the_footer_shows_the_hand_in_play_whatever_the_version() -> None:
    table = make_table("euchre", {}, seed=5)
    assert footer(table) == "Table 42 · hand 1"
    table.record.version = 183  # settings and cuts move the version: the footer does not care
    assert footer(table) == "Table 42 · hand 1"
    game, rng = table.game, random.Random(5)
    while game.hand_number < 2:
        seat = rng.choice(game.to_act)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        table.record.version += 1
    assert footer(table) == "Table 42 · hand 3"


def test_item5_the_lobby_and_the_result_show_the_table_alone() -> None:
    table = make_table("truco", {"target": 6}, seed=7)
    game, rng = table.game, random.Random(7)
    while not game.is_over:
        seat = rng.choice(game.to_act)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    table.record.status = "finished"
    assert footer(table) == "Table 42"  # the result says how many hands were played
    table.record.status = "lobby"
    table.game = None
    assert footer(table) == "Table 42"
    assert footer(table, "pt-BR") == "Mesa 42"
