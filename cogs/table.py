"""/table end (the host or a member with Manage Server), /table show (repost the table) and
/table seat (the host gives a bot's seat in the game to a player)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import CardTableBot
from bot.ui.kit.translator import command_text


class TableCommands(
    commands.GroupCog, group_name="table", group_description=command_text("cmd.table")
):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        super().__init__()

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await self.bot.table_ui.on_interaction(interaction)

    @app_commands.command(name="end", description=command_text("cmd.table.end"))
    async def end(self, interaction: discord.Interaction) -> None:
        await self.bot.table_ui.end_table(interaction)

    @app_commands.command(name="show", description=command_text("cmd.table.show"))
    async def show(self, interaction: discord.Interaction) -> None:
        await self.bot.table_ui.show_table(interaction)

    @app_commands.command(name="seat", description=command_text("cmd.table.seat"))
    @app_commands.describe(player=command_text("cmd.table.seat.player"))
    async def seat(self, interaction: discord.Interaction, player: discord.User) -> None:
        await self.bot.table_ui.seat_player(interaction, player)


async def setup(bot: CardTableBot) -> None:
    await bot.add_cog(TableCommands(bot))
