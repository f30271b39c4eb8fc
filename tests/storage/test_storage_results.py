"""Leaderboard, player statistics, history and finished games over many games recorded through
the real write path, in two servers. Every figure is checked against a ledger the builder keeps
on the side (ratings against OpenSkill driven directly), and nothing of one server may show in
the other. Issue 14: all of it on both back-ends, a real SQLite file and a real PostgreSQL
server. No mocks."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections import defaultdict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest
from openskill.models import PlackettLuce

from bot.settings import DatabaseTarget
from bot.storage import ResultsRepository
from bot.storage.backend import Storage, open_storage
from bot.storage.periods import period_start
from bot.storage.ratings import display_rating
from bot.storage.results import (
    HISTORY_ALL,
    HISTORY_GAME,
    LEADERBOARD_ALL,
    LEADERBOARD_ALL_COUNT,
    LEADERBOARD_PERIOD,
)
from bot.tables.records import GameResult
from tests.support.postgres import new_pg_database
from tests.support.storage import BACKENDS
from tests.support.stored_games import Seat, play_recorded

A, B = 1, 2  # two servers
NOW = datetime(2024, 5, 15, 12, 0, tzinfo=UTC).timestamp()  # a Wednesday
WEEK = period_start("week", NOW)  # Monday 13 May 00:00 UTC
MONTH = period_start("month", NOW)  # 1 May 00:00 UTC
DAY = 86400.0
USERS = {A: list(range(1, 13)), B: list(range(9, 17))}  # users 9..12 play in both servers
STATS = {"euchre": ("marches", "made_trump", "got_euchred"), "truco": ("truco_asks", "ran")}
Key = tuple[int, str, int]  # guild, game, user


@dataclass
class Ledger:
    """What the queries must return, kept independently of the storage code."""

    results: list[GameResult] = field(default_factory=list)  # in recording order: id = index + 1
    totals: dict[Key, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    periods: dict[tuple[int, str, str, int, int], list[int]] = field(
        default_factory=lambda: defaultdict(lambda: [0, 0])
    )
    stats: dict[Key, dict[str, int]] = field(default_factory=lambda: defaultdict(dict))
    skills: dict[Key, tuple[float, float]] = field(default_factory=dict)
    names: dict[tuple[int, int], str] = field(default_factory=dict)

    def record(self, result: GameResult) -> None:
        self.results.append(result)
        model = PlackettLuce()
        teams, owners = [], []
        for team in (0, 1):
            members = sorted((p for p in result.players if p.team == team), key=lambda p: p.seat)
            ratings = []
            for p in members:
                key = (result.guild_id, result.game, p.user_id or 0)
                mu, sigma = (model.mu, model.sigma)
                if not p.is_bot:
                    mu, sigma = self.skills.get(key, (mu, sigma))
                ratings.append(model.rating(mu=mu, sigma=sigma))
            teams.append(ratings)
            owners.append(members)
        ranks = [0.0, 1.0] if result.winner_team == 0 else [1.0, 0.0]
        for members, rated in zip(owners, model.rate(teams, ranks=ranks), strict=True):
            for p, rating in zip(members, rated, strict=True):
                if p.is_bot or p.user_id is None:
                    continue
                key = (result.guild_id, result.game, p.user_id)
                self.skills[key] = (rating.mu, rating.sigma)
                won = int(p.team == result.winner_team)
                self.totals[key][0] += 1
                self.totals[key][1] += won
                for period in ("week", "month"):
                    start = period_start(period, result.ended_at)
                    counted = self.periods[(result.guild_id, result.game, period, start, p.user_id)]
                    counted[0] += 1
                    counted[1] += won
                for stat, value in p.stats.items():
                    self.stats[key][stat] = self.stats[key].get(stat, 0) + value
                self.names[(result.guild_id, p.user_id)] = p.name

    def rating(self, guild: int, game: str, user: int) -> int:
        return display_rating(*self.skills[(guild, game, user)])

    def board(self, guild: int, game: str, min_games: int) -> list[int]:
        """User ids in leaderboard order (rating, then user id) with at least min_games."""
        users = [
            (key[2], self.skills[key])
            for key, (games, _) in self.totals.items()
            if key[0] == guild and key[1] == game and games >= min_games
        ]
        users.sort(key=lambda u: (-(u[1][0] - 3 * u[1][1]), u[0]))
        return [user for user, _ in users]


async def build(target: DatabaseTarget) -> Ledger:
    rng = random.Random(20240515)
    skill = {user: rng.gauss(0, 1) for user in range(1, 100)}
    ledger = Ledger()
    plans: list[tuple[float, int, str, list[Seat], dict[int, str]]] = []
    for guild, count in ((A, 110), (B, 50)):
        for _ in range(count):
            where = rng.random()
            if where < 0.3:
                ended = rng.uniform(WEEK, NOW)
            elif where < 0.6:
                ended = rng.uniform(MONTH, WEEK)
            else:
                ended = rng.uniform(NOW - 75 * DAY, MONTH)
            seats: list[Seat] = list(rng.sample(USERS[guild], 4))
            seats = [None if rng.random() < 0.12 else s for s in seats]
            game = "euchre" if rng.random() < 0.7 else "truco"
            # User 3 renames themselves this week.
            names = {3: "Trinity"} if ended >= WEEK else {}
            plans.append((ended, guild, game, seats, names))
    # Special players: 50 has exactly two euchre games in A (too few for min_games=3);
    # 60 played once, beside three bots.
    plans.append((NOW - 40 * DAY, A, "euchre", [50, 1, 2, 4], {}))
    plans.append((NOW - 39 * DAY, A, "euchre", [5, 50, 6, 7], {}))
    plans.append((NOW - 38 * DAY, A, "euchre", [60, None, None, None], {}))
    plans.sort(key=lambda plan: plan[0])

    storage = await open_storage(target)
    store = storage.tables
    try:
        for ended, guild, game, seats, names in plans:
            strength = [skill[s] if s is not None else 0.0 for s in seats]
            edge = strength[0] + strength[2] - strength[1] - strength[3]
            winner = 0 if rng.random() < 1 / (1 + 2.718 ** (-1.5 * edge)) else 1
            stats = {
                seat: {stat: rng.randrange(3) for stat in rng.sample(STATS[game], 2)}
                for seat in range(4)
            }
            _, result = await play_recorded(
                store,
                guild=guild,
                seats=seats,
                winner=winner,
                ended_at=ended,
                game=game,
                stats=stats,
                hands=rng.randrange(3, 12),
                names=names,
            )
            ledger.record(result)
    finally:
        await storage.close()
    return ledger


@pytest.fixture(scope="module", params=BACKENDS)
def recorded(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[DatabaseTarget, Ledger]:
    """One database per back-end for the whole module (read-only tests; issue 14: the same
    queries on SQLite and PostgreSQL), built in its own event loop."""
    if request.param == "sqlite":
        target = DatabaseTarget("sqlite", path=tmp_path_factory.mktemp("results") / "results.db")
    else:
        server = request.getfixturevalue("pg_server")
        target = DatabaseTarget("postgresql", dsn=asyncio.run(new_pg_database(server)))
    ledger = asyncio.run(build(target))
    return target, ledger


@pytest.fixture
async def repo(recorded: tuple[DatabaseTarget, Ledger]) -> AsyncIterator[ResultsRepository]:
    storage = await open_storage(recorded[0])
    try:
        yield storage.results
    finally:
        await storage.close()


@pytest.fixture
def ledger(recorded: tuple[DatabaseTarget, Ledger]) -> Ledger:
    return recorded[1]


async def whole_board(
    repo: ResultsRepository, guild: int, game: str, **kwargs: object
) -> list[tuple[int, int, int, int]]:
    """Every row of every page (page size 4) as (rank, user, games, wins)."""
    rows = []
    page = 0
    while True:
        board = await repo.leaderboard(guild, game, page=page, page_size=4, now=NOW, **kwargs)  # type: ignore[arg-type]
        assert len(board.rows) <= 4
        rows.extend(board.rows)
        if not board.rows:
            break
        page += 1
    assert page == board.page_count or (board.total == 0 and page == 0)
    assert [r.rank for r in rows] == list(range(1, len(rows) + 1))
    assert len(rows) == board.total
    return [(r.rank, r.user_id, r.games, r.wins) for r in rows]


# --- the leaderboard ----------------------------------------------------------------------------


@pytest.mark.parametrize("guild", [A, B])
@pytest.mark.parametrize("game", ["euchre", "truco"])
async def test_all_time_leaderboard_matches_the_ledger(
    repo: ResultsRepository, ledger: Ledger, guild: int, game: str
) -> None:
    expected = ledger.board(guild, game, min_games=3)
    assert len(expected) >= 4  # the data really has a board worth paging through
    rows = await whole_board(repo, guild, game)
    assert [user for _, user, _, _ in rows] == expected
    for _, user, games, wins in rows:
        assert [games, wins] == ledger.totals[(guild, game, user)]
    first = await repo.leaderboard(guild, game, page_size=100, now=NOW)
    for row in first.rows:
        assert row.rating == ledger.rating(guild, game, row.user_id)
        assert row.win_pct == pytest.approx(100 * row.wins / row.games)
        assert row.name == ledger.names[(guild, row.user_id)]
    assert [r.rating for r in first.rows] == sorted((r.rating for r in first.rows), reverse=True)


async def test_a_server_never_sees_another_servers_games(
    repo: ResultsRepository, ledger: Ledger
) -> None:
    board_a = await repo.leaderboard(A, "euchre", page_size=100, min_games=1)
    board_b = await repo.leaderboard(B, "euchre", page_size=100, min_games=1)
    assert {r.user_id for r in board_a.rows} <= set(USERS[A]) | {50, 60}
    assert {r.user_id for r in board_b.rows} <= set(USERS[B])
    # A user of both servers has two separate records.
    both = next(u for u in range(9, 13) if (A, "euchre", u) in ledger.totals)
    row_b = next(r for r in board_b.rows if r.user_id == both)
    assert [row_b.games, row_b.wins] == ledger.totals[(B, "euchre", both)]
    stats_b = await repo.player_stats(B, both)
    assert stats_b.records["euchre"].games == ledger.totals[(B, "euchre", both)][0]
    assert (await repo.player_stats(B, 1)).records == {}  # user 1 never played in B
    ids_b = {e.game_id for e in await repo.history(B, limit=100)}
    ids_b |= {e.game_id for e in await repo.history(B, limit=100, offset=100)}
    expected_b = {i + 1 for i, r in enumerate(ledger.results) if r.guild_id == B}
    assert ids_b == expected_b
    a_game = next(i + 1 for i, r in enumerate(ledger.results) if r.guild_id == A)
    assert await repo.finished_game(B, a_game) is None
    assert await repo.finished_game(A, a_game) is not None


async def test_min_games_keeps_new_players_off_the_board(
    repo: ResultsRepository, ledger: Ledger
) -> None:
    assert ledger.totals[(A, "euchre", 50)][0] == 2
    at_three = await repo.leaderboard(A, "euchre", page_size=100, min_games=3)
    at_two = await repo.leaderboard(A, "euchre", page_size=100, min_games=2)
    assert 50 not in {r.user_id for r in at_three.rows}
    assert 50 in {r.user_id for r in at_two.rows}
    assert at_two.total == len(ledger.board(A, "euchre", 2)) == at_three.total + 1
    record = (await repo.player_stats(A, 50)).records["euchre"]
    assert record.rank is None and record.games == 2
    assert (await repo.player_stats(A, 50, min_games=2)).records["euchre"].rank is not None


async def test_bots_are_never_ranked(repo: ResultsRepository, ledger: Ledger) -> None:
    bot_seats = sum(p.is_bot for r in ledger.results for p in r.players)
    assert bot_seats > 20  # the data has plenty of bots
    for guild in (A, B):
        for game in ("euchre", "truco"):
            board = await repo.leaderboard(guild, game, page_size=100, min_games=1)
            assert all(r.user_id is not None and r.name != "Bot" for r in board.rows)
            humans = {k[2] for k in ledger.totals if k[0] == guild and k[1] == game}
            assert {r.user_id for r in board.rows} == humans
    # 60 played one game with three bots: ranked alone, with one game and one win.
    sixty = await repo.player_stats(A, 60, min_games=1)
    assert (sixty.records["euchre"].games, sixty.records["euchre"].wins) == (1, 1)


@pytest.mark.parametrize("period,start", [("week", WEEK), ("month", MONTH)])
@pytest.mark.parametrize("min_games", [1, 2, 3])
async def test_period_leaderboards_count_only_that_period(
    repo: ResultsRepository, ledger: Ledger, period: str, start: int, min_games: int
) -> None:
    expected = {
        key[4]: counted
        for key, counted in ledger.periods.items()
        if key[:4] == (A, "euchre", period, start) and counted[0] >= min_games
    }
    assert expected  # the period has players
    rows = await whole_board(repo, A, "euchre", period=period, min_games=min_games)
    assert {user: [games, wins] for _, user, games, wins in rows} == expected
    # Ranked by their current rating (the all-time board's rating), best first.
    board = await repo.leaderboard(A, "euchre", period, page_size=100, min_games=min_games, now=NOW)
    for row in board.rows:
        assert row.rating == ledger.rating(A, "euchre", row.user_id)
    order = [u for u in ledger.board(A, "euchre", min_games=1) if u in expected]
    assert [r.user_id for r in board.rows] == order


async def test_a_past_month_is_counted_by_its_own_games(
    repo: ResultsRepository, ledger: Ledger
) -> None:
    april = NOW - 30 * DAY
    start = period_start("month", april)
    expected = {
        key[4]: counted
        for key, counted in ledger.periods.items()
        if key[:4] == (A, "euchre", "month", start) and counted[0] >= 1
    }
    board = await repo.leaderboard(A, "euchre", "month", page_size=100, min_games=1, now=april)
    assert {r.user_id: [r.games, r.wins] for r in board.rows} == expected


async def test_pages_split_the_board_without_overlap(repo: ResultsRepository) -> None:
    full = await repo.leaderboard(A, "euchre", page_size=100, now=NOW)
    pages = [await repo.leaderboard(A, "euchre", page=p, page_size=3, now=NOW) for p in range(5)]
    assert [r for page in pages for r in page.rows] == full.rows[:15]
    assert pages[0].page_count == -(-full.total // 3)
    beyond = await repo.leaderboard(A, "euchre", page=99, page_size=3, now=NOW)
    assert beyond.rows == [] and beyond.total == full.total
    empty = await repo.leaderboard(999, "euchre")
    assert empty.rows == [] and empty.total == 0 and empty.page_count == 1
    bad_arguments: list[dict[str, Any]] = [
        {"period": "year"},
        {"page": -1},
        {"page_size": 0},
        {"page_size": 101},
    ]
    for bad in bad_arguments:
        with pytest.raises(ValueError):
            await repo.leaderboard(A, "euchre", **bad)


# --- player statistics --------------------------------------------------------------------------


@pytest.mark.parametrize("user", [1, 3, 9, 12])
async def test_player_stats_match_the_ledger_and_the_board(
    repo: ResultsRepository, ledger: Ledger, user: int
) -> None:
    player = await repo.player_stats(A, user)
    kinds = {k[1] for k in ledger.totals if k[0] == A and k[2] == user}
    assert set(player.records) == kinds and kinds
    assert player.name == ledger.names[(A, user)]
    for game, record in player.records.items():
        games, wins = ledger.totals[(A, game, user)]
        assert (record.games, record.wins) == (games, wins)
        assert record.win_pct == pytest.approx(100 * wins / games)
        assert record.rating == ledger.rating(A, game, user)
        assert record.stats == ledger.stats[(A, game, user)]
        board = ledger.board(A, game, 3)
        assert record.ranked_players == len(board)
        assert record.rank == (board.index(user) + 1 if user in board else None)
    only = await repo.player_stats(A, user, game="truco")
    assert set(only.records) == kinds & {"truco"}


async def test_a_renamed_player_shows_their_latest_name(repo: ResultsRepository) -> None:
    assert (await repo.player_stats(A, 3)).name == "Trinity"
    board = await repo.leaderboard(A, "euchre", page_size=100, min_games=1)
    assert next(r.name for r in board.rows if r.user_id == 3) == "Trinity"


async def test_unknown_player_has_no_records(repo: ResultsRepository) -> None:
    nobody = await repo.player_stats(A, 424242)
    assert nobody.records == {} and nobody.name is None


# --- history and finished games -----------------------------------------------------------------


@pytest.mark.parametrize("game", [None, "euchre", "truco"])
async def test_history_lists_the_latest_games_newest_first(
    repo: ResultsRepository, ledger: Ledger, game: str | None
) -> None:
    mine = [
        (i + 1, r)
        for i, r in enumerate(ledger.results)
        if r.guild_id == A and (game is None or r.game == game)
    ]
    mine.sort(key=lambda item: (-item[1].ended_at, -item[0]))
    latest = await repo.history(A, game, limit=10)
    assert [e.game_id for e in latest] == [i for i, _ in mine[:10]]
    window = await repo.history(A, game, limit=7, offset=12)
    assert [e.game_id for e in window] == [i for i, _ in mine[12:19]]
    for entry in latest:
        result = ledger.results[entry.game_id - 1]
        assert entry.game == result.game and entry.ended_at == result.ended_at
        assert entry.scores == result.scores and entry.winner_team == result.winner_team
        assert entry.hands_played == result.hands_played
        by_seat = sorted(result.players, key=lambda p: p.seat)
        assert entry.teams == (
            tuple(p.name for p in by_seat if p.team == 0),
            tuple(p.name for p in by_seat if p.team == 1),
        )
    assert await repo.history(A, game, limit=10, offset=10_000) == []
    with pytest.raises(ValueError):
        await repo.history(A, limit=0)


async def test_finished_game_returns_everything_needed_to_replay_it(
    repo: ResultsRepository, ledger: Ledger
) -> None:
    game_id, result = next(
        (i + 1, r)
        for i, r in enumerate(ledger.results)
        if r.guild_id == A and any(p.is_bot for p in r.players)
    )
    stored = await repo.finished_game(A, game_id)
    assert stored is not None
    assert (stored.game, stored.options, stored.seed, stored.first_dealer) == (
        result.game,
        result.options,
        result.seed,
        result.first_dealer,
    )
    assert stored.actions == result.actions
    assert (stored.started_at, stored.ended_at, stored.hands_played) == (
        result.started_at,
        result.ended_at,
        result.hands_played,
    )
    assert (stored.scores, stored.winner_team, stored.margin) == (
        result.scores,
        result.winner_team,
        result.margin,
    )
    assert [(p.seat, p.team, p.user_id, p.is_bot, p.name, p.stats) for p in stored.players] == [
        (p.seat, p.team, p.user_id, p.is_bot, p.name, p.stats) for p in result.players
    ]
    for player in stored.players:
        assert player.won == (player.team == result.winner_team)
        if player.is_bot:
            assert player.rating_before is None and player.rating_after is None
        else:
            assert player.rating_before is not None and player.rating_after is not None
            assert (player.rating_after > player.rating_before) == player.won
    assert await repo.finished_game(A, 10_000) is None


# --- the queries use their indexes --------------------------------------------------------------


def test_queries_walk_their_indexes(recorded: tuple[DatabaseTarget, Ledger]) -> None:
    """A regression guard for the benchmark's figures: the leaderboards read an index in rank
    order (no sort of the whole server), history reads the newest games first. (SQLite's query
    plans; PostgreSQL's planner picks by statistics, see scripts/bench_storage.py.)"""
    if recorded[0].path is None:
        pytest.skip("SQLite's query plans only")
    conn = sqlite3.connect(recorded[0].path)

    def plan(sql: str, params: tuple[object, ...]) -> str:
        return " | ".join(row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql, params))

    try:
        board = plan(LEADERBOARD_ALL, (A, "euchre", 3, 10, 0))
        assert "ratings_rank" in board and "TEMP B-TREE" not in board
        assert "COVERING INDEX ratings_rank" in plan(LEADERBOARD_ALL_COUNT, (A, "euchre", 3))
        period = plan(LEADERBOARD_PERIOD, (A, "euchre", "week", WEEK, 3, 10, 0, A, "euchre"))
        assert "player_periods_rank" in period
        # The only sort is of the page's own rows, after the join.
        assert period.count("TEMP B-TREE") == 1 and period.endswith("TEMP B-TREE FOR ORDER BY")
        history = plan(HISTORY_ALL, (A, 10, 0))
        assert "games_by_guild_time" in history and "TEMP B-TREE" not in history
        history = plan(HISTORY_GAME, (A, "truco", 10, 0))
        assert "games_by_guild_game_time" in history and "TEMP B-TREE" not in history
    finally:
        conn.close()


