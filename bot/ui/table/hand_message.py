"""A player's private hand message: their cards and the decisions of the phase as buttons, the
lines that explain them, and its picture.

Drawn from `game.view(seat)` only: hidden cards cannot reach it by any other path."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from bot.engine.common import team_of
from bot.tables import alone
from bot.tables.service import Table
from bot.texts import t
from bot.ui.kit.components import Buttons
from bot.ui.kit.custom_ids import game_action_id, table_button_id
from bot.ui.kit.layout import Layout
from bot.ui.kit.message_parts import MessageParts
from bot.ui.table import compact
from bot.ui.table.game_message import pending_ask_line
from bot.ui.table.message_bits import Style, relative_time
from bot.ui.table.seat_picture import URL as SEAT_PICTURE_URL
from bot.ui.table.signals import add_signal_buttons, signal_lines
from bot.ui.table.table_picture import wants_picture
from bot.ui.words.cards import card_text, cards_text, suit_text
from bot.ui.words.events import cards_line, team_name
from bot.ui.words.seats import game_title, seat_name

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
    view: dict[str, Any] | None = None,
) -> MessageParts:
    """The private answer to one player: their cards as buttons (illegal ones disabled) and the
    decision buttons of the moment, drawn for the table's current version. A card with an
    emoji in `emojis` shows its face beside its text. `view`: `game.view(seat)` of the current
    state, where the caller has it (the seat's picture shares it)."""
    emojis = emojis or {}
    game = table.game
    assert game is not None
    if view is None:
        view = game.view(seat)
    version = table.version
    legal: list[str] = view["legal_actions"]
    hand: list[str] = view["hand"] or []

    picture = wants_picture(table)
    if picture:  # beside the seat picture: at most four lines (issue 30 item 1)
        lines = _compact_hand_lines(table, view, seat, locale, note)
    else:  # the complete text (only then: issue 31)
        lines = _complete_hand_lines(table, view, seat, locale, note)

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


def _complete_hand_lines(
    table: Table, view: dict[str, Any], seat: int, locale: str | None, note: str | None
) -> list[str]:
    """The hand message's lines of a table with pictures off: the cards, the hand's state, the
    score, what to do."""
    hand: list[str] = view["hand"] or []

    def name_of(s: int) -> str:
        return seat_name(table, s, locale)

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
            lines.append(pending_ask_line(ask, locale))
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
    return lines


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
