"""Discord's rate limits, on the emulator clock: the global limit, per-route buckets with counting
headers on every response, per-channel message buckets when a test asks, and the invalid-request
ban.

What Discord documents (https://docs.discord.com/developers/topics/rate-limits, "Rate Limits";
and the developer support article "My Bot is Being Rate Limited",
https://support-dev.discord.com/hc/en-us/articles/6223003921559):
- Global limit: "All bots can make up to 50 requests per second to our API", independent of the
  per-route limits; a 429 for it carries `X-RateLimit-Global: true` and
  `X-RateLimit-Scope: global`, and `"global": true` in the body. "Interaction endpoints are not
  bound to the bot's Global Rate Limit": the callback `POST /interactions/{id}/{token}/callback`
  and the interaction webhook `/webhooks/{application_id}/{token}/...` (follow-ups, @original)
  are exempt here. Requests without `Authorization: Bot` are not the bot's and are not counted.
- Per-route limits "may include the HTTP method" and "account for top-level resources within the
  path": channels (channel_id), guilds (guild_id) and webhooks (webhook_id or webhook_id +
  webhook_token). Every response carries `X-RateLimit-Limit`, `-Remaining`, `-Reset`,
  `-Reset-After` and `-Bucket`; a 429 adds `X-RateLimit-Scope` (`user` for the bot's own bucket,
  `shared` for a resource's shared one, `global`) and `Retry-After`.
- Invalid requests: "IP addresses that make too many invalid HTTP requests are automatically and
  temporarily restricted": 10,000 per 10 minutes, counting 401, 403 and 429 answers, except a 429
  whose scope is `shared`. The ban's length is not published; the emulator bans for an hour and
  records a Violation (a test that reaches it has a bot that would be cut off from Discord).
- Discord does not publish per-route values. Message create/edit per channel is 5 per 5 s as
  bots observe it (`Emulator.set_rate_limits` enforces it, off by default so the e2e tests stay
  fast; the bot paces itself to the headers); other routes get a roomy bucket (50 per second per
  route and top-level resource) that counts down in the headers and is enforced.

A 429 carries `Via` and a JSON body with `retry_after` and `code` 0, or discord.py would take it
for a Cloudflare ban.
"""

from __future__ import annotations

import hashlib
import math
from collections import deque
from dataclasses import dataclass, field

from emulator.clock import Clock

GLOBAL_LIMIT = 50  # requests per second per bot token
GLOBAL_WINDOW = 1.0
INVALID_LIMIT = 10_000  # 401/403/429 answers per IP ...
INVALID_WINDOW = 600.0  # ... in 10 minutes
BAN_SECONDS = 3600.0  # not published by Discord
# Routes whose values Discord does not publish still advertise and enforce a roomy bucket.
OPEN_LIMIT = 50
OPEN_WINDOW = 1.0
TOP_LEVEL = ("channel_id", "guild_id")  # a webhook's top level is its id and token


def bucket_hash(route: str) -> str:
    return hashlib.sha1(route.encode()).hexdigest()[:16]


def global_exempt(route: str) -> bool:
    """Interaction endpoints: the callback and the interaction webhook (token routes)."""
    path = route.split(" ", 1)[-1]
    return path.startswith("/interactions/") or path.startswith("/webhooks/")


def top_level(route: str, params: dict[str, str]) -> str:
    """The top-level resource a route's bucket is counted per (empty: the route alone)."""
    for name in TOP_LEVEL:
        if name in params:
            return f"{name}={params[name]}"
    if "token" in params:  # webhook id + token, interaction id + token
        owner = params.get("application_id") or params.get("interaction_id") or ""
        return f"webhook={owner}/{params['token']}"
    return ""


@dataclass
class Window:
    reset_at: float
    count: int = 0


@dataclass
class Decision:
    headers: dict[str, str]
    limited: bool = False
    retry_after: float = 0.0
    is_global: bool = False
    scope: str = ""


