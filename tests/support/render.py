"""Stored table records built for the rendering tests."""

from __future__ import annotations

from typing import Any

from bot.tables.games import rules_for
from bot.tables.records import SeatRecord, TableRecord
from bot.tables.service import Table

USERS = [101, 102, 103, 104]


def make_table(
    game_name: str, options: dict[str, Any], seed: int, bots: set[int] = frozenset()
) -> Table:
    rules = rules_for(game_name)
    options = rules.normalise_options(options)
    seats = [
        SeatRecord(None, f"Bot {p + 1}", is_bot=True)
        if p in bots
        else SeatRecord(USERS[p], f"Player{p + 1}")
        for p in range(4)
    ]
    game = rules.new_game(options, seed)
    record = TableRecord(
        id=42,
        guild_id=1,
        channel_id=2,
        host_id=USERS[0],
        game=game_name,
        options=options,
        status="playing",
        version=3,
        seats=seats,
        message_id=99,
        seed=seed,
        first_dealer=game.first_dealer,
    )
    return Table(
        record=record, rules=rules, game=game, seat_of_position=rules.seat_of_position(game)
    )
