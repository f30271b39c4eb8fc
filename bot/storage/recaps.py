"""The weekly recap's storage (issue 22): per server the channel it goes to and the last week
recapped, and what a week's recap shows (its games, the movers on the leaderboard).

Weeks are named by their start, Monday 00:00 UTC in Unix seconds (bot.storage.periods). The
recap of a week is due once it has ended; a process posts it only after `claim` moved
`last_week` forward with one conditional UPDATE (`... WHERE last_week < ?`): of two processes
(or a bot and its restarted self) exactly one wins the week, and a week not yet claimed is still
due after a restart. The claim also marks the week "being posted" (`posting_week`, with the
time in `posting_at`) until `done`: a week claimed by a process that died before `done` is
`pending` after the restart, and the scheduler reads the channel back for it before posting it
(bot/ui/boards/recap.py), so a recap is neither doubled nor skipped. Only the latest ended
week is ever due: a server that had the recap off for a month gets last week's, not four stale ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.storage.database import Database, execute
from bot.storage.periods import period_start
from bot.storage.ratings import display_rating

if TYPE_CHECKING:
    from bot.storage.postgres import PgDatabase

WEEK = 7 * 86400


def week_of(timestamp: float) -> int:
    """The start of the week holding `timestamp`."""
    return period_start("week", timestamp)


def due_week(now: float) -> int:
    """The week whose recap is due at `now`: the last one that has ended."""
    return week_of(now) - WEEK


@dataclass(frozen=True)
class RecapSetting:
    guild_id: int
    channel_id: int | None  # None: off
    last_week: int


@dataclass(frozen=True)
class PendingRecap:
    """A week claimed and maybe posted by a process that stopped before marking it done."""

    guild_id: int
    channel_id: int
    week: int
    since: float  # when it was claimed: the post, if any, is in the channel after this


@dataclass(frozen=True)
class Mover:
    user_id: int
    name: str
    game: str
    before: int  # shown rating before their first game of the week
    after: int  # after their last one
    games: int

    @property
    def change(self) -> int:
        return self.after - self.before


@dataclass(frozen=True)
class WeekSummary:
    guild_id: int
    week: int
    games: dict[str, int]  # games finished in the week, by game kind
    by_day: list[int]  # games finished on each day, Monday first
    movers: list[Mover]  # the biggest rating changes of the week, largest first


class RecapStore:
    """The recap's rows on either back-end (`db`: a `Database` or a `PgDatabase`)."""

    def __init__(self, db: Database | PgDatabase) -> None:
        self._db = db

    async def _write(self, sql: str, params: Sequence[Any]) -> int:
        """One statement in its own transaction; the number of rows it changed."""
        if isinstance(self._db, Database):
            async with self._db.transaction() as conn:
                return await execute(conn, sql, params)
        from bot.storage.postgres import pg_sql

        async with self._db.transaction() as conn:
            status = await conn.execute(pg_sql(sql), *params)
        return int(str(status).rsplit(" ", 1)[-1])

    async def set_channel(
        self, guild_id: int, channel_id: int | None, by: int, now: float
    ) -> RecapSetting:
        """Turn the recap on in `channel_id` (None: off). A server turning it on for the first
        time has the week that already ended counted as done: its first recap is of this week,
        posted when the week ends; one turning it on again keeps its last week."""
        await self._write(
            "INSERT INTO recaps (guild_id, channel_id, last_week, set_by, set_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
            " channel_id = excluded.channel_id, set_by = excluded.set_by,"
            " set_at = excluded.set_at, posting_week = NULL, posting_at = NULL",
            (guild_id, channel_id, due_week(now), by, now),
        )
        setting = await self.setting(guild_id)
        assert setting is not None
        return setting

    async def setting(self, guild_id: int) -> RecapSetting | None:
        async with self._db.reader() as conn:
            row = await conn.one(
                "SELECT guild_id, channel_id, last_week FROM recaps WHERE guild_id = ?",
                (guild_id,),
            )
        return None if row is None else RecapSetting(int(row[0]), _id(row[1]), int(row[2]))

    async def due(self, now: float, guild_ids: Sequence[int] | None = None) -> list[RecapSetting]:
        """The servers (of `guild_ids`, if given: this process's) whose recap of the week that
        last ended is not posted yet."""
        async with self._db.reader() as conn:
            rows = await conn.all(
                "SELECT guild_id, channel_id, last_week FROM recaps"
                " WHERE channel_id IS NOT NULL AND last_week < ? ORDER BY guild_id",
                (due_week(now),),
            )
        wanted = None if guild_ids is None else set(guild_ids)
        return [
            RecapSetting(int(r[0]), _id(r[1]), int(r[2]))
            for r in rows
            if wanted is None or int(r[0]) in wanted
        ]

    async def claim(self, guild_id: int, week: int, now: float | None = None) -> bool:
        """Take the recap of `week` for this process: True for exactly one caller, whatever
        the number of processes or restarts; False when it was taken (or the recap is off).
        The week stays pending until `done`; `now` (default: the week's end, the earliest a
        recap of it is posted) is when its post may begin."""
        changed = await self._write(
            "UPDATE recaps SET last_week = ?, posting_week = ?, posting_at = ?"
            " WHERE guild_id = ? AND channel_id IS NOT NULL AND last_week < ?",
            (week, week, week + WEEK if now is None else now, guild_id, week),
        )
        return changed == 1

    async def done(self, guild_id: int, week: int) -> None:
        """The recap of `week` is in its channel (or given up): no longer pending."""
        await self._write(
            "UPDATE recaps SET posting_week = NULL, posting_at = NULL"
            " WHERE guild_id = ? AND posting_week = ?",
            (guild_id, week),
        )

    async def pending(self, guild_ids: Sequence[int] | None = None) -> list[PendingRecap]:
        """Weeks claimed but not marked done (of `guild_ids`, if given), recap still on."""
        async with self._db.reader() as conn:
            rows = await conn.all(
                "SELECT guild_id, channel_id, posting_week, posting_at FROM recaps"
                " WHERE channel_id IS NOT NULL AND posting_week IS NOT NULL ORDER BY guild_id",
            )
        wanted = None if guild_ids is None else set(guild_ids)
        return [
            PendingRecap(int(r[0]), int(r[1]), int(r[2]), float(r[3] or 0.0))
            for r in rows
            if wanted is None or int(r[0]) in wanted
        ]

    async def week_summary(self, guild_id: int, week: int, movers: int = 5) -> WeekSummary:
        """The games of the week beginning `week` in this server, and its movers: each player's
        shown rating before their first game of the week and after their last, per game kind,
        the largest changes (up or down) first."""
        async with self._db.reader() as conn:
            rows = await conn.all(
                "SELECT g.id, g.game, g.ended_at, p.user_id, p.name, p.mu_before,"
                " p.sigma_before, p.mu_after, p.sigma_after"
                " FROM games g LEFT JOIN game_players p ON p.game_id = g.id AND p.is_bot = 0"
                " WHERE g.guild_id = ? AND g.ended_at >= ? AND g.ended_at < ?"
                " ORDER BY g.ended_at, g.id, p.seat",
                (guild_id, week, week + WEEK),
            )
        games: dict[str, int] = {}
        by_day = [0] * 7
        seen: set[int] = set()
        firsts: dict[tuple[str, int], list[Any]] = {}
        for row in rows:
            game_id, game, ended_at = int(row[0]), str(row[1]), float(row[2])
            if game_id not in seen:
                seen.add(game_id)
                games[game] = games.get(game, 0) + 1
                by_day[min(6, int((ended_at - week) // 86400))] += 1
            if row[3] is None or row[5] is None or row[7] is None:
                continue  # a bot, or a seat without a rating
            key = (game, int(row[3]))
            before = display_rating(row[5], row[6])
            after = display_rating(row[7], row[8])
            if key in firsts:
                firsts[key][1:4] = [str(row[4]), after, firsts[key][3] + 1]
            else:
                firsts[key] = [before, str(row[4]), after, 1]
        moved = [
            Mover(user, name, game, before, after, count)
            for (game, user), (before, name, after, count) in firsts.items()
        ]
        moved.sort(key=lambda m: (-abs(m.change), -m.after, m.user_id))
        return WeekSummary(guild_id, week, games, by_day, moved[:movers])


def _id(value: Any) -> int | None:
    return None if value is None else int(value)
