"""/stats with its chart (rating over time, wins by month) and "Post to channel" (issue 22).

The record itself is drawn by bot/ui/boards/stats_record.py; this module adds the chart of the
game asked for, else of every game the player played (issue 34), drawn in the pictures'
worker (never on the event loop), and the `ps:{user}:{game}` button that posts a public copy to
the channel, by the asker, notifying nobody. The button carries only keys: the copy is read
again from storage, for the server the click comes from.
"""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.pictures import render_pool
from bot.pictures.charts import stats_charts_job
from bot.storage import PlayerStats, ResultsRepository
from bot.storage.seasons import SeasonRepository
from bot.texts import t
from bot.ui.after_game.replay import Rows
from bot.ui.boards.pages import MIN_GAMES, server_name
from bot.ui.boards.seasons import stats_seasons_field
from bot.ui.boards.stats_record import stats_message
from bot.ui.kit.answer import Answer, locale_of, respond, say
from bot.ui.kit.buttons import KeyButton, parsed_click
from bot.ui.kit.custom_ids import POST_STATS_TEMPLATE, PostStatsId, parse_post_stats
from bot.ui.kit.host import host_of
from bot.ui.kit.message_parts import MessageParts
from bot.ui.words.seats import game_title

CHART = "stats.png"


def chart_games(stats: PlayerStats, game: str | None) -> list[str]:
    """The games the chart shows: the one asked for, else every game the player has a record
    in, the most played first (issue 34: /stats with no game covers both)."""
    if game is not None:
        return [game] if game in stats.records else []
    records = sorted(stats.records.values(), key=lambda r: (-r.games, r.game))
    return [record.game for record in records if record.games]


async def stats_answer(
    results: ResultsRepository,
    guild_id: int,
    user_id: int,
    name: str | None,
    server: str,
    game: str | None,
    locale: str | None,
    *,
    by: int | None = None,
    seasons: SeasonRepository | None = None,
) -> Answer:
    """The player's record with its chart; with a Post button, or (`by`: the user who posts it)
    as the public copy, without one. `name` None: the name of their latest game."""
    stats = await results.player_stats(guild_id, user_id, game, min_games=MIN_GAMES)
    shown = name or stats.name or str(user_id)
    answer = stats_message(stats, shown, server, game, locale)
    if seasons is not None and not isinstance(answer, str) and answer.embed is not None:
        played = await seasons.player_seasons(guild_id, user_id, game)
        if played:  # players keep their season results (issue 23): one line per season
            answer.embed.add_field(
                name=t("season.stats.field", locale),
                value=stats_seasons_field(played, locale),
                inline=False,
            )
    charted = chart_games(stats, game)
    if isinstance(answer, str) or not charted or answer.embed is None:
        return answer
    sections = []
    for name in charted:
        ratings, months = await results.rating_series(guild_id, user_id, name)
        sections.append((game_title(name, locale), ratings, months))
    png = await render_pool.render_job(stats_charts_job, (sections, locale))
    embed = answer.embed
    embed.set_image(url=f"attachment://{CHART}")
    titles = t("table.and", locale).join(title for title, _, _ in sections)
    embed.description = t("stats.chart", locale, game=titles)
    view = None
    if by is None:
        view = Rows()
        view.buttons(
            (t("replay.button.post", locale), str(PostStatsId(user_id, game)), False),
        )
    return MessageParts(
        content="" if by is None else t("replay.posted_by", locale, user=f"<@{by}>"),
        embed=embed,
        view=view,
        files=[discord.File(io.BytesIO(png), filename=CHART)],
    )


async def show_stats(
    interaction: discord.Interaction[Any],
    user: discord.abc.User | None = None,
    game: str | None = None,
) -> None:
    """/stats: privately, with the chart and a Post button."""
    guild_id = interaction.guild_id
    locale = locale_of(interaction)
    if guild_id is None:
        await say(interaction, t("board.dm", locale))
        return
    target = user or interaction.user
    if target.bot:
        await say(interaction, t("stats.bot", locale))
        return
    name = getattr(target, "display_name", None) or target.name
    bot = host_of(interaction)
    work = stats_answer(
        bot.results, guild_id, target.id, name, server_name(interaction), game,
        locale, seasons=bot.seasons,
    )  # fmt: skip
    await respond(interaction, work, private=True)


async def on_post_stats_click(interaction: discord.Interaction[Any], custom_id: str) -> None:
    """Post to channel: the same record, public, in the server's language, by the asker."""
    parsed = await parsed_click(
        interaction, custom_id, parse_post_stats, outside_server="button.invalid"
    )
    guild_id = interaction.guild_id
    if parsed is None or guild_id is None:
        return
    locale = str(interaction.guild_locale or locale_of(interaction))
    bot = host_of(interaction)
    work = stats_answer(
        bot.results, guild_id, parsed.user_id, None, server_name(interaction),
        parsed.game, locale, by=interaction.user.id, seasons=bot.seasons,
    )  # fmt: skip
    await respond(interaction, work)


class PostStatsButton(KeyButton, template=POST_STATS_TEMPLATE):
    async def handle(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        await on_post_stats_click(interaction, custom_id)
