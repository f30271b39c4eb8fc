"""The weekly recap (issue 22): once a week, in the channel a server admin picked (/recap), a post
with the week's games, the movers on the leaderboard and a chart of the games by day.

One scheduler task for every server of this process, on the bot's clock (the emulator's in the
tests): it wakes at the next Monday 00:00 UTC (or when the clock jumps, or a server turns the
recap on), and for each server whose recap is due claims the week in storage first
(bot/storage/recaps.py: one conditional UPDATE that also marks the week pending), posts, then
marks it done. At start-up it looks at once, so a week that ended while the bot was down is
caught up. A week still pending was claimed by a process that stopped (or failed to send) before
marking it done: its post may be in the channel, so the channel is read back for this bot's
message with the week's marker in the footer (its ISO week, "2026-W47") and it is posted only
when it is not there -- a restart neither doubles nor skips a recap. A channel the bot cannot
use (Forbidden, NotFound) gives the week up; other failures leave it pending for the next look.
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
from bot.ui.kit.message_parts import MessageParts, send_kwargs
from bot.ui.kit.read_back import posted_since
from bot.ui.words.names import shown_name
from bot.ui.words.seats import game_title

log = logging.getLogger(__name__)

CHART = "recap.png"
MAX_SLEEP = 3600.0  # look again at least hourly: a real clock may jump (suspend, NTP)
RETRY_PAUSE = 60.0  # after a storage error


def _day(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d")


def week_marker(week: int) -> str:
    """The week's ISO name ("2026-W47"): the footer's marker a restart reads back."""
    year, number, _ = datetime.fromtimestamp(week, UTC).isocalendar()
    return f"{year}-W{number:02d}"


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
    embed.set_footer(text=f"{t('recap.footer', locale)} · {week_marker(week)}")
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
        self._closing = False  # set by close: the loop ends even if its cancel is swallowed
        self.passes = 0  # looks at the due recaps done (tests wait on it: no sleep in a test)
        self.posted: list[tuple[int, int]] = []  # (guild, week) posted by this process

    @property
    def store(self) -> RecapStore:
        return self._store

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="weekly-recap")

    def wake(self) -> None:
        """Look again now (the clock jumped, or a server turned its recap on)."""
        self._wake.set()

    async def close(self) -> None:
        # The flag and the wake-up as well as the cancel: Python 3.11's wait_for can swallow a
        # cancel that lands as its wait ends, and the loop then slept up to MAX_SLEEP again
        # (a bot's shutdown hung on it in the loaded test run).
        self._closing = True
        self._wake.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while not self._closing:
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
        """Finish the weeks left pending (read back first), then post every due recap of this
        process's servers, each after claiming its week."""
        now = self._clock()
        week = due_week(now)
        guilds = [g.id for g in self._client.guilds]
        for pending in await self._store.pending(guilds):
            await self._post(pending.guild_id, pending.channel_id, pending.week, pending.since)
        for setting in await self._store.due(now, guilds):
            if setting.channel_id is None:
                continue
            if not await self._store.claim(setting.guild_id, week, now):
                continue  # another process took it
            await self._post(setting.guild_id, setting.channel_id, week, None)

    async def _post(self, guild_id: int, channel_id: int, week: int, since: float | None) -> None:
        """Post the recap of `week` and mark it done. `since`: the week was pending from then
        (a post may have gone out): post only if the channel does not hold it already."""
        guild = self._client.get_guild(guild_id)
        server = guild.name if guild is not None else ""
        locale = str(guild.preferred_locale) if guild is not None else None
        marker = f" · {week_marker(week)}"
        try:
            if since is not None and await posted_since(
                self._client, channel_id, guild_id, since,
                lambda e: e.footer.text is not None and e.footer.text.endswith(marker),
            ):  # fmt: skip
                log.info("weekly recap of guild %s (week %s) was posted already", guild_id, week)
            else:
                parts = await recap_parts(self._store, guild_id, week, server, locale)
                channel = self._client.get_partial_messageable(channel_id, guild_id=guild_id)
                await channel.send(**send_kwargs(parts))
                self.posted.append((guild_id, week))
        except (discord.Forbidden, discord.NotFound):
            log.warning("weekly recap of guild %s: channel %s unusable", guild_id, channel_id)
        except Exception:
            log.warning(
                "weekly recap of guild %s (week %s) not posted yet", guild_id, week, exc_info=True
            )
            return  # still pending: the next look tries again
        await self._store.done(guild_id, week)


def recap_of(client: Any) -> WeeklyRecap:
    recap = getattr(client, "weekly_recap", None)
    assert isinstance(recap, WeeklyRecap), "the bot has no weekly recap"
    return recap
