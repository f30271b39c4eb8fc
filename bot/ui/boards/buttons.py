"""The boards' button families (bot/ui/kit/custom_ids.py), registered by the client and the
leaderboard cog: templates, so the buttons of old boards keep working after a restart."""

from __future__ import annotations

from typing import Any

import discord

from bot.ui.boards.history import GameLogButton, HistoryPageButton
from bot.ui.boards.leaderboard import BoardPageButton
from bot.ui.boards.stats import PostStatsButton

DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    BoardPageButton,
    HistoryPageButton,
    GameLogButton,
    PostStatsButton,
)
