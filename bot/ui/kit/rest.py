"""The bot's busiest Discord calls, made through discord.py's HTTP layer without turning each
reply into a Message.

After every send or edit discord.py parses the message Discord sends back (a Message with its
author, embeds and components) and, for an interaction answer, asks Discord for that message
too (`with_response`). The table message, its turn ping and the players' hands are redrawn
after every move and the bot never reads those replies: at 200 tables the parsing alone was a
tenth of the bot's CPU. These calls take the same routes, rate limits and retries as
discord.py's own methods and raise the same errors (discord.HTTPException and its kinds).
The parts of discord.py they lean on are in bot/ui/kit/discord_internals.py, pinned by its test.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.ui.kit import discord_internals as internals

if TYPE_CHECKING:
    from bot.ui.kit.message_parts import MessageParts

log = logging.getLogger(__name__)

# "Interaction has already been acknowledged": a retried answer whose first try did arrive.
ALREADY_ACKNOWLEDGED = 40060
# "Unknown interaction": the answer came after Discord's 3 s deadline (or the token expired).
UNKNOWN_INTERACTION = 10062


def is_transport_error(error: BaseException) -> bool:
    """The request never got an HTTP answer: the connection dropped or could not be made, or
    the bot's HTTP session is closed (the bot is going down). Not a refusal by Discord."""
    if isinstance(error, aiohttp.ClientError | OSError):
        return True
    return isinstance(error, RuntimeError) and "Session is closed" in str(error)


def is_too_late(error: BaseException) -> bool:
    """Discord refused the answer as Unknown interaction (10062): it came after the 3 s
    deadline (a loaded bot, a long pause). The person already saw "This interaction failed"
    and any fallback answer would meet the same refusal: nothing to answer, no bug to trace."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION


async def once_more_if_dropped(what: str, send: Callable[[], Awaitable[None]]) -> None:
    """Send; if the connection dropped under the request, send it once more. Safe for what
    this wraps: an interaction answer (a second one that finds the first arrived is refused
    with 40060, which means done) and an edit (the same edit twice shows the same thing)."""
    try:
        await send()
        return
    except aiohttp.ClientConnectionError as error:
        first = error
    try:
        await send()
    except discord.HTTPException as error:
        if error.code != ALREADY_ACKNOWLEDGED:
            raise
    log.warning("%s: connection dropped (%s); sent again", what, type(first).__name__)


async def update_clicked(interaction: discord.Interaction[Any], parts: MessageParts) -> None:
    """Answer a click by showing `parts` in the clicked message (type 7)."""
    kind = discord.InteractionResponseType.message_update
    with internals.click_update_params(
        type=kind.value,
        previous_allowed_mentions=interaction.client.allowed_mentions,
        **parts.kwargs(),
    ) as params:
        await once_more_if_dropped(
            f"answer to interaction {interaction.id}",
            lambda: internals.post_callback(interaction, params),
        )
    internals.mark_answered(interaction.response, kind)


async def defer_update(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge a click now and edit its message later (type 6)."""
    kind = discord.InteractionResponseType.deferred_message_update
    params = internals.response_params(kind.value)
    await once_more_if_dropped(
        f"deferral of interaction {interaction.id}",
        lambda: internals.post_callback(interaction, params),
    )
    internals.mark_answered(interaction.response, kind)


async def edit_original(interaction: discord.Interaction[Any], parts: MessageParts) -> None:
    """Show `parts` in the message a deferred click came from."""
    await once_more_if_dropped(
        f"answer to interaction {interaction.id}",
        lambda: edit_by_token(interaction.client, interaction.token, None, parts),
    )


async def edit_by_token(
    client: discord.Client, token: str, message_id: int | None, parts: MessageParts
) -> None:
    """Edit a message through its interaction's token (None: the original answer): a private
    hand, or a table message that interaction posted (bot/ui/table/table_pens.py)."""
    with internals.message_params(
        previous_allowed_mentions=client.allowed_mentions, **parts.kwargs()
    ) as params:
        await internals.edit_webhook_message(client, token, message_id, params)


async def send_followup(client: discord.Client, token: str, kwargs: dict[str, Any]) -> int:
    """Post a public follow-up of an interaction (`kwargs` as for a new message); its id."""
    with internals.message_params(
        previous_allowed_mentions=client.allowed_mentions, **kwargs
    ) as params:
        return await internals.send_followup(client, token, params)


async def edit_channel_message(
    client: discord.Client, channel_id: int, message_id: int, parts: MessageParts
) -> None:
    with internals.message_params(
        previous_allowed_mentions=client.allowed_mentions, **parts.kwargs()
    ) as params:
        await internals.edit_channel_message(client, channel_id, message_id, params)


async def send_channel_message(
    client: discord.Client,
    channel_id: int,
    content: str,
    allowed_mentions: discord.AllowedMentions,
) -> int:
    """Post `content`; the new message's id."""
    with internals.message_params(content=content, allowed_mentions=allowed_mentions) as params:
        return await internals.send_channel_message(client, channel_id, params)
