"""A game's table options as slash-command options, declared once: `/euchre new`, `/truco new`
and `/settings` take their choices, descriptions and the options they collect from here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from discord import app_commands
from discord.app_commands import Choice

from bot.tables.settings import BY_NAME
from bot.ui.kit.translator import command_text

GAMES = ("euchre", "truco")
# The values each game's commands offer, in the order players read them.
CHOICES: dict[str, dict[str, tuple[Any, ...]]] = {
    "euchre": {
        "target": (10, 7, 5),
        "alone": ("anyone", "maker"),
        "lead": ("left_of_loner", "left_of_dealer"),
        "deck": (24, 28, 32),
        "seating": ("random", "draw"),
        "match": ("game", "rubber"),
    },
    "truco": {"target": (12, 24, 6), "match": (1, 3, 5)},
}
# Yes/no options.
FLAGS: dict[str, tuple[str, ...]] = {
    "euchre": ("stick_the_dealer", "joker"),
    "truco": ("coberta", "signals"),
}
# The table settings every new-table command offers, with their descriptions.
SETTINGS = {
    "turn_timer": "cmd.new.turn_timer",
    "pings": "cmd.new.pings",
    "ping_after": "cmd.new.ping_after",
    "pictures": "cmd.option.pictures",
}


def option_choices(game: str, option: str) -> list[Choice[Any]]:
    return [
        Choice(name=command_text(f"cmd.{game}.{option}.{value}"), value=value)
        for value in CHOICES[game][option]
    ]


def game_choices(game: str) -> dict[str, list[Choice[Any]]]:
    """For `@app_commands.choices(**game_choices(game))`."""
    return {option: option_choices(game, option) for option in CHOICES[game]}


def descriptions(game: str) -> dict[str, app_commands.locale_str]:
    """For `@app_commands.describe(**descriptions(game))`."""
    return {
        option: command_text(f"cmd.{game}.{option}") for option in (*CHOICES[game], *FLAGS[game])
    }


def settings_choices() -> dict[str, list[Choice[Any]]]:
    """`/settings` names the game apart: its options are euchre's, and its target offers both
    games' targets (the game's own are checked when the rules are saved)."""
    chosen = game_choices("euchre")
    chosen["target"] = [c for game in GAMES for c in option_choices(game, "target")]
    return chosen


def all_descriptions() -> dict[str, app_commands.locale_str]:
    merged: dict[str, app_commands.locale_str] = {}
    for game in GAMES:
        for option, text in descriptions(game).items():
            merged.setdefault(option, text)
    return merged


def chosen_options(given: Mapping[str, Choice[Any] | bool | None]) -> dict[str, Any]:
    """The options a command was given, by name (unset ones left out). A value given that is
    the game's default is kept: it overrides a server's house rule (the table's stored options
    leave defaults out, bot/tables/games.py)."""
    return {
        name: value.value if isinstance(value, Choice) else value
        for name, value in given.items()
        if value is not None
    }


def setting_choices(name: str) -> list[Choice[int]]:
    """A table setting's values as slash-command choices (`/euchre new turn_timer:`)."""
    return [
        Choice(name=command_text(f"settings.{name}.{value}"), value=value)
        for value in BY_NAME[name].values
    ]


def chosen_settings(
    turn_timer: Choice[int] | None,
    pings: bool | None,
    pictures: bool | None,
    ping_after: Choice[int] | None = None,
) -> dict[str, Any]:
    """The table settings given as command options (the others take their defaults)."""
    chosen: dict[str, Any] = {}
    if turn_timer is not None:
        chosen["turn_timer"] = turn_timer.value
    if pings is not None:
        chosen["pings"] = pings
    if pictures is not None:
        chosen["pictures"] = pictures
    if ping_after is not None:
        chosen["ping_after"] = ping_after.value
    return chosen


def setting_descriptions(*names: str) -> dict[str, app_commands.locale_str]:
    """For `@app_commands.describe(**setting_descriptions())`: every setting, or those named."""
    return {name: command_text(key) for name, key in SETTINGS.items() if not names or name in names}


def settings_with_choices(*names: str) -> dict[str, list[Choice[int]]]:
    """For `@app_commands.choices(**settings_with_choices())`: the settings chosen from a list."""
    return {
        name: setting_choices(name)
        for name in ("turn_timer", "ping_after")
        if not names or name in names
    }
