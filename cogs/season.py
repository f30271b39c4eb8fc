"""/season start|end: a server admin runs seasons of a game's leaderboard (issue 23). Thin: the
store says what may be done, bot.ui.boards.seasons says it."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.client import CardTableBot
from bot.tables.games import GAME_NAMES
from bot.tables.seasons import LENGTHS, SeasonError
from bot.texts import t
from bot.ui.boards.seasons import minimums_text, season_name
from bot.ui.kit.answer import say, show
from bot.ui.kit.message_parts import MessageParts
from bot.ui.kit.translator import command_text

GAMES = [Choice(name=command_text(f"game.{game}"), value=game) for game in GAME_NAMES]
SEASON_LENGTHS = [Choice(name=command_text(f"season.length.{v}"), value=v) for v in LENGTHS]
DEFAULT_MIN_GAMES = 5


# Manage Server is Discord's default for these commands, and checked here too (issue 33): a
# server may grant a command to everyone in its Integrations settings.
@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class Season(commands.GroupCog, group_name="season", group_description=command_text("season.cmd")):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="start", description=command_text("season.cmd.start"))
    @app_commands.describe(
        game=command_text("season.cmd.game"),
        length=command_text("season.cmd.length"),
        min_games=command_text("season.cmd.min_games"),
        min_rating=command_text("season.cmd.min_rating"),
    )
    @app_commands.choices(game=GAMES, length=SEASON_LENGTHS)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def start(
        self,
        interaction: discord.Interaction,
        game: Choice[str],
        length: Choice[str],
        min_games: app_commands.Range[int, 1, 1000] = DEFAULT_MIN_GAMES,
        min_rating: app_commands.Range[int, 0, 5000] = 0,
    ) -> None:
        locale = str(interaction.guild_locale or interaction.locale)
        assert interaction.guild_id is not None and interaction.channel_id is not None
        try:
            season = await self.bot.seasons.start(
                interaction.guild_id,
                game.value,
                interaction.channel_id,
                length.value,
                min_games,
                min_rating,
                self.bot.clock(),
            )
        except SeasonError as error:
            await say(interaction, t(error.key, str(interaction.locale)))
            return
        when = (
            t("season.open_ended", locale)
            if season.ends_at is None
            else t("season.ends", locale, when=f"<t:{int(season.ends_at)}:R>")
        )
        minimums = minimums_text(season.min_games, season.min_rating, locale)
        name = season_name(season, locale)
        started = t("season.started", locale, season=name, minimums=minimums, when=when)
        await show(interaction, MessageParts(started, None, None))  # public: the server's news

    @app_commands.command(name="end", description=command_text("season.cmd.end"))
    @app_commands.describe(game=command_text("season.cmd.game"))
    @app_commands.choices(game=GAMES)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def end(self, interaction: discord.Interaction, game: Choice[str]) -> None:
        locale = str(interaction.locale)
        assert interaction.guild_id is not None
        try:
            season = await self.bot.seasons.end(interaction.guild_id, game.value, self.bot.clock())
        except SeasonError as error:
            await say(interaction, t(error.key, locale))
            return
        await say(interaction, t("season.ended", locale, season=season_name(season, locale)))
        await self.bot.season_keeper.tick()  # the final standings, now


async def setup(bot: CardTableBot) -> None:
    await bot.add_cog(Season(bot))
