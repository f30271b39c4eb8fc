"""Owner-only upkeep. Global command sync is a deliberate act, never automatic at start-up:
Discord allows 200 command creations a day per guild."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import CardTableBot
from bot.texts import n, t
from bot.ui.kit.answer import respond, say
from bot.ui.kit.translator import command_text


class Admin(commands.Cog):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    @app_commands.command(name="sync", description=command_text("cmd.sync"))
    @app_commands.describe(scope=command_text("cmd.sync.scope"))
    async def sync(
        self, interaction: discord.Interaction, scope: Literal["global", "server"] = "server"
    ) -> None:
        locale = str(interaction.locale)
        if not await self.bot.is_owner(interaction.user):
            await say(interaction, t("error.not_owner", locale))
            return
        if scope == "server" and interaction.guild is None:
            await say(interaction, t("error.dm", locale))
            return

        async def work() -> str:
            if scope == "global":
                synced = await self.bot.tree.sync()
            else:
                assert interaction.guild is not None
                self.bot.tree.copy_global_to(guild=interaction.guild)
                synced = await self.bot.tree.sync(guild=interaction.guild)
            count = n("plural.commands", locale, len(synced))
            return t("sync.done", locale, count=count, scope=scope)

        # Syncing takes a while: "thinking" at once, then the sentence.
        await respond(interaction, work(), private=True, deadline=0)


async def setup(bot: CardTableBot) -> None:
    await bot.add_cog(Admin(bot))
