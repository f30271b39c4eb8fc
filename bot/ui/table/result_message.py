"""The table message once a game is over (its result and what comes after), once the table is
closed, and once it has moved to a new message."""

from __future__ import annotations

from typing import Any

import discord

from bot.engine.common import team_of
from bot.tables.service import Table
from bot.texts import t
from bot.ui.fair import deals as fair_deal
from bot.ui.kit.components import Buttons
from bot.ui.kit.custom_ids import ended_game_at, table_button_id
from bot.ui.kit.layout import Layout
from bot.ui.kit.message_parts import COLOURS, MessageParts
from bot.ui.table import compact
from bot.ui.table.game_message import _team_fields, game_story, log_lines
from bot.ui.table.message_bits import Style, _footer, _notice, as_layout, jump_url
from bot.ui.words import round_words
from bot.ui.words.events import team_name
from bot.ui.words.seats import game_title, seat_name


def result_message(table: Table, locale: str | None = None) -> MessageParts:
    """The complete result (pictures off: every line, for screen readers)."""
    game = table.game
    assert game is not None
    view = game.view(None)
    winners = _winners(table, view, locale)
    embed = discord.Embed(
        title=t("result.title", locale, game=game_title(table.game_name, locale)),
        description=round_words.result_description(view, winners, locale),
        colour=COLOURS.get(table.game_name),
    )
    _team_fields(embed, table, view, locale, markers=False)
    if "games_won" in view and table.game_name == "truco":
        embed.add_field(
            name=t("table.field.match", locale, games=view["match"]),
            value=_match_line(view, locale),
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
    embed.add_field(
        name=t("result.button.again", locale), value=_ready_line(table, locale), inline=False
    )
    buttons = _result_buttons(table, locale)
    story = game_story(table, locale)
    if story:
        embed.add_field(
            name=t("result.story", locale), value="\n".join(story)[-1024:], inline=False
        )
    content = _notice(table, locale) + round_words.result_content(view, winners, locale)
    return MessageParts(content=content, embed=embed, view=buttons)


def compact_result_message(table: Table, locale: str | None = None) -> MessageParts:
    """The result beside the table picture (issue 30 item 1): at most six short lines — the
    game over, who won and by how much (with the match or the rubber), the story's first line
    when there is room, who is ready for another game, and as small text the deals' public
    check (version 1: the last hand revealed; version 2: the game secret, from which every hand
    checks) and the table. The hand log, the rules and the whole story are behind
    "📜 Log & rules"."""
    game = table.game
    assert game is not None
    view = game.view(None)
    winners = _winners(table, view, locale)
    standing = [round_words.result_description(view, winners, locale)]
    if "games_won" in view and table.game_name == "truco":
        standing.append(_match_line(view, locale))
    if table.result is not None and table.result.margin is not None:
        standing.append(t("result.margin", locale, margin=table.result.margin))
    notice = _notice(table, locale).strip()
    content = round_words.result_content(view, winners, locale)
    fair = "\n".join(fair_deal.table_lines(table, locale)).splitlines()
    fair = [compact.small(line.removeprefix("-# ")) for line in fair]  # one "-# ", not two
    footer = [
        _ready_line(table, locale),
        *fair,
        compact.small(t("table.footer", locale, table=table.id)),
    ]
    head = [" ".join(part for part in (notice, content) if part), " · ".join(standing)]
    room = compact.TABLE_LINES - len(head) - len(footer)
    lines = head + game_story(table, locale)[: max(0, room)] + footer
    buttons = _result_buttons(table, locale)
    buttons.add(table_button_id(table.id, "log"), label=t("table.button.log", locale), row=1)
    layout = Layout(compact.at_most(lines, compact.TABLE_LINES), buttons)
    return MessageParts(content=layout.text, embed=None, view=layout)


def _winners(table: Table, view: dict[str, Any], locale: str | None) -> str:
    return t("table.and", locale).join(
        seat_name(table, s, locale) for s in range(4) if team_of(s) == view["winner"]
    )


def _match_line(view: dict[str, Any], locale: str | None) -> str:
    winner, games = view["winner"], view["games_won"]
    return t(
        "result.match",
        locale,
        team=team_name(winner, locale),
        won=games[winner],
        lost=games[1 - winner],
    )


def _ready_line(table: Table, locale: str | None) -> str:
    ready = table.record.ready
    if not ready:
        return t("result.ready_none", locale)
    return t(
        "result.ready",
        locale,
        players=", ".join(f"<@{u}>" for u in ready),
        count=len(ready),
        total=len(table.humans()),
    )


def _result_buttons(table: Table, locale: str | None) -> Buttons:
    """Play again, Start now, Leave; then the game's replay, review and record (issue 22):
    their ids carry the table and the moment the game started, which storage turns into the
    recorded game's id."""
    buttons = Buttons()
    buttons.add(
        table_button_id(table.id, "again"),
        label=t("result.button.again", locale),
        style=Style.success,
    )
    buttons.add(table_button_id(table.id, "go"), label=t("result.button.start_now", locale))
    buttons.add(table_button_id(table.id, "leave"), label=t("table.button.leave", locale))
    started_at = table.record.started_at
    if table.game is not None and started_at is not None:
        for verb, key in (("open", "replay"), ("review", "review"), ("export", "export")):
            buttons.add(
                ended_game_at(table.id, started_at, verb),
                label=t(f"replay.button.{key}", locale),
                row=1,
            )
    return buttons


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
