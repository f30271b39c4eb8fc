"""Messages of a table: `table_message` picks the lobby, the game, the result or the closed
message (bot/ui/table/lobby_message.py, game_message.py, result_message.py) and lays it out in
Components V2; a player's private hand message is in hand_message.py. Pure functions of the
table's state; all text from the catalog."""

from __future__ import annotations

from typing import Any

from bot.tables.service import Table
from bot.ui.kit.message_parts import MessageParts
from bot.ui.table.game_message import (
    LOG_ANSWER,
    compact_game_message,
    game_buttons,
    game_message,
    log_answer,
    log_lines,
    turn_line,
)
from bot.ui.table.hand_message import (
    SAME_COLOUR,
    TRUCO_MANILHAS,
    hand_deadline,
    hand_message,
    hand_prompt,
    manilhas_line,
)
from bot.ui.table.lobby_message import (
    MENU_SETTING,
    lobby_message,
    options_summary,
    rules_summary,
    setting_texts,
    settings_texts,
)
from bot.ui.table.message_bits import (
    HAND_START,
    LOG_LINES,
    TRICK_ENDS,
    Style,
    as_layout,
    deadline_line,
    jump_url,
    last_trick_hand,
    relative_time,
)
from bot.ui.table.pings import ping_key, ping_message
from bot.ui.table.result_message import (
    closed_message,
    compact_result_message,
    moved_message,
    result_message,
)
from bot.ui.table.table_picture import URL as PICTURE_URL
from bot.ui.table.table_picture import wants_picture

# --- the public table message -----------------------------------------------------------------


def table_message(
    table: Table,
    locale: str | None = None,
    *,
    picture: bool | None = None,
    view: dict[str, Any] | None = None,
) -> MessageParts:
    """`picture`: show the table picture (an attachment sent with the message); by default
    when the table's setting asks for it. `view`: the game's public view of the current state,
    where the caller has one (the picture drawn with the message shares it)."""
    if table.closed:
        return closed_message(table, locale)
    if picture is None:
        picture = wants_picture(table)
    if table.status == "lobby" or table.game is None:
        # The lobby, the message's first versions, stays an embed: a message takes the
        # Components V2 flag with the game's first version (an edit may add it, never remove
        # it), and keeps it to the end.
        parts = lobby_message(table, locale)
        if parts.embed is not None and picture:
            parts.embed.set_image(url=PICTURE_URL)
        return parts
    if table.game.is_over:
        parts = compact_result_message(table, locale) if picture else result_message(table, locale)
    elif picture:
        parts = compact_game_message(table, locale, view)
    else:  # no picture: the complete text, for screen readers
        parts = game_message(table, locale, view)
    return as_layout(parts, PICTURE_URL if picture else None)


# Callers read these from here, as before the split.
__all__ = [
    "HAND_START",
    "LOG_ANSWER",
    "LOG_LINES",
    "MENU_SETTING",
    "SAME_COLOUR",
    "TRICK_ENDS",
    "TRUCO_MANILHAS",
    "Style",
    "as_layout",
    "closed_message",
    "compact_game_message",
    "deadline_line",
    "game_buttons",
    "game_message",
    "hand_deadline",
    "hand_message",
    "hand_prompt",
    "jump_url",
    "last_trick_hand",
    "lobby_message",
    "log_answer",
    "log_lines",
    "manilhas_line",
    "moved_message",
    "options_summary",
    "ping_key",
    "ping_message",
    "relative_time",
    "result_message",
    "rules_summary",
    "setting_texts",
    "settings_texts",
    "table_message",
    "turn_line",
]
