"""The weekly recap (issue 22): once a week, in the channel a server admin picked (/recap), a post
with the week's games, the movers on the leaderboard and a chart of the games by day.

One scheduler task for every server of this process, on the bot's clock (the emulator's in the
tests): it wakes at the next Monday 00:00 UTC (or when the clock jumps, or a server turns the
recap on), and for each server whose recap is due claims the week in storage first
(bot/storage/recaps.py: one conditional UPDATE), then posts. At start-up it looks at once, so a
week that ended while the bot was down is caught up; a claimed week is never posted again, so a
restart never doubles one. A post that fails after its claim is logged and not retried (a
missing recap is better than two, and the admin is told nothing went to a channel it cannot use
when they pick it).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import discord

from bot.pictures import render_pool
from bot.pictures.charts import recap_chart_job
from bot.storage.recaps import WEEK, RecapStore, WeekSummary, due_week, week_of
from bot.texts import t
from bot.ui.leaderboard import game_title
from bot.ui.names import shown_name
from bot.ui.public import send_kwargs
from bot.ui.render import MessageParts

log = logging.getLogger(__name__)

CHART = "recap.png"
MAX_SLEEP = 3600.0  # look again at least hourly: a real clock may jump (suspend, NTP)
RETRY_PAUSE = 60.0  # after a storage error


def _day(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d")


def recap_message(summary: WeekSummary, server: str, locale: str | None) -> MessageParts:
    week = summary.week
    total = sum(summary.games.values())
    lines = [t("recap.games", locale, count=total)]
    for game, count in sorted(summary.games.items()):
        lines.append(t("recap.game_line", locale, game=game_title(game, locale), count=count))
    if not total:
        lines = [t("recap.none", locale)]
    embed = discord.Embed(
        title=t("recap.title", locale, server=shown_name(server), start=_day(week),
                end=_day(week + WEEK - 1)),
        description="\n".join(lines),
        colour=discord.Colour.blurple(),
    )  # fmt: skip
    if summary.movers:
        movers = [
            t(
                "recap.mover",
                locale,
                arrow="📈" if m.change >= 0 else "📉",
                name=shown_name(m.name),
                game=game_title(m.game, locale),
                before=m.before,
                after=m.after,
                change=f"{m.change:+d}",
            )
            for m in summary.movers
        ]
        embed.add_field(name=t("recap.movers", locale), value="\n".join(movers)[:1024])
    embed.set_footer(text=t("recap.footer", locale))
    files = None
    if total:
        embed.set_image(url=f"attachment://{CHART}")
    return MessageParts(content="", embed=embed, view=None, files=files)


async def recap_parts(
    store: RecapStore, guild_id: int, week: int, server: str, locale: str | None
) -> MessageParts:
    """The recap of `week` in this server, its chart drawn in the pictures' worker."""
    summary = await store.week_summary(guild_id, week)
    parts = recap_message(summary, server, locale)
    if sum(summary.games.values()):
        days = [
            (datetime.fromtimestamp(week + d * 86400, UTC).strftime("%m-%d"), n)
            for d, n in enumerate(summary.by_day)
        ]
        png = await render_pool.render_job(recap_chart_job, (days, locale))
        parts.files = [discord.File(io.BytesIO(png), filename=CHART)]
    return parts


class WeeklyRecap:
    """The one scheduler task of the recaps of this process's servers."""

    def __init__(
        self,
        client: discord.Client,
        store: RecapStore,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._client = client
        self._store = store
        self._clock = clock
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.passes = 0  # looks at the due recaps done (tests wait on it: no sleep in a test)
        self.posted: list[tuple[int, int]] = []  # (guild, week) posted by this process

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="weekly-recap")

    def wake(self) -> None:
        """Look again now (the clock jumped, or a server turned its recap on)."""
        self._wake.set()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            pause = MAX_SLEEP
            try:
                await self.post_due()
                now = self._clock()
                # The next week's end, a second after it (its last games are in by then).
                pause = min(MAX_SLEEP, max(0.0, week_of(now) + WEEK + 1 - now))
            except Exception:
                log.warning("weekly recap check failed", exc_info=True)
                pause = RETRY_PAUSE
            self.passes += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), pause)

    async def post_due(self) -> None:
        """Post every due recap of this process's servers, each after claiming its week."""
        now = self._clock()
        week = due_week(now)
        guilds = [g.id for g in self._client.guilds]
        for setting in await self._store.due(now, guilds):
            if setting.channel_id is None or not await self._store.claim(setting.guild_id, week):
                continue  # another process took it
            guild = self._client.get_guild(setting.guild_id)
            server = guild.name if guild is not None else ""
            locale = str(guild.preferred_locale) if guild is not None else None
            try:
                parts = await recap_parts(self._store, setting.guild_id, week, server, locale)
                channel = self._client.get_partial_messageable(
                    setting.channel_id, guild_id=setting.guild_id
                )
                await channel.send(**send_kwargs(parts))
                self.posted.append((setting.guild_id, week))
            except Exception:
                log.warning(
                    "weekly recap of guild %s (week %s) not posted",
                    setting.guild_id,
                    week,
                    exc_info=True,
                )


def recap_of(client: Any) -> WeeklyRecap:
    recap = getattr(client, "weekly_recap", None)
    assert isinstance(recap, WeeklyRecap), "the bot has no weekly recap"
    return recap
