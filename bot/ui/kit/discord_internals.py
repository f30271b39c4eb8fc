"""Every use of discord.py below its documented API, in one place.

The bot steps under discord.py's public surface in a few spots, each for speed or memory:
- the busiest sends and edits (bot/ui/kit/rest.py) go through discord.py's HTTP layer without
  turning Discord's reply into a Message: the route, the webhook adapter, the HTTP session, the
  parameter builders, and the interaction's answered-flag that discord.py would have set;
- the raw button rows (bot/ui/kit/components.py) pass discord.py's "is this a view?" check and
  answer the few questions it asks a sent view (`RawView`);
- a sent view is let go at once if discord.py stored it (`is_stored_view`);
- the templates of the DynamicItem button families are read from their classes (`template_of`).

tests/test_ui_discord_internals.py pins every name, signature and behaviour used here against
the installed discord.py (and its version against `TESTED_VERSIONS`): after an upgrade that
test fails first and says which line to revisit. The same test checks that nothing else in
bot/ or cogs/ imports a private discord module or reads a private attribute.
"""

from __future__ import annotations

import abc
import re
from typing import Any, ClassVar, TypeGuard

import aiohttp
import discord
from discord.http import HTTPClient, MultipartParameters, Route, handle_message_parameters
from discord.webhook.async_ import (
    async_context,
    interaction_message_response_params,
    interaction_response_params,
)

# The discord.py releases this module was checked against: from the first, up to (without) the
# second. requirements.lock pins one inside it.
TESTED_VERSIONS: tuple[tuple[int, int, int], tuple[int, int, int]] = ((2, 7, 1), (2, 8, 0))

# discord.py keeps its aiohttp session in a name-mangled private attribute (`self.__session`).
HTTP_SESSION_ATTRIBUTE = "_HTTPClient__session"

# --- parameters of a message (payload, multipart and files), as discord.py's own calls build them

# Context managers (they close the files on exit), keyword arguments as discord.py's send/edit.
message_params = handle_message_parameters  # a channel message or a webhook edit
click_update_params = interaction_message_response_params  # a callback that carries a message
response_params = interaction_response_params  # a callback with no message (a deferral)


# --- routes --------------------------------------------------------------------------------------


def callback_route(interaction_id: int, token: str) -> Route:
    return Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction_id,
        webhook_token=token,
    )


def webhook_message_route(application_id: int, token: str, message_id: int | None) -> Route:
    """An interaction's message, by id or (None) its original answer."""
    if message_id is None:
        path = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
    else:
        path = "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
    return Route(
        "PATCH", path, webhook_id=application_id, webhook_token=token, message_id=message_id
    )


def followup_route(application_id: int, token: str) -> Route:
    return Route(
        "POST",
        "/webhooks/{webhook_id}/{webhook_token}",
        webhook_id=application_id,
        webhook_token=token,
    )


# --- requests: discord.py's routes, rate limits, retries and errors ----------------------------


def http_of(client: discord.Client) -> HTTPClient:
    return client.http


def http_session(http: HTTPClient) -> aiohttp.ClientSession:
    session: aiohttp.ClientSession = getattr(http, HTTP_SESSION_ATTRIBUTE)
    return session


async def post_callback(interaction: discord.Interaction[Any], params: MultipartParameters) -> None:
    """Answer an interaction through the webhook adapter discord.py's own answers use. Without
    `with_response` Discord answers 204: nothing to download or parse."""
    http = http_of(interaction.client)
    await async_context.get().request(
        callback_route(interaction.id, interaction.token),
        session=interaction._session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        payload=None if params.files else params.payload,
        multipart=params.multipart if params.files else None,
        files=params.files or None,
    )


def mark_answered(
    response: discord.InteractionResponse[Any], kind: discord.InteractionResponseType
) -> None:
    """Record an answer sent around discord.py: `is_done()` and followups read it."""
    response._response_type = kind


def application_id_of(client: discord.Client) -> int:
    application_id = client.application_id
    assert application_id is not None  # set by the gateway's READY, before any interaction
    return application_id


async def webhook_request(
    client: discord.Client,
    route: Route,
    params: MultipartParameters,
    query: dict[str, str] | None = None,
) -> Any:
    """A request on an interaction's webhook (its token in the route), through the adapter
    discord.py's own webhook calls use, on the client's HTTP session."""
    http = http_of(client)
    return await async_context.get().request(
        route,
        session=http_session(http),
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        payload=params.payload,
        multipart=params.multipart,
        files=params.files,
        params=query,
    )


async def edit_webhook_message(
    client: discord.Client, token: str, message_id: int | None, params: MultipartParameters
) -> None:
    """Edit a message of an interaction's webhook by its token (None: the original answer)."""
    route = webhook_message_route(application_id_of(client), token, message_id)
    await webhook_request(client, route, params)


async def send_followup(client: discord.Client, token: str, params: MultipartParameters) -> int:
    """Post a follow-up message of an interaction by its token; its id (`wait`: Discord
    answers with the message, of which only the id is read)."""
    route = followup_route(application_id_of(client), token)
    data = await webhook_request(client, route, params, {"wait": "true"})
    return int(data["id"])


async def edit_channel_message(
    client: discord.Client, channel_id: int, message_id: int, params: MultipartParameters
) -> None:
    await http_of(client).edit_message(channel_id, message_id, params=params)


async def send_channel_message(
    client: discord.Client, channel_id: int, params: MultipartParameters
) -> int:
    """Post a message; its id (the rest of Discord's reply is never parsed)."""
    data = await http_of(client).send_message(channel_id, params=params)
    return int(data["id"])


# --- views -----------------------------------------------------------------------------------


class RawView(abc.ABC):
    """What discord.py asks of a sent view, for objects that write their rows themselves
    (`to_components`, which each subclass defines): nothing here waits for clicks or needs
    storing."""

    # discord.py checks this marker before it sends a "view".
    __discord_ui_view__: ClassVar[bool] = True
    timeout: float | None = None  # read (and maybe set) by discord.py for ephemeral sends

    @abc.abstractmethod
    def to_components(self) -> list[dict[str, Any]]:
        """The message's rows, as Discord's JSON."""

    def has_components_v2(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False


def is_stored_view(view: object) -> TypeGuard[discord.ui.View]:
    """Whether discord.py keeps `view` under a message id (its `_cache_key`) and would let go
    of it on `stop()`."""
    return isinstance(view, discord.ui.View) and view._cache_key is not None


def has_live_modal(client: discord.Client, custom_id: str) -> bool:
    """Whether discord.py holds a modal (sent by this process, not yet answered) under
    `custom_id`: it dispatches a modal submit only to such a one (issue 32: a Cut modal opened
    before a restart has none, and is answered by its custom_id instead)."""
    return custom_id in client._connection._view_store._modals


def template_of(item: type[discord.ui.DynamicItem[Any]]) -> re.Pattern[str]:
    """The compiled custom_id template of a DynamicItem class (discord.py's `template` is an
    instance property)."""
    return item.__discord_ui_compiled_template__
