"""Truco's sinais on a player's hand message: the partner's signal (and one's own) as a line,
and the six signal buttons while one may be sent. Drawn from `game.view(seat)` alone, whose
"signals" holds only the seat's own and its partner's: the other pair's never reach here.

Each button is a game action (`signal:<kind>`, bot/engine/truco/signals.py), applied like a
card: stored in the table's log, so a restart keeps it."""

from __future__ import annotations

from typing import Any

import discord

from bot.texts import t
from bot.ui.kit.components import Buttons
from bot.ui.kit.custom_ids import game_action_id

SIGNAL_ROW = 3  # the first five; the sixth ("nothing good") goes in the last row
PER_ROW = 5


def signal_name(kind: str, locale: str | None) -> str:
    return t(f"signal.{kind}", locale)


def signal_lines(view: dict[str, Any], partner: str, locale: str | None) -> list[str]:
    """What the hand says of this hand's signals: the partner's, then one's own."""
    signals = view.get("signals")
    if not signals:
        return []
    lines = []
    if signals["partner"] is not None:
        lines.append(
            t(
                "hand.signal.partner",
                locale,
                partner=partner,
                signal=signal_name(signals["partner"], locale),
            )
        )
    if signals["mine"] is not None:
        lines.append(
            t(
                "hand.signal.mine",
                locale,
                partner=partner,
                signal=signal_name(signals["mine"], locale),
            )
        )
    return lines


def add_signal_buttons(
    buttons: Buttons, table_id: int, version: int, view: dict[str, Any], locale: str | None
) -> None:
    """The signals the seat may send now, one button each (none once it has sent one)."""
    signals = view.get("signals")
    if not signals:
        return
    for index, action in enumerate(signals["can_send"]):
        kind = action.split(":", 1)[1]
        buttons.add(
            game_action_id(table_id, version, action),
            label=t("hand.signal.button", locale, signal=signal_name(kind, locale)),
            style=discord.ButtonStyle.secondary,
            row=SIGNAL_ROW if index < PER_ROW else SIGNAL_ROW + 1,
        )
