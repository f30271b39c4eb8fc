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
from typing import Any, Self

import discord

from bot.texts import t
from bot.ui.kit import discord_internals
from bot.ui.kit.answer import locale_of, say
from bot.ui.kit.bot_of import bot_of
from bot.ui.kit.custom_ids import GAME_ACTION_TEMPLATE, TABLE_BUTTON_TEMPLATE
from bot.ui.kit.rest import is_too_late, is_transport_error

log = logging.getLogger(__name__)


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
            if is_too_late(error):  # past Discord's deadline: nothing can answer it now
                log.warning("click on %s answered too late: %s", self.item.custom_id, error)
                return
            if is_transport_error(error):  # no answer can travel: one line, no traceback
                log.warning("click on %s not answered: %r", self.item.custom_id, error)
                return
            log.exception("click on %s failed", self.item.custom_id)
            await say(interaction, t("error.unexpected", locale_of(interaction)))

    async def handle(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        """What a click does: each family says (the base is never registered)."""
        await say(interaction, t("button.invalid", locale_of(interaction)))


class GameActionButton(KeyButton, template=GAME_ACTION_TEMPLATE):
    """A game action on a player's hand message: `t:{table}:{version}:{action}`."""

    async def handle(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        await bot_of(interaction).table_ui.on_game_action(interaction, custom_id)


class TableButton(KeyButton, template=TABLE_BUTTON_TEMPLATE):
    """A table button: `tb:{table}:{verb}` or `tb:{table}:seat:{position}`."""

    async def handle(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        await bot_of(interaction).table_ui.on_table_button(interaction, custom_id)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (GameActionButton, TableButton)


def detach(view: object) -> None:
    """Let discord.py forget a sent view at once. Our views are fully dynamic (the templates
    dispatch the clicks), but an ephemeral response's view gets a 15-minute timer that would
    keep it in memory; stopping it frees it now. discord.py then drops the per-message entry
    of the view's cache key, which for a fully dynamic view with a message id holds nothing (no
    template is unregistered); without a message id we leave the view alone. Anything else
    (the raw `Buttons` of bot/ui/kit/components.py, None) was never kept by discord.py."""
    if discord_internals.is_stored_view(view):
        view.stop()
