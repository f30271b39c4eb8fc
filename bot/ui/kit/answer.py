"""Answering an interaction with one private sentence — the one way every layer above does it."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.ui.kit.rest import is_transport_error

log = logging.getLogger(__name__)


def locale_of(interaction: discord.Interaction[Any]) -> str:
    """Private answers speak the clicking user's language."""
    return str(interaction.locale)


def server_locale_of(interaction: discord.Interaction[Any]) -> str:
    """Public messages speak the server's language (the user's outside a server)."""
    return str(interaction.guild_locale or interaction.locale)


async def say(interaction: discord.Interaction[Any], text: str) -> None:
    """One private sentence, whether or not the interaction was already acknowledged."""
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True)
        elif interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
            # Deferred with a private "thinking": the sentence replaces it.
            await interaction.edit_original_response(content=text)
        else:
            await interaction.followup.send(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)
    except Exception as error:
        if not is_transport_error(error):
            raise
        # No HTTP answer at all (dropped connection, closed session): one line, no traceback.
        log.warning("could not answer interaction %s: %r", interaction.id, error)
