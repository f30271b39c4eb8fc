"""/rules: a readable summary of each game's rules, privately."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.texts import t


class Rules(commands.Cog):
    @app_commands.command(name="rules", description="How to play Euchre or Truco Mineiro.")
    @app_commands.describe(game="Which game")
    async def rules(
        self, interaction: discord.Interaction, game: Literal["euchre", "truco"]
    ) -> None:
        locale = str(interaction.locale)
        text = t(f"rules.{game}", locale)
        if game == "euchre":
            text = text.format(target=10)
        embed = discord.Embed(
            title=t(f"rules.choice.{game}", locale),
            description=text,
            colour=discord.Colour.dark_green(),
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Rules())
