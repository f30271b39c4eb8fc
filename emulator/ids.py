"""Snowflakes and interaction tokens, made the way Discord makes them."""

from __future__ import annotations

import secrets

from emulator.clock import Clock

DISCORD_EPOCH_MS = 1_420_070_400_000


class Snowflakes:
    """Unique, time-ordered 64-bit ids (timestamp << 22 | worker << 17 | increment)."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._last = 0

    def next(self) -> int:
        ms = int(self._clock.time() * 1000) - DISCORD_EPOCH_MS
        candidate = (ms << 22) | (1 << 17)
        # Two ids in the same millisecond (or after a clock jump backwards in real time) stay
        # strictly increasing, as Discord's do.
        self._last = max(candidate, self._last + 1)
        return self._last

    def next_in_shard(self, shard_id: int, shard_count: int) -> int:
        """The next id whose guild would belong to shard `shard_id` of `shard_count`
        ((id >> 22) % shard_count == shard_id): its millisecond is moved up to at most
        shard_count - 1 ms ahead."""
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"shard {shard_id} is not in 0..{shard_count - 1}")
        ms = self.next() >> 22
        if ms % shard_count != shard_id or self._last & ((1 << 22) - 1) != 1 << 17:
            ms += 1  # a fresh millisecond: the id is the first of it
            ms += (shard_id - ms) % shard_count
        self._last = (ms << 22) | (1 << 17)
        return self._last


def snowflake_time(snowflake: int) -> float:
    """The Unix time in seconds at which a snowflake was made."""
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000


def new_token(prefix: str = "aW50ZXJhY3Rpb24") -> str:
    """An interaction token: URL-safe (it is quoted into paths) and long, like Discord's."""
    return f"{prefix}:{secrets.token_urlsafe(48)}".replace(":", "_")
