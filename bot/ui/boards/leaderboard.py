"""The server leaderboard: `/leaderboard` (public: a server's board is for everyone to see), its
pages (`lb:{game}:{period}:{page}`, bot/ui/kit/custom_ids.py; a page click edits its own
message) and a season's board."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.storage import (
    LeaderboardPage,
    ResultsRepository,
)
from bot.texts import n, t
from bot.ui.boards.pages import (
    BOARD_PAGE_SIZE,
    MIN_GAMES,
    pager,
    period_text,
    refuse_outside_servers,
)
from bot.ui.boards.seasons import season_board_message
from bot.ui.kit.answer import Answer, respond, server_locale_of
from bot.ui.kit.buttons import KeyButton, parsed_click
from bot.ui.kit.custom_ids import (
    BOARD_TEMPLATE,
    BoardId,
    parse_board_id,
)
from bot.ui.kit.host import host_of
from bot.ui.kit.message_parts import COLOURS, MessageParts
from bot.ui.words.names import shown_name
from bot.ui.words.seats import game_title

log = logging.getLogger(__name__)


class BoardPageButton(KeyButton, template=BOARD_TEMPLATE):
    async def handle(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        await on_board_click(interaction, custom_id)


def board_message(board: LeaderboardPage, locale: str | None = None) -> MessageParts | str:
    """The leaderboard page, or a friendly sentence when nobody is ranked."""
    game = game_title(board.game, locale)
    if board.total == 0:
        return t(f"board.empty.{board.period}", locale, game=game, min_games=MIN_GAMES)
    lines = [
        t(
            "board.row",
            locale,
            rank=row.rank,
            name=shown_name(row.name),
            rating=row.rating,
            games=n("plural.games", locale, row.games),
            wins=n("plural.wins", locale, row.wins),
            win_pct=row.win_pct,
        )
        for row in board.rows
    ]
    embed = discord.Embed(
        title=t("board.title", locale, game=game, period=period_text(board.period, locale)),
        description="\n".join(lines),
        colour=COLOURS.get(board.game),
    )
    embed.set_footer(
        text=t(
            f"board.footer.{board.period}",
            locale,
            page=board.page + 1,
            pages=board.page_count,
            min_games=MIN_GAMES,
        )
    )
    view = None
    if board.page_count > 1:
        view = discord.ui.View(timeout=None)
        pager(
            view,
            BoardPageButton,
            lambda page: BoardId(board.game, board.period, page),
            board.page,
            board.page + 1 < board.page_count,
            row=0,
        )
    return MessageParts(content="", embed=embed, view=view)


async def load_board(
    results: ResultsRepository, guild_id: int, game: str, period: str, page: int
) -> LeaderboardPage:
    board = await results.leaderboard(
        guild_id, game, period, page=page, page_size=BOARD_PAGE_SIZE, min_games=MIN_GAMES
    )
    if board.total and page >= board.page_count:
        # Fewer players than when the button was drawn (a new week began): the last page.
        board = await results.leaderboard(
            guild_id,
            game,
            period,
            page=board.page_count - 1,
            page_size=BOARD_PAGE_SIZE,
            min_games=MIN_GAMES,
        )
    return board


async def show_leaderboard(
    interaction: discord.Interaction[Any],
    game: str,
    period: str | None = "all",
    season: int | None = None,
) -> None:
    """`period` None: the current season's board when a season of `game` runs, else all time;
    `season`: that season's board (a past one shows its final standings)."""
    if await refuse_outside_servers(interaction):
        return
    guild_id = interaction.guild_id
    assert guild_id is not None
    locale = server_locale_of(interaction)

    async def work() -> Answer:
        bot = host_of(interaction)
        if season is not None or period is None:
            seasons = bot.seasons
            if season is not None:
                chosen = await seasons.numbered(guild_id, game, season)
                if chosen is None:
                    return t(
                        "season.error.no_such", locale, number=season, game=game_title(game, locale)
                    )
            else:
                chosen = await seasons.current(guild_id, game)
            if chosen is not None:
                return season_board_message(chosen, await seasons.entries(chosen.id), locale)
        board = await load_board(bot.results, guild_id, game, period or "all", 0)
        return board_message(board, locale)

    await respond(interaction, work())


async def on_board_click(interaction: discord.Interaction[Any], custom_id: str) -> None:
    parsed = await parsed_click(interaction, custom_id, parse_board_id, outside_server="board.dm")
    if parsed is None:
        return
    guild_id = interaction.guild_id
    assert guild_id is not None
    locale = server_locale_of(interaction)

    async def work() -> Answer:
        board = await load_board(
            host_of(interaction).results, guild_id, parsed.game, parsed.period, parsed.page
        )
        return board_message(board, locale)

    await respond(interaction, work(), update=True)
