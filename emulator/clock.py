"""The emulator's controllable clock.

Rules that Discord times (the 15-minute interaction token, rate-limit windows, daily command
quotas, message timestamps) read this clock, so a test can jump forward with `advance()` instead
of sleeping. It runs at real speed between jumps: the 3-second first-response deadline is real
time unless a test advances the clock past it.
"""

from __future__ import annotations

import time
from collections.abc import Callable


class Clock:
    def __init__(self) -> None:
        self._offset = 0.0
        self._listeners: list[Callable[[], None]] = []

    def now(self) -> float:
        """Monotonic seconds (for durations and deadlines)."""
        return time.monotonic() + self._offset

    def time(self) -> float:
        """Wall-clock seconds since the Unix epoch (for timestamps and snowflakes)."""
        return time.time() + self._offset

    @property
    def offset(self) -> float:
        """How far the clock has been advanced beyond real time, in seconds."""
        return self._offset

    def advance(self, seconds: float) -> None:
        """Jump forward; timed rules (deadlines, token expiry) are re-checked at once."""
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        self._offset += seconds
        for listener in list(self._listeners):
            listener()

    def on_advance(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)
