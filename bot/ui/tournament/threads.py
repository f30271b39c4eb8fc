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
from bot.tables.tournament_service import TournamentService
from bot.texts import t
from bot.ui.tournament.standings import (
    people_at,
    standings_picture,
    standings_text,
    welcome_text,
)

THREAD_ARCHIVE_MINUTES: Literal[1440] = 1440


class TournamentUI:
    """bot.tables.tournament_service.Host on Discord."""

    def __init__(
        self,
        bot: discord.Client,
        tournaments: TournamentService,
        *,
        show_table: Callable[[Table], Awaitable[None]],
    ) -> None:
        self.bot = bot
        self._tournaments = tournaments  # its clock and round length: a round's time left
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

    async def show_table(
        self, record: TournamentRecord, state: Tournament, rnd: int, number: int, table: Table
    ) -> None:
        """The thread's first message tells its people where they sit and when the round's
        time runs out, pinging each of them once (only them); then the table's message."""
        if table.message_id is not None:  # shown before a restart: nobody is pinged again
            return
        started = state.round_started.get(rnd)
        service = self._tournaments
        deadline = (started if started is not None else service.clock()) + service.round_seconds
        people = people_at(state, rnd, number)
        thread = self.bot.get_partial_messageable(table.channel_id, guild_id=record.guild_id)
        await thread.send(
            content=welcome_text(state, rnd, number, deadline, self._locale(record.guild_id)),
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(p) for p in people]
            ),
        )
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
