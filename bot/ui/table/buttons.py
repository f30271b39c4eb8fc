"""A table's two button families (bot/ui/kit/custom_ids.py), registered once in `setup_hook`:
they are templates, so the buttons of any table (old hand messages included) keep working after
a restart. Each click is handed to the bot's `TableUI`, which answers it, errors included."""

from __future__ import annotations

from typing import Any

import discord

from bot.ui.kit.buttons import KeyButton
from bot.ui.kit.custom_ids import GAME_ACTION_TEMPLATE, TABLE_BUTTON_TEMPLATE
from bot.ui.table.host import table_ui_of


class GameActionButton(KeyButton, template=GAME_ACTION_TEMPLATE):
    """A game action on a player's hand message: `t:{table}:{version}:{action}`."""

    async def handle(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        await table_ui_of(interaction).on_game_action(interaction, custom_id)


class TableButton(KeyButton, template=TABLE_BUTTON_TEMPLATE):
    """A table button: `tb:{table}:{verb}` or `tb:{table}:seat:{position}`."""

    async def handle(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        await table_ui_of(interaction).on_table_button(interaction, custom_id)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (GameActionButton, TableButton)
