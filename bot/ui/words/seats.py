"""Who sits where, in words: a seat's name (a person's shown name, or "Bot 3 (normal)"), its
mention, and a game's title."""

from __future__ import annotations

from bot.tables.bot_moves import DEFAULT_LEVEL
from bot.tables.records import bot_number
from bot.tables.service import Table
from bot.texts import t
from bot.ui.words.names import shown_name


def position_name(table: Table, position: int, locale: str | None) -> str:
    seat = table.seats[position]
    if seat is None:
        return t("table.empty_seat", locale)
    if seat.is_bot:
        level = t(f"bot.level.{seat.level or DEFAULT_LEVEL}", locale)
        number = bot_number(seat.name, position)
        return t("table.bot_name.level", locale, number=number, level=level)
    return shown_name(seat.name)


def seat_name(table: Table, seat: int, locale: str | None) -> str:
    return position_name(table, table.position_of_seat(seat), locale)


def seat_mention(table: Table, seat: int, locale: str | None) -> str:
    """A mention for a human (notified), the name for a bot."""
    player = table.player_at(seat)
    if player.is_bot or player.user_id is None:
        return seat_name(table, seat, locale)
    return f"<@{player.user_id}>"


def game_title(game: str, locale: str | None) -> str:
    return t(f"game.{game}", locale)
