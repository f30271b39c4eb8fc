"""What one version of a table message shows, for matching it to a table state.

The footer used to carry the table's version ("Table 1 · move 183"); it now counts hands
(issue 21 item 5), so the tests find the state another way: the picture's PNG text chunks name
the version it was drawn for, and otherwise the message is matched to the state that renders
exactly as it reads.
"""

from __future__ import annotations

import io
import re
from typing import Any

from PIL import Image

from bot.ui.kit.layout import Layout, flat
from bot.ui.kit.message_parts import MessageParts
from bot.ui.table import table_picture
from emulator import Emulator
from emulator.state import MessageVersion

# The turn timer's line under the turn line: a rendering of a past state does not replay it.
DEADLINE_LINE = re.compile(r"\n⏳ [^\n]*|^⏳ [^\n]*\n?")

# What a reader sees of a table message: content, the embed's texts, the buttons and menus.
Readable = tuple[Any, ...]


def picture_chunks(emu: Emulator, shown: MessageVersion) -> dict[str, str] | None:
    """The text chunks of the table picture on this version of a message; None without one."""
    for attachment in shown.attachments:
        if attachment["filename"] == table_picture.FILENAME:
            data = emu.message_service.files[int(attachment["id"])].data
            with Image.open(io.BytesIO(data)) as image:
                return dict(image.text)  # type: ignore[attr-defined]
    return None


def picture_version(emu: Emulator, shown: MessageVersion) -> int | None:
    """The table version this message's picture was drawn for (sent in the same edit as the
    text); None when the message has no picture (a table with pictures off)."""
    chunks = picture_chunks(emu, shown)
    return None if chunks is None else int(chunks["version"])


def text_of(components: list[dict[str, Any]]) -> str:
    """The text displays of a Components V2 message, one after the other."""
    return "\n".join(str(c.get("content")) for c in flat(components) if c.get("type") == 10)


def components_of(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The buttons and menus as a reader sees them, row by row (ignoring what the emulator
    adds, such as component ids)."""
    out = []
    # Components V2 (issue 30): the action rows inside the layout's Container.
    action_rows = [row for row in flat(rows) if row.get("type") == 1]
    for number, row in enumerate(action_rows):
        for item in row.get("components") or []:
            options = tuple(
                (o.get("label"), o.get("value"), bool(o.get("default")))
                for o in item.get("options") or []
            )
            out.append(
                (
                    number,
                    item.get("type"),
                    item.get("custom_id"),
                    item.get("label"),
                    bool(item.get("disabled")),
                    item.get("style"),
                    options,
                )
            )
    return out


def _embed_texts(embed: dict[str, Any] | None) -> tuple[Any, ...]:
    if embed is None:
        return (None,)
    fields = tuple(
        (f.get("name"), f.get("value"), bool(f.get("inline"))) for f in embed.get("fields") or []
    )
    footer = (embed.get("footer") or {}).get("text")
    return (embed.get("title"), embed.get("description"), fields, footer)


def readable(shown: MessageVersion, *, drop_prefix: str = "", components: bool = True) -> Readable:
    """What this version of a message reads: its content without the turn timer's line (and
    without `drop_prefix`, e.g. the "restored" notice), its embed's texts and, with
    `components`, its buttons."""
    if shown.content or not shown.components:
        content = DEADLINE_LINE.sub("", shown.content.removeprefix(drop_prefix))
    else:  # a layout: its text displays (a notice opens the turn line)
        text = text_of(shown.components)
        if drop_prefix.strip() and text.startswith(drop_prefix.strip()):
            text = text.removeprefix(drop_prefix.strip()).lstrip(" ")
        content = DEADLINE_LINE.sub("", text)
    embed = shown.embeds[0] if shown.embeds else None
    rows = components_of(shown.components) if components else None
    return (content, _embed_texts(embed), rows)


def rendered(parts: MessageParts, *, components: bool = True) -> Readable:
    """The same reading of what the renderer draws."""
    layout = isinstance(parts.view, Layout)  # its words are its text displays
    embed = parts.embed.to_dict() if parts.embed is not None and not layout else None
    rows = None
    if components:
        rows = components_of(parts.view.to_components()) if parts.view is not None else []
    content = parts.content or ""
    if isinstance(parts.view, Layout):
        content = text_of(parts.view.to_components())
    content = DEADLINE_LINE.sub("", content)
    return (content, _embed_texts(dict(embed) if embed is not None else None), rows)
