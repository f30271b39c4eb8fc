"""Names people chose, neutralised wherever a message shows them (issue 13 item 3, issue 25).

A display name is anything its owner typed: `<@123456789012345678> @everyone **hi**` must show
as those characters, never as a mention, a ping or markdown. `shown_name` escapes mentions
(everyone, here, users, roles), any other `<...>` markup (channels, slash commands, timestamps)
and markdown. It also keeps the name from changing the line it sits in: bidi controls (a
U+202E would reverse everything after it), line breaks and other control characters, bare
URLs (Discord links them) and list or heading markers at its start. Pictures draw names as
plain text and do not use it.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from discord.utils import escape_markdown, escape_mentions

ZERO_WIDTH_SPACE = "\u200b"

# Explicit embeddings, overrides and isolates, and the direction marks: each reorders or
# re-directs the text that follows it on the line. (Joiners stay: emoji sequences need them.)
BIDI_CONTROLS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e"  # embeddings, overrides, their end
    "\u2066\u2067\u2068\u2069"  # isolates
    "\u200e\u200f\u061c"  # marks
)
_URL_SCHEME = re.compile(r"(?i)([a-z][a-z0-9+.-]*):(//)")
# Markers escape_markdown leaves alone at the start of a line: "1. " / "1) " lists, "+ " lists.
_LIST_START = re.compile(r"^(\d+)([.)])(\s)|^\+(\s)")


def _one_line(name: str) -> str:
    """Bidi controls dropped; line breaks, tabs and other controls become spaces (collapsed)."""
    kept = []
    for char in name:
        if char in BIDI_CONTROLS:
            continue
        if unicodedata.category(char) in ("Cc", "Zl", "Zp"):
            kept.append(" ")
        else:
            kept.append(char)
    return " ".join("".join(kept).split())


def _unlist(text: str) -> str:
    match = _LIST_START.match(text)
    if match is None:
        return text
    if match.group(1) is not None:
        return f"{match.group(1)}\\{match.group(2)}{match.group(3)}" + text[match.end() :]
    return "\\+" + text[1:]


@lru_cache(maxsize=1024)  # names repeat in every message of a table: escape each once
def shown_name(name: str) -> str:
    """`name` as text in a message or embed: one line, no mention, no markup, no link, no
    reordering of what follows it; "?" if nothing is left."""
    text = escape_mentions(_one_line(name)).replace("<", "<" + ZERO_WIDTH_SPACE)
    text = escape_markdown(text)
    text = _URL_SCHEME.sub(r"\1:" + ZERO_WIDTH_SPACE + r"\2", text)
    return _unlist(text) or "?"
