"""REST: interaction callbacks and the interaction webhook (follow-ups, @original).

These routes take no bot token: the interaction token in the path is the credential.
"""

from __future__ import annotations

from typing import Protocol

from aiohttp import web

from emulator import payloads
from emulator.http import (
    ARRIVED,
    body_of,
    json_response,
    no_content,
    snowflake,
    uploads_of,
)
from emulator.interactions import Interactions


class InteractionRouteWorld(Protocol):
    """What the interaction routes need: the interaction service."""

    @property
    def interaction_service(self) -> Interactions: ...


WORLD: web.AppKey[InteractionRouteWorld] = web.AppKey("rest_interactions")


def world(request: web.Request) -> InteractionRouteWorld:
    return request.app[WORLD]


def _truthy(value: str | None) -> bool:
    return (value or "").lower() in ("1", "true")


async def callback(request: web.Request) -> web.Response:
    emu = world(request)
    inter, resource = emu.interaction_service.callback(
        snowflake(request, "interaction_id"),
        request.match_info["token"],
        body_of(request) or {},
        uploads_of(request),
        request[ARRIVED],
    )
    if not _truthy(request.query.get("with_response")):
        return no_content()
    return json_response(payloads.callback_response(inter, resource))


async def execute(request: web.Request) -> web.Response:
    emu = world(request)
    message = emu.interaction_service.followup(
        snowflake(request, "application_id"),
        request.match_info["token"],
        body_of(request) or {},
        uploads_of(request),
    )
    if not _truthy(request.query.get("wait")):
        return no_content()
    return json_response(payloads.message(message))


async def get_message(request: web.Request) -> web.Response:
    emu = world(request)
    _, message = emu.interaction_service.webhook_message(
        snowflake(request, "application_id"),
        request.match_info["token"],
        request.match_info["message"],
    )
    return json_response(payloads.message(message))


async def edit_message(request: web.Request) -> web.Response:
    emu = world(request)
    message = emu.interaction_service.edit_webhook_message(
        snowflake(request, "application_id"),
        request.match_info["token"],
        request.match_info["message"],
        body_of(request) or {},
        uploads_of(request),
    )
    return json_response(payloads.message(message))


async def delete_message(request: web.Request) -> web.Response:
    emu = world(request)
    emu.interaction_service.delete_webhook_message(
        snowflake(request, "application_id"),
        request.match_info["token"],
        request.match_info["message"],
    )
    return no_content()


def add_routes(app: web.Application, prefix: str, emu: InteractionRouteWorld) -> None:
    app[WORLD] = emu
    app.router.add_post(f"{prefix}/interactions/{{interaction_id}}/{{token}}/callback", callback)
    hook = f"{prefix}/webhooks/{{application_id}}/{{token}}"
    app.router.add_post(hook, execute)
    app.router.add_get(f"{hook}/messages/{{message}}", get_message)
    app.router.add_patch(f"{hook}/messages/{{message}}", edit_message)
    app.router.add_delete(f"{hook}/messages/{{message}}", delete_message)