async def test_a_game_counts_in_the_period_it_ended_in(storage: Storage) -> None:
    """Started Sunday 23:55, ended Monday 00:05 UTC (games last 600 s here): it belongs to the
    new week and month; one that ended on Sunday 31 March 23:59:59 belongs to the old ones."""
    monday = datetime(2024, 4, 1, 0, 0, tzinfo=UTC).timestamp()  # also the 1st of April
    store, repo = storage.tables, storage.results
    for ended in (monday + 300.0, monday + 3600.0, monday - 1.0):
        await play_recorded(store, guild=A, seats=[1, 2, 3, 4], winner=0, ended_at=ended)

    async def counted(period: str, when: float) -> dict[int, int]:
        board = await repo.leaderboard(A, "euchre", period, min_games=1, now=when)
        return {r.user_id: r.games for r in board.rows}

    assert await counted("week", monday) == dict.fromkeys((1, 2, 3, 4), 2)
    assert await counted("week", monday - 1.0) == dict.fromkeys((1, 2, 3, 4), 1)
    assert await counted("month", monday + 20 * DAY) == dict.fromkeys((1, 2, 3, 4), 2)
    assert await counted("month", monday - 20 * DAY) == dict.fromkeys((1, 2, 3, 4), 1)
    assert await counted("week", monday + 7 * DAY) == {}


