"""Reading results: the leaderboard, a player's record and statistics, the history, one game.

Everything is per server: each query takes the guild id and never returns another server's rows.

Leaderboard rule:
- "all": every human with at least `min_games` finished games of that kind in this server, by
  current rating.
- "week" / "month": every human with at least `min_games` games finished in the current
  calendar week (from Monday 00:00 UTC) or month (from the 1st, 00:00 UTC) — see
  `bot.storage.periods` — ranked by their current rating; games, wins and win % are those of
  the period. (Asked with `now` in a past period: by the rating each player had after their
  last game of that period.)
- Order: rating (the stored ordinal, mu - 3 sigma) highest first, then user id, so pages never
  overlap or skip. Rank is the 1-based position in that order.
- Bots have no rating row and never appear.
- Rating shown: `round(1000 + 40 * ordinal)` (see `bot.storage.ratings`).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.storage.database import Reader, ReadStore
from bot.storage.periods import PERIODS, period_start
from bot.storage.ratings import display_from_ordinal, display_rating
from bot.storage.recording import decode_actions
from bot.tables.records import GameResult, PlayerResult

MAX_PAGE_SIZE = 100

# Both views walk an index in rank order (ratings_rank, player_periods_rank), filtering on the
# `games` column held in that index, and stop after one page; the counts read only that index.
LEADERBOARD_ALL = (
    "SELECT user_id, name, ordinal, games, wins FROM ratings"
    " WHERE guild_id = ? AND game = ? AND games >= ?"
    " ORDER BY ordinal DESC, user_id LIMIT ? OFFSET ?"
)
LEADERBOARD_ALL_COUNT = (
    "SELECT count(*) FROM ratings WHERE guild_id = ? AND game = ? AND games >= ?"
)
_PERIOD_WHERE = (
    " FROM player_periods WHERE guild_id = ? AND game = ? AND period = ? AND period_start = ?"
    " AND games >= ?"
)
# The page first, then the names of its players only (not of the rows an OFFSET skips).
LEADERBOARD_PERIOD = (
    "SELECT p.user_id, r.name, p.ordinal, p.games, p.wins"
    " FROM (SELECT user_id, ordinal, games, wins"
    + _PERIOD_WHERE
    + " ORDER BY ordinal DESC, user_id LIMIT ? OFFSET ?) AS p"
    + " JOIN ratings r ON r.guild_id = ? AND r.user_id = p.user_id AND r.game = ?"
    " ORDER BY p.ordinal DESC, p.user_id"
)
LEADERBOARD_PERIOD_COUNT = "SELECT count(*)" + _PERIOD_WHERE
_HISTORY_COLUMNS = (
    "SELECT id, game, started_at, ended_at, score0, score1, winner_team, margin, hands_played"
)
HISTORY_ALL = (
    _HISTORY_COLUMNS + " FROM games WHERE guild_id = ?"
    " ORDER BY ended_at DESC, id DESC LIMIT ? OFFSET ?"
)
HISTORY_GAME = (
    _HISTORY_COLUMNS + " FROM games WHERE guild_id = ? AND game = ?"
    " ORDER BY ended_at DESC, id DESC LIMIT ? OFFSET ?"
)


def win_pct(wins: int, games: int) -> float:
    """Wins as a percentage of games (0.0 for no games), not rounded: the UI formats it."""
    return 100.0 * wins / games if games else 0.0


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    user_id: int
    name: str
    rating: int
    games: int
    wins: int
    win_pct: float


@dataclass(frozen=True)
class LeaderboardPage:
    game: str
    period: str
    page: int
    page_size: int
    total: int  # ranked players on all pages
    rows: list[LeaderboardRow]

    @property
    def page_count(self) -> int:
        return max(1, math.ceil(self.total / self.page_size))


@dataclass(frozen=True)
class GameKindRecord:
    """A player's record in one game kind of one server."""

    game: str
    name: str
    games: int
    wins: int
    win_pct: float
    rating: int
    rank: int | None  # None while the player has fewer than min_games games
    ranked_players: int  # how many players are ranked in this game kind
    stats: dict[str, int]


