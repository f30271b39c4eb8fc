"""/rules: a readable summary of each game's rules, privately; at a table, for its options.
/help: how to start, the commands, where the rules are."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.texts import t
from bot.ui.kit.answer import show
from bot.ui.kit.message_parts import MessageParts
from bot.ui.kit.translator import command_text
from bot.ui.words.rules_text import rules_text


class Rules(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description=command_text("cmd.rules"))
    @app_commands.describe(game=command_text("cmd.rules.game"))
    @app_commands.choices(
        game=[Choice(name=command_text(f"rules.choice.{g}"), value=g) for g in ("euchre", "truco")]
    )
    async def rules(self, interaction: discord.Interaction, game: Choice[str]) -> None:
        locale = str(interaction.locale)
        options = self._table_options(interaction, game.value)
        embed = discord.Embed(
            title=t(f"rules.choice.{game.value}", locale),
            description=rules_text(game.value, options, locale),
            colour=discord.Colour.dark_green(),
        )
        await show(interaction, MessageParts(content="", embed=embed, view=None), private=True)

    @app_commands.command(name="help", description=command_text("cmd.help"))
    async def help(self, interaction: discord.Interaction) -> None:
        """Issue 30 item 5: how to start a table, the commands, where the rules are; privately,
        in the reader's language."""
        locale = str(interaction.locale)
        embed = discord.Embed(
            title=t("help.title", locale),
            description=t("help.text", locale),
            colour=discord.Colour.dark_green(),
        )
        await show(interaction, MessageParts(content="", embed=embed, view=None), private=True)

    def _table_options(self, interaction: discord.Interaction, game: str) -> dict[str, Any] | None:
        """The options of this channel's table of `game`, if there is one."""
        table_ui = getattr(self.bot, "table_ui", None)
        if table_ui is None or interaction.channel_id is None:
            return None
        table = table_ui.service.in_channel(interaction.channel_id)
        if table is None or table.game_name != game:
            return None
        return dict(table.options)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Rules(bot))
