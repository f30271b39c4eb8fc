"""A game's table options as slash-command options, declared once: `/euchre new`, `/truco new`
and `/settings` take their choices, descriptions and the options they collect from here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from discord import app_commands
from discord.app_commands import Choice

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
    "truco": ("coberta",),
}
# Values a new truco table leaves unsaid (its stored options name only what differs).
UNSAID: dict[str, dict[str, Any]] = {"truco": {"coberta": False, "match": 1}}


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


def chosen_options(game: str, given: Mapping[str, Choice[Any] | bool | None]) -> dict[str, Any]:
    """The options a command was given, by name (unset ones left out)."""
    options: dict[str, Any] = {}
    for name, value in given.items():
        if value is None:
            continue
        chosen = value.value if isinstance(value, Choice) else value
        if name in UNSAID.get(game, {}) and UNSAID[game][name] == chosen:
            continue
        options[name] = chosen
    return options
