"""/truco new: open a Truco Mineiro table in this channel."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.client import CardTableBot
from bot.ui.kit.translator import command_text
from bot.ui.table.command_options import (
    chosen_options,
    chosen_settings,
    descriptions,
    game_choices,
    setting_descriptions,
    settings_with_choices,
)


class Truco(commands.GroupCog, group_name="truco", group_description=command_text("cmd.truco")):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="new", description=command_text("cmd.truco.new"))
    @app_commands.describe(
        **descriptions("truco"),
        **setting_descriptions(),
    )
    @app_commands.choices(
        **game_choices("truco"),
        **settings_with_choices(),
    )
    async def new(
        self,
        interaction: discord.Interaction,
        target: Choice[int] | None = None,
        coberta: bool | None = None,
        signals: bool | None = None,
        match: Choice[int] | None = None,
        turn_timer: Choice[int] | None = None,
        pings: bool | None = None,
        pictures: bool | None = None,
        ping_after: Choice[int] | None = None,
    ) -> None:
        given = {"target": target, "coberta": coberta, "signals": signals, "match": match}
        options = chosen_options(given)
        settings = chosen_settings(turn_timer, pings, pictures, ping_after)
        await self.bot.table_ui.create_table(interaction, "truco", options, settings)


async def setup(bot: CardTableBot) -> None:
    await bot.add_cog(Truco(bot))
