"""The bot: a `commands.Bot` whose one `setup_hook` does the whole start-up."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.settings import Settings
from bot.texts import t

log = logging.getLogger(__name__)

# Loaded in this order at start-up; nothing imports cogs.
EXTENSIONS: tuple[str, ...] = ("cogs.rules", "cogs.admin")


class CardTableBot(commands.Bot):
    def __init__(
        self,
        settings: Settings,
        *,
        extensions: tuple[str, ...] = EXTENSIONS,
        guild_ready_timeout: float = 2.0,
        **options: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),  # interactions need no privileged intent
            help_command=None,
            guild_ready_timeout=guild_ready_timeout,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **options,
        )
        self.settings = settings
        self.extension_names = extensions
        self.tree.error(self.on_app_command_error)

    async def setup_hook(self) -> None:
        for name in self.extension_names:
            await self.load_extension(name)
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to dev guild %s", len(synced), guild.id)
        log.info("ready to start: %d extensions loaded", len(self.extension_names))

    async def on_ready(self) -> None:
        log.info(
            "connected as %s (%s) in %d guilds",
            self.user,
            self.user and self.user.id,
            len(self.guilds),
        )

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """The one error path for slash commands: a short ephemeral sentence, one log line."""
        locale = str(interaction.locale)
        if isinstance(error, app_commands.NoPrivateMessage):
            text = t("error.dm", locale)
        elif isinstance(error, app_commands.BotMissingPermissions):
            text = t(
                "error.missing_permissions",
                locale,
                permissions=", ".join(error.missing_permissions),
            )
        elif isinstance(error, app_commands.MissingPermissions):
            text = t(
                "error.user_missing_permissions",
                locale,
                permissions=", ".join(error.missing_permissions),
            )
        elif isinstance(error, app_commands.CommandOnCooldown):
            text = t("error.cooldown", locale, seconds=error.retry_after)
        elif isinstance(error, app_commands.CheckFailure):
            text = t("error.check_failed", locale)
        else:
            original = getattr(error, "original", error)
            log.error(
                "command %s failed in guild %s channel %s: %r",
                interaction.command and interaction.command.qualified_name,
                interaction.guild_id,
                interaction.channel_id,
                original,
                exc_info=original,
            )
            text = t("error.unexpected", locale)
        await send_ephemeral(interaction, text)


async def send_ephemeral(interaction: discord.Interaction, text: str) -> None:
    """Answer with a private sentence, whether or not the interaction was already acknowledged."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)
