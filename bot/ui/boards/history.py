"""The game history (`/history`, private: a lookup for one person) and a finished game's
hand-by-hand log (`hl:{game_id}` opens it in a new private message, `hl:{game_id}:{page}` turns
its pages in place). The log is replayed and rendered by bot/ui/words/game_log.py."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.storage import (
    FinishedGame,
    HistoryEntry,
    ResultsRepository,
)
from bot.texts import n, t
from bot.ui.after_game.buttons import AfterGameButton
from bot.ui.boards.pages import (
    HISTORY_PAGE_SIZE,
    pager,
    refuse_outside_servers,
    server_name,
    title,
)
from bot.ui.kit.answer import Answer, locale_of, respond
from bot.ui.kit.buttons import KeyButton, parsed_click
from bot.ui.kit.custom_ids import (
    HISTORY_TEMPLATE,
    LOG_TEMPLATE,
    HistoryId,
    LogId,
    after_game_id,
    parse_history_id,
    parse_log_id,
)
from bot.ui.kit.host import host_of
from bot.ui.kit.message_parts import COLOURS, MessageParts
from bot.ui.words.events import team_name
from bot.ui.words.game_log import UnreadableGame, log_pages, log_title, timestamp
from bot.ui.words.names import shown_name
from bot.ui.words.seats import game_title

log = logging.getLogger(__name__)


class HistoryPageButton(KeyButton, template=HISTORY_TEMPLATE):
    async def handle(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        await on_history_click(interaction, custom_id)


class GameLogButton(KeyButton, template=LOG_TEMPLATE):
    async def handle(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        await on_log_click(interaction, custom_id)


def _team_text(entry: HistoryEntry, team: int, locale: str | None) -> str:
    players = t("table.and", locale).join(shown_name(n) for n in entry.teams[team])
    text = t("history.team", locale, team=team_name(team, locale), players=players)
    if entry.winner_team == team:
        text = t("history.winner", locale, team=text)
    return text


def history_message(
    entries: Sequence[HistoryEntry],
    game: str | None,
    page: int,
    has_more: bool,
    server: str,
    locale: str | None = None,
) -> MessageParts | str:
    """One page of the latest finished games, newest first, each with its log button."""
    if not entries:
        if game is None:
            return t("history.empty", locale)
        return t("history.empty.game", locale, game=game_title(game, locale))
    first = page * HISTORY_PAGE_SIZE + 1
    lines = []
    view = discord.ui.View(timeout=None)
    for index, entry in enumerate(entries):
        number = first + index
        lines.append(
            t(
                "history.entry",
                locale,
                number=number,
                game=game_title(entry.game, locale),
                date=timestamp(entry.ended_at, "d"),
                team0=_team_text(entry, 0, locale),
                team1=_team_text(entry, 1, locale),
                score0=entry.scores[0],
                score1=entry.scores[1],
                hands=n("plural.hands", locale, entry.hands_played),
            )
        )
        view.add_item(
            GameLogButton(
                str(LogId(entry.game_id, None)),
                label=t("history.button.log", locale, number=number),
                row=index // 5,
            )
        )
    if page > 0 or has_more:
        pager(view, HistoryPageButton, lambda p: HistoryId(game, p), page, has_more, row=2)
    title_key = "history.title" if game is None else "history.title.game"
    embed = discord.Embed(
        title=title(
            t(
                title_key,
                locale,
                server=shown_name(server),
                game=game_title(game, locale) if game else "",
            )
        ),
        description="\n".join(lines),
        colour=COLOURS.get(game or "", discord.Colour.blurple()),
    )
    embed.set_footer(text=t("history.footer", locale, page=page + 1))
    return MessageParts(content="", embed=embed, view=view)


async def load_history(
    results: ResultsRepository, guild_id: int, game: str | None, page: int
) -> tuple[list[HistoryEntry], int, bool]:
    """(entries, page, has_more). One entry more than a page tells whether a next page exists."""
    rows = await results.history(
        guild_id, game, limit=HISTORY_PAGE_SIZE + 1, offset=page * HISTORY_PAGE_SIZE
    )
    if not rows and page > 0:
        page = 0  # a page that no longer exists (a forged or very old id): the newest games
        rows = await results.history(guild_id, game, limit=HISTORY_PAGE_SIZE + 1, offset=0)
    return rows[:HISTORY_PAGE_SIZE], page, len(rows) > HISTORY_PAGE_SIZE


def log_message(game: FinishedGame, page: int, locale: str | None = None) -> MessageParts:
    header, pages = log_pages(game, locale)
    page = min(max(page, 0), len(pages) - 1)
    embed = discord.Embed(
        title=log_title(game, locale),
        description=f"{header}\n\n{pages[page]}",
        colour=COLOURS.get(game.game),
    )
    embed.set_footer(
        text=t("history.log.footer", locale, id=game.id, page=page + 1, pages=len(pages))
    )
    view = discord.ui.View(timeout=None)
    if len(pages) > 1:
        pager(
            view,
            GameLogButton,
            lambda p: LogId(game.id, p),
            page,
            page + 1 < len(pages),
            row=0,
        )
    # Replay, review, record and post (bot/ui/after_game/replay.py answers their `ag:` ids).
    for verb, key in (
        ("open", "replay"),
        ("review", "review"),
        ("export", "export"),
        ("post", "post"),
    ):
        step = 0 if verb == "open" else None
        view.add_item(
            AfterGameButton(
                after_game_id(game.id, verb, step), label=t(f"replay.button.{key}", locale), row=1
            )
        )
    return MessageParts(content="", embed=embed, view=view)


async def show_history(interaction: discord.Interaction[Any], game: str | None = None) -> None:
    if await refuse_outside_servers(interaction):
        return
    guild_id = interaction.guild_id
    assert guild_id is not None
    locale = locale_of(interaction)

    await respond(interaction, _history_page(interaction, guild_id, game, 0, locale), private=True)


async def _history_page(
    interaction: discord.Interaction[Any], guild_id: int, game: str | None, page: int, locale: str
) -> Answer:
    """The server's finished games, one page (the command shows the first, buttons turn)."""
    entries, page, more = await load_history(host_of(interaction).results, guild_id, game, page)
    return history_message(entries, game, page, more, server_name(interaction), locale)


async def on_history_click(interaction: discord.Interaction[Any], custom_id: str) -> None:
    parsed = await parsed_click(interaction, custom_id, parse_history_id, outside_server="board.dm")
    if parsed is None:
        return
    guild_id = interaction.guild_id
    assert guild_id is not None
    locale = locale_of(interaction)

    work = _history_page(interaction, guild_id, parsed.game, parsed.page, locale)
    await respond(interaction, work, update=True)


async def on_log_click(interaction: discord.Interaction[Any], custom_id: str) -> None:
    """`hl:{id}` opens the log in a new private message; `hl:{id}:{page}` turns its pages."""
    parsed = await parsed_click(interaction, custom_id, parse_log_id, outside_server="board.dm")
    if parsed is None:
        return
    guild_id = interaction.guild_id
    assert guild_id is not None
    locale = locale_of(interaction)

    async def work() -> Answer:
        game = await host_of(interaction).results.finished_game(guild_id, parsed.game_id)
        if game is None:
            return t("history.log.missing", locale)
        try:
            return log_message(game, parsed.page or 0, locale)
        except UnreadableGame:
            log.warning("game %s does not replay", parsed.game_id, exc_info=True)
            return t("history.log.unreadable", locale)

    if parsed.page is None:
        await respond(interaction, work(), private=True)
    else:
        await respond(interaction, work(), update=True)
