"""The server leaderboard, a player's statistics and the game history: messages, paging buttons
and the handlers that answer them. Everything is per server: the guild always comes from the
interaction, never from a button, so a button can never show another server's data.

Custom ids (keys only, never state; parsed strictly, at most 100 characters):
- `lb:{game}:{period}:{page}` a leaderboard page (game euchre|truco, period all|month|week);
- `hi:{game}:{page}` a page of the history (game euchre|truco|all);
- `hl:{game_id}` open the hand-by-hand log of a finished game (a new private message);
- `hl:{game_id}:{page}` a page of that log (the log message is edited in place).
The DynamicItem templates match the prefixes broadly so that a garbled id still reaches a
callback that says the button is not valid. They are templates, so the buttons of old messages
keep working after a restart.

Answers: `/leaderboard` is public (a server leaderboard is for everyone to see); `/stats` (with
its chart and a Post to channel button, bot/ui/boards/stats.py) and `/history` are private (a lookup
for one person), and so is a game's log. A page click edits its own message (callback type 7).

A game's log is replayed and rendered by bot.ui.words.game_log; this module shows its pages.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.storage import (
    FinishedGame,
    GameKindRecord,
    HistoryEntry,
    LeaderboardPage,
    PlayerStats,
    ResultsRepository,
)
from bot.tables.games import GAME_NAMES
from bot.tables.results import STATS
from bot.texts import n, t
from bot.ui.after_game.buttons import AfterGameButton
from bot.ui.boards.seasons import season_board_message
from bot.ui.kit.answer import Answer, locale_of, respond, say, server_locale_of
from bot.ui.kit.buttons import KeyButton, parsed_click
from bot.ui.kit.custom_ids import (
    BOARD_TEMPLATE,
    HISTORY_TEMPLATE,
    LOG_TEMPLATE,
    BoardId,
    HistoryId,
    LogId,
    after_game_id,
    parse_board_id,
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

MIN_GAMES = 3  # games in the period before a player is ranked
BOARD_PAGE_SIZE = 10
HISTORY_PAGE_SIZE = 10  # two rows of five log buttons, a third row for the pages
PERIODS: tuple[str, ...] = ("all", "month", "week")
TITLE_LIMIT = 256
Style = discord.ButtonStyle

# --- buttons ------------------------------------------------------------------------------------


class BoardPageButton(KeyButton, template=BOARD_TEMPLATE):
    async def handle(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        await on_board_click(interaction, custom_id)


class HistoryPageButton(KeyButton, template=HISTORY_TEMPLATE):
    async def handle(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        await on_history_click(interaction, custom_id)


class GameLogButton(KeyButton, template=LOG_TEMPLATE):
    async def handle(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        await on_log_click(interaction, custom_id)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    BoardPageButton,
    HistoryPageButton,
    GameLogButton,
)


def _pager(
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


# --- names and small pieces ---------------------------------------------------------------------


def title(text: str) -> str:
    """An embed title within Discord's 256 characters (a long server name could pass it)."""
    return text if len(text) <= TITLE_LIMIT else text[: TITLE_LIMIT - 1] + "…"


def period_text(period: str, locale: str | None) -> str:
    return t(f"board.period.{period}", locale)


