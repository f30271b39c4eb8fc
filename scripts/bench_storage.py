"""Storage benchmark, on both back-ends: the action write path, and the result queries over a
million recorded games.

    .venv/bin/python scripts/bench_storage.py                      # both back-ends, 100,000 games
    .venv/bin/python scripts/bench_storage.py --games 1000000      # the 1M run (several minutes)
    .venv/bin/python scripts/bench_storage.py --backend sqlite --only-throughput   # issue 13.7

1. appends/s (issue 13 item 7): 50 tables appending at once (each table one append after the
   other, as its lock makes them), in this process: SQLite's old five-trip path (kept here as
   `LegacyStore`), today's one trip per append, and one trip with group commit, in rounds that
   take turns; the ratio against the old path. PostgreSQL's `PgTableStore` the same way.
2. Write path latency: `append_action` timed call by call (p50/p99/max), SQLite with
   synchronous=NORMAL (the default) and FULL, PostgreSQL with its durable defaults; then the
   finishing append (action + game + players + stats + ratings in one transaction).
3. Results: N synthetic finished games across several servers, bulk-loaded (SQLite executemany,
   PostgreSQL COPY) straight into the real schema, with ratings, statistics and period counts
   derived in SQL so they agree with the games; then `ResultsRepository.leaderboard` (all /
   month / week, first and a deep page) for the busiest server, `player_stats`, `history` and
   `finished_game`, end to end through the bot's own code, p50/p99.

PostgreSQL runs on a throw-away server this script starts on 127.0.0.1 (tests/support/postgres.py,
the pgserver wheel of requirements-dev.lock), with fsync and synchronous_commit on.
Figures only; nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import functools
import itertools
import json
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.storage import Database, ResultsRepository, SqliteTableStore, StaleAppend
from bot.storage.database import execute, fetch_one
from bot.storage.periods import period_start
from bot.storage.results import (
    HISTORY_ALL,
    LEADERBOARD_ALL,
    LEADERBOARD_PERIOD,
)
from bot.tables.records import GameResult, PlayerResult, SeatRecord, TableRecord

GAMES = ("euchre", "truco")
STATS = {
    "euchre": ("made_trump", "made_it", "marches", "euchred_others", "got_euchred"),
    "truco": ("truco_asks", "truco_accepted", "ran", "iron_hands_won"),
}
DAY = 86400.0


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return (
        f"p50 {at(0.50):7.3f} ms  p99 {at(0.99):7.3f} ms  max {ordered[-1] * 1000:7.3f} ms"
        f"  (n={len(ordered)})"
    )


# --- 1. the write path --------------------------------------------------------------------------


def sample_result(table: TableRecord, ended_at: float, rng: random.Random) -> GameResult:
    winner = rng.randrange(2)
    players = [
        PlayerResult(
            seat=seat,
            team=seat % 2,
            user_id=s.user_id,
            name=s.name,
            is_bot=s.is_bot,
            stats={"marches": rng.randrange(3), "made_trump": rng.randrange(5)},
        )
        for seat, s in enumerate(table.seats)
        if s is not None
    ]
    return GameResult(
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        table_id=table.id,
        game=table.game,
        options=table.options,
        seed=table.seed or 0,
        first_dealer=0,
        actions=table.actions,
        started_at=table.started_at or 0.0,
        ended_at=ended_at,
        hands_played=8,
        scores=(10, 6) if winner == 0 else (6, 10),
        winner_team=winner,
        margin=None,
        players=players,
    )


async def bench_appends(
    store: Any, appends: int, finishes: int, guild_id: int = 1
) -> tuple[list[float], list[float]]:
    """Times `appends` plain appends over 20 tables, then `finishes` finishing appends."""
    rng = random.Random(7)
    tables = [await new_playing_table(store, n, guild_id, rng) for n in range(20)]
    plain: list[float] = []
    for i in range(appends):
        table = tables[i % len(tables)]
        seat, action = i % 4, f"play:{'9TJQKA'[i % 6]}{'SHDC'[i % 4]}"
        start = time.perf_counter()
        await store.append_action(table.id, seat, action, table.version + 1)
        plain.append(time.perf_counter() - start)
        table.version += 1
        table.actions.append((seat, action))
    finishing: list[float] = []
    for n in range(finishes):
        table = await new_playing_table(store, 100 + n, guild_id, rng)
        await store.append_action(table.id, 0, "play:AS", table.version + 1)
        table.version += 1
        table.actions.append((0, "play:AS"))
        result = sample_result(table, time.time(), rng)
        start = time.perf_counter()
        await store.append_action(table.id, 1, "play:KS", table.version + 1, result)
        finishing.append(time.perf_counter() - start)
    return plain, finishing


async def bench_sqlite_appends(
    path: Path, synchronous: str, appends: int, finishes: int, guild_id: int = 1
) -> tuple[list[float], list[float]]:
    db = await Database.open(path, synchronous=synchronous)
    try:
        return await bench_appends(SqliteTableStore(db), appends, finishes, guild_id)
    finally:
        await db.close()


# --- 1b. appends/s: today's one-trip path against the old five-trip path, in this process -------


class LegacyStore(SqliteTableStore):
    """The write path as it was before issue 13 item 7: five trips to aiosqlite's thread (BEGIN,
    SELECT, INSERT, UPDATE, COMMIT) under the one lock that reads also took. Kept here only to
    measure against, in the same process, on the same machine, at the same moment."""

    async def append_action(  # type: ignore[override]
        self, table_id: int, seat: int, action: str, version: int, result: None = None, **_: Any
    ) -> None:
        async with self._db.transaction() as conn:
            row = await fetch_one(
                conn,
                "SELECT version, status,"
                " (SELECT coalesce(max(seq) + 1, 0) FROM table_actions WHERE table_id = ?)"
                " FROM tables WHERE id = ?",
                (table_id, table_id),
            )
            assert row is not None
            stored, _status, next_seq = row
            if version != stored + 1:
                raise StaleAppend(table_id, stored, version)
            await execute(
                conn,
                "INSERT INTO table_actions (table_id, seq, seat, action) VALUES (?, ?, ?, ?)",
                (table_id, next_seq, seat, action),
            )
            await execute(
                conn,
                "UPDATE tables SET version = ?, status = ?, turn_deadline = ?, turn_warned = 0"
                " WHERE id = ?",
                (version, "playing", None, table_id),
            )


_channels = itertools.count(500)


async def new_playing_table(store: Any, n: int, guild_id: int, rng: random.Random) -> TableRecord:
    seats: list[SeatRecord | None] = [
        SeatRecord(user_id=10_000 + 4 * n + i, name=f"p{4 * n + i}") for i in range(4)
    ]
    table = TableRecord(
        id=0,
        guild_id=guild_id,
        channel_id=next(_channels),
        host_id=10_000 + 4 * n,
        game=GAMES[n % 2],
        options={"target": 10, "stick_the_dealer": False},
        seats=seats,
        created_at=time.time(),
    )
    table.id = await store.create_table(table)
    table.status, table.version = "playing", 1
    table.seed, table.first_dealer = rng.getrandbits(64), 0
    table.started_at = time.time()
    await store.start_game(table)
    return table


async def appends_per_second(store: Any, tables: list[TableRecord], per_table: int) -> float:
    """Every table appends `per_table` actions one after the other (as a table's lock makes
    them), all tables at once; returns appends per second of wall time."""

    async def play(table: TableRecord) -> None:
        for i in range(per_table):
            await store.append_action(table.id, i % 4, f"play:{i}", table.version + 1)
            table.version += 1

    start = time.perf_counter()
    await asyncio.gather(*(play(t) for t in tables))
    return len(tables) * per_table / (time.perf_counter() - start)


async def bench_sqlite_throughput(work: Path, tables: int, per_table: int, rounds: int) -> None:
    """appends/s of the old path, the one-trip path and group commit, in rounds that take turns
    (so a busy neighbour on the machine hurts each the same); best round of each."""
    rng = random.Random(3)
    kinds: dict[str, Callable[[Database], Any]] = {
        "old 5 trips": LegacyStore,
        "one trip": functools.partial(SqliteTableStore, group_commit=False),
        "one trip + group commit": functools.partial(SqliteTableStore, group_commit=True),
    }
    best: dict[str, float] = dict.fromkeys(kinds, 0.0)
    for round_ in range(rounds):
        for label, make in kinds.items():
            path = work / f"throughput_{round_}_{len(label)}.db"
            db = await Database.open(path)
            try:
                store = make(db)
                made = [await new_playing_table(store, n, 1, rng) for n in range(tables)]
                best[label] = max(best[label], await appends_per_second(store, made, per_table))
            finally:
                await db.close()
            path.unlink(missing_ok=True)
    old = best["old 5 trips"]
    print(
        f"SQLite appends/s, {tables} tables appending at once, {per_table} each, best of "
        f"{rounds} rounds (synchronous=NORMAL):"
    )
    for label, rate in best.items():
        print(f"  {label:<26} {rate:9,.0f} appends/s   x{rate / old:.2f} vs the old path")


# --- 2. a big database of recorded games --------------------------------------------------------


# Aggregates as the write path leaves them, derived in SQL from the inserted games (one pass
# each, in C, and consistent with the games by construction). The week and month starts are the
# arithmetic of bot.storage.periods (checked against it after the build).
_DAY_OF = "CAST(g.ended_at / 86400 AS INTEGER)"
_WEEK_OF = f"(({_DAY_OF}) - (({_DAY_OF}) + 3) % 7) * 86400"  # day 0, 1970-01-01, was a Thursday
_MONTH_OF = "CAST(strftime('%s', g.ended_at, 'unixepoch', 'start of month') AS INTEGER)"
_HUMAN_ROWS = " FROM game_players p JOIN games g ON g.id = p.game_id WHERE p.user_id IS NOT NULL"
# Period rows carry the rating (see the schema); ratings are built first, so take it from there.
_HUMAN_ROWS_RATED = (
    " FROM game_players p JOIN games g ON g.id = p.game_id JOIN ratings r"
    " ON r.guild_id = p.guild_id AND r.user_id = p.user_id AND r.game = g.game"
)
AGGREGATES = (
    # A plausible spread of skills (a fixed hash of the user id), sigma shrinking with games.
    "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, ordinal, games, wins,"
    " last_played)"
    " SELECT guild_id, game, user_id, name, mu, sigma, mu - 3 * sigma, games, wins, last_played"
    " FROM (SELECT guild_id, game, user_id, name, games, wins, last_played,"
    "   19.0 + ((user_id * 2654435761 + length(game)) % 1200) / 100.0 AS mu,"
    "   max(0.8, 8.333 / (1 + games / 10.0)) AS sigma"
    "   FROM (SELECT p.guild_id, g.game, p.user_id, max(p.name) AS name, count(*) AS games,"
    "     sum(p.won) AS wins, max(g.ended_at) AS last_played" + _HUMAN_ROWS + " GROUP BY"
    "     p.guild_id, g.game, p.user_id))",
    "INSERT INTO player_periods (guild_id, game, period, period_start, user_id, games, wins,"
    " ordinal)"
    f" SELECT p.guild_id, g.game, 'week', {_WEEK_OF}, p.user_id, count(*), sum(p.won),"
    " max(r.ordinal)" + _HUMAN_ROWS_RATED + " GROUP BY 1, 2, 4, 5",
    "INSERT INTO player_periods (guild_id, game, period, period_start, user_id, games, wins,"
    " ordinal)"
    f" SELECT p.guild_id, g.game, 'month', {_MONTH_OF}, p.user_id, count(*), sum(p.won),"
    " max(r.ordinal)" + _HUMAN_ROWS_RATED + " GROUP BY 1, 2, 4, 5",
    "INSERT INTO player_stats (guild_id, game, user_id, stat, value)"
    " SELECT p.guild_id, g.game, p.user_id, j.key, sum(j.value)"
    " FROM game_players p JOIN games g ON g.id = p.game_id, json_each(p.stats) j"
    " WHERE p.user_id IS NOT NULL GROUP BY 1, 2, 3, 4",
)


Rows = list[tuple[object, ...]]


def generate_games(
    games: int, guilds: int, players: int, now: float, seed: int = 1
) -> tuple[dict[str, Any], Iterator[tuple[Rows, Rows]]]:
    """`games` finished games in chunks of (game rows, player rows) in the real schema's column
    order, spread over `guilds` servers with Zipf-like activity (the first server the busiest,
    with `players` players; about 8% of seats are bots) and evenly over the two years before
    `now`, in the order they end. The same games for both back-ends (same seed)."""
    rng = random.Random(seed)
    weights = [1.0 / (g + 1) for g in range(guilds)]
    cumulative = list(itertools.accumulate(w / sum(weights) for w in weights))
    cumulative[-1] = 1.0
    pool_size = [max(40, int(players * w / weights[0])) for w in weights]
    guild_ids = [1000 + g for g in range(guilds)]
    pools = [[guild_ids[g] * 100_000 + i for i in range(pool_size[g])] for g in range(guilds)]
    # A real euchre game logs ~250 actions; 12 keep the build fast (only /history and
    # finished_game read this column, and they read one row at a time).
    actions_json = json.dumps(
        [[i % 4, f"play:{'9TJQKA'[i % 6]}{'SHDC'[i % 4]}"] for i in range(12)]
    )
    options_json = json.dumps({"target": 10, "stick_the_dealer": False})
    stats_json = {kind: [json.dumps({stat: 1}) for stat in STATS[kind]] for kind in GAMES}
    span = 730 * DAY
    first_end = now - span
    random_ = rng.random
    randbelow = rng.randrange

    info = {"guild": guild_ids[0], "players_in_guild": pool_size[0]}

    def chunks() -> Iterator[tuple[Rows, Rows]]:
        chunk = 50_000
        game_id = 0
        while game_id < games:
            game_rows: list[tuple[object, ...]] = []
            player_rows: list[tuple[object, ...]] = []
            for pool in pools:  # re-deal who plays with whom, now and then
                rng.shuffle(pool)
            for _ in range(min(chunk, games - game_id)):
                game_id += 1
                ended = first_end + span * game_id / games
                g = bisect.bisect_left(cumulative, random_())
                guild = guild_ids[g]
                pool = pools[g]
                first = randbelow(len(pool) - 3)
                kind = "euchre" if random_() < 0.6 else "truco"
                winner = randbelow(2)
                loser_points = randbelow(10)
                game_rows.append(
                    (
                        game_id,
                        guild,
                        5000 + g,
                        game_id,
                        kind,
                        ended - 900.0,
                        ended,
                        4 + randbelow(12),
                        10 if winner == 0 else loser_points,
                        10 if winner == 1 else loser_points,
                        winner,
                        None,
                        str(game_id * 7919),
                        0,
                        options_json,
                        actions_json,
                    )
                )
                kind_stats = stats_json[kind]
                for seat in range(4):
                    user = pool[first + seat]
                    stat = kind_stats[randbelow(len(kind_stats))]
                    if random_() < 0.08:
                        player_rows.append(
                            (
                                game_id,
                                seat,
                                guild,
                                None,
                                1,
                                "Bot",
                                seat % 2,
                                int(seat % 2 == winner),
                                stat,
                                None,
                                None,
                                None,
                                None,
                            )
                        )
                    else:
                        player_rows.append(
                            (
                                game_id,
                                seat,
                                guild,
                                user,
                                0,
                                f"player{user}",
                                seat % 2,
                                int(seat % 2 == winner),
                                stat,
                                25.0,
                                8.0,
                                25.5,
                                7.9,
                            )
                        )
            yield game_rows, player_rows

    return info, chunks()


def build_results_db(
    path: Path, games: int, guilds: int, players: int, now: float, seed: int = 1
) -> dict[str, Any]:
    """Bulk-load the games of `generate_games` (executemany) into the real schema made by the
    migrations, then derive ratings, period counts and statistics in SQL."""
    info, chunks = generate_games(games, guilds, players, now, seed)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("PRAGMA cache_size = -262144")
    for game_rows, player_rows in chunks:
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO games (id, guild_id, channel_id, table_id, game, started_at, ended_at,"
            " hands_played, score0, score1, winner_team, margin, seed, first_dealer, options,"
            " actions) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            game_rows,
        )
        conn.executemany(
            "INSERT INTO game_players (game_id, seat, guild_id, user_id, is_bot, name, team,"
            " won, stats, mu_before, sigma_before, mu_after, sigma_after)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            player_rows,
        )
        conn.execute("COMMIT")
    conn.execute("BEGIN")
    for statement in AGGREGATES:
        conn.execute(statement)
    conn.execute("COMMIT")
    # The SQL period arithmetic must agree with the bot's own.
    for period in ("week", "month"):
        for (start,) in conn.execute(
            "SELECT DISTINCT period_start FROM player_periods WHERE period = ? LIMIT 50", (period,)
        ):
            assert period_start(period, start + 3600.0) == start, (period, start)
    ratings_rows = conn.execute("SELECT count(*) FROM ratings").fetchone()[0]
    period_rows = conn.execute("SELECT count(*) FROM player_periods").fetchone()[0]
    sample_user = conn.execute(
        "SELECT user_id FROM ratings WHERE guild_id = ? ORDER BY games DESC LIMIT 1",
        (info["guild"],),
    ).fetchone()[0]
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    # The build ran with synchronous=OFF: flush its hundreds of MB now, or the bot's first
    # checkpoint fsync in the write-path timing below would pay for them.
    with path.open("rb") as built:
        os.fsync(built.fileno())
    return {
        **info,
        "ratings_rows": ratings_rows,
        "period_rows": period_rows,
        "sample_user": sample_user,
    }


async def time_calls(
    label: str, repeat: int, call: Callable[[], Awaitable[Any]]
) -> tuple[float, Any]:
    await call()  # warm the page cache and statement cache once
    samples = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = await call()
        samples.append(time.perf_counter() - start)
    print(f"  {label:<44} {percentiles(samples)}")
    return statistics.median(samples), result


def show_plans(path: Path, guild: int, now: float) -> None:
    conn = sqlite3.connect(path)
    for label, sql, params in (
        ("leaderboard all", LEADERBOARD_ALL, (guild, "euchre", 3, 10, 0)),
        (
            "leaderboard week",
            LEADERBOARD_PERIOD,
            (guild, "euchre", "week", period_start("week", now), 3, 10, 0, guild, "euchre"),
        ),
        ("history", HISTORY_ALL, (guild, 10, 0)),
    ):
        plan = [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql, params)]
        print(f"  plan {label}: {' | '.join(plan)}")
    conn.close()


async def bench_queries(
    repo: ResultsRepository, info: dict[str, Any], now: float, repeat: int, label: str
) -> None:
    guild = info["guild"]
    print(f"{label} queries on server {guild} ({info['players_in_guild']} players), {repeat} each:")
    for period in ("all", "month", "week"):
        for page in (0, 20):
            _, board = await time_calls(
                f"leaderboard euchre {period:<5} page {page:>2}",
                repeat,
                functools.partial(repo.leaderboard, guild, "euchre", period, page=page, now=now),
            )
            if page == 0:
                print(f"{'':48}ranked players: {board.total}")
    await time_calls(
        "player_stats (all kinds, with ranks)",
        repeat,
        lambda: repo.player_stats(guild, info["sample_user"]),
    )
    await time_calls("history latest 10", repeat, lambda: repo.history(guild))
    await time_calls(
        "history truco, offset 1000", repeat, lambda: repo.history(guild, "truco", 10, 1000)
    )
    await time_calls("finished_game", repeat, lambda: repo.finished_game(guild, 12345))


# --- PostgreSQL --------------------------------------------------------------------------------

# The same aggregates in PostgreSQL's dialect (greatest for max of two, json_each_text, the
# month start by date_trunc in UTC), derived from the loaded games exactly as above.
_PG_DAY = "floor(g.ended_at / 86400)::bigint"
_PG_WEEK = f"(({_PG_DAY}) - (({_PG_DAY}) + 3) % 7) * 86400"
_PG_MONTH = (
    "extract(epoch from date_trunc('month',"
    " to_timestamp(floor(g.ended_at)) AT TIME ZONE 'UTC'))::bigint"
)
PG_AGGREGATES = (
    "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, ordinal, games, wins,"
    " last_played)"
    " SELECT guild_id, game, user_id, name, mu, sigma, mu - 3 * sigma, games, wins, last_played"
    " FROM (SELECT guild_id, game, user_id, name, games, wins, last_played,"
    "   19.0 + ((user_id * 2654435761 + length(game)) % 1200) / 100.0 AS mu,"
    "   greatest(0.8, 8.333 / (1 + games / 10.0)) AS sigma"
    "   FROM (SELECT p.guild_id, g.game, p.user_id, max(p.name) AS name, count(*) AS games,"
    "     sum(p.won) AS wins, max(g.ended_at) AS last_played" + _HUMAN_ROWS + " GROUP BY"
    "     p.guild_id, g.game, p.user_id) AS a) AS b",
    "INSERT INTO player_periods (guild_id, game, period, period_start, user_id, games, wins,"
    " ordinal)"
    f" SELECT p.guild_id, g.game, 'week', {_PG_WEEK}, p.user_id, count(*), sum(p.won),"
    " max(r.ordinal)" + _HUMAN_ROWS_RATED + " GROUP BY 1, 2, 4, 5",
    "INSERT INTO player_periods (guild_id, game, period, period_start, user_id, games, wins,"
    " ordinal)"
    f" SELECT p.guild_id, g.game, 'month', {_PG_MONTH}, p.user_id, count(*), sum(p.won),"
    " max(r.ordinal)" + _HUMAN_ROWS_RATED + " GROUP BY 1, 2, 4, 5",
    "INSERT INTO player_stats (guild_id, game, user_id, stat, value)"
    " SELECT p.guild_id, g.game, p.user_id, j.key, sum(j.value::bigint)"
    " FROM game_players p JOIN games g ON g.id = p.game_id, json_each_text(p.stats::json) j"
    " WHERE p.user_id IS NOT NULL GROUP BY 1, 2, 3, 4",
    "SELECT setval(pg_get_serial_sequence('games', 'id'), (SELECT max(id) FROM games))",
)
GAME_COLUMNS = (
    "id", "guild_id", "channel_id", "table_id", "game", "started_at", "ended_at", "hands_played",
    "score0", "score1", "winner_team", "margin", "seed", "first_dealer", "options", "actions",
)  # fmt: skip
PLAYER_COLUMNS = (
    "game_id", "seat", "guild_id", "user_id", "is_bot", "name", "team", "won", "stats",
    "mu_before", "sigma_before", "mu_after", "sigma_after",
)  # fmt: skip


async def build_results_pg(
    dsn: str, games: int, guilds: int, players: int, now: float
) -> dict[str, Any]:
    """The same games as `build_results_db`, loaded with COPY (asyncpg's binary copy), then the
    aggregates in SQL, then VACUUM ANALYZE (what autovacuum does soon after, on a real server)."""
    import asyncpg

    info, chunks = generate_games(games, guilds, players, now)
    conn = await asyncpg.connect(dsn)
    try:
        for game_rows, player_rows in chunks:
            async with conn.transaction():
                await conn.copy_records_to_table("games", records=game_rows, columns=GAME_COLUMNS)
                await conn.copy_records_to_table(
                    "game_players", records=player_rows, columns=PLAYER_COLUMNS
                )
        async with conn.transaction():
            for statement in PG_AGGREGATES:
                await conn.execute(statement)
        # VACUUM too: a bulk load leaves the visibility map unset, and until autovacuum comes by,
        # index-only scans (the leaderboard counts) would visit the heap for every row.
        await conn.execute("VACUUM ANALYZE")
        for period in ("week", "month"):
            rows = await conn.fetch(
                "SELECT DISTINCT period_start FROM player_periods WHERE period = $1 LIMIT 50",
                period,
            )
            for row in rows:
                start = row[0]
                assert period_start(period, start + 3600.0) == start, (period, start)
        info["ratings_rows"] = await conn.fetchval("SELECT count(*) FROM ratings")
        info["period_rows"] = await conn.fetchval("SELECT count(*) FROM player_periods")
        info["sample_user"] = await conn.fetchval(
            "SELECT user_id FROM ratings WHERE guild_id = $1 ORDER BY games DESC LIMIT 1",
            info["guild"],
        )
        info["size_mb"] = await conn.fetchval("SELECT pg_database_size(current_database())") / 1e6
    finally:
        await conn.close()
    return info


async def new_pg_database(server: Any, name: str) -> str:
    import asyncpg

    conn = await asyncpg.connect(server.dsn("postgres"))
    try:
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    return str(server.dsn(name))


async def bench_postgres(args: argparse.Namespace, work: Path) -> None:
    from bot.storage.postgres import PgDatabase, PgTableStore
    from tests.support.postgres import start_server

    server = start_server(work, durable=True)
    try:
        probe = await PgDatabase.open(server.dsn("postgres"), max_size=1, migrate=False)
        try:
            async with probe.read() as conn:
                version = await conn.fetchval("SHOW server_version")
        finally:
            await probe.close()
        print(f"PostgreSQL {version} on 127.0.0.1 (asyncpg pool of 10; fsync and synchronous_commit"
              " on, the defaults)")  # fmt: skip
        best = 0.0
        for round_ in range(args.rounds):
            db = await PgDatabase.open(await new_pg_database(server, f"throughput_{round_}"))
            try:
                store = PgTableStore(db)
                rng = random.Random(3)
                made = [await new_playing_table(store, n, 1, rng) for n in range(args.tables)]
                best = max(best, await appends_per_second(store, made, args.per_table))
            finally:
                await db.close()
        print(
            f"PostgreSQL appends/s, {args.tables} tables appending at once, {args.per_table} each,"
            f" best of {args.rounds} rounds: {best:,.0f} appends/s"
        )
        db = await PgDatabase.open(await new_pg_database(server, "appends"))
        try:
            plain, finishing = await bench_appends(PgTableStore(db), args.appends, args.finishes)
        finally:
            await db.close()
        print("PostgreSQL write path (append_action one at a time, 20 tables):")
        print(f"  append        {percentiles(plain)}")
        print(f"  finish+record {percentiles(finishing)}")

        now = time.time()
        dsn = await new_pg_database(server, "results")
        await (await PgDatabase.open(dsn)).close()  # the schema, by the real migrations
        started = time.perf_counter()
        info = await build_results_pg(dsn, args.games, args.guilds, args.players, now)
        print(
            f"PostgreSQL: built {args.games:,} games over {args.guilds} servers in "
            f"{time.perf_counter() - started:.1f} s ({info['size_mb']:.0f} MB;"
            f" {info['ratings_rows']:,} rating rows, {info['period_rows']:,} period rows)"
        )
        db = await PgDatabase.open(dsn)
        try:
            await pg_plans(db, info["guild"], now)
            await bench_queries(ResultsRepository(db), info, now, args.repeat, "PostgreSQL")
            plain, finishing = await bench_appends(
                PgTableStore(db), args.appends // 3, args.finishes, guild_id=info["guild"]
            )
        finally:
            await db.close()
        print(f"PostgreSQL write path on the {args.games:,}-game database:")
        print(f"  append        {percentiles(plain)}")
        print(f"  finish+record {percentiles(finishing)}")
    finally:
        server.stop()


async def pg_plans(db: Any, guild: int, now: float) -> None:
    from bot.storage.postgres import pg_sql

    async with db.read() as conn:
        for label, sql, params in (
            ("leaderboard all", LEADERBOARD_ALL, (guild, "euchre", 3, 10, 0)),
            (
                "leaderboard week",
                LEADERBOARD_PERIOD,
                (guild, "euchre", "week", period_start("week", now), 3, 10, 0, guild, "euchre"),
            ),
            ("history", HISTORY_ALL, (guild, 10, 0)),
        ):
            rows = await conn.fetch("EXPLAIN " + pg_sql(sql), *params)
            plan = [r[0].strip() for r in rows if "Scan" in r[0] or "Sort" in r[0]]
            print(f"  plan {label}: {' | '.join(plan)}")


async def bench_sqlite(args: argparse.Namespace, work: Path) -> None:
    print(f"SQLite {sqlite3.sqlite_version}, Python {sys.version.split()[0]}, files in {work}")
    await bench_sqlite_throughput(work, args.tables, args.per_table, args.rounds)
    if args.only_throughput:
        return
    print("SQLite write path (append_action one at a time, file database in WAL, 20 tables):")
    for synchronous in ("NORMAL", "FULL"):
        plain, finishing = await bench_sqlite_appends(
            work / f"appends_{synchronous.lower()}.db", synchronous, args.appends, args.finishes
        )
        print(f"  synchronous={synchronous:<6} append       {percentiles(plain)}")
        print(f"  synchronous={synchronous:<6} finish+record {percentiles(finishing)}")

    now = time.time()
    path = work / "results.db"
    path.unlink(missing_ok=True)
    await (await Database.open(path)).close()  # the schema, by the real migrations
    started = time.perf_counter()
    info = build_results_db(path, args.games, args.guilds, args.players, now)
    size_mb = path.stat().st_size / 1e6
    print(
        f"SQLite: built {args.games:,} games over {args.guilds} servers in "
        f"{time.perf_counter() - started:.1f} s ({size_mb:.0f} MB; {info['ratings_rows']:,} "
        f"rating rows, {info['period_rows']:,} period rows)"
    )
    show_plans(path, info["guild"], now)
    db = await Database.open(path)
    try:
        await bench_queries(ResultsRepository(db), info, now, args.repeat, "SQLite")
    finally:
        await db.close()

    plain, finishing = await bench_sqlite_appends(
        path, "NORMAL", args.appends // 3, args.finishes, guild_id=info["guild"]
    )
    print(f"SQLite write path on the {args.games:,}-game database:")
    print(f"  synchronous=NORMAL append       {percentiles(plain)}")
    print(f"  synchronous=NORMAL finish+record {percentiles(finishing)}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--backend", choices=("sqlite", "postgres", "both"), default="both", help="which to run"
    )
    parser.add_argument(
        "--games", type=int, default=100_000, help="recorded games to build (1000000: the 1M run)"
    )
    parser.add_argument("--guilds", type=int, default=20, help="servers to spread them over")
    parser.add_argument("--players", type=int, default=5000, help="players of the busiest server")
    parser.add_argument("--appends", type=int, default=3000, help="timed appends per mode")
    parser.add_argument("--finishes", type=int, default=300, help="timed finishing appends")
    parser.add_argument("--repeat", type=int, default=200, help="timed calls per query")
    parser.add_argument("--tables", type=int, default=50, help="tables appending at once")
    parser.add_argument("--per-table", type=int, default=60, help="appends per table and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the appends/s race")
    parser.add_argument(
        "--only-throughput", action="store_true", help="only the SQLite appends/s comparison"
    )
    parser.add_argument("--dir", type=Path, default=None, help="work directory (default: temp)")
    parser.add_argument("--keep", action="store_true", help="keep the databases")
    args = parser.parse_args()

    work = args.dir or Path(tempfile.mkdtemp(prefix="bench_storage_"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        if args.backend in ("sqlite", "both"):
            await bench_sqlite(args, work)
        if args.backend in ("postgres", "both") and not args.only_throughput:
            await bench_postgres(args, work)
    finally:
        if not args.keep and args.dir is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())
