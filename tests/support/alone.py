"""The going-alone question the table answers for people itself (bot/tables/alone.py)."""

from __future__ import annotations

from typing import Any

from bot.tables import alone
from bot.tables.records import TableRecord


def table_answers(record: TableRecord, game: Any, seat: int) -> bool:
    """Is `seat` only "to act" on the going-alone question, which the table answers for a person
    at once (a stored record read between the bid and that answer shows it pending)?"""
    return (
        alone.rule_asks(record.game, record.options)
        and sorted(game.legal_actions(seat)) == alone.ANSWERS
    )
