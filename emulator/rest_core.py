"""REST: the bot's identity, the application, the gateway URL, users, guilds and DMs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from aiohttp import web

from emulator import payloads
from emulator.errors import MISSING_ACCESS, UNKNOWN_GUILD, UNKNOWN_USER, ApiError
from emulator.gateway import Gateway
from emulator.http import (
    body_of,
    json_response,
    require_bot,
    snowflake,
)
from emulator.messages import Messages
from emulator.payloads import Application
from emulator.state import Guild
from emulator.users import SimulatedUser


class CoreWorld(Application, Protocol):
    """What the core routes need: the application, its gateway, users and guilds."""

    @property
    def shard_count(self) -> int: ...
    @property
    def gateway_url(self) -> str: ...
    @property
    def gateway(self) -> Gateway: ...
    @property
    def users(self) -> Mapping[int, SimulatedUser]: ...
    @property
    def guilds(self) -> Mapping[int, Guild]: ...
    @property
    def message_service(self) -> Messages: ...


WORLD: web.AppKey[CoreWorld] = web.AppKey("rest_core")


def world(request: web.Request) -> CoreWorld:
    return request.app[WORLD]


async def get_me(request: web.Request) -> web.Response:
    require_bot(request)
    return json_response(payloads.self_user(world(request).bot))


async def get_application(request: web.Request) -> web.Response:
    require_bot(request)
    return json_response(payloads.application(world(request)))


async def get_gateway(request: web.Request) -> web.Response:
    return json_response({"url": world(request).gateway_url})


async def get_gateway_bot(request: web.Request) -> web.Response:
    require_bot(request)
    emu = world(request)
    return json_response(
        {
            "url": emu.gateway_url,
            "shards": emu.shard_count,
            "session_start_limit": {
                "total": 1000,
                "remaining": 1000 - emu.gateway.ready_count,
                "reset_after": 86_400_000,
                "max_concurrency": 1,
            },
        }
    )


async def get_user(request: web.Request) -> web.Response:
    require_bot(request)
    emu = world(request)
    user_id = snowflake(request, "user_id")
    account = emu.bot if user_id == emu.bot.id else emu.users.get(user_id)
    if account is None:
        raise ApiError(404, UNKNOWN_USER, "Unknown User", violation=False)
    return json_response(payloads.user(account))


async def create_dm(request: web.Request) -> web.Response:
    require_bot(request)
    emu = world(request)
    body = body_of(request) or {}
    user = emu.users.get(int(body.get("recipient_id", 0)))
    if user is None:
        raise ApiError(400, 50007, "Cannot send messages to this user", violation=False)
    return json_response(payloads.channel(user.dm))


def _guild(request: web.Request) -> Guild:
    emu = world(request)
    guild = emu.guilds.get(snowflake(request, "guild_id"))
    if guild is None:
        raise ApiError(404, UNKNOWN_GUILD, "Unknown Guild", violation=False)
    return guild


async def get_guild(request: web.Request) -> web.Response:
    require_bot(request)
    data = payloads.guild_create(_guild(request))
    for key in (
        "channels",
        "members",
        "threads",
        "presences",
        "voice_states",
        "joined_at",
        "member_count",
        "large",
        "lazy",
        "unavailable",
    ):
        data.pop(key, None)
    return json_response(data)


async def get_guild_channels(request: web.Request) -> web.Response:
    require_bot(request)
    guild = _guild(request)
    return json_response([payloads.channel(c) for c in guild.channels.values()])


async def get_member(request: web.Request) -> web.Response:
    require_bot(request)
    emu = world(request)
    guild = _guild(request)
    user_id = snowflake(request, "user_id")
    account = emu.bot if user_id == emu.bot.id else guild.members.get(user_id)
    if account is None:
        raise ApiError(404, 10007, "Unknown Member", violation=False)
    return json_response(payloads.member(guild, account))


async def get_attachment(request: web.Request) -> web.Response:
    emu = world(request)
    upload = emu.message_service.files.get(int(request.match_info["attachment_id"]))
    if upload is None:
        raise web.HTTPNotFound()
    return web.Response(body=upload.data, headers={"Content-Type": upload.content_type})


def missing_access(detail: str) -> ApiError:
    return ApiError(403, MISSING_ACCESS, "Missing Access", detail=detail)


def add_routes(app: web.Application, prefix: str, emu: CoreWorld) -> None:
    app[WORLD] = emu
    app.router.add_get(f"{prefix}/users/@me", get_me)
    app.router.add_get(f"{prefix}/oauth2/applications/@me", get_application)
    app.router.add_get(f"{prefix}/applications/@me", get_application)
    app.router.add_get(f"{prefix}/gateway", get_gateway)
    app.router.add_get(f"{prefix}/gateway/bot", get_gateway_bot)
    app.router.add_post(f"{prefix}/users/@me/channels", create_dm)
    app.router.add_get(f"{prefix}/users/{{user_id}}", get_user)
    app.router.add_get(f"{prefix}/guilds/{{guild_id}}", get_guild)
    app.router.add_get(f"{prefix}/guilds/{{guild_id}}/channels", get_guild_channels)
    app.router.add_get(f"{prefix}/guilds/{{guild_id}}/members/{{user_id}}", get_member)
    app.router.add_get("/attachments/{attachment_id}/{filename}", get_attachment)
