"""A server's house rules (issue 21): the options and table settings its new tables start with.

`/settings` changes a few at a time: the values given are laid over the ones already set and the
whole is checked as a new table would check it (the game's options, the table settings), so a
server never stores rules that would refuse every new table. The options given to `/euchre new`
or `/truco new` are laid over the house rules in turn (bot/ui/table/table_ui.py create_table)."""

from __future__ import annotations

from typing import Any

from bot.engine.common import EngineError
from bot.tables.errors import BadOptions
from bot.tables.games import rules_for
from bot.tables.records import HouseRules
from bot.tables.settings import normalise_settings


def updated_house_rules(
    game: str, current: HouseRules, options: dict[str, Any], settings: dict[str, Any]
) -> HouseRules:
    """`current` with `options` and `settings` laid over it; BadOptions if a new table of `game`
    could not start with the result (e.g. a euchre target given for truco)."""
    merged = HouseRules({**current.options, **options}, {**current.settings, **settings})
    effective(game, merged)
    return merged


def effective(game: str, house: HouseRules) -> tuple[dict[str, Any], dict[str, Any]]:
    """Every option and setting a new table of `game` starts with under `house` (the bot's
    defaults for what the house rules leave out)."""
    try:
        options = rules_for(game).normalise_options(dict(house.options))
        settings = normalise_settings(dict(house.settings))
    except (EngineError, TypeError, ValueError) as error:
        raise BadOptions(reason=str(error)) from None
    return options, settings
