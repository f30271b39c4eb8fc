"""Table and hand messages in Discord's newer layout (Components V2, issue 30 item 1).

One Container holds the picture (a MediaGallery of the message's own attachment), a few text
lines (TextDisplay) and the buttons (ActionRows); its accent colour says whose turn it is. The
message carries the flag IS_COMPONENTS_V2 (1 << 15), which discord.py sets when a view says
`has_components_v2()`; such a message has no content and no embeds, and the flag can never be
removed again, so every later version of a table message is a Layout too (`from_legacy` turns a
message drawn as content + embed into one, word for word, for the lobby and the result).

Like `Buttons`, the JSON is written directly: these messages are redrawn after every move.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord

from bot.ui.kit.components import Buttons
from bot.ui.kit.discord_internals import RawView

TEXT_DISPLAY, MEDIA_GALLERY, SEPARATOR, CONTAINER = 10, 12, 14, 17
# Discord's limit on the text displays of one message, in characters.
MAX_TEXT = 4000


class Layout(RawView):
    """A Container: an optional picture, text lines, then the rows of `buttons`."""

    def __init__(
        self,
        lines: list[str],
        buttons: Buttons | None = None,
        *,
        picture: str | None = None,
        picture_description: str | None = None,
        accent: int | None = None,
    ) -> None:
        self.lines = [line for line in lines if line]
        self.buttons = buttons if buttons is not None else Buttons()
        # `attachment://NAME` of the message's own picture; None: no picture is shown. A hand's
        # picture is decided after the text (bot/ui/table/seat_picture.py sets it to None when the
        # picture is not there).
        self.picture = picture
        self.picture_description = picture_description
        self.accent = accent

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def has_components_v2(self) -> bool:
        return True

    def to_components(self) -> list[dict[str, Any]]:
        inner: list[dict[str, Any]] = []
        if self.picture is not None:
            item: dict[str, Any] = {"media": {"url": self.picture}}
            if self.picture_description:
                item["description"] = self.picture_description[:1024]
            inner.append({"type": MEDIA_GALLERY, "items": [item]})
        text = self.text[:MAX_TEXT]
        if text:
            inner.append({"type": TEXT_DISPLAY, "content": text})
        inner.extend(self.buttons.to_components())
        container: dict[str, Any] = {"type": CONTAINER, "components": inner}
        if self.accent is not None:
            container["accent_color"] = self.accent
        return [container]

    @property
    def children(self) -> list[discord.ui.Button[Any] | discord.ui.Select[Any]]:
        return self.buttons.children


def flat(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, depth first (rows and containers before what they hold)."""
    for component in components:
        yield component
        yield from flat(component.get("components") or [])


def embed_lines(embed: discord.Embed) -> list[str]:
    """An embed's texts as lines of Discord markdown: title, description, fields, footer."""
    lines: list[str] = []
    if embed.title:
        lines.append(f"### {embed.title}")
    if embed.description:
        lines.append(embed.description)
    for field in embed.fields:
        lines.append(f"**{field.name}**")
        if field.value:
            lines.append(str(field.value))
    if embed.footer.text:
        lines.append(f"-# {embed.footer.text}")
    return lines


def from_legacy(
    content: str,
    embed: discord.Embed | None,
    buttons: Buttons | None,
    *,
    picture: str | None = None,
) -> Layout:
    """A message drawn as content + embed + button rows, as one Container (same words)."""
    lines = [content] if content else []
    accent = None
    if embed is not None:
        lines += embed_lines(embed)
        if embed.colour is not None:
            accent = embed.colour.value
    return Layout(lines, buttons, picture=picture, accent=accent)
