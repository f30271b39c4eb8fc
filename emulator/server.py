"""The Emulator: a fake Discord on 127.0.0.1 (aiohttp), REST v10 and the Gateway."""

from __future__ import annotations

import secrets
import socket
from collections.abc import Callable
from typing import Any, TypeVar

import yarl
from aiohttp import web

from emulator import (
    beacon,
    rest_channels,
    rest_commands,
    rest_core,
    rest_emojis,
    rest_interactions,
    rest_threads,
)
from emulator.beacon import RELAYS, LocalBeacon
from emulator.clock import Clock
from emulator.commands import LOCALES, CommandRegistry
from emulator.errors import EmulatorUsageError, Violation
from emulator.gateway import Gateway
from emulator.http import API_PREFIX, EMU_KEY, HttpRecord, middleware, unhandled
from emulator.ids import Snowflakes
from emulator.interactions import Interactions
from emulator.messages import Messages, OldMessageEdits, OldMessageRefusal
from emulator.notifier import Notifier
from emulator.payloads import channel as channel_payload
from emulator.payloads import guild_create
from emulator.ratelimits import RateLimiter
from emulator.state import Account, Channel, Guild, Interaction, Message
from emulator.users import SimulatedUser

T = TypeVar("T")


class Emulator:
    """A Discord for one bot application. See the package docstring for the whole API."""

    def __init__(
        self,
        *,
        response_deadline: float = 3.0,
        token_lifetime: float = 15 * 60.0,
        rate_limits: bool = False,
        discord_limits: bool = True,
        message_rate: tuple[int, float] = (5, 5.0),
        bot_name: str = "CardTable",
        owner_name: str = "owner",
        privileged_intents: int = 0,
        backlog: int = 1024,
        shard_count: int = 1,
        max_guilds_per_shard: int = 2500,
    ) -> None:
        self.response_deadline = response_deadline
        self.token_lifetime = token_lifetime
        self.privileged_intents = privileged_intents
        self.application_flags = 1 << 23  # APPLICATION_COMMAND_BADGE, as for any slash-command app
        self.backlog = backlog
        # What GET /gateway/bot recommends, and the most guilds one session may hold before
        # IDENTIFY is refused with 4011 (Sharding required), as Discord does at 2,500.
        self.shard_count = shard_count
        self.max_guilds_per_shard = max_guilds_per_shard
        self.clock = Clock()
        self.snowflakes = Snowflakes(self.clock)
        self.beacon = LocalBeacon()  # drand's HTTP shape, for fair-v2's cuts (emulator/beacon.py)
        self.notifier = Notifier()
        self.token = f"emulator.{secrets.token_urlsafe(24)}"
        self.application_id = self.snowflakes.next()
        self.bot = Account(self.application_id, bot_name, bot=True)  # bot user id == app id
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.users: dict[int, SimulatedUser] = {}
        self.messages: dict[int, Message] = {}
        # (user id, message id) of every notification a new public message caused, in order.
        self.notifications: list[tuple[int, int]] = []
        # The application's emojis (id -> Discord's emoji object) and their uploaded images.
        self.application_emojis: dict[int, dict[str, Any]] = {}
        self.emoji_images: dict[int, bytes] = {}
        self.commands = CommandRegistry(self.clock, self.snowflakes, self.application_id)
        self.ratelimits = RateLimiter(
            self.clock, rate_limits, *message_rate, discord_limits=discord_limits
        )
        self.old_message_edits = OldMessageEdits(self.clock)
        self.gateway = Gateway(self)
        self.message_service = Messages(self)
        self.interaction_service = Interactions(self)
        # What happened, for assertions.
        self.requests: list[HttpRecord] = []
        self.violations: list[Violation] = []
        self.unhandled: list[HttpRecord] = []
        self.internal_errors: list[str] = []
        self.rate_limit_hits: list[HttpRecord] = []
        self.invalid_request_count = 0  # 401/403/429 answers (Discord bans IPs at 10,000/10 min)
        self.bot_errors: list[str] = []  # ERROR log lines of a bot run by the harness
        self.owner = self.add_user(owner_name)
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self) -> Emulator:
        app = web.Application(middlewares=[middleware], client_max_size=64 * 1024 * 1024)
        app[EMU_KEY] = self
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/gateway/", self.gateway.handle)
        # Each route module gets the emulator as the narrow world it declares.
        rest_core.add_routes(app, API_PREFIX, self)
        rest_commands.add_routes(app, API_PREFIX, self)
        rest_channels.add_routes(app, API_PREFIX, self)
        rest_interactions.add_routes(app, API_PREFIX, self)
        rest_emojis.add_routes(app, API_PREFIX, self)
        rest_threads.add_routes(app, API_PREFIX, self)
        beacon.add_routes(app, self.beacon)
        app.router.add_route("*", "/{tail:.*}", unhandled)  # last: everything else
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        # A large backlog: a burst of ~200 connections overflows the default 128 and costs
        # the client 1-second SYN retries.
        site = web.SockSite(self._runner, sock, backlog=self.backlog)
        await site.start()
        return self

    async def stop(self) -> None:
        await self.gateway.close()
        for inter in self.interaction_service.all:
            if inter.timer is not None:
                inter.timer.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Emulator:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def beacon_relays(self) -> tuple[str, ...]:
        """The local beacon's relays (BEACON_RELAYS of a bot run on this emulator)."""
        return tuple(f"{self.url}/beacon/{relay}" for relay in RELAYS)

    @property
    def api_base(self) -> str:
        """What `discord.http.Route.BASE` must be."""
        return f"{self.url}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """What `DiscordWebSocket.DEFAULT_GATEWAY` must be (a yarl.URL of it)."""
        return f"ws://127.0.0.1:{self.port}/gateway/"

    @property
    def gateway_yarl(self) -> yarl.URL:
        return yarl.URL(self.gateway_url)

    # -- the world -------------------------------------------------------------------------

    def add_guild(
        self,
        name: str,
        *,
        locale: str = "en-US",
        owner: SimulatedUser | None = None,
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """A server with the bot in it; its owner (default: the application's owner) joins.
        `shard=(shard_id, shard_count)` picks an id that shard owns."""
        if locale not in LOCALES:
            raise EmulatorUsageError(f"{locale!r} is not a Discord locale")
        owner = owner or self.owner
        ids = self.snowflakes
        guild_id = ids.next() if shard is None else ids.next_in_shard(*shard)
        guild = Guild(self, guild_id, name, locale=locale, owner_id=owner.id)
        self.guilds[guild.id] = guild
        guild.add_member(owner)
        # The bot joins a new server: its shard's session hears of it.
        self.gateway.dispatch("GUILD_CREATE", guild_create(guild), guild_id=guild.id)
        return guild

    def add_user(self, name: str, *, locale: str = "en-US") -> SimulatedUser:
        if locale not in LOCALES:
            raise EmulatorUsageError(f"{locale!r} is not a Discord locale (see commands.LOCALES)")
        user = SimulatedUser(self, self.snowflakes.next(), name, locale=locale)
        self.users[user.id] = user
        return user

    def user(self, name: str) -> SimulatedUser:
        for user in self.users.values():
            if user.name == name:
                return user
        raise EmulatorUsageError(f"no user {name!r}")

    def add_application_emoji(self, name: str, image: bytes) -> int:
        """An application emoji uploaded before this run (Discord keeps an application's
        emojis across the bot's restarts): a world where the bot's first start is long past.
        Returns its id."""
        if not rest_emojis.NAME.fullmatch(name) or any(
            e["name"] == name for e in self.application_emojis.values()
        ):
            raise EmulatorUsageError(f"emoji name {name!r}: invalid or already taken")
        emoji_id = self.snowflakes.next()
        self.application_emojis[emoji_id] = {
            "id": str(emoji_id),
            "name": name,
            "roles": [],
            "require_colons": True,
            "managed": False,
            "animated": False,
            "available": True,
        }
        self.emoji_images[emoji_id] = image
        return emoji_id

    def register_channel(self, channel: Channel) -> None:
        self.channels[channel.id] = channel

    def dispatch_guild_event(self, guild: Guild, event: str, channel: Channel) -> None:
        if guild.id in self.guilds:
            self.gateway.dispatch(event, channel_payload(channel), guild_id=guild.id)

    def delete_message(self, message: Message) -> None:
        """A moderator (or the author) deletes a public message; the bot gets MESSAGE_DELETE."""
        self.message_service.delete(message)

    # -- rules -----------------------------------------------------------------------------

    def set_rate_limits(
        self, enabled: bool = True, *, limit: int | None = None, per: float | None = None
    ) -> None:
        """Enforce per-channel message create/edit buckets (`limit` requests per `per` s)."""
        self.ratelimits.configure(enabled, limit, per)

    def set_discord_limits(
        self,
        enabled: bool = True,
        *,
        global_limit: int | None = None,
        invalid_limit: int | None = None,
    ) -> None:
        """Discord's global limit (50 requests/s per bot; interaction endpoints exempt), route
        buckets and invalid-request ban (10,000 per 10 min): on by default, as on Discord. A
        test may lower the thresholds to reach them quickly (see emulator/ratelimits.py)."""
        self.ratelimits.configure_discord(
            enabled, global_limit=global_limit, invalid_limit=invalid_limit
        )

    def set_old_message_edits(
        self,
        enabled: bool = True,
        *,
        limit: int | None = None,
        per: float | None = None,
        age: float | None = None,
    ) -> None:
        """Limit edits of channel messages older than `age` s (default an hour) to `limit` per
        `per` s per channel (defaults 3 per hour); beyond, 400 30046. Off by default."""
        self.old_message_edits.configure(enabled, limit, per, age)

    @property
    def old_message_edit_refusals(self) -> list[OldMessageRefusal]:
        return self.old_message_edits.refusals

    def record_violation(self, violation: Violation) -> None:
        self.violations.append(violation)
        self.notifier.changed()

    # -- observation -----------------------------------------------------------------------

    @property
    def interactions(self) -> list[Interaction]:
        return self.interaction_service.all

    def ack_latencies(self) -> list[float]:
        """Seconds from each INTERACTION_CREATE frame written to its first callback arriving."""
        return [i.ack_latency for i in self.interactions if i.ack_latency is not None]

    def requests_to(self, method: str, path_part: str = "") -> list[HttpRecord]:
        return [r for r in self.requests if r.method == method and path_part in r.path]

    async def wait_for(
        self,
        predicate: Callable[[], T | None],
        *,
        timeout: float = 5.0,  # noqa: ASYNC109
        what: str = "condition",
    ) -> T:
        """Wait (event-driven) until `predicate()` is truthy; returns its value."""
        return await self.notifier.wait_for(predicate, timeout, what)

    async def wait_connected(self, *, sessions: int = 1, timeout: float = 10.0) -> None:  # noqa: ASYNC109
        """Until the bot has identified `sessions` times (1 = first connection) and is online."""
        await self.wait_for(
            lambda: self.gateway.ready_count >= sessions and self.gateway.connected,
            timeout=timeout,
            what=f"gateway session {sessions}",
        )

    def take_violations(self, code: int | None = None) -> list[Violation]:
        """Remove and return the violations (with this code): a test that provokes one asserts
        on it and leaves the rest to `assert_clean()`."""
        taken = [v for v in self.violations if code is None or v.code == code]
        self.violations = [v for v in self.violations if v not in taken]
        return taken

    def take_bot_errors(self, contains: str = "") -> list[str]:
        taken = [e for e in self.bot_errors if contains in e]
        self.bot_errors = [e for e in self.bot_errors if e not in taken]
        return taken

    def problems(self) -> list[str]:
        found = [f"violation: {v}" for v in self.violations]
        found += [f"unhandled request: {r.method} {r.path} body={r.body!r}" for r in self.unhandled]
        found += [f"emulator internal error: {e}" for e in self.internal_errors]
        found += [f"bot logged an error: {e}" for e in self.bot_errors]
        return found

    def assert_clean(self) -> None:
        """Fail if the bot broke a rule, sent a request the emulator does not handle, logged an
        error, or the emulator itself failed."""
        found = self.problems()
        if found:
            raise AssertionError("the Discord emulator saw problems:\n  " + "\n  ".join(found))

    def summary(self) -> dict[str, Any]:
        return {
            "requests": len(self.requests),
            "interactions": len(self.interactions),
            "violations": len(self.violations),
            "unhandled": len(self.unhandled),
            "rate_limit_hits": len(self.rate_limit_hits),
            "messages": len(self.messages),
        }
