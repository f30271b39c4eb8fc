"""The tournament service's Discord side (issue 23): each table's thread, the table's message
in it, the standings posted after each round as text and a picture."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable
from typing import Literal

import discord

from bot.tables.table import Table
from bot.tables.tournament import Tournament
from bot.tables.tournament_records import TournamentRecord
from bot.texts import t
from bot.ui.tournament.standings import standings_picture, standings_text

THREAD_ARCHIVE_MINUTES: Literal[1440] = 1440


class TournamentUI:
    """bot.tables.tournament_service.Host on Discord."""

    def __init__(
        self, bot: discord.Client, *, show_table: Callable[[Table], Awaitable[None]]
    ) -> None:
        self.bot = bot
        # The table room posts a table's message (bot/ui/table/public.py); handed in by the bot.
        self._show_table = show_table

    def _locale(self, guild_id: int) -> str | None:
        guild = self.bot.get_guild(guild_id)
        return str(guild.preferred_locale) if guild is not None else None

    async def open_thread(self, record: TournamentRecord, round_number: int, table: int) -> int:
        channel = self.bot.get_channel(record.channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(record.channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise TypeError(f"tournament {record.id}: channel {record.channel_id} has no threads")
        name = t(
            "tournament.thread",
            self._locale(record.guild_id),
            round=round_number + 1,
            table=table + 1,
        )
        thread = await channel.create_thread(
            name=name,
            type=discord.ChannelType.public_thread,
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
        )
        return thread.id

    async def show_table(self, table: Table) -> None:
        if table.message_id is None:  # its message, posted in the thread (mentions the turn)
            await self._show_table(table)

    async def post_standings(self, record: TournamentRecord, state: Tournament, rnd: int) -> None:
        locale = self._locale(record.guild_id)
        text = standings_text(state, locale)
        picture = await asyncio.to_thread(standings_picture, state, locale)
        channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
        await channel.send(
            content=text[:2000],
            file=discord.File(io.BytesIO(picture), filename=f"standings-round-{rnd + 1}.png"),
            allowed_mentions=discord.AllowedMentions.none(),
        )
