"""The table room's view of the bot: its `TableUI`, reached from a click."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, cast

import discord

from bot.ui.kit.host import Host, host_of

if TYPE_CHECKING:  # table_ui.py registers the buttons that reach it through here
    from bot.ui.table.table_ui import TableUI


class TableHost(Host, Protocol):
    @property
    def table_ui(self) -> TableUI: ...


def table_ui_of(interaction: discord.Interaction[Any]) -> TableUI:
    host = host_of(interaction)
    if not hasattr(type(host), "table_ui"):
        raise TypeError(f"interaction reached a {type(host).__name__}, which has no tables")
    return cast(TableHost, host).table_ui
