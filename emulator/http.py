"""The REST side's plumbing: one middleware records every request and answers errors in
Discord's shape, with rate-limit headers on every response and exactly
`Content-Type: application/json` (discord.py reads anything else as text).

Never a 5xx: discord.py retries those. The emulator's own failures become a 400 and are kept in
`Emulator.internal_errors`; requests it does not handle become a 404 and are kept in
`Emulator.unhandled`. Both make `Emulator.assert_clean()` fail.
"""

from __future__ import annotations

import json
import time
import traceback
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

from aiohttp import BodyPartReader, web
from aiohttp.hdrs import CONTENT_DISPOSITION
from aiohttp.multipart import content_disposition_filename, parse_content_disposition

from emulator.errors import ApiError, Violation
from emulator.messages import Upload

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from emulator.clock import Clock
    from emulator.notifier import Notifier
    from emulator.ratelimits import RateLimiter

API_PREFIX = "/api/v10"
ARRIVED: web.RequestKey[float] = web.RequestKey("arrived", float)  # time.perf_counter()
JSON_BODY: web.RequestKey[Any] = web.RequestKey("json_body", object)
UPLOADS: web.RequestKey[list[Upload]] = web.RequestKey("uploads", list)
RATELIMIT: web.RequestKey[dict[str, str]] = web.RequestKey("ratelimit", dict)


@dataclass
class HttpRecord:
    """One request and its answer, for assertions."""

    method: str
    path: str
    query: dict[str, str]
    body: Any
    uploads: int
    status: int = 0
    raw_response: bytes | None = None
    started: float = 0.0  # time.perf_counter()
    ended: float = 0.0

    @property
    def response(self) -> Any:
        """The JSON body answered (parsed on demand: recording stays cheap)."""
        if not self.raw_response:
            return None
        try:
            return json.loads(self.raw_response)
        except ValueError:
            return None

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status}"


class HttpWorld(Protocol):
    """What the REST plumbing needs of the emulator: the bot token, the rate limiter, and the
    records a test asserts on."""

    token: str
    invalid_request_count: int

    @property
    def clock(self) -> Clock: ...
    @property
    def notifier(self) -> Notifier: ...
    @property
    def ratelimits(self) -> RateLimiter: ...
    @property
    def requests(self) -> list[HttpRecord]: ...
    @property
    def unhandled(self) -> list[HttpRecord]: ...
    @property
    def rate_limit_hits(self) -> list[HttpRecord]: ...
    @property
    def internal_errors(self) -> list[str]: ...

    def record_violation(self, violation: Violation) -> None: ...


EMU_KEY: web.AppKey[HttpWorld] = web.AppKey("emulator")


class RateLimitedError(Exception):
    def __init__(
        self, headers: dict[str, str], retry_after: float, *, is_global: bool = False
    ) -> None:
        super().__init__("rate limited")
        self.headers = headers
        self.retry_after = retry_after
        self.is_global = is_global


BANNED_BODY = b"error code: 1015"  # what Cloudflare answers a banned IP (text, no Via)


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    body = json.dumps(data, separators=(",", ":")).encode()
    return web.Response(
        status=status, body=body, headers={**(headers or {}), "Content-Type": "application/json"}
    )


def no_content() -> web.Response:
    return web.Response(status=204)


def emulator_of(request: web.Request) -> HttpWorld:
    return request.app[EMU_KEY]


def body_of(request: web.Request) -> Any:
    return request.get(JSON_BODY)


def uploads_of(request: web.Request) -> list[Upload]:
    uploads: list[Upload] = request.get(UPLOADS, [])
    return uploads


async def _read_body(request: web.Request) -> None:
    if not request.can_read_body:
        return
    # The raw header: aiohttp's `request.content_type` parses it with the email package, which
    # cost the emulator more than handling most requests.
    if request.headers.get("Content-Type", "").lower().startswith("multipart/form-data"):
        uploads: list[Upload] = []
        async for part in await request.multipart():
            if not isinstance(part, BodyPartReader):
                continue  # nested multipart: discord.py never sends one
            name, filename = _disposition(part.headers.get(CONTENT_DISPOSITION))
            name = name or ""
            data = await part.read()
            if name == "payload_json":
                request[JSON_BODY] = json.loads(data)
            else:
                content_type = part.headers.get("Content-Type", "application/octet-stream")
                uploads.append(Upload(name, filename or name, content_type, bytes(data)))
        request[UPLOADS] = uploads
    else:
        text = await request.text()
        if text:
            try:
                request[JSON_BODY] = json.loads(text)
            except json.JSONDecodeError:
                raise ApiError(400, 50109, "The request body contains invalid JSON.") from None


@lru_cache(maxsize=1024)
def _disposition(header: str | None) -> tuple[str | None, str | None]:
    """A part's name and file name, as `part.name` and `part.filename` read them, kept by the
    header: a request's parts repeat the same few headers ("files[0]", "seat.png"), and
    aiohttp's parser cost the emulator a seventh of its CPU at 200 busy tables (issue 31)."""
    _, params = parse_content_disposition(header)
    return content_disposition_filename(params, "name"), content_disposition_filename(
        params, "filename"
    )


