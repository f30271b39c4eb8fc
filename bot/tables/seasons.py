"""Seasons (issue 23): what a season is, when it ends, its final standings, and the keeper that
closes seasons when they end (also those that ended while the bot was stopped) and has their
standings posted. No discord, no SQL: the store and the announcer are given.

Closing is claimed by the store in one transaction (`close` returns None when the season was
already closed), so a restart at the moment a season ends neither skips it (start-up catches up
on every due season) nor doubles it (only one claim succeeds). The post of the standings comes
after the claim: the season is marked "announcing" before the post and done after it. A season
closed but not done is announced at the next tick or start-up; one marked "announcing" may have
been posted by a process that died before marking it done, so the channel is read back first
(`find_post`) and it is posted only when its post is not there."""

from __future__ import annotations

import asyncio
import calendar
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

log = logging.getLogger(__name__)

LENGTHS = ("month", "quarter", "open")  # "open": until an admin ends it
_MONTHS = {"month": 1, "quarter": 3}
POLL_SECONDS = 30.0  # how often a running bot looks for a season that has ended


class SeasonError(ValueError):
    """A season command that cannot be done (the message key says why)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def season_end(started_at: float, length: str) -> float | None:
    """When a season started at `started_at` ends: the same day and time one month (or three)
    later, in UTC (the 31st becomes the month's last day); None for an open season."""
    if length not in LENGTHS:
        raise SeasonError("season.error.length")
    if length == "open":
        return None
    start = datetime.fromtimestamp(started_at, UTC)
    months = start.month - 1 + _MONTHS[length]
    year, month = start.year + months // 12, months % 12 + 1
    day = min(start.day, calendar.monthrange(year, month)[1])
    return start.replace(year=year, month=month, day=day).timestamp()


@dataclass(frozen=True)
class Season:
    id: int
    guild_id: int
    game: str
    number: int
    channel_id: int
    length: str
    min_games: int
    min_rating: int
    started_at: float
    ends_at: float | None
    status: str  # "open" or "closed"
    closed_at: float | None
    announced_at: float | None
    # Set just before the final standings are posted: a season with this and no announced_at
    # may have been posted by a process that died before marking it (its channel says).
    announcing_at: float | None = None


@dataclass(frozen=True)
class SeasonEntry:
    """A player's season row: rating (shown), games, wins; final rank and champion once closed
    (rank None: the player did not meet the season's minimums)."""

    user_id: int
    name: str
    ordinal: float
    rating: int
    games: int
    wins: int
    final_rank: int | None = None
    champion: bool = False


def final_standings(
    entries: list[SeasonEntry], min_games: int, min_rating: int
) -> list[SeasonEntry]:
    """The final order: players who met both minimums ranked by rating (then games, then id, a
    stable and stated tie-break), the others after them unranked. The champion is the first
    ranked player, and anyone ranked level with them (same shown rating and games)."""
    ordered = sorted(entries, key=lambda e: (-e.ordinal, -e.games, e.user_id))
    ranked = [e for e in ordered if e.games >= min_games and e.rating >= min_rating]
    others = [e for e in ordered if e not in ranked]
    out: list[SeasonEntry] = []
    for index, entry in enumerate(ranked):
        top = ranked[0]
        champion = (entry.rating, entry.games) == (top.rating, top.games)
        out.append(_with(entry, index + 1, champion))
    out += [_with(e, None, False) for e in others]
    return out


def _with(entry: SeasonEntry, rank: int | None, champion: bool) -> SeasonEntry:
    return SeasonEntry(
        entry.user_id, entry.name, entry.ordinal, entry.rating, entry.games, entry.wins,
        rank, champion,
    )  # fmt: skip


class SeasonStore(Protocol):
    async def due(self, now: float) -> list[Season]:
        """Open seasons whose end has come (ends_at <= now)."""

    async def close(self, season_id: int, now: float) -> list[SeasonEntry] | None:
        """Claim and close the season: final ranks written in the same transaction. None when
        it was closed already (by another process, or before a restart)."""

    async def unannounced(self) -> list[Season]:
        """Closed seasons whose final standings were not posted yet."""

    async def entries(self, season_id: int) -> list[SeasonEntry]:
        """The season's rows, final ranks included once closed."""

    async def mark_announcing(self, season_id: int, now: float) -> None:
        """The post is about to be sent (stored before sending it)."""

    async def mark_announced(self, season_id: int, now: float) -> None: ...


Announce = Callable[[Season, list[SeasonEntry]], Awaitable[None]]
# Whether the season's final standings are in its channel already (read back from Discord).
FindPost = Callable[[Season], Awaitable[bool]]


async def _never_found(season: Season) -> bool:
    return False


class SeasonKeeper:
    """Closes the seasons that have ended and has their final standings posted, once each."""

    def __init__(
        self,
        store: SeasonStore,
        announce: Announce,
        clock: Callable[[], float],
        poll_seconds: float = POLL_SECONDS,
        *,
        find_post: FindPost = _never_found,
    ) -> None:
        self.store = store
        self.announce = announce
        self.find_post = find_post
        self.clock = clock
        self.poll_seconds = poll_seconds
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self.closed: list[int] = []  # seasons this keeper closed (tests and logs)

    async def tick(self) -> None:
        """Close every due season, then post every closed one not yet posted."""
        async with self._lock:
            now = self.clock()
            for season in await self.store.due(now):
                if await self.store.close(season.id, now) is not None:
                    self.closed.append(season.id)
                    log.info("season %s (%s #%s) closed", season.id, season.game, season.number)
            for season in await self.store.unannounced():
                await self._announce_once(season)

    async def _announce_once(self, season: Season) -> None:
        """Post the final standings unless a process that died before marking them posted
        them already: marked "announcing" first, then posted, then marked done."""
        if season.announcing_at is not None and await self.find_post(season):
            log.info("season %s was posted before a restart; not posting again", season.id)
        else:
            await self.store.mark_announcing(season.id, self.clock())
            await self.announce(season, await self.store.entries(season.id))
        await self.store.mark_announced(season.id, self.clock())

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="season-keeper")

    async def _run(self) -> None:
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # a failed post or read: try again at the next poll
                log.exception("season keeper tick failed")
            await asyncio.sleep(self.poll_seconds)

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
