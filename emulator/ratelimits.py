"""Rate-limit headers on every response, and per-channel message buckets when a test asks.

Without `X-RateLimit-*` headers discord.py serialises every request of a route, so each response
carries them. Message create and edit have per-channel buckets (Discord does not publish them; 5
per 5 s is what bots see). They are enforced only when enabled: a 429 then carries `Via` and a
JSON body with `retry_after`, or discord.py would treat it as a Cloudflare ban.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field

from emulator.clock import Clock

# Routes that are never limited still advertise a roomy bucket, as Discord does.
OPEN_LIMIT = 50
OPEN_WINDOW = 1.0


def bucket_hash(route: str) -> str:
    return hashlib.sha1(route.encode()).hexdigest()[:16]


@dataclass
class Window:
    reset_at: float
    count: int = 0


@dataclass
class Decision:
    headers: dict[str, str]
    limited: bool = False
    retry_after: float = 0.0


@dataclass
class RateLimiter:
    clock: Clock
    enabled: bool = False
    limit: int = 5
    per: float = 5.0
    windows: dict[tuple[str, int], Window] = field(default_factory=dict)
    hits: list[tuple[str, int, float]] = field(default_factory=list)  # (bucket, channel, at)

    def configure(self, enabled: bool, limit: int | None = None, per: float | None = None) -> None:
        self.enabled = enabled
        self.limit = limit if limit is not None else self.limit
        self.per = per if per is not None else self.per
        self.windows.clear()

    def _headers(
        self, bucket: str, limit: int, remaining: int, reset_after: float
    ) -> dict[str, str]:
        # Rounded up to the millisecond: a client sleeping exactly this long must find the
        # window reset, never a few microseconds early.
        reset_after = math.ceil(reset_after * 1000) / 1000
        return {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(max(remaining, 0)),
            "X-RateLimit-Reset": f"{self.clock.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket,
        }

    def open(self, route: str) -> Decision:
        return Decision(self._headers(bucket_hash(route), OPEN_LIMIT, OPEN_LIMIT - 1, OPEN_WINDOW))

    def check(self, route: str, channel_id: int) -> Decision:
        """Count one request against the (route, channel) bucket; `limited` means answer 429."""
        bucket = bucket_hash(route)
        if not self.enabled:
            return self.open(route)
        now = self.clock.now()
        window = self.windows.get((bucket, channel_id))
        if window is None or now >= window.reset_at:
            window = self.windows[(bucket, channel_id)] = Window(reset_at=now + self.per)
        reset_after = max(window.reset_at - now, 0.0)
        if window.count >= self.limit:
            self.hits.append((route, channel_id, now))
            headers = self._headers(bucket, self.limit, 0, reset_after)
            headers["X-RateLimit-Scope"] = "user"
            headers["Retry-After"] = str(max(1, math.ceil(reset_after)))
            headers["Via"] = "1.1 google"
            return Decision(headers, limited=True, retry_after=math.ceil(reset_after * 1000) / 1000)
        window.count += 1
        return Decision(self._headers(bucket, self.limit, self.limit - window.count, reset_after))
