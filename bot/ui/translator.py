"""Slash commands in the user's language: descriptions, option descriptions and choice names
carry their catalog key, and discord.py asks this translator for each Discord locale at sync."""

from __future__ import annotations

from discord import Locale, app_commands

from bot.texts import catalog_for, t


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
        if key is None or catalog_for(locale.value) is None:
            return None  # command names stay English; English locales use the default
        text = t(key, locale.value)
        return text.capitalize() if string.extras.get("capitalize") else text
