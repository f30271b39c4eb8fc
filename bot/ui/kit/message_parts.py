"""A message as the UI builds it (`MessageParts`), and how it is sent or edited: every room draws
its messages into these parts, and one place turns them into discord.py's arguments."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.pictures.scene import SeatScene
from bot.ui.kit.components import Buttons
from bot.ui.kit.discord_internals import is_stored_view
from bot.ui.kit.layout import Layout

COLOURS = {"euchre": discord.Colour.dark_green(), "truco": discord.Colour.dark_red()}


@dataclass
class MessageParts:
    """A message: its words (`content`, `embed`) and its `view`. With a Layout view (the table
    and hand messages, Components V2) the words are the layout's text displays, sent inside
    it: `content` and `embed` stay here for readers of the parts, and are not sent."""

    content: str
    embed: discord.Embed | None
    # A Layout (Components V2) for the table and hand messages; a View only for the
    # leaderboard's messages.
    view: Buttons | Layout | discord.ui.View | None
    # The table version a hand message was drawn for (live hands compare it); None otherwise.
    version: int | None = None
    # The message's attachments (its picture); None leaves attachments alone on an edit.
    files: list[discord.File] | None = None
    # A hand message's own picture: what it is drawn from (taken with the text, under the same
    # lock; None: the table shows no pictures), and the key of the picture the message shows
    # once these parts are sent (None: none). Set by SeatPictures.attach.
    seat_scene: SeatScene | None = None
    picture: tuple[Any, ...] | None = None

    def kwargs(self) -> dict[str, Any]:
        """For send / edit calls: None values clear the embed or the buttons on an edit. A
        Layout carries the words itself (Components V2 allows no content or embed beside it)."""
        layout = isinstance(self.view, Layout)
        out: dict[str, Any] = {
            "content": None if layout else self.content,
            "embed": None if layout else self.embed,
            "view": self.view,
        }
        if self.files is not None:
            out["attachments"] = self.files
        return out


def send_kwargs(parts: MessageParts) -> dict[str, Any]:
    """For a new message: absent parts are left out instead of cleared. It notifies nobody:
    the turn line's mention is for reading; the turn ping is the one message that notifies."""
    layout = isinstance(parts.view, Layout)  # Components V2: the words are in the layout
    out: dict[str, Any] = {
        "content": None if layout else parts.content or None,
        "allowed_mentions": discord.AllowedMentions.none(),
    }
    if parts.embed is not None and not layout:
        out["embed"] = parts.embed
    if parts.view is not None:
        out["view"] = parts.view
    if parts.files:
        out["files"] = parts.files
    return out


def detach(view: object) -> None:
    """Let discord.py forget a sent view at once. Our views are fully dynamic (the templates
    dispatch the clicks), but an ephemeral response's view gets a 15-minute timer that would
    keep it in memory; stopping it frees it now. discord.py then drops the per-message entry
    of the view's cache key, which for a fully dynamic view with a message id holds nothing (no
    template is unregistered); without a message id we leave the view alone. Anything else
    (the raw `Buttons` of bot/ui/kit/components.py, None) was never kept by discord.py."""
    if is_stored_view(view):
        view.stop()
