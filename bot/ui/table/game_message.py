"""The table message while a game runs: the complete text (pictures off, for screen readers) or
the compact lines beside the picture (issue 30), its buttons, and the Log & rules answer.

Drawn from `game.view(None)` only: hidden cards cannot reach it by any other path."""

from __future__ import annotations

from typing import Any

import discord

from bot.engine.common import team_of
from bot.tables.service import Table
from bot.tables.story import story_lines, table_story
from bot.texts import n, t
from bot.ui.fair import deals as fair_deal
from bot.ui.kit.components import Buttons
from bot.ui.kit.custom_ids import table_button_id
from bot.ui.kit.layout import Layout
from bot.ui.kit.message_parts import COLOURS, MessageParts
from bot.ui.table import compact
from bot.ui.table.lobby_message import options_summary
from bot.ui.table.message_bits import (
    LOG_LINES,
    Style,
    _footer,
    _notice,
    deadline_line,
    last_trick_hand,
)
from bot.ui.words import round_words
from bot.ui.words.cards import card_text, suit_text
from bot.ui.words.events import cards_line, event_sentence, team_name
from bot.ui.words.seats import game_title, position_name, seat_mention, seat_name


def _seat_markers(table: Table, view: dict[str, Any], seat: int, locale: str | None) -> str:
    marks = []
    player = table.player_at(seat)
    if player.covered:
        key = "table.mark.away" if player.away else "table.mark.covered"
        marks.append(t(key, locale, player=f"<@{player.user_id}>"))
    if player.left_user_id is not None:
        marks.append(t("table.mark.left", locale, player=f"<@{player.left_user_id}>"))
    if view["dealer"] == seat:
        marks.append(t("table.mark.dealer", locale))
    if seat in (view.get("alone") or ()):
        marks.append(t("table.mark.alone", locale))
    if seat in (view.get("sitting_out") or ()):
        marks.append(t("table.mark.sitting_out", locale))
    if seat in view["to_act"]:
        marks.append(t("table.mark.to_act", locale))
    return "".join(f" · {m}" for m in marks)


def _team_fields(
    embed: discord.Embed,
    table: Table,
    view: dict[str, Any],
    locale: str | None,
    *,
    markers: bool = True,
) -> None:
    for team in (0, 1):
        lines = [
            seat_name(table, seat, locale)
            + (_seat_markers(table, view, seat, locale) if markers else "")
            for seat in range(4)
            if team_of(seat) == team
        ]
        embed.add_field(
            name=t(
                "table.field.team",
                locale,
                team=team_name(team, locale),
                points=n("plural.points", locale, view["scores"][team]),
            ),
            value="\n".join(lines),
            inline=True,
        )


def turn_line(table: Table, view: dict[str, Any], locale: str | None) -> str:
    """Whose turn it is, with a mention so they are notified."""
    to_act = view["to_act"]
    fair = view.get("fair")
    if view["phase"] == "cut" and fair is not None:  # nobody acts: the table cuts for them
        cutter = seat_name(table, int(fair["cutter"]), locale)
        return t(f"turn.{table.game_name}.cut", locale, who=cutter)
    if not to_act:
        return ""
    phase = view["phase"]
    who = t("table.or", locale).join(seat_mention(table, s, locale) for s in to_act)
    if table.game_name == "truco" and phase == "answer":
        ask = view["pending_ask"]
        return t("turn.truco.answer", locale, who=who, ask=t(f"truco.ask.{ask['name']}", locale))
    return t(f"turn.{table.game_name}.{phase}", locale, who=who)


def _euchre_fields(
    embed: discord.Embed, table: Table, view: dict[str, Any], locale: str | None
) -> None:
    trump = view["trump"]
    if trump is not None:
        maker = view["maker"]
        value = t(
            "table.trump_value",
            locale,
            suit=suit_text(trump),
            maker=seat_name(table, maker, locale),
        )
        value += "\n" + t("table.turned_card", locale, card=card_text(view["turned_card"]))
        embed.add_field(name=t("table.field.trump", locale), value=value, inline=True)
    elif view["turned_card"] is not None:  # none while a fair hand waits for its cut
        key = "table.turned_down" if view["turned_down"] else "table.turned_up"
        value = t(key, locale, card=card_text(view["turned_card"]))
        if view.get("named_suit"):
            value += "\n" + t("table.named_suit", locale, suit=suit_text(view["named_suit"]))
        embed.add_field(name=t("table.field.bidding", locale), value=value, inline=True)
    tricks = view["tricks_won"]
    embed.add_field(
        name=t("table.field.tricks", locale),
        value=t("table.tricks", locale, team0=tricks[0], team1=tricks[1]),
        inline=True,
    )
    if view.get("bridge") is not None:
        embed.add_field(
            name=t("table.field.bridge", locale),
            value=t("table.bridge", locale, team=team_name(view["bridge"], locale)),
            inline=True,
        )
    if "games_won" in view:
        games = view["games_won"]
        embed.add_field(
            name=t("table.field.rubber", locale),
            value=t("table.rubber", locale, team0=games[0], team1=games[1]),
            inline=True,
        )


