"""/settings: a server admin (Manage Server) sets the house rules of new tables, per game.

Thin: the rules are checked in bot/tables/house_rules.py, stored by bot/storage/house_rules.py
and laid under the options of /euchre new and /truco new by TableUI.create_table."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.client import CardTableBot
from bot.storage.house_rules import HouseRulesStore
from bot.tables.errors import TableError
from bot.tables.house_rules import effective, updated_house_rules
from bot.tables.records import HouseRules
from bot.texts import t
from bot.ui.kit.answer import locale_of, say
from bot.ui.kit.translator import command_text
from bot.ui.table import render
from bot.ui.table.command_options import (
    GAMES,
    chosen_settings,
    descriptions,
    setting_descriptions,
    settings_choices,
    settings_with_choices,
)
from bot.ui.words.seats import game_title


def rules_line(game: str, house: HouseRules, locale: str | None) -> str:
    """What a new table of `game` starts with here, in the lobby's words."""
    options, settings = effective(game, house)
    summary = render.rules_summary(game, options, locale)
    summary += " · " + " · ".join(
        t("settings.button", locale, setting=name, value=value)
        for name, value in render.settings_texts(settings, locale)
    )
    key = "house.line.set" if house.options or house.settings else "house.line.default"
    return t(key, locale, game=game_title(game, locale), rules=summary)


class Settings(commands.Cog):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    @app_commands.command(name="settings", description=command_text("cmd.settings"))
    @app_commands.describe(
        game=command_text("cmd.settings.game"),
        **descriptions("euchre"),
        coberta=command_text("cmd.truco.coberta"),
        signals=command_text("cmd.truco.signals"),
        **setting_descriptions("turn_timer", "pings", "pictures"),
        reset=command_text("cmd.settings.reset"),
    )
    @app_commands.choices(
        game=[Choice(name=command_text(f"game.{g}"), value=g) for g in GAMES],
        **settings_choices(),
        **settings_with_choices("turn_timer"),
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings(
        self,
        interaction: discord.Interaction,
        game: Choice[str] | None = None,
        target: Choice[int] | None = None,
        alone: Choice[str] | None = None,
        lead: Choice[str] | None = None,
        stick_the_dealer: bool | None = None,
        deck: Choice[int] | None = None,
        joker: bool | None = None,
        seating: Choice[str] | None = None,
        match: Choice[str] | None = None,
        coberta: bool | None = None,
        signals: bool | None = None,
        turn_timer: Choice[int] | None = None,
        pings: bool | None = None,
        pictures: bool | None = None,
        reset: bool = False,
    ) -> None:
        locale = locale_of(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None  # guild_only
        assert self.bot.db is not None
        store = HouseRulesStore(self.bot.db)
        given: dict[str, Choice[Any] | bool | None] = {
            "target": target,
            "alone": alone,
            "lead": lead,
            "stick_the_dealer": stick_the_dealer,
            "deck": deck,
            "joker": joker,
            "seating": seating,
            "match": match,
            "coberta": coberta,
            "signals": signals,
        }
        options = {
            name: value.value if isinstance(value, Choice) else value
            for name, value in given.items()
            if value is not None
        }
        settings = chosen_settings(turn_timer, pings, pictures)
        if game is None:
            if options or settings or reset:
                await say(interaction, t("house.need_game", locale))
                return
            lines = [rules_line(g, await store.get(guild_id, g), locale) for g in GAMES]
            await say(interaction, "\n".join([t("house.title", locale), *lines]))
            return
        name = game.value
        title = game_title(name, locale)
        if reset:
            await store.clear(guild_id, name)
            await say(interaction, t("house.reset", locale, game=title))
            return
        current = await store.get(guild_id, name)
        if not options and not settings:
            await say(interaction, rules_line(name, current, locale))
            return
        try:
            house = updated_house_rules(name, current, options, settings)
        except TableError as error:
            await say(interaction, t(error.key, locale, **error.values))
            return
        await store.set(guild_id, name, house, interaction.user.id, self.bot.clock())
        await say(interaction, t("house.saved", locale, rules=rules_line(name, house, locale)))


async def setup(bot: CardTableBot) -> None:
    await bot.add_cog(Settings(bot))
