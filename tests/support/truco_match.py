"""Steering a truco game so a chosen pair wins it in one hand (test helper, no tests here).

From 0-0 with target 6: the chosen pair asks truco on its first turn, the others raise to six,
the chosen pair raises to ten and the others run; running from ten gives the askers the six
that was accepted (T9, T11), which wins a game to 6 at once. Everything else is a random card."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

STEERED_TARGET = 6


def steered_action(
    view: dict[str, Any], seat: int, legal: Sequence[str], winners: int, rng: random.Random
) -> str:
    """The action `seat` takes so that pair `winners` takes the hand (and the game)."""
    ours = seat % 2 == winners
    ask = view.get("pending_ask")
    if ask is not None:
        if ours:
            return "raise" if "raise" in legal else "accept"
        return "raise" if ask["name"] == "truco" and "raise" in legal else "run"
    if ours and "raise" in legal:
        return "raise"
    cards = [a for a in legal if a.startswith("play:")]
    return rng.choice(cards or list(legal))
