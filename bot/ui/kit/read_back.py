"""Reading a channel back to learn whether a post went out (issues 22 and 23).

A post stored as "being sent" when the process died may or may not be in its channel. Discord
dedups a message nonce only for a few minutes, so instead the bot reads the channel's messages
since it began that post and looks for its own message carrying the post's marker (a season's
final title, a recap's week in its footer)."""

from __future__ import annotations

import datetime
from collections.abc import Callable

import discord

# How far before the stored start of a post to read from: the bot's clock and Discord's may
# differ a little.
CLOCK_MARGIN = 300.0
READ_LIMIT = 100  # the oldest messages since then: the post went out right after its start


async def posted_since(
    client: discord.Client,
    channel_id: int,
    guild_id: int | None,
    since: float,
    marked: Callable[[discord.Embed], bool],
) -> bool:
    """Whether one of this bot's messages in the channel since `since` (a Unix time) has an
    embed that `marked` accepts."""
    me = client.user
    if me is None:
        return False
    channel = client.get_partial_messageable(channel_id, guild_id=guild_id)
    after = datetime.datetime.fromtimestamp(max(0.0, since - CLOCK_MARGIN), datetime.UTC)
    async for message in channel.history(limit=READ_LIMIT, after=after, oldest_first=True):
        if message.author.id == me.id and any(marked(e) for e in message.embeds):
            return True
    return False