@dataclass(frozen=True)
class PlayerStats:
    guild_id: int
    user_id: int
    name: str | None  # the name of the player's latest game; None if they never played here
    records: dict[str, GameKindRecord]  # by game kind; empty if they never played here


@dataclass(frozen=True)
class HistoryEntry:
    game_id: int
    game: str
    started_at: float
    ended_at: float
    scores: tuple[int, int]
    winner_team: int
    margin: int | None
    hands_played: int
    teams: tuple[tuple[str, ...], tuple[str, ...]]  # player names of team 0 and team 1, by seat


@dataclass(frozen=True)
class FinishedPlayer(PlayerResult):
    """A player of a stored game: their result, whether they won, and their shown ratings."""

    won: bool
    rating_before: int | None  # shown ratings; None for bots and unrated seats
    rating_after: int | None


@dataclass(frozen=True)
class FinishedGame(GameResult):
    """A stored game: its result (`GameResult`, as written when it ended) with its id, and its
    players as stored. Enough to replay it into a hand-by-hand log."""

    players: Sequence[FinishedPlayer]
    id: int = field(kw_only=True)


class ResultsRepository:
    """The result queries, on either back-end: `db` is a `Database` (SQLite) or a `PgDatabase`
    (PostgreSQL); both hand out a `Reader` that runs this module's `?` SQL in one snapshot."""

    def __init__(self, db: ReadStore) -> None:
        self._db = db

    async def leaderboard(
        self,
        guild_id: int,
        game: str,
        period: str = "all",
        page: int = 0,
        page_size: int = 10,
        min_games: int = 3,
        now: float | None = None,
    ) -> LeaderboardPage:
        if period not in PERIODS:
            raise ValueError(f"period must be one of {PERIODS}, not {period!r}")
        if page < 0 or not 1 <= page_size <= MAX_PAGE_SIZE:
            raise ValueError(f"page must be >= 0 and page_size 1..{MAX_PAGE_SIZE}")
        min_games = max(1, min_games)  # a player with no game in the period is never ranked
        offset = page * page_size
        async with self._db.reader() as conn:
            if period == "all":
                params: tuple[Any, ...] = (guild_id, game, min_games)
                rows = await conn.all(LEADERBOARD_ALL, (*params, page_size, offset))
                count = await conn.one(LEADERBOARD_ALL_COUNT, params)
            else:
                start = period_start(period, time.time() if now is None else now)
                params = (guild_id, game, period, start, min_games)
                rows = await conn.all(
                    LEADERBOARD_PERIOD, (*params, page_size, offset, guild_id, game)
                )
                count = await conn.one(LEADERBOARD_PERIOD_COUNT, params)
        return LeaderboardPage(
            game=game,
            period=period,
            page=page,
            page_size=page_size,
            total=int(count[0]) if count else 0,
            rows=[
                LeaderboardRow(
                    rank=offset + i + 1,
                    user_id=row[0],
                    name=row[1],
                    rating=display_from_ordinal(row[2]),
                    games=row[3],
                    wins=row[4],
                    win_pct=win_pct(row[4], row[3]),
                )
                for i, row in enumerate(rows)
            ],
        )

    async def player_stats(
        self, guild_id: int, user_id: int, game: str | None = None, min_games: int = 3
    ) -> PlayerStats:
        """The player's record per game kind (all kinds they played, or only `game`): games,
        wins, win %, rating, all-time rank, and their summed statistics."""
        min_games = max(1, min_games)
        game_filter = "" if game is None else " AND game = ?"
        extra: tuple[Any, ...] = () if game is None else (game,)
        async with self._db.reader() as conn:
            ratings = await conn.all(
                "SELECT game, name, mu, sigma, ordinal, games, wins, last_played FROM ratings"
                " WHERE guild_id = ? AND user_id = ?" + game_filter + " ORDER BY game",
                (guild_id, user_id, *extra),
            )
            stats = await conn.all(
                "SELECT game, stat, value FROM player_stats WHERE guild_id = ? AND user_id = ?"
                + game_filter
                + " ORDER BY game, stat",
                (guild_id, user_id, *extra),
            )
            ranks: dict[str, tuple[int | None, int]] = {}
            for row in ratings:
                ranks[row["game"]] = await _rank(conn, guild_id, user_id, row, min_games)
        by_game: dict[str, dict[str, int]] = {}
        for row in stats:
            by_game.setdefault(row["game"], {})[row["stat"]] = row["value"]
        records = {
            row["game"]: GameKindRecord(
                game=row["game"],
                name=row["name"],
                games=row["games"],
                wins=row["wins"],
                win_pct=win_pct(row["wins"], row["games"]),
                rating=display_rating(row["mu"], row["sigma"]),
                rank=ranks[row["game"]][0],
                ranked_players=ranks[row["game"]][1],
                stats=by_game.get(row["game"], {}),
            )
            for row in ratings
        }
        latest = max(ratings, key=lambda r: r["last_played"], default=None)
        return PlayerStats(
            guild_id=guild_id,
            user_id=user_id,
            name=latest["name"] if latest is not None else None,
            records=records,
        )

    async def history(
        self, guild_id: int, game: str | None = None, limit: int = 10, offset: int = 0
    ) -> list[HistoryEntry]:
        """The latest finished games of this server, newest first. There is no total count (it
        would cost a scan of the server's games); ask for limit + 1 to learn if more exist."""
        if not 1 <= limit <= MAX_PAGE_SIZE or offset < 0:
            raise ValueError(f"limit must be 1..{MAX_PAGE_SIZE} and offset >= 0")
        async with self._db.reader() as conn:
            if game is None:
                games = await conn.all(HISTORY_ALL, (guild_id, limit, offset))
            else:
                games = await conn.all(HISTORY_GAME, (guild_id, game, limit, offset))
            ids = [row["id"] for row in games]
            players = (
                await conn.all(
                    "SELECT game_id, team, name FROM game_players"
                    f" WHERE game_id IN ({', '.join('?' for _ in ids)}) ORDER BY game_id, seat",
                    ids,
                )
                if ids
                else []
            )
        names: dict[int, tuple[list[str], list[str]]] = {i: ([], []) for i in ids}
        for row in players:
            names[row["game_id"]][row["team"]].append(row["name"])
        return [
            HistoryEntry(
                game_id=row["id"],
                game=row["game"],
                started_at=row["started_at"],
                ended_at=row["ended_at"],
                scores=(row["score0"], row["score1"]),
                winner_team=row["winner_team"],
                margin=row["margin"],
                hands_played=row["hands_played"],
                teams=(tuple(names[row["id"]][0]), tuple(names[row["id"]][1])),
            )
            for row in games
        ]

    async def finished_game(self, guild_id: int, game_id: int) -> FinishedGame | None:
        """One finished game of this server with everything stored about it, or None (unknown
        id, or a game of another server)."""
        async with self._db.reader() as conn:
            row = await conn.one(
                "SELECT * FROM games WHERE id = ? AND guild_id = ?", (game_id, guild_id)
            )
            if row is None:
                return None
            players = await conn.all(
                "SELECT * FROM game_players WHERE game_id = ? ORDER BY seat", (game_id,)
            )
        return FinishedGame(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            table_id=row["table_id"],
            game=row["game"],
            options=json.loads(row["options"]),
            seed=int(row["seed"]),
            first_dealer=row["first_dealer"],
            actions=decode_actions(row["actions"]),
            started_at=row["started_at"],
            ended_at=row["ended_at"],
            hands_played=row["hands_played"],
            scores=(row["score0"], row["score1"]),
            winner_team=row["winner_team"],
            margin=row["margin"],
            players=[_finished_player(p) for p in players],
        )

    async def game_id_for(self, guild_id: int, table_id: int, seed: int) -> int | None:
        """The id of the game a table finished with this seed (the end-of-game message's
        buttons carry the table and seed: they are drawn before the game is recorded)."""
        async with self._db.reader() as conn:
            row = await conn.one(
                "SELECT id FROM games WHERE guild_id = ? AND table_id = ? AND seed = ?"
                " ORDER BY id DESC LIMIT 1",
                (guild_id, table_id, str(seed)),
            )
        return None if row is None else int(row[0])

    async def game_id_started(self, guild_id: int, table_id: int, started_ms: int) -> int | None:
        """The id of the game a table started at `started_ms` (epoch milliseconds, as the
        end-of-game buttons carry it); a table starts one game at a time, never two within a
        millisecond, and (table_id, started_at) is unique."""
        async with self._db.reader() as conn:
            row = await conn.one(
                "SELECT id FROM games WHERE guild_id = ? AND table_id = ?"
                " AND started_at > ? AND started_at < ? ORDER BY id DESC LIMIT 1",
                # One millisecond either side: the float seconds stored may sit a hair below
                # or above the milliseconds the button was given.
                (guild_id, table_id, (started_ms - 1) / 1000, (started_ms + 1) / 1000),
            )
        return None if row is None else int(row[0])

    async def rating_series(
        self, guild_id: int, user_id: int, game: str
    ) -> tuple[list[int], list[tuple[str, int, int]]]:
        """A player's shown rating after each of their games here (oldest first), and their
        (month "YYYY-MM" in UTC, wins, games) by month, oldest first: the /stats chart. The
        month is worked out here, not in SQL, so both back-ends share the query."""
        async with self._db.reader() as conn:
            rows = await conn.all(
                "SELECT g.ended_at, p.won, p.mu_after, p.sigma_after FROM game_players p"
                " JOIN games g ON g.id = p.game_id"
                " WHERE g.guild_id = ? AND g.game = ? AND p.user_id = ? AND p.is_bot = 0"
                " ORDER BY g.ended_at, g.id",
                (guild_id, game, user_id),
            )
        ratings: list[int] = []
        months: dict[str, list[int]] = {}
        for row in rows:
            if row[2] is not None and row[3] is not None:
                ratings.append(display_rating(row[2], row[3]))
            month = time.strftime("%Y-%m", time.gmtime(float(row[0])))
            tally = months.setdefault(month, [0, 0])
            tally[0] += int(row[1])
            tally[1] += 1
        return ratings, [(m, w, g) for m, (w, g) in months.items()]


