"""/euchre new: open a Euchre table in this channel, with the table options as command options."""

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


class Euchre(commands.GroupCog, group_name="euchre", group_description=command_text("cmd.euchre")):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="new", description=command_text("cmd.euchre.new"))
    @app_commands.describe(
        **descriptions("euchre"),
        **setting_descriptions(),
    )
    @app_commands.choices(
        **game_choices("euchre"),
        **settings_with_choices(),
    )
    async def new(
        self,
        interaction: discord.Interaction,
        target: Choice[int] | None = None,
        alone: Choice[str] | None = None,
        lead: Choice[str] | None = None,
        stick_the_dealer: bool | None = None,
        deck: Choice[int] | None = None,
        joker: bool | None = None,
        seating: Choice[str] | None = None,
        match: Choice[str] | None = None,
        turn_timer: Choice[int] | None = None,
        pings: bool | None = None,
        pictures: bool | None = None,
        ping_after: Choice[int] | None = None,
    ) -> None:
        options = chosen_options(
            {
                "target": target,
                "alone": alone,
                "lead": lead,
                "stick_the_dealer": stick_the_dealer,
                "deck": deck,
                "joker": joker,
                "seating": seating,
                "match": match,
            },
        )
        settings = chosen_settings(turn_timer, pings, pictures, ping_after)
        await self.bot.table_ui.create_table(interaction, "euchre", options, settings)


async def setup(bot: CardTableBot) -> None:
    await bot.add_cog(Euchre(bot))
