"""/verify: recompute a fair deal inside Discord (issue 24, docs/fair-deals.md)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui.fair import cut as fair_cut
from bot.ui.fair import verify as fair_verify
from bot.ui.kit.host import host_of
from bot.ui.kit.translator import command_text


class Verify(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="verify", description=command_text("fair.verify.cmd"))
    @app_commands.describe(
        hand=command_text("fair.verify.hand"), game=command_text("fair.verify.game")
    )
    async def verify(
        self,
        interaction: discord.Interaction,
        hand: app_commands.Range[int, 1, 10_000],
        game: app_commands.Range[int, 1] | None = None,
    ) -> None:
        await fair_verify.verify(interaction, game, hand)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A Cut modal opened before a restart (or already answered) has no live modal to
        answer it: it is answered here, by its per-person custom_id."""
        if fair_cut.is_orphan_cut(interaction):
            await fair_cut.on_orphan_cut(interaction, host_of(interaction).table_service)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Verify(bot))