@dataclass
class RateLimiter:
    clock: Clock
    enabled: bool = False  # the per-channel message buckets (create/edit)
    limit: int = 5
    per: float = 5.0
    discord_limits: bool = True  # the global limit, route buckets and the invalid-request ban
    global_limit: int = GLOBAL_LIMIT
    invalid_limit: int = INVALID_LIMIT
    windows: dict[tuple[str, int], Window] = field(default_factory=dict)
    route_windows: dict[tuple[str, str], Window] = field(default_factory=dict)
    global_window: Window | None = None
    hits: list[tuple[str, int, float]] = field(default_factory=list)  # (bucket, channel, at)
    global_hits: int = 0
    invalid_at: deque[float] = field(default_factory=deque)
    banned_until: float = 0.0
    bans: int = 0

    def configure(self, enabled: bool, limit: int | None = None, per: float | None = None) -> None:
        self.enabled = enabled
        self.limit = limit if limit is not None else self.limit
        self.per = per if per is not None else self.per
        self.windows.clear()

    def configure_discord(
        self,
        enabled: bool,
        *,
        global_limit: int | None = None,
        invalid_limit: int | None = None,
    ) -> None:
        self.discord_limits = enabled
        self.global_limit = global_limit if global_limit is not None else self.global_limit
        self.invalid_limit = invalid_limit if invalid_limit is not None else self.invalid_limit
        self.route_windows.clear()
        self.global_window = None

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

    def _limited(self, headers: dict[str, str], reset_after: float, scope: str) -> Decision:
        headers["X-RateLimit-Scope"] = scope
        headers["Retry-After"] = str(max(1, math.ceil(reset_after)))
        headers["Via"] = "1.1 google"
        retry = math.ceil(reset_after * 1000) / 1000
        return Decision(headers, limited=True, retry_after=retry, is_global=scope == "global")

    def open(self, route: str) -> Decision:
        return Decision(self._headers(bucket_hash(route), OPEN_LIMIT, OPEN_LIMIT - 1, OPEN_WINDOW))

    # -- the global limit, route buckets and the ban: every request, before its handler --------

    @property
    def banned(self) -> bool:
        return self.clock.now() < self.banned_until

    def admit(self, route: str, params: dict[str, str], *, bot_auth: bool) -> Decision:
        """Count one request; `limited` means answer 429 without handling it."""
        if not self.discord_limits:
            return self.open(route)
        now = self.clock.now()
        if bot_auth and not global_exempt(route):
            window = self.global_window
            if window is None or now >= window.reset_at:
                window = self.global_window = Window(reset_at=now + GLOBAL_WINDOW)
            if window.count >= self.global_limit:
                self.global_hits += 1
                reset_after = max(window.reset_at - now, 0.0)
                return self._limited({"X-RateLimit-Global": "true"}, reset_after, "global")
            window.count += 1
        bucket = bucket_hash(route)
        key = (bucket, top_level(route, params))
        route_window = self.route_windows.get(key)
        if route_window is None or now >= route_window.reset_at:
            route_window = self.route_windows[key] = Window(reset_at=now + OPEN_WINDOW)
        reset_after = max(route_window.reset_at - now, 0.0)
        if route_window.count >= OPEN_LIMIT:
            return self._limited(
                self._headers(bucket, OPEN_LIMIT, 0, reset_after), reset_after, "user"
            )
        route_window.count += 1
        return Decision(
            self._headers(bucket, OPEN_LIMIT, OPEN_LIMIT - route_window.count, reset_after)
        )

    def answered(self, status: int, scope: str) -> bool:
        """Count an invalid answer (401, 403, 429 but a shared one); True when it starts a ban."""
        if not self.discord_limits or status not in (401, 403, 429) or scope == "shared":
            return False
        now = self.clock.now()
        self.invalid_at.append(now)
        while self.invalid_at and self.invalid_at[0] <= now - INVALID_WINDOW:
            self.invalid_at.popleft()
        if len(self.invalid_at) >= self.invalid_limit and not self.banned:
            self.banned_until = now + BAN_SECONDS
            self.bans += 1
            return True
        return False

    # -- per-channel message buckets (create/edit), when a test enables them ----------------

    def check(self, route: str, channel_id: int) -> Decision | None:
        """Count one request against the (route, channel) bucket; None when not enforced."""
        bucket = bucket_hash(route)
        if not self.enabled:
            return None
        now = self.clock.now()
        window = self.windows.get((bucket, channel_id))
        if window is None or now >= window.reset_at:
            window = self.windows[(bucket, channel_id)] = Window(reset_at=now + self.per)
        reset_after = max(window.reset_at - now, 0.0)
        if window.count >= self.limit:
            self.hits.append((route, channel_id, now))
            headers = self._headers(bucket, self.limit, 0, reset_after)
            return self._limited(headers, reset_after, "user")
        window.count += 1
        return Decision(self._headers(bucket, self.limit, self.limit - window.count, reset_after))
