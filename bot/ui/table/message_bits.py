"""Pieces every message of a table shares: the jump link, the notice and footer lines, the time
left as a Discord timestamp, and which hand the last trick belongs to."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.tables.service import Table
from bot.texts import t
from bot.ui.kit.components import Buttons
from bot.ui.kit.layout import Layout, from_legacy
from bot.ui.kit.message_parts import MessageParts
from bot.ui.words.seats import seat_mention

LOG_LINES = 6
Style = discord.ButtonStyle


# --- names --------------------------------------------------------------------------------------


def jump_url(table: Table) -> str | None:
    if table.message_id is None:
        return None
    return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{table.message_id}"


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