def pending_ask_line(ask: dict[str, Any], locale: str | None) -> str:
    """Truco's call waiting for its answer: what was asked, by whom, what accepting and
    running are worth."""
    return t(
        "table.pending_ask",
        locale,
        ask=t(f"truco.ask.{ask['name']}", locale),
        team=team_name(ask["by_team"], locale),
        value=ask["value"],
        run_value=ask["run_value"],
    )


def _truco_fields(
    embed: discord.Embed, table: Table, view: dict[str, Any], locale: str | None
) -> None:
    lines = [t("table.hand_value", locale, value=view["hand_value"])]
    ask = view.get("pending_ask")
    if ask is not None:
        lines.append(pending_ask_line(ask, locale))
    if view.get("hand_of_ten") is not None and view.get("phase") == "hand_of_ten":
        # Only while they decide (issue 30 item 6).
        lines.append(t("table.hand_of_ten", locale, team=team_name(view["hand_of_ten"], locale)))
    if view.get("iron_hand"):
        lines.append(t("table.iron_hand", locale))
    if view.get("can_raise") is not None and view.get("raise_name") and ask is None:
        lines.append(
            t(
                "table.next_raise",
                locale,
                ask=t(f"truco.ask.{view['raise_name']}", locale),
                team=team_name(view["can_raise"], locale),
            )
        )
    embed.add_field(name=t("table.field.hand", locale), value="\n".join(lines), inline=True)
    if "games_won" in view:  # a match: best of 3 or 5
        games = view["games_won"]
        embed.add_field(
            name=t("table.field.match", locale, games=view["match"]),
            value=t("table.match", locale, team0=games[0], team1=games[1]),
            inline=True,
        )
    rounds = view.get("rounds") or []
    if rounds:
        parts = []
        for number, r in enumerate(rounds, start=1):
            if r["winner_team"] is None:
                parts.append(t("table.round_tied", locale, number=number))
            else:
                parts.append(
                    t(
                        "table.round_won",
                        locale,
                        number=number,
                        team=team_name(r["winner_team"], locale),
                    )
                )
        value = " · ".join(parts)
    else:
        value = t("table.none", locale)
    embed.add_field(name=t("table.field.rounds", locale), value=value, inline=True)


def log_lines(table: Table, locale: str | None, limit: int = LOG_LINES) -> list[str]:
    """The latest events of the game, oldest first."""
    game = table.game
    if game is None:
        return []
    lines: list[str] = []
    for event in reversed(game.events):
        line = event_sentence(
            table.game_name,
            event,
            lambda s: seat_name(table, s, locale),
            locale,
            lambda p: position_name(table, p, locale),
        )
        if line:
            lines.append(line)
            if len(lines) >= limit:
                break
    lines.reverse()
    return lines


def game_message(
    table: Table, locale: str | None = None, view: dict[str, Any] | None = None
) -> MessageParts:
    """The complete text of a game's table message (pictures off). `view`: the game's public
    view of the current state, where the caller has one (the picture shares it)."""
    game = table.game
    assert game is not None
    if view is None:
        view = game.view(None)

    def name_of(seat: int) -> str:
        return seat_name(table, seat, locale)

    embed = discord.Embed(
        title=round_words.table_title(game_title(table.game_name, locale), view, locale),
        colour=COLOURS.get(table.game_name),
    )
    _team_fields(embed, table, view, locale)
    if table.game_name == "euchre":
        _euchre_fields(embed, table, view, locale)
    else:
        _truco_fields(embed, table, view, locale)
    trick = view["trick"]
    embed.add_field(
        name=t("table.field.trick", locale),
        value=cards_line(trick, name_of) if trick else t("table.none", locale),
        inline=False,
    )
    last = view["last_trick"]
    whose = last_trick_hand(game.events) if last is not None else None
    if last is not None and whose is not None:
        winner = last.get("winner", last.get("winner_seat"))
        value = cards_line(last["cards"], name_of)
        if winner is not None:
            value += " — " + t("table.last_trick_winner", locale, player=name_of(winner))
        else:
            value += " — " + t("table.last_trick_tied", locale)
        key = "table.field.last_trick." + ("" if whose == "this" else "previous.")
        embed.add_field(name=t(key + table.game_name, locale), value=value, inline=False)
    lines = log_lines(table, locale)
    if lines:
        embed.add_field(
            name=t("table.field.log", locale), value="\n".join(lines)[-1024:], inline=False
        )
    fair_deal.add_field(embed, table, locale, view)
    embed.set_footer(text=_footer(table, locale))
    content = _notice(table, locale) + turn_line(table, view, locale) + deadline_line(table, locale)
    return MessageParts(content=content, embed=embed, view=game_buttons(table, locale, log=False))


