"""Messages of a table: the public table message (lobby, game, result, closed) and a player's
private hand message. Pure functions of the table's state; all text from the catalog.

The public message is drawn from `game.view(None)` only, and a hand message from
`game.view(seat)` only: hidden cards cannot reach a message by any other path.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.engine.common import team_of
from bot.tables import alone
from bot.tables.bot_moves import LEVELS
from bot.tables.lobby import LOBBY_RULES, RULE_DEFAULTS
from bot.tables.service import Table
from bot.tables.settings import SETTINGS, setting_of
from bot.tables.story import story_lines, table_story
from bot.texts import n, t
from bot.ui.fair import deals as fair_deal
from bot.ui.kit.components import Buttons
from bot.ui.kit.custom_ids import ended_game_at, game_action_id, table_button_id
from bot.ui.kit.layout import Layout, from_legacy
from bot.ui.kit.message_parts import COLOURS, MessageParts
from bot.ui.table import compact
from bot.ui.table.seat_picture import URL as SEAT_PICTURE_URL
from bot.ui.table.signals import add_signal_buttons, signal_lines
from bot.ui.table.table_picture import URL as PICTURE_URL
from bot.ui.table.table_picture import wants_picture
from bot.ui.words import round_words
from bot.ui.words.cards import card_text, cards_text, suit_text
from bot.ui.words.events import cards_line, event_sentence, team_name
from bot.ui.words.seats import game_title, position_name, seat_mention, seat_name

LOG_LINES = 6
Style = discord.ButtonStyle


# --- names --------------------------------------------------------------------------------------


def jump_url(table: Table) -> str | None:
    if table.message_id is None:
        return None
    return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{table.message_id}"


# --- the public table message -----------------------------------------------------------------


def table_message(
    table: Table, locale: str | None = None, *, picture: bool | None = None
) -> MessageParts:
    """`picture`: show the table picture (an attachment sent with the message); by default
    when the table's setting asks for it."""
    if table.closed:
        return closed_message(table, locale)
    if picture is None:
        picture = wants_picture(table)
    if table.status == "lobby" or table.game is None:
        # The lobby, the message's first versions, stays an embed: a message takes the
        # Components V2 flag with the game's first version (an edit may add it, never remove
        # it), and keeps it to the end.
        parts = lobby_message(table, locale)
        if parts.embed is not None and picture:
            parts.embed.set_image(url=PICTURE_URL)
        return parts
    if table.game.is_over:
        parts = result_message(table, locale)
    elif picture:
        parts = compact_game_message(table, locale)
    else:  # no picture: the complete text, for screen readers
        parts = game_message(table, locale)
    return as_layout(parts, PICTURE_URL if picture else None)


def as_layout(parts: MessageParts, picture: str | None = None) -> MessageParts:
    """The message as a Components V2 Layout (issue 30 item 1): a table message's flag can
    never be removed, so its result and closed versions are layouts too, word for word."""
    if isinstance(parts.view, Layout):
        parts.view.picture = picture
        return parts
    assert parts.view is None or isinstance(parts.view, Buttons)
    parts.view = from_legacy(parts.content, parts.embed, parts.view, picture=picture)
    return parts


def _notice(table: Table, locale: str | None) -> str:
    if table.notice and table.notice_version == table.version:
        return t(table.notice, locale) + "\n"
    return ""


def _footer(table: Table, locale: str | None) -> str:
    # A count people know (issue 21 item 5): the hand in play. Not the table's version, which
    # also moves on lobby settings, fair-deal cuts and automatic going-alone answers; the
    # version travels in the picture's PNG text chunks and the hand buttons' ids instead.
    game = table.game
    if table.status == "lobby" or game is None or game.is_over:
        return t("table.footer", locale, table=table.id)
    return t("table.footer.hand", locale, table=table.id, hand=game.hand_number + 1)


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


