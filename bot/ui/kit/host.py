"""`host_of(interaction)`: the bot that received an interaction, seen through the small typed
`Host` protocol of what the UI reaches through it. The UI never imports bot.client (which
builds the UI): each room asks for no more than it uses, and the bot is checked once here."""

from __future__ import annotations

from typing import Any, Protocol, cast

import discord

from bot.storage.results import ResultsRepository
from bot.storage.seasons import SeasonRepository
from bot.tables.service import TableService


class Host(Protocol):
    """What a click may reach through the bot (bot.client.CardTableBot provides it)."""

    @property
    def results(self) -> ResultsRepository: ...

    @property
    def seasons(self) -> SeasonRepository: ...

    @property
    def table_service(self) -> TableService: ...


def host_of(interaction: discord.Interaction[Any]) -> Host:
    """The bot an interaction reached. Every handler that asks was registered by the card-table
    bot (its setup_hook or its cogs); anything else is a wiring mistake, said plainly."""
    client = interaction.client
    # Checked on the class: the bot's properties raise until its setup_hook has built them.
    if not all(hasattr(type(client), name) for name in ("results", "seasons", "table_service")):
        raise TypeError(f"interaction reached a {type(client).__name__}, not the card-table bot")
    return cast(Host, client)