async def test_rating_series_follows_each_game_and_counts_wins_by_month(storage: Storage) -> None:
    """Issue 22's /stats chart: the player's shown rating after each of their games here, oldest
    first (the last one is their rating now), and their wins and games by month (UTC); games of
    another server or game kind are not counted."""
    store, repo = storage.tables, storage.results
    march = datetime(2024, 3, 10, 12, 0, tzinfo=UTC).timestamp()
    april = datetime(2024, 4, 2, 12, 0, tzinfo=UTC).timestamp()
    played = [(march, 0), (march + DAY, 1), (march + 2 * DAY, 0), (april, 0), (april + DAY, 1)]
    ids = []
    for ended, winner in played:
        table, _ = await play_recorded(store, guild=A, seats=[1, 2, None, 4], winner=winner,
                                       ended_at=ended)  # fmt: skip
        ids.append(await repo.game_id_started(A, table.id, int((ended - 600.0) * 1000)))
    await play_recorded(store, guild=B, seats=[1, 2, 3, 4], winner=1, ended_at=april)
    await play_recorded(store, guild=A, seats=[1, 2, 3, 4], winner=1, ended_at=april, game="truco")

    ratings, months = await repo.rating_series(A, 1, "euchre")
    after = []
    for game_id in ids:
        assert game_id is not None
        game = await repo.finished_game(A, game_id)
        assert game is not None
        after.append(next(p.rating_after for p in game.players if p.user_id == 1))
    assert ratings == after and len(ratings) == len(played)
    stats = await repo.player_stats(A, 1, "euchre")
    assert ratings[-1] == stats.records["euchre"].rating
    # User 1 sits at seat 0: team 0, which won the games whose winner is 0.
    assert months == [("2024-03", 2, 3), ("2024-04", 1, 2)]
    truco = (await repo.player_stats(A, 1, "truco")).records["truco"].rating
    assert await repo.rating_series(A, 1, "truco") == ([truco], [("2024-04", 0, 1)])
    assert await repo.rating_series(A, 99, "euchre") == ([], [])