def _truco_fields(
    embed: discord.Embed, table: Table, view: dict[str, Any], locale: str | None
) -> None:
    lines = [t("table.hand_value", locale, value=view["hand_value"])]
    ask = view.get("pending_ask")
    if ask is not None:
        lines.append(
            t(
                "table.pending_ask",
                locale,
                ask=t(f"truco.ask.{ask['name']}", locale),
                team=team_name(ask["by_team"], locale),
                value=ask["value"],
                run_value=ask["run_value"],
            )
        )
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


def game_message(table: Table, locale: str | None = None) -> MessageParts:
    game = table.game
    assert game is not None
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
    fair_deal.add_field(embed, table, locale)
    embed.set_footer(text=_footer(table, locale))
    content = _notice(table, locale) + turn_line(table, view, locale) + deadline_line(table, locale)
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
    buttons.add(table_button_id(table.id, "leave"), label=t("table.button.leave", locale))
    return MessageParts(content=content, embed=embed, view=buttons)


def game_buttons(table: Table, locale: str | None) -> Buttons:
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
    buttons.add(table_button_id(table.id, "log"), label=t("table.button.log", locale))
    buttons.add(table_button_id(table.id, "leave"), label=t("table.button.leave", locale))
    return buttons


def compact_game_message(table: Table, locale: str | None = None) -> MessageParts:
    """The table message beside its picture (issue 30 item 1): at most six short lines."""
    game = table.game
    assert game is not None
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
        compact.small_line(table, locale),
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
    lines += [f"**{t('lobby.options', locale)}**", options_summary(table, locale)]
    fair = fair_deal.table_lines(table, locale)
    if fair:
        lines += [f"**{t('fair.field', locale)}**", *fair]
    return "\n".join(lines)[:2000]


LOG_ANSWER = 15


def ping_key(table: Table) -> tuple[Any, ...] | None:
    """What the table's turn ping is about (a new ping for each new key); None: no ping."""
    if table.closed or not setting_of(table.record.settings, "pings"):
        return None
    humans = table.humans_to_act()
    if not humans or not table.wants_ping():
        return None  # nobody to ping, or not yet: they have not been idle `ping_after` s
    users = tuple(table.player_at(s).user_id for s in humans)
    return (users, table.record.turn_warned, table.version)


def ping_message(table: Table, locale: str | None = None) -> tuple[str, list[int]]:
    """The short channel message that notifies the players to act: its text and their ids."""
    humans = table.humans_to_act()
    users = [u for s in humans if (u := table.player_at(s).user_id) is not None]
    who = " ".join(f"<@{u}>" for u in users)
    game = game_title(table.game_name, locale)
    url = jump_url(table) or ""
    deadline = table.record.turn_deadline
    if table.record.turn_warned and deadline is not None:
        text = t("ping.warning", locale, who=who, when=relative_time(deadline), url=url)
    else:
        text = t("ping.turn", locale, who=who, game=game, url=url)
    return text, users


def relative_time(when: float) -> str:
    """A Discord timestamp: each reader's client shows "in 2 minutes", counting down."""
    return f"<t:{int(when)}:R>"


def deadline_line(table: Table, locale: str | None) -> str:
    deadline = table.record.turn_deadline
    humans = table.humans_to_act()
    if deadline is None or not humans:
        return ""
    who = t("table.or", locale).join(seat_mention(table, s, locale) for s in humans)
    return "\n" + t("table.deadline", locale, who=who, when=relative_time(deadline))


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


HAND_START = "hand_dealt"
TRICK_ENDS = frozenset({"trick_won", "round_won", "round_tied"})


def last_trick_hand(events: Sequence[Any]) -> str | None:
    """Whose is the engine's last trick (issue 13 item 6): "this" hand's, the "previous"
    hand's, or None — it is older (the previous hand was thrown in, E12, or ended before a
    trick, as a truco hand run from at once) and a new deal must not show it. Read from the
    events of this hand and the one before, which the table always keeps (forget_old_events);
    where this hand's start is not among them, nothing is claimed: "this"."""
    starts = [index for index, event in enumerate(events) if event.kind == HAND_START]
    if not starts:
        return "this"
    current = starts[-1]
    if any(event.kind in TRICK_ENDS for event in events[current:]):
        return "this"
    if len(starts) < 2:
        return None
    if any(event.kind in TRICK_ENDS for event in events[starts[-2] : current]):
        return "previous"
    return None


