"""/truco new: open a Truco Mineiro table in this channel."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.client import CardTableBot
from bot.ui.kit.translator import command_text
from bot.ui.table.table_ui import chosen_settings, setting_choices


class Truco(commands.GroupCog, group_name="truco", group_description=command_text("cmd.truco")):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="new", description=command_text("cmd.truco.new"))
    @app_commands.describe(
        target=command_text("cmd.truco.target"),
        coberta=command_text("cmd.truco.coberta"),
        match=command_text("cmd.truco.match"),
        turn_timer=command_text("cmd.new.turn_timer"),
        pings=command_text("cmd.new.pings"),
        ping_after=command_text("cmd.new.ping_after"),
        pictures=command_text("cmd.option.pictures"),
    )
    @app_commands.choices(
        target=[Choice(name=command_text(f"cmd.truco.target.{v}"), value=v) for v in (12, 24, 6)],
        match=[Choice(name=command_text(f"cmd.truco.match.{v}"), value=v) for v in (1, 3, 5)],
        turn_timer=setting_choices("turn_timer"),
        ping_after=setting_choices("ping_after"),
    )
    async def new(
        self,
        interaction: discord.Interaction,
        target: Choice[int] | None = None,
        coberta: bool | None = None,
        match: Choice[int] | None = None,
        turn_timer: Choice[int] | None = None,
        pings: bool | None = None,
        pictures: bool | None = None,
        ping_after: Choice[int] | None = None,
    ) -> None:
        options: dict[str, Any] = {}
        if target is not None:
            options["target"] = target.value
        if coberta:
            options["coberta"] = True
        if match is not None and match.value != 1:
            options["match"] = match.value
        settings = chosen_settings(turn_timer, pings, pictures, ping_after)
        await self.bot.table_ui.create_table(interaction, "truco", options, settings)


async def setup(bot: CardTableBot) -> None:
    await bot.add_cog(Truco(bot))
