"""What the boards share: how many games rank a player, page sizes and the ◀ ▶ pager, titles
within Discord's limits, the server's name, and the refusal outside a server (every board is
per server: the guild always comes from the interaction, never from a button)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.texts import t
from bot.ui.kit.answer import locale_of, say
from bot.ui.kit.buttons import KeyButton

log = logging.getLogger(__name__)


MIN_GAMES = 3  # games in the period before a player is ranked
BOARD_PAGE_SIZE = 10
HISTORY_PAGE_SIZE = 10  # two rows of five log buttons, a third row for the pages
PERIODS: tuple[str, ...] = ("all", "month", "week")
TITLE_LIMIT = 256
Style = discord.ButtonStyle


def pager(
    view: discord.ui.View,
    button: type[KeyButton],
    make_id: Callable[[int], object],
    page: int,
    has_next: bool,
    row: int,
) -> None:
    """◀ ▶ on `row`, disabled at the ends. The two ids differ (page - 1 vs page + 1; on the
    first page the disabled ◀ carries the page itself), as Discord requires in one message."""
    view.add_item(button(str(make_id(max(page - 1, 0))), label="◀", disabled=page == 0, row=row))
    view.add_item(button(str(make_id(page + 1)), label="▶", disabled=not has_next, row=row))


def title(text: str) -> str:
    """An embed title within Discord's 256 characters (a long server name could pass it)."""
    return text if len(text) <= TITLE_LIMIT else text[: TITLE_LIMIT - 1] + "…"


def period_text(period: str, locale: str | None) -> str:
    return t(f"board.period.{period}", locale)


def server_name(interaction: discord.Interaction[Any]) -> str:
    guild = interaction.guild
    return guild.name if guild is not None and guild.name else t("board.this_server")


async def refuse_outside_servers(interaction: discord.Interaction[Any]) -> bool:
    if interaction.guild_id is None:
        await say(interaction, t("board.dm", locale_of(interaction)))
        return True
    return False
