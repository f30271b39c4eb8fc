"""Slash commands in the user's language: descriptions, option descriptions and choice names
carry their catalog key; command, group and option names are found as `cmd.name.<name>`.
discord.py asks this translator for each Discord locale at sync."""

from __future__ import annotations

from discord import Locale, app_commands

from bot.texts import catalog_for, t
from bot.texts.en import STRINGS

Location = app_commands.TranslationContextLocation
NAMES = (Location.command_name, Location.group_name, Location.parameter_name)


def command_text(key: str, *, capitalize: bool = False) -> app_commands.locale_str:
    """An English command text that the translator can find in every catalog by `key`."""
    text = t(key)
    return app_commands.locale_str(
        text.capitalize() if capitalize else text, key=key, capitalize=capitalize
    )


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if key is None and context.location in NAMES:
            key = f"cmd.name.{string.message}"  # names are plain strings: found by themselves
        if key not in STRINGS or catalog_for(locale.value) is None:
            return None  # English locales use the default
        text = t(key, locale.value)
        return text.capitalize() if string.extras.get("capitalize") else text
