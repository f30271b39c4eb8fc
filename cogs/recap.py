"""/recap: a server admin (Manage Server) turns the weekly recap on in a channel, or off.

Thin: the recap itself is bot/ui/boards/recap.py, its storage bot/storage/recaps.py."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import CardTableBot
from bot.storage.recaps import RecapStore
from bot.texts import t
from bot.ui.kit.answer import locale_of, say
from bot.ui.kit.translator import command_text


class Recap(commands.Cog):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    @app_commands.command(name="recap", description=command_text("recap.cmd"))
    @app_commands.describe(
        channel=command_text("recap.cmd.channel"), off=command_text("recap.cmd.off")
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def recap(
        self,
        interaction: discord.Interaction,
        channel: discord.TextChannel | None = None,
        off: bool = False,
    ) -> None:
        locale = locale_of(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None  # guild_only
        assert self.bot.db is not None
        store = RecapStore(self.bot.db)
        if off:
            await store.set_channel(guild_id, None, interaction.user.id, self.bot.clock())
            await say(interaction, t("recap.off", locale))
            return
        if channel is None:
            setting = await store.setting(guild_id)
            if setting is None or setting.channel_id is None:
                await say(interaction, t("recap.status.off", locale))
            else:
                await say(
                    interaction, t("recap.status.on", locale, channel=f"<#{setting.channel_id}>")
                )
            return
        await store.set_channel(guild_id, channel.id, interaction.user.id, self.bot.clock())
        self.bot.weekly_recap.wake()
        await say(interaction, t("recap.on", locale, channel=channel.mention))


async def setup(bot: CardTableBot) -> None:
    await bot.add_cog(Recap(bot))