async def _rank(
    conn: Reader, guild_id: int, user_id: int, row: Any, min_games: int
) -> tuple[int | None, int]:
    """(the player's all-time rank or None, how many players are ranked), in leaderboard order."""
    game = row["game"]
    ranked = await conn.one(
        "SELECT count(*) FROM ratings WHERE guild_id = ? AND game = ? AND games >= ?",
        (guild_id, game, min_games),
    )
    total = int(ranked[0]) if ranked else 0
    if row["games"] < min_games:
        return None, total
    ahead = await conn.one(
        # `ordinal >= ?` on its own lets the count seek in ratings_rank instead of scanning.
        "SELECT count(*) FROM ratings WHERE guild_id = ? AND game = ? AND games >= ?"
        " AND ordinal >= ? AND (ordinal > ? OR user_id < ?)",
        (guild_id, game, min_games, row["ordinal"], row["ordinal"], user_id),
    )
    return (int(ahead[0]) + 1 if ahead else 1), total


def _finished_player(row: Any) -> FinishedPlayer:
    def shown(mu: float | None, sigma: float | None) -> int | None:
        return None if mu is None or sigma is None else display_rating(mu, sigma)

    return FinishedPlayer(
        seat=row["seat"],
        team=row["team"],
        user_id=row["user_id"],
        is_bot=bool(row["is_bot"]),
        name=row["name"],
        won=bool(row["won"]),
        stats=json.loads(row["stats"]),
        rating_before=shown(row["mu_before"], row["sigma_before"]),
        rating_after=shown(row["mu_after"], row["sigma_after"]),
    )
