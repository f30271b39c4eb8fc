"""/leaderboard, /stats and /history: this server's rankings, a player's record, the latest games.

Thin: the work and every answer are in bot/ui/boards/. The paging and log buttons are
DynamicItem templates registered with the cog, so the buttons of old messages keep working
after a restart.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.client import CardTableBot
from bot.storage.recording import COUNT_MATCHES
from bot.storage.server_settings import COUNT_CHOICES, ServerSettings
from bot.tables.games import GAME_NAMES
from bot.texts import t
from bot.ui.boards import stats as stats_ui
from bot.ui.boards.buttons import DYNAMIC_ITEMS
from bot.ui.boards.history import show_history
from bot.ui.boards.leaderboard import show_leaderboard
from bot.ui.boards.pages import PERIODS as PERIOD_NAMES
from bot.ui.kit.answer import say
from bot.ui.kit.translator import command_text

GAMES = [Choice(name=command_text(f"game.{game}"), value=game) for game in GAME_NAMES]
COUNTS = [Choice(name=command_text(f"board.count.{c}"), value=c) for c in COUNT_CHOICES]
PERIODS = [
    Choice(name=command_text(f"board.period.{p}", capitalize=True), value=p) for p in PERIOD_NAMES
]


class Leaderboard(commands.Cog):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)

    @app_commands.command(name="leaderboard", description=command_text("board.cmd"))
    @app_commands.describe(
        game=command_text("board.cmd.game"),
        period=command_text("board.cmd.period"),
        season=command_text("board.cmd.season"),
    )
    @app_commands.choices(game=GAMES, period=PERIODS)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: Choice[str],
        period: Choice[str] | None = None,
        season: app_commands.Range[int, 1, 10000] | None = None,
    ) -> None:
        # No period and no season: the current season's board if one runs, else all time.
        await show_leaderboard(interaction, game.value, period.value if period else None, season)

    @app_commands.command(name="stats", description=command_text("stats.cmd"))
    @app_commands.describe(user=command_text("stats.cmd.user"), game=command_text("stats.cmd.game"))
    @app_commands.choices(game=GAMES)
    async def stats(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        game: Choice[str] | None = None,
    ) -> None:
        await stats_ui.show_stats(interaction, user, game.value if game else None)

    @app_commands.command(name="history", description=command_text("history.cmd"))
    @app_commands.describe(game=command_text("history.cmd.game"))
    @app_commands.choices(game=GAMES)
    async def history(
        self, interaction: discord.Interaction, game: Choice[str] | None = None
    ) -> None:
        await show_history(interaction, game.value if game else None)

    @app_commands.command(name="board-count", description=command_text("board.count.cmd"))
    @app_commands.describe(count=command_text("board.count.cmd.count"))
    @app_commands.choices(count=COUNTS)
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)  # granted to all? still checked
    async def board_count(self, interaction: discord.Interaction, count: Choice[str]) -> None:
        """A server admin chooses how best-of matches count on the board (default: once)."""
        locale = str(interaction.locale)
        if interaction.guild_id is None or self.bot.db is None:
            await say(interaction, t("board.dm", locale))
            return
        await ServerSettings(self.bot.db).set(interaction.guild_id, COUNT_MATCHES, count.value)
        await say(interaction, t(f"board.count.done.{count.value}", locale))


async def setup(bot: CardTableBot) -> None:
    await bot.add_cog(Leaderboard(bot))
