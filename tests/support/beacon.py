"""fair-v2 without the network: an in-memory beacon (the emulator's rounds, emulator/beacon.py)
and a commitment-message poster that makes snowflakes, for tests of the table layer."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable
from typing import Any

from bot.tables.beacon import Beacon, BeaconRound, parse_round
from bot.tables.service import Table
from emulator.beacon import fake_round

DISCORD_EPOCH_MS = 1_420_070_400_000


class MemoryBeacon(Beacon):
    """A Beacon whose relays are a dict: `mode` "ok", "down" (no answer), "garbage" (an answer
    that is not a round) or "slow" (waits `slow` seconds, then answers nothing)."""

    def __init__(self) -> None:
        super().__init__(relays=("memory://",))
        self.mode = "ok"
        self.slow = 30.0
        self.asked: list[int] = []

    async def _ask(self, relay: str, number: int) -> BeaconRound | None:
        self.asked.append(number)
        if self.mode == "down":
            return None
        if self.mode == "slow":
            await asyncio.sleep(self.slow)
            return None
        data: Any = fake_round(number)
        if self.mode == "garbage":
            data = {**data, "randomness": "zz"}
        try:
            return parse_round(data, number)
        except ValueError:
            self.failures += 1
            return None


class Announcer:
    """Posts nothing: returns a fresh snowflake of now for each game's commitment message
    (`now`: a clock in seconds, so that a test that gives one gets the same ids every run)."""

    def __init__(self, now: Callable[[], float] = time.time) -> None:
        self.now = now
        self.posted: list[tuple[int, int]] = []  # (table id, message id)
        self._count = itertools.count()
        self.fail = False

    async def __call__(self, table: Table) -> int | None:
        if self.fail:
            return None
        ms = int(self.now() * 1000) - DISCORD_EPOCH_MS
        message_id = (ms << 22) | next(self._count) % (1 << 22)
        self.posted.append((table.id, message_id))
        return message_id
