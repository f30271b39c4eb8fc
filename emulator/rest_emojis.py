"""REST: application emojis (`/applications/{id}/emojis`), with Discord's upload rules.

A name is 2-32 characters of [A-Za-z0-9_] and unique within the application; the image is a
data URI (PNG, JPEG, GIF or WebP) of at most 256 KiB; an application holds at most 2,000.
Messages may show an emoji by id only if it exists (see Messages: 50035 "Invalid emoji").
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any, Protocol

from aiohttp import web

from emulator import payloads
from emulator.errors import MISSING_ACCESS, ApiError, FormErrors, invalid_form
from emulator.http import (
    body_of,
    json_response,
    no_content,
    require_bot,
    snowflake,
)
from emulator.ids import Snowflakes
from emulator.state import Account

NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
IMAGE = re.compile(r"data:image/(png|jpeg|gif|webp);base64,(.*)", re.DOTALL)
MAX_IMAGE_BYTES = 256 * 1024
MAX_APPLICATION_EMOJIS = 2000
MAX_EMOJIS_REACHED = 30008
UNKNOWN_EMOJI = 10014


class EmojiWorld(Protocol):
    """What the emoji routes need: the application's emojis and their images."""

    @property
    def application_id(self) -> int: ...
    @property
    def owner(self) -> Account: ...
    @property
    def snowflakes(self) -> Snowflakes: ...
    @property
    def application_emojis(self) -> dict[int, dict[str, Any]]: ...
    @property
    def emoji_images(self) -> dict[int, bytes]: ...


WORLD: web.AppKey[EmojiWorld] = web.AppKey("rest_emojis")


def world(request: web.Request) -> EmojiWorld:
    return request.app[WORLD]


def _application(request: web.Request) -> None:
    require_bot(request)
    emu = world(request)
    if snowflake(request, "application_id") != emu.application_id:
        raise ApiError(403, MISSING_ACCESS, "Missing Access", detail="another application")


def _payload(request: web.Request, emoji: dict[str, Any]) -> dict[str, Any]:
    # Every field Discord sends, even for an emoji a test placed in `application_emojis` itself.
    defaults = {
        "roles": [],
        "require_colons": True,
        "managed": False,
        "animated": False,
        "available": True,
    }
    return {**defaults, **emoji, "user": payloads.user(world(request).owner)}


def _check_name(name: Any, emojis: dict[int, dict[str, Any]], errors: FormErrors) -> None:
    if not isinstance(name, str) or not NAME.fullmatch(name):
        errors.add(
            ("name",),
            "STRING_TYPE_REGEX",
            "String value did not match validation regex (2-32 of A-Z a-z 0-9 _).",
        )
    elif any(e["name"] == name for e in emojis.values()):
        errors.add(
            ("name",), "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Emoji name is already taken."
        )


async def list_emojis(request: web.Request) -> web.Response:
    _application(request)
    emojis = world(request).application_emojis
    return json_response({"items": [_payload(request, e) for e in emojis.values()]})


async def get_emoji(request: web.Request) -> web.Response:
    _application(request)
    emoji = world(request).application_emojis.get(snowflake(request, "emoji_id"))
    if emoji is None:
        raise ApiError(404, UNKNOWN_EMOJI, "Unknown Emoji", violation=False)
    return json_response(_payload(request, emoji))


async def create_emoji(request: web.Request) -> web.Response:
    _application(request)
    emu = world(request)
    body = body_of(request) or {}
    errors = FormErrors()
    _check_name(body.get("name"), emu.application_emojis, errors)
    match = IMAGE.fullmatch(str(body.get("image") or ""))
    data = b""
    if match is not None:
        try:
            data = base64.b64decode(match.group(2), validate=True)
        except (binascii.Error, ValueError):
            match = None
    if match is None:
        errors.add(("image",), "IMAGE_INVALID", "Invalid image data")
    elif len(data) > MAX_IMAGE_BYTES:
        errors.add(("image",), "BINARY_TYPE_MAX_SIZE", "File cannot be larger than 256.0 kb.")
    if errors:
        raise invalid_form(errors)
    if len(emu.application_emojis) >= MAX_APPLICATION_EMOJIS:
        # A state of the application, not a broken rule: a bot must live with it.
        raise ApiError(
            400, MAX_EMOJIS_REACHED, "Maximum number of emojis reached (2000)", violation=False
        )
    emoji_id = emu.snowflakes.next()
    emoji = {
        "id": str(emoji_id),
        "name": body["name"],
        "roles": [],
        "require_colons": True,
        "managed": False,
        "animated": match is not None and match.group(1) == "gif",
        "available": True,
    }
    emu.application_emojis[emoji_id] = emoji
    emu.emoji_images[emoji_id] = data
    return json_response(_payload(request, emoji), 201)


async def edit_emoji(request: web.Request) -> web.Response:
    _application(request)
    emu = world(request)
    emoji = emu.application_emojis.get(snowflake(request, "emoji_id"))
    if emoji is None:
        raise ApiError(404, UNKNOWN_EMOJI, "Unknown Emoji", violation=False)
    errors = FormErrors()
    name = (body_of(request) or {}).get("name")
    others = {k: v for k, v in emu.application_emojis.items() if v is not emoji}
    _check_name(name, others, errors)
    if errors:
        raise invalid_form(errors)
    emoji["name"] = name
    return json_response(_payload(request, emoji))


async def delete_emoji(request: web.Request) -> web.Response:
    _application(request)
    emu = world(request)
    emoji_id = snowflake(request, "emoji_id")
    if emu.application_emojis.pop(emoji_id, None) is None:
        raise ApiError(404, UNKNOWN_EMOJI, "Unknown Emoji", violation=False)
    emu.emoji_images.pop(emoji_id, None)
    return no_content()


def add_routes(app: web.Application, prefix: str, emu: EmojiWorld) -> None:
    app[WORLD] = emu
    base = f"{prefix}/applications/{{application_id}}/emojis"
    app.router.add_get(base, list_emojis)
    app.router.add_post(base, create_emoji)
    app.router.add_get(f"{base}/{{emoji_id}}", get_emoji)
    app.router.add_patch(f"{base}/{{emoji_id}}", edit_emoji)
    app.router.add_delete(f"{base}/{{emoji_id}}", delete_emoji)
