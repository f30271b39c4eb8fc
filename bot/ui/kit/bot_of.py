"""`bot_of(interaction)`: the bot that received an interaction, typed, so the collaborators the
UI reaches through it (`table_ui`, `results`, `table_service`) are typed too."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from bot.client import CardTableBot


def bot_of(interaction: discord.Interaction[Any]) -> CardTableBot:
    """The bot an interaction reached. Every handler that asks was registered by a
    CardTableBot (its setup_hook or its cogs); anything else is a wiring mistake, said plainly."""
    # bot.client imports bot.ui, so bot.ui imports bot.client only once both are loaded.
    from bot.client import CardTableBot

    client = interaction.client
    if not isinstance(client, CardTableBot):
        raise TypeError(f"interaction reached a {type(client).__name__}, not a CardTableBot")
    return client