def game_buttons(table: Table, locale: str | None, *, log: bool = True) -> Buttons:
    """The table's buttons in play; `log`: 📜 Log & rules (beside the picture, where the
    message is compact; the complete text shows the log itself)."""
    buttons = Buttons()
    buttons.add(
        table_button_id(table.id, "hand"), label=t("table.button.hand", locale), style=Style.primary
    )
    fair_deal.add_buttons(buttons, table, locale)
    if any(s is not None and s.covered for s in table.seats):
        buttons.add(
            table_button_id(table.id, "back"),
            label=t("table.button.back", locale),
            style=Style.success,
        )
    if log:
        buttons.add(table_button_id(table.id, "log"), label=t("table.button.log", locale))
    buttons.add(table_button_id(table.id, "leave"), label=t("table.button.leave", locale))
    return buttons


def compact_game_message(
    table: Table, locale: str | None = None, view: dict[str, Any] | None = None
) -> MessageParts:
    """The table message beside its picture (issue 30 item 1): at most six short lines.
    `view`: the game's public view of the current state, where the caller has one (the
    picture shares it, issue 31); every line reads this one."""
    game = table.game
    assert game is not None
    if view is None:
        view = game.view(None)

    def name_of(seat: int) -> str:
        return seat_name(table, seat, locale)

    notice = _notice(table, locale).strip()
    turn = turn_line(table, view, locale)
    ended = compact.hand_end_line(table, name_of, locale)
    # Who a bot plays for (their "I'm back" is a button below) or who left: said with the time
    # left, on one line.
    marks = [
        t(
            "table.mark.away" if player.away else "table.mark.covered",
            locale,
            player=f"<@{player.user_id}>",
        )
        for seat in range(4)
        if (player := table.player_at(seat)).covered
    ]
    marks += [
        t("table.mark.left", locale, player=f"<@{player.left_user_id}>")
        for seat in range(4)
        if (player := table.player_at(seat)).left_user_id is not None
    ]
    lines = [
        " ".join(p for p in (notice, turn) if p),
        " · ".join(p for p in (deadline_line(table, locale).strip(), *marks) if p),
        ended or compact.last_action(table, name_of, locale),
        compact.state_line(table, view, name_of, locale),
        compact.score_line(table, view, locale),
        compact.small_line(table, locale, view),
    ]
    layout = Layout(
        compact.at_most(lines, compact.TABLE_LINES),
        game_buttons(table, locale),
        accent=compact.accent(view),
    )
    return MessageParts(content=layout.text, embed=None, view=layout)


def log_answer(table: Table, locale: str | None) -> str:
    """ "📜 Log & rules", privately: the latest moves, the rules in force, the fair deal's full
    commitments and reveals (what the compact table message leaves out)."""
    lines = [f"**{t('table.field.log', locale)}**", *log_lines(table, locale, limit=LOG_ANSWER)]
    story = game_story(table, locale)
    if story and table.game is not None and table.game.is_over:
        # After the game (issue 30): the whole story the compact result begins.
        lines += [f"**{t('result.story', locale)}**", *story]
    lines += [f"**{t('lobby.options', locale)}**", options_summary(table, locale)]
    fair = fair_deal.table_lines(table, locale)
    if fair:
        lines += [f"**{t('fair.field', locale)}**", *fair]
    return "\n".join(lines)[:2000]


LOG_ANSWER = 15


def game_story(table: Table, locale: str | None) -> list[str]:
    """The game's story (issue 22), line by line; none before the game started."""
    if table.game is None or table.record.started_at is None:
        return []
    return story_lines(
        table_story(table),
        lambda seat: seat_name(table, seat, locale),
        lambda team: team_name(team, locale),
        locale,
    )
