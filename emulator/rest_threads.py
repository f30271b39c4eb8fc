"""Threads, as Discord has them (issue 23): a thread is a channel of its own (type 11 public,
12 private) under a text channel, with the parent's permissions; messages, edits and
interactions in it work as in any channel (it is registered like one).

- POST /channels/{id}/threads: a thread without a message (needs Create Public Threads, or
  Create Private Threads for type 12); 201 with the thread channel.
- POST /channels/{id}/messages/{message_id}/threads: a public thread started from a message;
  its id is the message's id; a second one from the same message is refused (160004).
Each creation is announced to the bot by THREAD_CREATE, and
GUILD_CREATE lists the guild's active threads, so a bot that reconnects knows them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from aiohttp import web

from emulator import payloads
from emulator import permissions as perms
from emulator.clock import Clock
from emulator.errors import UNKNOWN_CHANNEL, ApiError
from emulator.http import body_of, json_response
from emulator.ids import Snowflakes
from emulator.rest_channels import _channel, _message
from emulator.state import GUILD_TEXT, Account, Channel, Guild, World, now_iso


class ThreadWorld(World, Protocol):
    """What the thread routes need of the emulator (server.Emulator is one)."""

    @property
    def bot(self) -> Account: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def snowflakes(self) -> Snowflakes: ...
    @property
    def channels(self) -> Mapping[int, Channel]: ...

    def register_channel(self, channel: Channel) -> None: ...
    def dispatch_guild_event(self, guild: Guild, event: str, channel: Channel) -> None: ...


THREADS_WORLD: web.AppKey[ThreadWorld] = web.AppKey("rest_threads")


def emulator_of(request: web.Request) -> ThreadWorld:
    return request.app[THREADS_WORLD]


PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
THREAD_ALREADY_CREATED = 160004
INVALID_FORM_BODY = 50035
CREATE_PUBLIC_THREADS = perms.CREATE_PUBLIC_THREADS
CREATE_PRIVATE_THREADS = perms.CREATE_PRIVATE_THREADS


class ThreadChannel(Channel):
    """A thread: its own messages, its parent's permission overwrites (always current)."""

    def __init__(
        self,
        emu: ThreadWorld,
        thread_id: int,
        name: str,
        *,
        parent: Channel,
        owner_id: int,
        kind: int,
        auto_archive_duration: int,
    ) -> None:
        self.parent = parent
        super().__init__(emu, thread_id, name, guild=parent.guild)
        self.type = kind
        self.owner_id = owner_id
        self.auto_archive_duration = auto_archive_duration
        self.archived = False
        self.locked = False
        self.created_at = emu.clock.time()

    @property
    def overwrites(self) -> list[dict[str, Any]]:
        return self.parent.overwrites

    @overwrites.setter
    def overwrites(self, value: list[dict[str, Any]]) -> None:
        """A thread has no overwrites of its own (Channel.__init__ sets an empty list)."""

    def thread_fields(self) -> dict[str, Any]:
        """What a thread's channel object has beyond a text channel's."""
        return {
            "parent_id": str(self.parent.id),
            "owner_id": str(self.owner_id),
            "member_count": 1,
            "message_count": len(self.messages),
            "total_message_sent": len(self.messages),
            "thread_metadata": {
                "archived": self.archived,
                "archive_timestamp": now_iso(self.created_at),
                "auto_archive_duration": self.auto_archive_duration,
                "locked": self.locked,
                "create_timestamp": now_iso(self.created_at),
            },
        }


def thread_payload(thread: ThreadChannel) -> dict[str, Any]:
    return payloads.channel(thread)  # with thread_fields, without a text channel's own fields


def active_threads(emu: ThreadWorld, guild_id: int) -> list[ThreadChannel]:
    return [
        c
        for c in emu.channels.values()
        if isinstance(c, ThreadChannel) and c.guild is not None and c.guild.id == guild_id
    ]


def _check_body(body: Any, *, with_message: bool) -> tuple[str, int, int]:
    if not isinstance(body, dict):
        raise ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", detail="a JSON object")
    name = body.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= 100:
        raise ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", detail="name: 1 to 100")
    duration = body.get("auto_archive_duration") or 4320
    if duration not in ARCHIVE_DURATIONS:
        raise ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", detail="auto_archive_duration")
    kind = PUBLIC_THREAD if with_message else body.get("type") or PRIVATE_THREAD
    if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
        raise ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", detail="type: 11 or 12")
    return name, int(duration), int(kind)


def _parent(request: web.Request, kind: int) -> Channel:
    needed = CREATE_PUBLIC_THREADS if kind == PUBLIC_THREAD else CREATE_PRIVATE_THREADS
    parent = _channel(request, perms.VIEW_CHANNEL, needed)
    if parent.type != GUILD_TEXT:
        raise ApiError(400, UNKNOWN_CHANNEL, "Threads start in text channels", violation=True)
    return parent


def _open(
    request: web.Request, parent: Channel, thread_id: int, name: str, kind: int, duration: int
) -> web.Response:
    emu = emulator_of(request)
    thread = ThreadChannel(
        emu,
        thread_id,
        name,
        parent=parent,
        owner_id=emu.bot.id,
        kind=kind,
        auto_archive_duration=duration,
    )
    emu.register_channel(thread)
    payload = thread_payload(thread)
    if parent.guild is not None:  # THREAD_CREATE, as Discord announces a new thread
        emu.dispatch_guild_event(parent.guild, "THREAD_CREATE", thread)
    return json_response(payload, status=201)


async def create_thread(request: web.Request) -> web.Response:
    name, duration, kind = _check_body(body_of(request), with_message=False)
    parent = _parent(request, kind)
    emu = emulator_of(request)
    return _open(request, parent, emu.snowflakes.next(), name, kind, duration)


async def create_thread_from_message(request: web.Request) -> web.Response:
    name, duration, kind = _check_body(body_of(request), with_message=True)
    parent = _parent(request, kind)
    message = _message(request, parent)
    if message.id in emulator_of(request).channels:
        raise ApiError(
            400, THREAD_ALREADY_CREATED, "A thread has already been created for this message"
        )
    return _open(request, parent, message.id, name, kind, duration)


def add_routes(app: web.Application, prefix: str, emu: ThreadWorld) -> None:
    app[THREADS_WORLD] = emu
    base = f"{prefix}/channels/{{channel_id}}"
    app.router.add_post(f"{base}/threads", create_thread)
    app.router.add_post(f"{base}/messages/{{message_id}}/threads", create_thread_from_message)


__all__ = ["ThreadChannel", "active_threads", "add_routes"]
