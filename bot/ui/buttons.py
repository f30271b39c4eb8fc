"""The two DynamicItem button families of a table (formats in bot/ui/custom_ids.py).

Registered once in `setup_hook` with `bot.add_dynamic_items(GameActionButton, TableButton)`:
they are templates, so buttons of any table (old hand messages included) keep working after a
restart. Each callback hands the click to the bot's `TableUI`, which answers every interaction,
errors included (discord.py only logs exceptions of DynamicItem callbacks).

Every button the bot sends is one of these, so every view is "fully dynamic": discord.py then
keeps no per-message state for it (see `detach`).
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.ui.custom_ids import GAME_ACTION_TEMPLATE, TABLE_BUTTON_TEMPLATE

log = logging.getLogger(__name__)


def _button_like(item: discord.ui.Button[Any]) -> dict[str, Any]:
    return {
        "label": item.label,
        "style": item.style,
        "disabled": item.disabled,
        "emoji": item.emoji,
    }


class GameActionButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=GAME_ACTION_TEMPLATE
):
    """A game action on a player's hand message: `t:{table}:{version}:{action}`."""

    def __init__(
        self,
        custom_id: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        emoji: Any = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=custom_id, label=label, style=style, disabled=disabled, emoji=emoji
            ),
            row=row,
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameActionButton:
        # Never raises: a garbled id must still reach the callback, which says it is not valid.
        button = item if isinstance(item, discord.ui.Button) else None
        custom_id = getattr(item, "custom_id", None) or match.group(0)
        return cls(custom_id, **(_button_like(button) if button is not None else {}))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        ui = getattr(interaction.client, "table_ui", None)
        if ui is None:
            log.error("click on %s but the bot has no table_ui", self.item.custom_id)
            return
        await ui.on_game_action(interaction, self.item.custom_id or "")


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TABLE_BUTTON_TEMPLATE):
    """A table button: `tb:{table}:{verb}` or `tb:{table}:seat:{position}`."""

    def __init__(
        self,
        custom_id: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        emoji: Any = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=custom_id, label=label, style=style, disabled=disabled, emoji=emoji
            ),
            row=row,
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TableButton:
        button = item if isinstance(item, discord.ui.Button) else None
        custom_id = getattr(item, "custom_id", None) or match.group(0)
        return cls(custom_id, **(_button_like(button) if button is not None else {}))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        ui = getattr(interaction.client, "table_ui", None)
        if ui is None:
            log.error("click on %s but the bot has no table_ui", self.item.custom_id)
            return
        await ui.on_table_button(interaction, self.item.custom_id or "")


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (GameActionButton, TableButton)


def detach(view: discord.ui.View | None) -> None:
    """Let discord.py forget a sent view at once. Our views are fully dynamic (the templates
    dispatch the clicks), but an ephemeral response's view gets a 15-minute timer that would
    keep it in memory; stopping it frees it now. discord.py then drops the per-message entry
    of the view's cache key, which for a fully dynamic view with a message id holds nothing (no
    template is unregistered); without a message id we leave the view alone."""
    if view is not None and getattr(view, "_cache_key", None) is not None:
        view.stop()