# --- the leaderboard ----------------------------------------------------------------------------


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
        _pager(
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


# --- a player's statistics ----------------------------------------------------------------------


def _record_field(record: GameKindRecord, locale: str | None) -> str:
    if record.rank is not None:
        standing = t(
            "stats.rank",
            locale,
            rating=record.rating,
            rank=record.rank,
            ranked=record.ranked_players,
        )
    else:
        standing = t(
            "stats.unranked",
            locale,
            rating=record.rating,
            min_games=MIN_GAMES,
            games=record.games,
        )
    lines = [
        standing,
        t(
            "stats.record",
            locale,
            games=n("plural.games_bold", locale, record.games),
            wins=n("plural.wins_bold", locale, record.wins),
            win_pct=record.win_pct,
        ),
    ]
    for stat in STATS.get(record.game, ()):
        lines.append(
            t(
                "stats.line",
                locale,
                label=t(f"stats.{record.game}.{stat}", locale),
                value=record.stats.get(stat, 0),
            )
        )
    return "\n".join(lines)


def stats_message(
    stats: PlayerStats,
    name: str,
    server: str,
    game: str | None = None,
    locale: str | None = None,
) -> MessageParts | str:
    """The player's record per game kind in this server, or a sentence when there is none."""
    shown = shown_name(name)
    records = [stats.records[g] for g in GAME_NAMES if g in stats.records]
    if game is not None:
        records = [r for r in records if r.game == game]
    if not records:
        if game is None:
            return t("stats.none", locale, name=shown)
        return t("stats.none.game", locale, name=shown, game=game_title(game, locale))
    embed = discord.Embed(
        title=title(t("stats.title", locale, name=shown, server=shown_name(server))),
        colour=COLOURS.get(records[0].game) if len(records) == 1 else discord.Colour.blurple(),
    )
    for record in records:
        embed.add_field(
            name=game_title(record.game, locale), value=_record_field(record, locale), inline=True
        )
    embed.set_footer(text=t("stats.footer", locale, min_games=MIN_GAMES))
    return MessageParts(content="", embed=embed, view=None)


# --- the history --------------------------------------------------------------------------------


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
        _pager(view, HistoryPageButton, lambda p: HistoryId(game, p), page, has_more, row=2)
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
        _pager(
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


# --- answering ----------------------------------------------------------------------------------


def server_name(interaction: discord.Interaction[Any]) -> str:
    guild = interaction.guild
    return guild.name if guild is not None and guild.name else t("board.this_server")


async def _refuse_outside_servers(interaction: discord.Interaction[Any]) -> bool:
    if interaction.guild_id is None:
        await say(interaction, t("board.dm", locale_of(interaction)))
        return True
    return False


# --- commands -----------------------------------------------------------------------------------


async def show_leaderboard(
    interaction: discord.Interaction[Any],
    game: str,
    period: str | None = "all",
    season: int | None = None,
) -> None:
    """`period` None: the current season's board when a season of `game` runs, else all time;
    `season`: that season's board (a past one shows its final standings)."""
    if await _refuse_outside_servers(interaction):
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


async def show_history(interaction: discord.Interaction[Any], game: str | None = None) -> None:
    if await _refuse_outside_servers(interaction):
        return
    guild_id = interaction.guild_id
    assert guild_id is not None
    locale = locale_of(interaction)

    async def work() -> Answer:
        entries, page, more = await load_history(host_of(interaction).results, guild_id, game, 0)
        return history_message(entries, game, page, more, server_name(interaction), locale)

    await respond(interaction, work(), private=True)


# --- clicks -------------------------------------------------------------------------------------


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


async def on_history_click(interaction: discord.Interaction[Any], custom_id: str) -> None:
    parsed = await parsed_click(interaction, custom_id, parse_history_id, outside_server="board.dm")
    if parsed is None:
        return
    guild_id = interaction.guild_id
    assert guild_id is not None
    locale = locale_of(interaction)

    async def work() -> Answer:
        entries, page, more = await load_history(
            host_of(interaction).results, guild_id, parsed.game, parsed.page
        )
        return history_message(entries, parsed.game, page, more, server_name(interaction), locale)

    await respond(interaction, work(), update=True)


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


__all__ = [
    "BOARD_PAGE_SIZE",
    "DYNAMIC_ITEMS",
    "HISTORY_PAGE_SIZE",
    "MIN_GAMES",
    "PERIODS",
    "BoardId",
    "HistoryId",
    "LogId",
    "board_message",
    "history_message",
    "log_message",
    "on_board_click",
    "on_history_click",
    "on_log_click",
    "parse_board_id",
    "parse_history_id",
    "parse_log_id",
    "show_history",
    "show_leaderboard",
    "stats_message",
]
