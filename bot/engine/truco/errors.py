"""The one Truco-specific error: the common ones live in bot.engine.common."""

from __future__ import annotations

from bot.engine.common import NotYourTurn


class AlreadyAnswered(NotYourTurn):
    """The seat's pair has already answered (T9, T13: either partner may answer, the first answer
    counts): typically the second of two partners clicking at nearly the same time."""
