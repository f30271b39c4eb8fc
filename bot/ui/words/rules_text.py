"""The /rules text of a game, for a table's own options when asked at a table (issue 21 item 8)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.texts import t

EUCHRE_TARGET = 10
TRUCO_TARGET = 12


def rules_text(game: str, options: Mapping[str, Any] | None, locale: str | None) -> str:
    """The rules of `game`; with `options` (a table's), its target and house rules."""
    options = options or {}
    text = t(f"rules.{game}", locale)
    if game == "euchre":
        return text.format(target=options.get("target", EUCHRE_TARGET))
    target = int(options.get("target", TRUCO_TARGET))
    # The mão de dez and the mão de ferro come at target - 2 (T13, T14): 10 in a game to 12.
    text = text.format(target=target, ten=target - 2)
    text += "\n" + t("rules.truco.coberta", locale)
    if options.get("coberta"):
        text += "\n" + t("rules.truco.coberta.on", locale)
    text += "\n" + t("rules.truco.signals", locale)
    if options.get("signals") is False:
        text += "\n" + t("rules.truco.signals.off", locale)
    return text