def moved_message(table: Table, locale: str | None = None) -> MessageParts:
    """What an old table message says after `/table show` reposted the table."""
    url = jump_url(table) or ""
    layout = Layout([t("table.moved", locale, url=url)])
    return MessageParts(content=layout.text, embed=None, view=layout, files=[])


# --- the private hand message -----------------------------------------------------------------


def _action_label(table: Table, view: dict[str, Any], action: str, locale: str | None) -> str:
    parts = action.split(":")
    verb = parts[0]
    if table.game_name == "euchre":
        if verb == "order":
            seat, dealer = view["seat"], view["dealer"]
            who = (
                "dealer"
                if seat == dealer
                else ("partner" if team_of(seat) == team_of(dealer) else "opponent")
            )
            key = f"action.euchre.order.{who}" + (".alone" if len(parts) > 1 else "")
            return t(key, locale)
        if verb in ("call", "name"):
            key = f"action.euchre.{verb}" + (".alone" if len(parts) > 2 else "")
            return t(key, locale, suit=suit_text(parts[1]))
        return t(f"action.euchre.{verb}", locale)
    if verb == "raise":
        if view["phase"] == "answer":
            return t(
                "action.truco.counter", locale, ask=t(f"truco.ask.{view['raise_name']}", locale)
            )
        return t(f"action.truco.raise.{view['raise_name']}", locale)
    if view["phase"] == "hand_of_ten":
        return t(f"action.truco.hand_of_ten.{verb}", locale)
    if verb == "accept":
        ask = view.get("pending_ask") or {}
        return t("action.truco.accept", locale, value=ask.get("value", ""))
    return t(f"action.truco.{verb}", locale)


def _action_style(action: str) -> discord.ButtonStyle:
    verb = action.split(":")[0]
    if verb in ("raise", "alone", "order") or action.endswith(":alone"):
        return Style.success
    if verb in ("run",):
        return Style.danger
    return Style.primary if verb in ("accept", "call", "name") else Style.secondary


def hand_prompt(table: Table, view: dict[str, Any], locale: str | None) -> str:
    if view["is_over"]:
        winner = view.get("winner")
        if winner is None:
            return t("hand.over", locale)
        players = t("table.and", locale).join(
            seat_name(table, s, locale) for s in range(4) if team_of(s) == winner
        )  # issue 30 item 6: after the game the hand says who won
        return t("result.content", locale, team=team_name(winner, locale), players=players)
    if view["phase"] == "cut":
        return t(f"hand.prompt.{table.game_name}.cut", locale)
    if view["legal_actions"]:
        phase = view["phase"]
        # the mão de dez comes at target - 2, which is 10 only in a game to 12
        score = view["scores"][team_of(view["seat"])]
        return t(f"hand.prompt.{table.game_name}.{phase}", locale, score=score)
    if view["seat"] in (view.get("sitting_out") or ()):
        return t("hand.sitting_out", locale)
    waiting = t("table.or", locale).join(seat_name(table, s, locale) for s in view["to_act"])
    return t("hand.waiting", locale, who=waiting)


# Issue 21 item 11: the hand says which cards rank above the rest: Truco Mineiro's manilhas
# (fixed, T4, high to low) and euchre's bowers (the jacks of trump and of its colour), and which
# of them the player holds. The line names them without writing a card the reader may not hold.
TRUCO_MANILHAS = ("4C", "7H", "AS", "7D")
SAME_COLOUR = {"H": "D", "D": "H", "S": "C", "C": "S"}


def manilhas_line(locale: str | None) -> str:
    """Truco's manilhas named with their cards, in every language (issue 30 item 6): fixed
    cards, the same for everyone, so the line says nothing of anyone's hand."""
    names = ("zap", "copas", "espadilha", "ouros")
    cards = {name: card_text(card) for name, card in zip(names, TRUCO_MANILHAS, strict=True)}
    return t("hand.manilhas", locale, **cards)


