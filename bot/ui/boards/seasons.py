"""What players see of seasons (issue 23): the season board, the end-of-season post with the
final standings and champions, and the seasons lines of /stats."""

from __future__ import annotations

import discord

from bot.storage.ratings import DISPLAY_BASE
from bot.tables.seasons import Season, SeasonEntry
from bot.texts import n, t
from bot.ui.kit.message_parts import COLOURS, MessageParts
from bot.ui.kit.read_back import posted_since
from bot.ui.words.names import shown_name

BOARD_ROWS = 20  # a season board shows its top 20 (no pages)
POST_ROWS = 10  # the end-of-season post lists the top 10


def season_name(season: Season, locale: str | None) -> str:
    return t("season.name", locale, game=t(f"game.{season.game}", locale), number=season.number)


def _row(entry: SeasonEntry, rank: int | None, locale: str | None) -> str:
    line = t(
        "season.row",
        locale,
        rank=rank if rank is not None else "–",
        name=shown_name(entry.name),
        rating=entry.rating,
        games=n("plural.games", locale, entry.games),
        wins=n("plural.wins", locale, entry.wins),
    )
    return line + (" 🏆" if entry.champion else "")


def _when(season: Season, locale: str | None) -> str:
    if season.status == "closed":
        return t("season.closed_on", locale, when=f"<t:{int(season.closed_at or 0)}:D>")
    if season.ends_at is None:
        return t("season.open_ended", locale)
    return t("season.ends", locale, when=f"<t:{int(season.ends_at)}:R>")


def season_board_message(
    season: Season, entries: list[SeasonEntry], locale: str | None = None
) -> MessageParts | str:
    """The board of a season: live ratings while it runs, the final ranks once it closed."""
    if not entries:
        return t("season.empty", locale, season=season_name(season, locale))
    if season.status == "closed":
        ranked = [e for e in entries if e.final_rank is not None]
        lines = [_row(e, e.final_rank, locale) for e in ranked[:BOARD_ROWS]]
        if not lines:
            lines = [t("season.no_champion", locale)]
    else:
        lines = [_row(e, i + 1, locale) for i, e in enumerate(entries[:BOARD_ROWS])]
    embed = discord.Embed(
        title=t("season.board.title", locale, season=season_name(season, locale)),
        description=_when(season, locale) + "\n\n" + "\n".join(lines),
        colour=COLOURS.get(season.game),
    )
    embed.set_footer(text=_minimums(season, locale))
    return MessageParts(content="", embed=embed, view=None)


def _minimums(season: Season, locale: str | None) -> str:
    return minimums_text(season.min_games, season.min_rating, locale)


def minimums_text(min_games: int, min_rating: int, locale: str | None) -> str:
    """What a season asks of a ranked player, its rating on the board's own scale (a new
    player starts at DISPLAY_BASE, 1000): a minimum of 0 is no minimum, and says so (issue 34)."""
    games = n("plural.games", locale, min_games)
    if min_rating <= 0:
        return t("season.minimums.games", locale, games=games, start=DISPLAY_BASE)
    return t("season.minimums", locale, games=games, rating=min_rating, start=DISPLAY_BASE)


def season_end_message(
    season: Season, entries: list[SeasonEntry], locale: str | None = None
) -> MessageParts:
    """The post when a season ends: its champions and final standings."""
    champions = [e for e in entries if e.champion]
    name = season_name(season, locale)
    if champions:
        who = t("table.and", locale).join(f"<@{e.user_id}> ({e.rating})" for e in champions)
        content = t("season.over", locale, season=name, champions=who)
    else:
        content = t("season.over.no_champion", locale, season=name)
    ranked = [e for e in entries if e.final_rank is not None][:POST_ROWS]
    lines = [_row(e, e.final_rank, locale) for e in ranked] or [t("season.no_champion", locale)]
    embed = discord.Embed(
        title=t("season.final.title", locale, season=name),
        description="\n".join(lines),
        colour=COLOURS.get(season.game),
    )
    embed.set_footer(text=_minimums(season, locale))
    return MessageParts(content=content, embed=embed, view=None)


def stats_seasons_field(seasons: list[tuple[Season, SeasonEntry]], locale: str | None) -> str:
    """One line per season the player played: rank (final or live) and rating."""
    lines = []
    for season, entry in seasons[:10]:
        if season.status == "closed":
            key = "season.stats.champion" if entry.champion else "season.stats.final"
            if entry.final_rank is None:
                key = "season.stats.unranked"
        else:
            key = "season.stats.current"
        lines.append(
            t(
                key,
                locale,
                season=season_name(season, locale),
                rank=entry.final_rank or 0,
                rating=entry.rating,
                games=n("plural.games", locale, entry.games),
            )
        )
    return "\n".join(lines)


async def season_end_posted(bot: discord.Client, season: Season) -> bool:
    """Whether the season's final standings are in its channel already (a process that died
    after posting them, before marking them posted): this bot's message since the post began
    whose embed has the season's final title (unique: the season's game and number)."""
    if season.announcing_at is None:
        return False
    guild = bot.get_guild(season.guild_id)
    # Posted in the server's language, or in English when the guild was not known yet (a post
    # at start-up, before the gateway's guilds).
    locales = {None, str(guild.preferred_locale) if guild is not None else None}
    titles = {t("season.final.title", x, season=season_name(season, x)) for x in locales}
    return await posted_since(
        bot, season.channel_id, season.guild_id, season.announcing_at, lambda e: e.title in titles
    )


async def post_season_end(bot: discord.Client, season: Season, entries: list[SeasonEntry]) -> None:
    """The keeper's announcer: the final standings in the channel where the season began, in
    the server's language. The champions are mentioned, and notified."""
    guild = bot.get_guild(season.guild_id)
    locale = str(guild.preferred_locale) if guild is not None else None
    parts = season_end_message(season, entries, locale)
    assert parts.embed is not None
    channel = bot.get_partial_messageable(season.channel_id, guild_id=season.guild_id)
    await channel.send(
        content=parts.content,
        embed=parts.embed,
        allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
    )
