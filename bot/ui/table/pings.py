"""The turn ping: the one message that notifies whose turn it is (when, and to whom)."""

from __future__ import annotations

from typing import Any

from bot.tables.service import Table
from bot.tables.settings import setting_of
from bot.texts import t
from bot.ui.table.message_bits import jump_url, relative_time
from bot.ui.words.seats import game_title


def ping_key(table: Table) -> tuple[Any, ...] | None:
    """What the table's turn ping is about (a new ping for each new key); None: no ping."""
    if table.closed or not setting_of(table.record.settings, "pings"):
        return None
    humans = table.humans_to_act()
    if not humans or not table.wants_ping():
        return None  # nobody to ping, or not yet: they have not been idle `ping_after` s
    users = tuple(table.player_at(s).user_id for s in humans)
    return (users, table.record.turn_warned, table.version)


def ping_message(table: Table, locale: str | None = None) -> tuple[str, list[int]]:
    """The short channel message that notifies the players to act: its text and their ids."""
    humans = table.humans_to_act()
    users = [u for s in humans if (u := table.player_at(s).user_id) is not None]
    who = " ".join(f"<@{u}>" for u in users)
    game = game_title(table.game_name, locale)
    url = jump_url(table) or ""
    deadline = table.record.turn_deadline
    if table.record.turn_warned and deadline is not None:
        text = t("ping.warning", locale, who=who, when=relative_time(deadline), url=url)
    else:
        text = t("ping.turn", locale, who=who, game=game, url=url)
    return text, users
