"""The DynamicItem templates of the after-game buttons (`ag:` and `ge:`, bot/ui/kit/custom_ids.py).

Apart from bot/ui/after_game/replay.py so that the messages that carry these buttons (a game's log in
bot/ui/boards/leaderboard.py, which bot/ui/after_game/replay.py builds on) can draw them without an import cycle;
a click is handed to bot/ui/after_game/replay.py.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.ui.kit.buttons import KeyButton
from bot.ui.kit.custom_ids import AFTER_GAME_TEMPLATE, ENDED_GAME_TEMPLATE


class AfterGameButton(KeyButton, template=AFTER_GAME_TEMPLATE):
    async def handle(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        from bot.ui.after_game.replay import (
            on_after_click,  # bot.ui.after_game.replay imports this module's users
        )

        await on_after_click(interaction, custom_id)


class EndedGameButton(KeyButton, template=ENDED_GAME_TEMPLATE):
    async def handle(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        from bot.ui.after_game.replay import on_ended_click

        await on_ended_click(interaction, custom_id)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (AfterGameButton, EndedGameButton)
