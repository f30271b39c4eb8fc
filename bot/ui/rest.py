"""The bot's busiest Discord calls, made through discord.py's HTTP layer without turning each
reply into a Message.

After every send or edit discord.py parses the message Discord sends back (a Message with its
author, embeds and components) and, for an interaction answer, asks Discord for that message
too (`with_response`). The table message, its turn ping and the players' hands are redrawn
after every move and the bot never reads those replies: at 200 tables the parsing alone was a
tenth of the bot's CPU. These calls take the same routes, rate limits and retries as
discord.py's own methods and raise the same errors (discord.HTTPException and its kinds).
The parts of discord.py they lean on are in bot/ui/discord_internals.py, pinned by its test.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.ui import discord_internals as internals

if TYPE_CHECKING:
    from bot.ui.render import MessageParts


async def update_clicked(interaction: discord.Interaction[Any], parts: MessageParts) -> None:
    """Answer a click by showing `parts` in the clicked message (type 7)."""
    kind = discord.InteractionResponseType.message_update
    with internals.click_update_params(
        type=kind.value,
        previous_allowed_mentions=interaction.client.allowed_mentions,
        **parts.kwargs(),
    ) as params:
        await internals.post_callback(interaction, params)
    internals.mark_answered(interaction.response, kind)


async def defer_update(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge a click now and edit its message later (type 6)."""
    kind = discord.InteractionResponseType.deferred_message_update
    await internals.post_callback(interaction, internals.response_params(kind.value))
    internals.mark_answered(interaction.response, kind)


async def edit_original(interaction: discord.Interaction[Any], parts: MessageParts) -> None:
    """Show `parts` in the message a deferred click came from."""
    await edit_hand(interaction.client, interaction.token, None, parts)


async def edit_hand(
    client: discord.Client, token: str, message_id: int | None, parts: MessageParts
) -> None:
    """Edit a private message through its interaction's token (None: the original answer)."""
    with internals.message_params(
        previous_allowed_mentions=client.allowed_mentions, **parts.kwargs()
    ) as params:
        await internals.edit_webhook_message(client, token, message_id, params)


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
