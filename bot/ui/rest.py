"""The bot's busiest Discord calls, made through discord.py's HTTP layer without turning each
reply into a Message.

After every send or edit discord.py parses the message Discord sends back (a Message with its
author, embeds and components) and, for an interaction answer, asks Discord for that message
too (`with_response`). The table message, its turn ping and the players' hands are redrawn
after every move and the bot never reads those replies: at 200 tables the parsing alone was a
tenth of the bot's CPU. These calls take the same routes, rate limits and retries as
discord.py's own methods and raise the same errors (discord.HTTPException and its kinds).
They lean on discord.py's HTTP layer (`handle_message_parameters`, the webhook adapter), which
is why discord.py is pinned.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord.enums import InteractionResponseType
from discord.http import Route, handle_message_parameters
from discord.webhook.async_ import (
    async_context,
    interaction_message_response_params,
    interaction_response_params,
)

if TYPE_CHECKING:
    from bot.ui.render import MessageParts


async def _callback(interaction: discord.Interaction[Any], params: Any) -> None:
    # Without `with_response` Discord answers 204: nothing to download or parse.
    route = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    http = interaction.client.http
    await async_context.get().request(
        route,
        session=interaction._session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        payload=None if params.files else params.payload,
        multipart=params.multipart if params.files else None,
        files=params.files or None,
    )


async def update_clicked(interaction: discord.Interaction[Any], parts: MessageParts) -> None:
    """Answer a click by showing `parts` in the clicked message (type 7)."""
    kind = InteractionResponseType.message_update
    with interaction_message_response_params(
        type=kind.value,
        previous_allowed_mentions=interaction.client.allowed_mentions,
        **parts.kwargs(),
    ) as params:
        await _callback(interaction, params)
    interaction.response._response_type = kind  # is_done() and followups read it


async def defer_update(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge a click now and edit its message later (type 6)."""
    kind = InteractionResponseType.deferred_message_update
    await _callback(interaction, interaction_response_params(kind.value))
    interaction.response._response_type = kind


async def edit_original(interaction: discord.Interaction[Any], parts: MessageParts) -> None:
    """Show `parts` in the message a deferred click came from."""
    await edit_hand(interaction.client, interaction.token, None, parts)


async def edit_hand(
    client: discord.Client, token: str, message_id: int | None, parts: MessageParts
) -> None:
    """Edit a private message through its interaction's token (None: the original answer)."""
    application_id = client.application_id
    assert application_id is not None
    if message_id is None:
        path = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
    else:
        path = "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
    route = Route(
        "PATCH", path, webhook_id=application_id, webhook_token=token, message_id=message_id
    )
    http = client.http
    with handle_message_parameters(
        previous_allowed_mentions=client.allowed_mentions, **parts.kwargs()
    ) as params:
        await async_context.get().request(
            route,
            session=http._HTTPClient__session,  # type: ignore[attr-defined]
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
        )


async def edit_channel_message(
    client: discord.Client, channel_id: int, message_id: int, parts: MessageParts
) -> None:
    with handle_message_parameters(
        previous_allowed_mentions=client.allowed_mentions, **parts.kwargs()
    ) as params:
        await client.http.edit_message(channel_id, message_id, params=params)


async def send_channel_message(
    client: discord.Client,
    channel_id: int,
    content: str,
    allowed_mentions: discord.AllowedMentions,
) -> int:
    """Post `content`; the new message's id."""
    with handle_message_parameters(content=content, allowed_mentions=allowed_mentions) as params:
        data = await client.http.send_message(channel_id, params=params)
    return int(data["id"])
