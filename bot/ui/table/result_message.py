"""The table message once a game is over (its result and what comes after), once the table is
closed, and once it has moved to a new message."""

from __future__ import annotations

import discord

from bot.engine.common import team_of
from bot.tables.service import Table
from bot.tables.story import story_lines, table_story
from bot.texts import t
from bot.ui.fair import deals as fair_deal
from bot.ui.kit.components import Buttons
from bot.ui.kit.custom_ids import ended_game_at, table_button_id
from bot.ui.kit.layout import Layout
from bot.ui.kit.message_parts import COLOURS, MessageParts
from bot.ui.table.game_message import _team_fields, log_lines
from bot.ui.table.message_bits import Style, _footer, _notice, as_layout, jump_url
from bot.ui.words import round_words
from bot.ui.words.events import team_name
from bot.ui.words.seats import game_title, seat_name


def result_message(table: Table, locale: str | None = None) -> MessageParts:
    game = table.game
    assert game is not None
    view = game.view(None)
    winner = view["winner"]
    winners = t("table.and", locale).join(
        seat_name(table, s, locale) for s in range(4) if team_of(s) == winner
    )
    embed = discord.Embed(
        title=t("result.title", locale, game=game_title(table.game_name, locale)),
        description=round_words.result_description(view, winners, locale),
        colour=COLOURS.get(table.game_name),
    )
    _team_fields(embed, table, view, locale, markers=False)
    if "games_won" in view and table.game_name == "truco":
        games = view["games_won"]
        embed.add_field(
            name=t("table.field.match", locale, games=view["match"]),
            value=t(
                "result.match",
                locale,
                team=team_name(winner, locale),
                won=games[winner],
                lost=games[1 - winner],
            ),
            inline=False,
        )
    if table.result is not None and table.result.margin is not None:
        embed.add_field(
            name=t("table.field.rubber", locale),
            value=t("result.margin", locale, margin=table.result.margin),
            inline=False,
        )
    lines = log_lines(table, locale)
    if lines:
        embed.add_field(
            name=t("table.field.log", locale), value="\n".join(lines)[-1024:], inline=False
        )
    fair_deal.add_field(embed, table, locale)
    embed.set_footer(text=_footer(table, locale))
    ready = table.record.ready
    humans = table.humans()
    embed.add_field(
        name=t("result.button.again", locale),
        value=t(
            "result.ready",
            locale,
            players=", ".join(f"<@{u}>" for u in ready),
            count=len(ready),
            total=len(humans),
        )
        if ready
        else t("result.ready_none", locale),
        inline=False,
    )
    buttons = Buttons()
    buttons.add(
        table_button_id(table.id, "again"),
        label=t("result.button.again", locale),
        style=Style.success,
    )
    buttons.add(table_button_id(table.id, "go"), label=t("result.button.start_now", locale))
    buttons.add(table_button_id(table.id, "leave"), label=t("table.button.leave", locale))
    _after_game(embed, buttons, table, locale)
    content = _notice(table, locale) + round_words.result_content(view, winners, locale)
    return MessageParts(content=content, embed=embed, view=buttons)


def _after_game(embed: discord.Embed, buttons: Buttons, table: Table, locale: str | None) -> None:
    """The game's story, and its replay, review and record (issue 22): the buttons carry the
    table and the moment the game started, which storage turns into the recorded game's id."""
    game, started_at = table.game, table.record.started_at
    if game is None or started_at is None:
        return
    story = table_story(table)
    lines = story_lines(
        story,
        lambda seat: seat_name(table, seat, locale),
        lambda team: team_name(team, locale),
        locale,
    )
    embed.add_field(name=t("result.story", locale), value="\n".join(lines)[-1024:], inline=False)
    for verb, key in (("open", "replay"), ("review", "review"), ("export", "export")):
        buttons.add(
            ended_game_at(table.id, started_at, verb),
            label=t(f"replay.button.{key}", locale),
            row=1,
        )


def closed_message(table: Table, locale: str | None = None) -> MessageParts:
    embed = discord.Embed(
        title=t("closed.title", locale, game=game_title(table.game_name, locale)),
        description=t("closed.description", locale),
        colour=discord.Colour.light_grey(),
    )
    embed.set_footer(text=t("table.footer", locale, table=table.id))
    parts = MessageParts(content="", embed=embed, view=None)
    # A lobby never played keeps its embed; a message that showed a game is a layout for good.
    return parts if table.game is None else as_layout(parts)


def moved_message(table: Table, locale: str | None = None) -> MessageParts:
    """What an old table message says after `/table show` reposted the table."""
    url = jump_url(table) or ""
    layout = Layout([t("table.moved", locale, url=url)])
    return MessageParts(content=layout.text, embed=None, view=layout, files=[])
