"""A player's record on this server in words: games, wins and the counters worth showing, per
game (the embed of `/stats`; bot/ui/boards/stats.py adds its chart and buttons)."""

from __future__ import annotations

import logging

import discord

from bot.storage import (
    GameKindRecord,
    PlayerStats,
)
from bot.tables.games import GAME_NAMES
from bot.tables.results import STATS
from bot.texts import n, t
from bot.ui.boards.pages import MIN_GAMES, title
from bot.ui.kit.message_parts import COLOURS, MessageParts
from bot.ui.words.names import shown_name
from bot.ui.words.seats import game_title

log = logging.getLogger(__name__)


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