def route_template(request: web.Request) -> str:
    resource = request.match_info.route.resource
    canonical = resource.canonical if resource is not None else request.path
    return f"{request.method} {canonical.removeprefix(API_PREFIX)}"


CLIENT_GONE = 499  # the status a request gets when its client hung up before it was read


@web.middleware
async def middleware(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    emu = emulator_of(request)
    # Not Discord's REST: the gateway, attachments and the local drand beacon (emulator/beacon.py).
    if request.path.startswith(("/gateway", "/attachments/", "/beacon/")):
        return await handler(request)
    started = time.perf_counter()
    request[ARRIVED] = started
    record = HttpRecord(request.method, request.path, dict(request.query), None, 0, started=started)
    emu.requests.append(record)
    template = route_template(request)
    extra_headers: dict[str, str] = {}
    if emu.ratelimits.banned:
        return _banned(emu, record)
    bot_auth = request.headers.get("Authorization", "").startswith("Bot ")
    admitted = emu.ratelimits.admit(template, dict(request.match_info), bot_auth=bot_auth)
    request[RATELIMIT] = admitted.headers
    try:
        if admitted.limited:
            raise RateLimitedError(
                admitted.headers, admitted.retry_after, is_global=admitted.is_global
            )
        await _read_body(request)
        record.body = request.get(JSON_BODY)
        record.uploads = len(request.get(UPLOADS, []))
        response = await handler(request)
    except ApiError as error:
        response = json_response(error.body(), error.status)
        if error.violation:
            emu.record_violation(
                Violation(
                    error.code,
                    error.status,
                    error.message,
                    error.detail,
                    request.method,
                    request.path,
                    error.interaction_id,
                    emu.clock.now(),
                )
            )
    except RateLimitedError as limited:
        extra_headers = limited.headers
        body = {
            "message": "You are being rate limited.",
            "retry_after": limited.retry_after,
            "global": limited.is_global,
            "code": 0,
        }
        response = json_response(body, 429)
        emu.rate_limit_hits.append(record)
    except web.HTTPException as http_error:
        if http_error.status != 404 and http_error.status != 405:
            raise
        response = json_response({"message": "404: Not Found", "code": 0}, 404)
        emu.unhandled.append(record)
    except ConnectionResetError:
        # The client went away mid-request (a bot process killed during an upload): nobody to
        # answer and not the emulator's fault; the request did not happen.
        record.status = CLIENT_GONE
        record.ended = time.perf_counter()
        emu.notifier.changed()
        raise
    except Exception as error:  # the emulator's own bug: never a 5xx, always a failing test
        emu.internal_errors.append(f"{request.method} {request.path}: {traceback.format_exc()}")
        response = json_response({"message": f"emulator error: {error!r}", "code": 0}, 400)
    headers = request.get(RATELIMIT) or admitted.headers
    for key, value in {**headers, **extra_headers}.items():
        response.headers[key] = value
    record.status = response.status
    if isinstance(response, web.Response) and isinstance(response.body, bytes):
        record.raw_response = response.body
    record.ended = time.perf_counter()
    if response.status in (401, 403, 429):
        emu.invalid_request_count += 1
    if emu.ratelimits.answered(response.status, response.headers.get("X-RateLimit-Scope", "")):
        emu.record_violation(
            Violation(
                0,
                429,
                "IP temporarily banned",
                f"{emu.ratelimits.invalid_limit} invalid requests (401/403/429) in 10 minutes",
                request.method,
                request.path,
                None,
                emu.clock.now(),
            )
        )
    emu.notifier.changed()  # waiters may watch the records
    return response


def _banned(emu: HttpWorld, record: HttpRecord) -> web.Response:
    """A banned IP reaches no route: Cloudflare answers 429 in plain text, without `Via`."""
    response = web.Response(status=429, body=BANNED_BODY, headers={"Content-Type": "text/plain"})
    record.status = 429
    record.raw_response = BANNED_BODY
    record.ended = time.perf_counter()
    emu.rate_limit_hits.append(record)
    emu.notifier.changed()
    return response


async def unhandled(request: web.Request) -> web.StreamResponse:
    raise web.HTTPNotFound()


def require_bot(request: web.Request) -> None:
    """Bot-authenticated routes: `Authorization: Bot <token>`."""
    emu = emulator_of(request)
    if request.headers.get("Authorization") != f"Bot {emu.token}":
        raise ApiError(401, 0, "401: Unauthorized", detail="missing or wrong bot token")


def snowflake(request: web.Request, name: str) -> int:
    try:
        return int(request.match_info[name])
    except ValueError:
        errors_path = f"{name} is not snowflake"
        raise ApiError(400, 50035, "Invalid Form Body", detail=errors_path) from None