def _top_cards_line(table: Table, view: dict[str, Any], locale: str | None) -> list[str]:
    if table.game_name == "truco":
        line = manilhas_line(locale)
        top: tuple[str, ...] = TRUCO_MANILHAS
    else:
        trump = view.get("trump")
        if trump is None:
            return []
        line = t("hand.bowers", locale, right=suit_text(trump), left=suit_text(SAME_COLOUR[trump]))
        top = ("J" + trump, "J" + SAME_COLOUR[trump])
    mine = [card for card in top if card in (view["hand"] or ())]
    if mine:
        line += " — " + t("hand.top_cards.mine", locale, cards=cards_text(mine))
    return [line]


def hand_message(
    table: Table,
    seat: int,
    locale: str | None = None,
    note: str | None = None,
    emojis: Mapping[str, discord.PartialEmoji] | None = None,
) -> MessageParts:
    """The private answer to one player: their cards as buttons (illegal ones disabled) and the
    decision buttons of the moment, drawn for the table's current version. A card with an
    emoji in `emojis` shows its face beside its text."""
    emojis = emojis or {}
    game = table.game
    assert game is not None
    view = game.view(seat)
    version = table.version
    legal: list[str] = view["legal_actions"]
    hand: list[str] = view["hand"] or []

    def name_of(seat: int) -> str:
        return seat_name(table, seat, locale)

    lines = [
        t(
            "hand.title",
            locale,
            game=game_title(table.game_name, locale),
            table=table.id,
            team=team_name(team_of(seat), locale),
            partner=seat_name(table, (seat + 2) % 4, locale),
        )
    ]
    lines.append(
        t("hand.cards", locale, cards=cards_text(hand) if hand else t("table.none", locale))
    )
    lines.extend(_top_cards_line(table, view, locale))
    if table.game_name == "euchre":
        if view["trump"] is not None and view["maker"] == seat:  # yours (issue 30 item 6)
            lines.append(t("hand.trump_made.you", locale, suit=suit_text(view["trump"])))
        elif view["trump"] is not None:
            lines.append(
                t(
                    "table.trump_made",
                    locale,
                    suit=suit_text(view["trump"]),
                    maker=name_of(view["maker"]),
                )
            )
        elif view["turned_card"] is not None:  # none while a fair hand waits for its cut
            key = "table.turned_down" if view["turned_down"] else "table.turned_up"
            lines.append(t(key, locale, card=card_text(view["turned_card"])))
        if view.get("discard"):
            lines.append(t("hand.discarded", locale, card=card_text(view["discard"])))
    else:
        lines.append(t("table.hand_value", locale, value=view["hand_value"]))
        ask = view.get("pending_ask")
        if ask is not None:
            lines.append(
                t(
                    "table.pending_ask",
                    locale,
                    ask=t(f"truco.ask.{ask['name']}", locale),
                    team=team_name(ask["by_team"], locale),
                    value=ask["value"],
                    run_value=ask["run_value"],
                )
            )
        lines.extend(signal_lines(view, name_of((seat + 2) % 4), locale))  # sinais
        partner = view.get("partner_hand")
        if partner:
            lines.append(
                t(
                    "hand.partner_cards",
                    locale,
                    partner=name_of((seat + 2) % 4),
                    cards=cards_text(partner),
                )
            )
    if view["trick"]:
        lines.append(t("hand.trick", locale, cards=cards_line(view["trick"], name_of)))
    lines.append(t("table.scores", locale, team0=view["scores"][0], team1=view["scores"][1]))
    lines.append(hand_prompt(table, view, locale) + hand_deadline(table, view))
    if alone.may_toggle(table, seat):
        on = alone.intends(table, seat)
        lines.append(t("hand.alone_intent.on" if on else "hand.alone_intent.off", locale))
    if note:
        lines.append(f"*{note}*")
    picture = wants_picture(table)
    if picture:  # beside the seat picture: at most four lines (issue 30 item 1)
        lines = _compact_hand_lines(table, view, seat, locale, note)

    buttons = Buttons()
    card_actions: dict[str, str] = {}
    covers: list[tuple[str, str]] = []  # truco coberta (T15): a card played face down
    for action in legal:
        verb, _, rest = action.partition(":")
        if verb in ("play", "discard"):
            card_actions[rest] = action
        elif verb == "cover":
            covers.append((rest, action))
    for index, card in enumerate(hand):
        card_action = card_actions.get(card)
        if card_action is None:
            style, disabled = Style.secondary, True
        else:
            style = Style.danger if card_action.startswith("discard") else Style.primary
            disabled = False
        buttons.add(
            game_action_id(table.id, version, card_action or f"play:{card}"),
            label=card_text(card),
            emoji=emojis.get(card),
            style=style,
            disabled=disabled,
            row=index // 5,
        )
    # A card action on a card not in the hand: the euchre dealer leaving the turned card (E10).
    extra = [(card, action) for card, action in card_actions.items() if card not in hand]
    for index, (card, action) in enumerate(extra, start=len(hand)):
        buttons.add(
            game_action_id(table.id, version, action),
            label=t("action.euchre.leave", locale, card=card_text(card)),
            style=Style.secondary,
            row=min(index // 5, 1),
        )
    for card, action in covers:  # a second row: the same cards, face down
        buttons.add(
            game_action_id(table.id, version, action),
            label=t("hand.button.cover", locale, card=card_text(card)),
            style=Style.secondary,
            row=1,
        )
    decisions = [
        a
        for a in alone.alone_variants(table, legal)
        if a.split(":")[0] not in ("play", "discard", "cover")
    ]
    for index, action in enumerate(decisions):
        buttons.add(
            game_action_id(table.id, version, action),
            label=_action_label(table, view, action, locale),
            style=_action_style(action),
            row=2 + index // 5,
        )
    add_signal_buttons(buttons, table.id, version, view, locale)  # truco's sinais
    buttons.add(table_button_id(table.id, "refresh"), label=t("hand.button.refresh", locale), row=4)
    if alone.may_toggle(table, seat):
        # Euchre's going-alone answer, chosen ahead (bot/tables/alone.py): one optional click.
        on = alone.intends(table, seat)
        buttons.add(
            table_button_id(table.id, "stay" if on else "alone"),
            label=t("hand.button.alone_on" if on else "hand.button.alone_off", locale),
            style=Style.success if on else Style.secondary,
            row=4,
        )
    layout = Layout(
        lines,
        buttons,
        picture=SEAT_PICTURE_URL if picture else None,
        accent=compact.accent(view),
    )
    return MessageParts(content=layout.text, embed=None, view=layout, version=version)


def hand_deadline(table: Table, view: dict[str, Any]) -> str:
    """The time left to act, as Discord's relative timestamp (the reader's client counts it
    down, issue 30 item 4), for a player whose turn it is; "" otherwise."""
    deadline = table.record.turn_deadline
    if deadline is None or view["seat"] not in view["to_act"] or view["is_over"]:
        return ""
    if view["seat"] not in table.humans_to_act():
        return ""
    return f" ⏳ {relative_time(deadline)}"


def _compact_hand_lines(
    table: Table, view: dict[str, Any], seat: int, locale: str | None, note: str | None
) -> list[str]:
    """The hand message's lines beside its picture: what to do, how the last hand ended (between
    two hands), the hand's state and the score. Explanations (going alone, the manilhas) come in
    the game's first hand only: the buttons say the rest."""

    def name_of(s: int) -> str:
        return seat_name(table, s, locale)

    lines = [
        f"*{note}*" if note else "",
        hand_prompt(table, view, locale) + hand_deadline(table, view),
        compact.hand_end_line(table, name_of, locale) or "",
        compact.state_line(table, view, name_of, locale, seat=seat),
        compact.score_line(table, view, locale),
    ]
    if view["hand_number"] == 0 and not view["is_over"]:
        lines += _top_cards_line(table, view, locale)
        if alone.may_toggle(table, seat):
            on = alone.intends(table, seat)
            lines.append(t("hand.alone_intent.on" if on else "hand.alone_intent.off", locale))
    return compact.at_most(lines, compact.HAND_LINES)
