"""DynamicItem buttons: the base `KeyButton` and a table's two families (bot/ui/kit/custom_ids.py).

Registered once in `setup_hook` with `bot.add_dynamic_items(GameActionButton, TableButton)`:
they are templates, so buttons of any table (old hand messages included) keep working after a
restart. Each callback hands the click to the bot's `TableUI`, which answers every interaction,
errors included (discord.py only logs exceptions of DynamicItem callbacks).

Every button the bot sends is one of these, so every view is "fully dynamic": discord.py then
keeps no per-message state for it (see `detach`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any, Self, TypeVar

import discord

from bot.texts import t
from bot.ui.kit.answer import failed, locale_of, say

log = logging.getLogger(__name__)
P = TypeVar("P")


class KeyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """A button whose custom_id carries the keys of what it acts on. Each family subclasses it
    with its own template and `handle`; this base matches nothing and is never registered."""

    def __init__(
        self,
        custom_id: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        emoji: Any = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=custom_id, label=label, style=style, disabled=disabled, emoji=emoji
            ),
            row=row,
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        # Never raises: a garbled id must still reach the callback, which says it is not valid.
        custom_id = getattr(item, "custom_id", None) or match.group(0)
        if not isinstance(item, discord.ui.Button):
            return cls(custom_id)
        return cls(
            custom_id,
            label=item.label,
            style=item.style,
            disabled=item.disabled,
            emoji=item.emoji,
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # discord.py only logs a DynamicItem callback's exception: answer whatever happens.
        try:
            await self.handle(interaction, self.item.custom_id or "")
        except Exception as error:
            await failed(interaction, error, f"click on {self.item.custom_id}")

    async def handle(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        """What a click does: each family says (the base is never registered)."""
        await say(interaction, t("button.invalid", locale_of(interaction)))


async def parsed_click(
    interaction: discord.Interaction[Any],
    custom_id: str,
    parse: Callable[[str], P | None],
    *,
    outside_server: str | None = None,
) -> P | None:
    """How every click begins: its custom_id parsed, a garbled one answered as not valid; and,
    with `outside_server` (a text key), refused outside a server (a server's boards and games
    are not in a DM). None: the click is answered already."""
    parsed = parse(custom_id)
    if parsed is None:
        await say(interaction, t("button.invalid", locale_of(interaction)))
        return None
    if outside_server is not None and interaction.guild_id is None:
        await say(interaction, t(outside_server, locale_of(interaction)))
        return None
    return parsed
