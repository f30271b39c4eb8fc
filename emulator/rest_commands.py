"""REST: application commands, global and per guild (sync is a bulk overwrite, PUT)."""

from __future__ import annotations

from collections.abc import Container
from typing import Protocol

from aiohttp import web

from emulator.commands import CommandRegistry
from emulator.errors import ApiError
from emulator.http import (
    body_of,
    json_response,
    no_content,
    require_bot,
    snowflake,
)


class CommandWorld(Protocol):
    """What the command routes need: the application, its guilds, the registry."""

    @property
    def application_id(self) -> int: ...
    @property
    def guilds(self) -> Container[int]: ...
    @property
    def commands(self) -> CommandRegistry: ...


WORLD: web.AppKey[CommandWorld] = web.AppKey("rest_commands")


def world(request: web.Request) -> CommandWorld:
    return request.app[WORLD]


def _scope(request: web.Request) -> int | None:
    require_bot(request)
    emu = world(request)
    if snowflake(request, "application_id") != emu.application_id:
        raise ApiError(403, 50001, "Missing Access", detail="not this bot's application")
    if "guild_id" not in request.match_info:
        return None
    guild_id = snowflake(request, "guild_id")
    if guild_id not in emu.guilds:
        # Syncing to a server the bot is not in: Discord answers Missing Access.
        raise ApiError(403, 50001, "Missing Access", detail=f"the bot is not in guild {guild_id}")
    return guild_id


async def list_commands(request: web.Request) -> web.Response:
    scope = _scope(request)
    return json_response(world(request).commands.registered(scope))


async def overwrite_commands(request: web.Request) -> web.Response:
    scope = _scope(request)
    emu = world(request)
    return json_response(emu.commands.overwrite(scope, body_of(request)))


async def create_command(request: web.Request) -> web.Response:
    scope = _scope(request)
    emu = world(request)
    return json_response(emu.commands.upsert(scope, body_of(request)), 201)


async def get_command(request: web.Request) -> web.Response:
    scope = _scope(request)
    command = world(request).commands.by_id(scope, snowflake(request, "command_id"))
    if command is None:
        raise ApiError(404, 10063, "Unknown application command", violation=False)
    return json_response(command)


async def edit_command(request: web.Request) -> web.Response:
    scope = _scope(request)
    emu = world(request)
    changes = body_of(request) or {}
    return json_response(emu.commands.edit(scope, snowflake(request, "command_id"), changes))


async def delete_command(request: web.Request) -> web.Response:
    scope = _scope(request)
    world(request).commands.delete(scope, snowflake(request, "command_id"))
    return no_content()


def add_routes(app: web.Application, prefix: str, emu: CommandWorld) -> None:
    app[WORLD] = emu
    for base in (
        f"{prefix}/applications/{{application_id}}/commands",
        f"{prefix}/applications/{{application_id}}/guilds/{{guild_id}}/commands",
    ):
        app.router.add_get(base, list_commands)
        app.router.add_put(base, overwrite_commands)
        app.router.add_post(base, create_command)
        app.router.add_get(f"{base}/{{command_id}}", get_command)
        app.router.add_patch(f"{base}/{{command_id}}", edit_command)
        app.router.add_delete(f"{base}/{{command_id}}", delete_command)
