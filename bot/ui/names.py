"""Names people chose, neutralised wherever a message shows them (issue 13 item 3).

A display name is anything its owner typed: `<@123456789012345678> @everyone **hi**` must show
as those characters, never as a mention, a ping or markdown. `shown_name` escapes mentions
(everyone, here, users, roles), any other `<...>` markup (channels, slash commands, timestamps)
and markdown. Pictures draw names as plain text and do not use it.
"""

from __future__ import annotations

from functools import lru_cache

from discord.utils import escape_markdown, escape_mentions

ZERO_WIDTH_SPACE = "\u200b"


@lru_cache(maxsize=1024)  # names repeat in every message of a table: escape each once
def shown_name(name: str) -> str:
    """`name` as text in a message or embed: no mention, no markup; "?" if it is empty."""
    text = escape_mentions(name).replace("<", "<" + ZERO_WIDTH_SPACE)
    return escape_markdown(text) or "?"
