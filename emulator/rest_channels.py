"""REST: channels and their messages, with permissions, rate limits and Discord's limits.

Ephemeral messages do not exist for these endpoints (10008, recorded as a violation: only the
interaction token reaches them), and a channel message can never be made ephemeral.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from aiohttp import web

from emulator import payloads
from emulator import permissions as perms
from emulator.errors import (
    CANNOT_EDIT_OTHERS_MESSAGE,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    UNKNOWN_CHANNEL,
    UNKNOWN_MESSAGE,
    ApiError,
)
from emulator.http import (
    RATELIMIT,
    RateLimitedError,
    body_of,
    json_response,
    no_content,
    require_bot,
    route_template,
    snowflake,
    uploads_of,
)
from emulator.limits import CHANNEL_MESSAGE_FLAGS
from emulator.messages import Messages, OldMessageEdits
from emulator.ratelimits import RateLimiter
from emulator.state import Account, Channel, Message


class ChannelWorld(Protocol):
    """What the channel routes need: channels, messages, their service and limits."""

    @property
    def bot(self) -> Account: ...
    @property
    def channels(self) -> Mapping[int, Channel]: ...
    @property
    def messages(self) -> Mapping[int, Message]: ...
    @property
    def message_service(self) -> Messages: ...
    @property
    def ratelimits(self) -> RateLimiter: ...
    @property
    def old_message_edits(self) -> OldMessageEdits: ...


WORLD: web.AppKey[ChannelWorld] = web.AppKey("rest_channels")


def world(request: web.Request) -> ChannelWorld:
    return request.app[WORLD]


def _channel(request: web.Request, *needed: int) -> Channel:
    require_bot(request)
    emu = world(request)
    channel = emu.channels.get(snowflake(request, "channel_id"))
    if channel is None:
        raise ApiError(404, UNKNOWN_CHANNEL, "Unknown Channel", violation=False)
    granted = channel.bot_permissions
    if not granted & perms.VIEW_CHANNEL:
        raise ApiError(
            403, MISSING_ACCESS, "Missing Access", detail=f"the bot cannot view #{channel.name}"
        )
    missing = [perms.NAMES.get(p, str(p)) for p in needed if not granted & p]
    if missing:
        raise ApiError(
            403,
            MISSING_PERMISSIONS,
            "Missing Permissions",
            detail=f"#{channel.name} lacks {', '.join(missing)} for the bot",
        )
    return channel


def _message(request: web.Request, channel: Channel) -> Message:
    emu = world(request)
    message_id = snowflake(request, "message_id")
    message = channel.public(message_id)
    if message is None:
        hidden = emu.messages.get(message_id)
        if hidden is not None and hidden.ephemeral_for is not None:
            raise ApiError(
                404,
                UNKNOWN_MESSAGE,
                "Unknown Message",
                detail="ephemeral messages are reachable only through their interaction token",
            )
        raise ApiError(404, UNKNOWN_MESSAGE, "Unknown Message", violation=False)
    if message.deleted:
        raise ApiError(404, UNKNOWN_MESSAGE, "Unknown Message", violation=False)
    return message


def _rate_limit(request: web.Request, channel: Channel) -> None:
    emu = world(request)
    decision = emu.ratelimits.check(route_template(request), channel.id)
    if decision is None:
        return  # the route bucket the middleware counted speaks for it
    if decision.limited:
        raise RateLimitedError(decision.headers, decision.retry_after)
    request[RATELIMIT] = decision.headers


async def get_channel(request: web.Request) -> web.Response:
    channel = _channel(request)
    return json_response(payloads.channel(channel))


def _upload_permissions(request: web.Request) -> tuple[int, ...]:
    """Uploading files (on a new message or an edit) needs Attach Files."""
    return (perms.ATTACH_FILES,) if uploads_of(request) else ()


async def create_message(request: web.Request) -> web.Response:
    channel = _channel(request, perms.SEND_MESSAGES, *_upload_permissions(request))
    emu = world(request)
    _rate_limit(request, channel)
    message = emu.message_service.create(
        channel=channel,
        author=emu.bot,
        body=body_of(request) or {},
        uploads=uploads_of(request),
        allowed_flags=CHANNEL_MESSAGE_FLAGS,
    )
    return json_response(payloads.message(message))


async def get_message(request: web.Request) -> web.Response:
    channel = _channel(request, perms.READ_MESSAGE_HISTORY)
    return json_response(payloads.message(_message(request, channel)))


async def edit_message(request: web.Request) -> web.Response:
    channel = _channel(request, *_upload_permissions(request))
    emu = world(request)
    message = _message(request, channel)
    if message.author is not emu.bot:
        raise ApiError(
            403, CANNOT_EDIT_OTHERS_MESSAGE, "Cannot edit a message authored by another user"
        )
    _rate_limit(request, channel)
    emu.old_message_edits.check(message)  # 30046 once old messages had their edits
    edited = emu.message_service.edit(
        message, body_of(request) or {}, uploads_of(request), allowed_flags=CHANNEL_MESSAGE_FLAGS
    )
    return json_response(payloads.message(edited))


async def delete_message(request: web.Request) -> web.Response:
    channel = _channel(request)
    emu = world(request)
    message = _message(request, channel)
    if message.author is not emu.bot and not channel.bot_permissions & perms.MANAGE_MESSAGES:
        raise ApiError(
            403,
            MISSING_PERMISSIONS,
            "Missing Permissions",
            detail="deleting another user's message needs Manage Messages",
        )
    emu.message_service.delete(message)
    return no_content()


async def history(request: web.Request) -> web.Response:
    channel = _channel(request, perms.READ_MESSAGE_HISTORY)
    try:
        limit = int(request.query.get("limit", "50"))
    except ValueError:
        limit = 0
    if not 1 <= limit <= 100:
        raise ApiError(400, 50035, "Invalid Form Body", detail="limit must be 1..100")
    messages = list(channel.history())  # newest first
    before, after, around = (request.query.get(k) for k in ("before", "after", "around"))
    if before:
        messages = [m for m in messages if m.id < int(before)]
    elif after:
        messages = [m for m in messages if m.id > int(after)][-limit:]
    elif around:
        pivot = int(around)
        older = [m for m in messages if m.id <= pivot][: (limit + 1) // 2]
        newer = [m for m in messages if m.id > pivot][-(limit // 2) :] if limit > 1 else []
        messages = newer + older
    return json_response([payloads.message(m) for m in messages[:limit]])


async def typing(request: web.Request) -> web.Response:
    _channel(request, perms.SEND_MESSAGES)
    return no_content()


def add_routes(app: web.Application, prefix: str, emu: ChannelWorld) -> None:
    app[WORLD] = emu
    base = f"{prefix}/channels/{{channel_id}}"
    app.router.add_get(base, get_channel)
    app.router.add_get(f"{base}/messages", history)
    app.router.add_post(f"{base}/messages", create_message)
    app.router.add_get(f"{base}/messages/{{message_id}}", get_message)
    app.router.add_patch(f"{base}/messages/{{message_id}}", edit_message)
    app.router.add_delete(f"{base}/messages/{{message_id}}", delete_message)
    app.router.add_post(f"{base}/typing", typing)
