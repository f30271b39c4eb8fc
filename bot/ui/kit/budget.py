"""One request budget per bot token for Discord's global-bound routes, shared out by priority.

Discord allows every bot token 50 requests a second across all routes, interaction endpoints
excepted (https://discord.com/developers/docs/topics/rate-limits#global-rate-limit). Answers to
clicks and commands (interaction callbacks, edits through an interaction's token) are exempt,
so they never wait here; what counts is the bot's own traffic in channels: table message
posts and edits, turn pings and their deletes. Past the limit Discord answers 429 and
discord.py sleeps the whole process's REST traffic (every table) until the window resets.

So those requests take a token from a bucket that refills at `per_second` and holds at most
`burst`: in any one-second window at most `burst + per_second` requests are let through (4 + 36
= 40 by default; the margin of 10 under Discord's 50 is for requests that arrive bunched, see
DEFAULT_PER_SECOND). When
tokens run short, waiters are served by priority, then in order:

    PING     a ping to a player who has been idle on their turn (it is what gets a game moving)
    WATCHED  a table message people are watching (the state everybody reads)
    REST     everything else: deleting old pings, reposting, retiring old messages

A waiting table edit loses nothing: the per-channel worker (bot/ui/table/public.py) draws the table
when its turn comes, so a newer state replaces the one that was waiting (coalesced).

Shards: a token's budget is split evenly between its shards, and a process takes the shares
of the shards it runs (`for_shards`): K single-shard processes get 1/K each, so together they
stay within the token's budget without talking to each other.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections import Counter
from collections.abc import Callable
from enum import IntEnum

DISCORD_GLOBAL_PER_SECOND = 50
# 36 + 4 = 40 taken in any one-second window. Discord counts requests when they arrive, and
# under load they arrive bunched: at 200 tables on a loaded 2-core machine a budget of 40 + 5
# still showed 54 requests in the busiest second at the emulator (scripts/bench_latency.py),
# so the margin under 50 is sized for that jitter, not for clocks alone.
DEFAULT_PER_SECOND = 36.0
DEFAULT_BURST = 4.0


class Priority(IntEnum):
    PING = 0
    WATCHED = 1
    REST = 2


class GlobalBudget:
    def __init__(
        self,
        per_second: float = DEFAULT_PER_SECOND,
        burst: float = DEFAULT_BURST,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if per_second <= 0 or burst < 1:
            raise ValueError("a budget needs a positive rate and room for one request")
        self.per_second = per_second
        self.burst = burst
        self._clock = clock
        self._tokens = burst
        self._stamp = clock()
        self._waiters: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._timer: asyncio.TimerHandle | None = None
        self.taken: Counter[Priority] = Counter()  # requests let through, by priority
        self.waited = 0.0  # seconds spent waiting, all requests together

    @classmethod
    def for_shards(
        cls, shards: list[tuple[int, int]] | None, per_second: float = DEFAULT_PER_SECOND
    ) -> GlobalBudget:
        """This process's share of the token's budget: one share per shard it runs."""
        if not shards:
            return cls(per_second)
        share = len(shards) / shards[0][1]
        return cls(per_second * share, max(1.0, DEFAULT_BURST * share))

    @property
    def queued(self) -> int:
        return sum(1 for *_, future in self._waiters if not future.done())

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.per_second)
        self._stamp = now

    async def take(self, priority: Priority) -> None:
        """Wait until one request of this priority may go out."""
        self._refill()
        if not self._waiters and self._tokens >= 1:
            self._tokens -= 1
            self.taken[priority] += 1
            return
        started = self._clock()
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiters, (priority, next(self._order), future))
        self._arm()
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self._tokens += 1  # granted as we were cancelled: give it back
            raise
        self.taken[priority] += 1
        self.waited += self._clock() - started

    def _arm(self) -> None:
        if self._timer is not None or not self._waiters:
            return
        delay = max(0.0, (1 - self._tokens) / self.per_second)
        self._timer = asyncio.get_running_loop().call_later(delay, self._release)

    def _release(self) -> None:
        self._timer = None
        self._refill()
        while self._waiters and self._tokens >= 1:
            *_, future = heapq.heappop(self._waiters)
            if future.done():
                continue  # its waiter was cancelled
            self._tokens -= 1
            future.set_result(None)
        while self._waiters and self._waiters[0][2].done():
            heapq.heappop(self._waiters)
        self._arm()
