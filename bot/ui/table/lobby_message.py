"""The lobby's table message: the seats, the options and rules in force, and the host's buttons
and menus for the settings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from bot.engine.common import team_of
from bot.tables.bot_moves import LEVELS
from bot.tables.lobby import LOBBY_RULES, RULE_DEFAULTS
from bot.tables.service import Table
from bot.tables.settings import SETTINGS, setting_of
from bot.texts import n, t
from bot.ui.fair import deals as fair_deal
from bot.ui.kit.components import Buttons
from bot.ui.kit.custom_ids import table_button_id
from bot.ui.kit.message_parts import COLOURS, MessageParts
from bot.ui.table.message_bits import Style, _footer, _notice
from bot.ui.words.events import team_name
from bot.ui.words.seats import game_title, position_name


def options_summary(table: Table, locale: str | None) -> str:
    return rules_summary(table.game_name, table.options, locale)


def rules_summary(game: str, options: Mapping[str, Any], locale: str | None) -> str:
    """A game's options (normalised: every one present) in one line."""
    if game == "euchre":
        parts = [
            t("options.target", locale, target=options["target"]),
            t("options.deck", locale, deck=options["deck"])
            + (t("options.joker", locale) if options["joker"] else ""),
            t(f"options.alone.{options['alone']}", locale),
            t(f"options.lead.{options['lead']}", locale),
            t(f"options.stick.{'on' if options['stick_the_dealer'] else 'off'}", locale),
            t(f"options.seating.{options['seating']}", locale),
            t(f"options.match.{options['match']}", locale),
        ]
        if options.get("hands"):  # a progressive euchre round: a fixed number of hands
            hands = n("plural.hands", locale, options["hands"])
            parts.append(t("options.hands", locale, hands=hands))
    else:
        parts = [t("options.target", locale, target=options["target"])]
        if options.get("coberta"):
            parts.append(t("options.coberta", locale))
        if options.get("signals") is False:
            parts.append(t("options.signals_off", locale))
        if options.get("match", 1) != 1:
            parts.append(t("options.best_of", locale, games=options["match"]))
    return " · ".join(parts)


MENU_SETTING = "turn_timer"


def lobby_message(table: Table, locale: str | None = None) -> MessageParts:
    embed = discord.Embed(
        title=t("lobby.title", locale, game=game_title(table.game_name, locale)),
        description=t("lobby.description", locale, host=f"<@{table.host_id}>"),
        colour=COLOURS.get(table.game_name),
    )
    for team in (0, 1):
        lines = [
            t("lobby.seat_line", locale, number=p + 1, player=position_name(table, p, locale))
            for p in range(4)
            if team_of(p) == team
        ]
        embed.add_field(name=team_name(team, locale), value="\n".join(lines), inline=True)
    embed.add_field(
        name=t("lobby.options", locale), value=options_summary(table, locale), inline=False
    )
    embed.add_field(
        name=t("lobby.settings", locale),
        value="\n".join(
            t("lobby.setting_line", locale, setting=name, value=value)
            for name, value in setting_texts(table, locale)
        ),
        inline=False,
    )
    commitment = fair_deal.lobby_line(table, locale)
    if commitment is not None:
        embed.add_field(name=t("fair.field", locale), value=commitment, inline=False)
    embed.set_footer(text=_footer(table, locale))

    view = Buttons()
    for position in range(4):
        occupant = table.seats[position]
        taken = occupant is not None and not occupant.is_bot
        view.add(
            table_button_id(table.id, "seat", position),
            label=t("lobby.button.seat", locale, number=position + 1),
            style=Style.secondary,
            disabled=taken,
            row=0,
        )
    full = table.is_full
    view.add(
        table_button_id(table.id, "join"),
        label=t("lobby.button.join", locale),
        style=Style.success,
        disabled=full,
        row=1,
    )
    view.add(table_button_id(table.id, "leave"), label=t("lobby.button.leave", locale), row=1)
    view.add(
        table_button_id(table.id, "start"),
        label=t("lobby.button.start", locale),
        style=Style.primary,
        disabled=not full,
        row=1,
    )
    view.add(
        table_button_id(table.id, "cancel"),
        label=t("lobby.button.cancel", locale),
        style=Style.danger,
        row=1,
    )
    for level in LEVELS:
        view.add(
            table_button_id(table.id, "bot", level=level),
            label=t(f"lobby.button.bot.{level}", locale),
            disabled=full,
            row=2,
        )
    for setting, (name, value) in zip(SETTINGS, setting_texts(table, locale), strict=True):
        if setting.name == MENU_SETTING:
            # Issue 21 item 7: the turn timer is picked in one click from a menu (a button
            # cycling through five values took four clicks and four public edits). Discord
            # gives a message five rows and a menu fills one: the other settings stay buttons.
            current = setting_of(table.record.settings, setting.name)
            view.add_select(
                table_button_id(table.id, "set", setting=setting.name),
                placeholder=name,
                options=[
                    (
                        t(
                            "settings.button",
                            locale,
                            setting=name,
                            value=t(f"settings.{setting.name}.{v}", locale),
                        ),
                        str(v),
                        v == current,
                    )
                    for v in setting.values
                ],
                row=4,
            )
            continue
        view.add(
            table_button_id(table.id, "set", setting=setting.name),
            label=t("settings.button", locale, setting=name, value=value),
            row=3,
        )
    for rule in LOBBY_RULES.get(table.game_name, ()):  # truco's coberta (T15), sinais
        on = bool(table.options.get(rule, RULE_DEFAULTS.get(rule, False)))
        view.add(
            table_button_id(table.id, "set", setting=rule),
            label=t(
                "settings.button",
                locale,
                setting=t(f"lobby.rule.{rule}", locale),
                value=t(f"settings.pings.{on}", locale),
            ),
            style=Style.success if on else Style.secondary,
            row=3,
        )
    content = _notice(table, locale) + t(
        "lobby.content", locale, game=game_title(table.game_name, locale)
    )
    return MessageParts(content=content, embed=embed, view=view)


def setting_texts(table: Table, locale: str | None) -> list[tuple[str, str]]:
    """Each table setting's name and current value, as the lobby shows them."""
    return settings_texts(table.record.settings, locale)


def settings_texts(settings: Mapping[str, Any], locale: str | None) -> list[tuple[str, str]]:
    return [
        (
            t(f"settings.{s.name}", locale),
            t(f"settings.{s.name}.{setting_of(dict(settings), s.name)}", locale),
        )
        for s in SETTINGS
    ]
