"""/replay: step through a finished game of this server (or a hand record file) with pictures.

Thin: the work and every answer are in bot.ui.after_game (bot/ui/after_game/buttons.py
dispatches the clicks to the replay and, for "Review my play", the review).
The `ag:` and `ge:` buttons are DynamicItem templates registered with the cog, so the buttons of
old replay, log and end-of-game messages keep working after a restart.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import CardTableBot
from bot.texts import t
from bot.ui.after_game import replay as ui
from bot.ui.after_game.buttons import DYNAMIC_ITEMS
from bot.ui.kit.answer import say
from bot.ui.kit.translator import command_text


class Replay(commands.Cog):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)

    @app_commands.command(name="replay", description=command_text("replay.cmd"))
    @app_commands.describe(
        game=command_text("replay.cmd.game"), record=command_text("replay.cmd.record")
    )
    async def replay(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1, 2**53 - 1] | None = None,
        record: discord.Attachment | None = None,
    ) -> None:
        if record is not None:
            await ui.replay_record(interaction, record)
        elif game is not None:
            await ui.show_replay(interaction, game)
        else:
            await say(interaction, t("replay.cmd.missing", str(interaction.locale)))


async def setup(bot: CardTableBot) -> None:
    await bot.add_cog(Replay(bot))
