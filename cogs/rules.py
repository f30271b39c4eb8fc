"""/rules: a readable summary of each game's rules, privately."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.texts import t
from bot.ui.translator import command_text


class Rules(commands.Cog):
    @app_commands.command(name="rules", description=command_text("cmd.rules"))
    @app_commands.describe(game=command_text("cmd.rules.game"))
    @app_commands.choices(
        game=[Choice(name=command_text(f"rules.choice.{g}"), value=g) for g in ("euchre", "truco")]
    )
    async def rules(self, interaction: discord.Interaction, game: Choice[str]) -> None:
        locale = str(interaction.locale)
        text = t(f"rules.{game.value}", locale)
        if game.value == "euchre":
            text = text.format(target=10)
        embed = discord.Embed(
            title=t(f"rules.choice.{game.value}", locale),
            description=text,
            colour=discord.Colour.dark_green(),
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Rules())
