"""Recording a finished game: the game row, its players, their statistics, ratings and period
counts. Runs inside the caller's transaction (the one that appends the game's last action), so
either all of it is written together with that action or none of it is.

The SQL is written once, with `?` placeholders, in a dialect both back-ends read (PostgreSQL's
twin turns `?` into `$n`): `record_game_sync` runs it on a plain sqlite3 connection (in the
writer's thread, as part of one trip), `bot.storage.postgres` runs the same statements through
asyncpg. What to write is computed by the pure functions in between."""

from __future__ import annotations

import json
import logging
import sqlite3
from typing import Any

import aiosqlite

from bot.storage.database import WriteUnit
from bot.storage.periods import COUNTED_PERIODS, period_start
from bot.storage.ratings import NEW_PLAYER, Skill, rate_game, rated_user_ids
from bot.tables.records import GameResult

log = logging.getLogger(__name__)

Rows = list[tuple[Any, ...]]


def encode_actions(actions: list[tuple[int, str]]) -> str:
    return json.dumps([[seat, action] for seat, action in actions], separators=(",", ":"))


def decode_actions(text: str) -> list[tuple[int, str]]:
    return [(int(seat), str(action)) for seat, action in json.loads(text)]


def _check(result: GameResult) -> None:
    if result.winner_team not in (0, 1):
        raise ValueError(f"winner_team must be 0 or 1, not {result.winner_team!r}")
    if len(result.scores) != 2:
        raise ValueError("scores must hold the two teams' points")
    seats = [p.seat for p in result.players]
    if len(set(seats)) != len(seats):
        raise ValueError(f"a seat appears twice among the players: {seats}")


INSERT_GAME = (
    "INSERT INTO games (guild_id, channel_id, table_id, game, started_at, ended_at,"
    " hands_played, score0, score1, winner_team, margin, seed, first_dealer, options, actions)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (table_id, started_at) DO NOTHING RETURNING id"
)
INSERT_PLAYERS = (
    "INSERT INTO game_players (game_id, seat, guild_id, user_id, is_bot, name, team, won,"
    " stats, mu_before, sigma_before, mu_after, sigma_after)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
# Columns of the row being updated are named with the table's name: PostgreSQL refuses them bare.
UPSERT_RATINGS = (
    "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, ordinal, games, wins,"
    " last_played) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (guild_id, user_id, game) DO UPDATE SET"
    " name = excluded.name, mu = excluded.mu, sigma = excluded.sigma,"
    " ordinal = excluded.ordinal, games = ratings.games + excluded.games,"
    " wins = ratings.wins + excluded.wins,"
    " last_played = CASE WHEN excluded.last_played > ratings.last_played"
    " THEN excluded.last_played ELSE ratings.last_played END"
)
UPSERT_STATS = (
    "INSERT INTO player_stats (guild_id, game, user_id, stat, value) VALUES (?, ?, ?, ?, ?)"
    " ON CONFLICT (guild_id, user_id, game, stat) DO UPDATE SET"
    " value = player_stats.value + excluded.value"
)
UPSERT_PERIODS = (
    "INSERT INTO player_periods (guild_id, game, period, period_start, user_id, games, wins,"
    " ordinal) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (guild_id, game, period, period_start, user_id) DO UPDATE SET"
    " games = player_periods.games + excluded.games, wins = player_periods.wins + excluded.wins,"
    " ordinal = excluded.ordinal"
)


# How a match (best of 3/5, a rubber) counts on the board: once ("match", the default) or once
# per game played in it ("game"). A server admin chooses (server_settings, /board count).
COUNT_MATCHES = "count_matches"
COUNT_PER_MATCH = "match"
COUNT_PER_GAME = "game"
SELECT_COUNT_MATCHES = "SELECT value FROM server_settings WHERE guild_id = ? AND name = ?"


def counted_games(result: GameResult, setting: str | None) -> list[int]:
    """The winning team of each result the board counts: the match alone, or each of its games
    when the server counts per game."""
    if setting == COUNT_PER_GAME and len(result.game_winners) > 1:
        return list(result.game_winners)
    return [result.winner_team]


# Seasons (migration 009): the open season of the game's server and kind whose window holds the
# game's end, rated from a fresh prior (a player new to the season starts as a new player).
SELECT_SEASON = (
    "SELECT id FROM seasons WHERE guild_id = ? AND game = ? AND status = 'open'"
    " AND started_at <= ? AND (ends_at IS NULL OR ends_at > ?)"
)
UPSERT_SEASON = (
    "INSERT INTO season_ratings (season_id, user_id, name, mu, sigma, ordinal, games, wins)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (season_id, user_id) DO UPDATE SET"
    " name = excluded.name, mu = excluded.mu, sigma = excluded.sigma,"
    " ordinal = excluded.ordinal, games = season_ratings.games + excluded.games,"
    " wins = season_ratings.wins + excluded.wins"
)


def season_query(result: GameResult) -> tuple[str, tuple[Any, ...]]:
    return SELECT_SEASON, (result.guild_id, result.game, result.ended_at, result.ended_at)


def season_skills_query(result: GameResult, season_id: int) -> tuple[str, tuple[Any, ...]] | None:
    """The season skills of the game's rated players (None: nobody is rated)."""
    ids = sorted(rated_user_ids(result.players))
    if not ids:
        return None
    marks = ", ".join("?" for _ in ids)
    return (
        "SELECT user_id, mu, sigma FROM season_ratings WHERE season_id = ?"
        f" AND user_id IN ({marks})",
        (season_id, *ids),
    )


def season_rows(
    result: GameResult, season_id: int, before: dict[int, Skill], setting: str | None
) -> Rows:
    """The UPSERT_SEASON rows: the season's own ratings, counted as the board counts."""
    winners = counted_games(result, setting)
    after = dict(before)
    for winner in winners:
        after.update(rate_game(result.players, winner, after))
    rows: Rows = []
    for p in result.players:
        if p.user_id is None or p.user_id not in rated_user_ids(result.players):
            continue
        skill = after.get(p.user_id, NEW_PLAYER)
        won = sum(1 for winner in winners if winner == p.team)
        rows.append(
            (season_id, p.user_id, p.name, skill.mu, skill.sigma, skill.ordinal, len(winners), won)
        )
    return rows


def game_row(result: GameResult) -> tuple[Any, ...]:
    """The parameters of INSERT_GAME (and checks the result first)."""
    _check(result)
    return (
        result.guild_id,
        result.channel_id,
        result.table_id,
        result.game,
        result.started_at,
        result.ended_at,
        result.hands_played,
        result.scores[0],
        result.scores[1],
        result.winner_team,
        result.margin,
        str(result.seed),
        result.first_dealer,
        json.dumps(result.options),
        encode_actions(result.actions),
    )


def skills_query(result: GameResult) -> tuple[str, tuple[Any, ...]] | None:
    """The query of the current skills of the game's rated players (None: nobody is rated)."""
    ids = sorted(rated_user_ids(result.players))
    if not ids:
        return None
    marks = ", ".join("?" for _ in ids)
    return (
        "SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND game = ?"
        f" AND user_id IN ({marks})",
        (result.guild_id, result.game, *ids),
    )


def already_recorded(result: GameResult) -> None:
    log.warning(
        "game of table %s started at %s is already recorded; not recording it again",
        result.table_id,
        result.started_at,
    )


def rows_after(
    result: GameResult, game_id: int, before: dict[int, Skill], setting: str | None = None
) -> list[tuple[str, Rows]]:
    """(statement, rows) to write once the game row exists: players, ratings, stats, periods.
    `setting`: the server's count_matches (None: the default, a match counts once)."""
    winners = counted_games(result, setting)
    after = dict(before)
    for winner in winners:  # per game: rated game by game, in the order they were played
        after.update(rate_game(result.players, winner, after))
    after = {user_id: skill for user_id, skill in after.items() if skill is not before.get(user_id)}
    counted = rated_user_ids(result.players)
    player_rows: Rows = []
    for p in result.players:
        new: Skill | None = None
        old: Skill | None = None
        if p.user_id is not None and p.user_id in after:
            new, old = after[p.user_id], before.get(p.user_id, NEW_PLAYER)
        player_rows.append(
            (
                game_id,
                p.seat,
                result.guild_id,
                p.user_id,
                int(p.is_bot),
                p.name,
                p.team,
                int(p.team == result.winner_team),
                json.dumps({k: int(v) for k, v in p.stats.items()}, sort_keys=True),
                old.mu if old is not None else None,
                old.sigma if old is not None else None,
                new.mu if new is not None else None,
                new.sigma if new is not None else None,
            )
        )
    humans = [p for p in result.players if p.user_id is not None and p.user_id in counted]
    rating_rows: Rows = []
    stat_rows: Rows = []
    period_rows: Rows = []
    for p in humans:
        assert p.user_id is not None
        won = sum(1 for winner in winners if winner == p.team)
        skill = after.get(p.user_id, before.get(p.user_id, NEW_PLAYER))
        rating_rows.append(
            (
                result.guild_id,
                result.game,
                p.user_id,
                p.name,
                skill.mu,
                skill.sigma,
                skill.ordinal,
                len(winners),
                won,
                result.ended_at,
            )
        )
        stat_rows.extend(
            (result.guild_id, result.game, p.user_id, stat, int(value))
            for stat, value in p.stats.items()
        )
        period_rows.extend(
            (
                result.guild_id,
                result.game,
                period,
                period_start(period, result.ended_at),
                p.user_id,
                len(winners),
                won,
                skill.ordinal,
            )
            for period in COUNTED_PERIODS
        )
    return [
        (INSERT_PLAYERS, player_rows),
        (UPSERT_RATINGS, rating_rows),
        (UPSERT_STATS, stat_rows),
        (UPSERT_PERIODS, period_rows),
    ]


def record_game_sync(conn: sqlite3.Connection, result: GameResult) -> int | None:
    """Write `result` and return the new game's id, or None when this game (same table, same
    start time) was already recorded: recording is idempotent, a replayed finish changes
    nothing. Plain sqlite3, inside the caller's transaction (the writer's thread)."""
    rows = conn.execute(INSERT_GAME, game_row(result)).fetchall()
    if not rows:
        already_recorded(result)
        return None
    game_id = int(rows[0][0])
    before: dict[int, Skill] = {}
    query = skills_query(result)
    if query is not None:
        before = {r[0]: Skill(r[1], r[2]) for r in conn.execute(*query)}
    found = conn.execute(SELECT_COUNT_MATCHES, (result.guild_id, COUNT_MATCHES)).fetchone()
    setting = None if found is None else str(found[0])
    for statement, rows in rows_after(result, game_id, before, setting):
        if rows:
            conn.executemany(statement, rows)
    season = conn.execute(*season_query(result)).fetchone()
    if season is not None:
        season_before: dict[int, Skill] = {}
        query = season_skills_query(result, int(season[0]))
        if query is not None:
            season_before = {r[0]: Skill(r[1], r[2]) for r in conn.execute(*query)}
        rows = season_rows(result, int(season[0]), season_before, setting)
        if rows:
            conn.executemany(UPSERT_SEASON, rows)
    return game_id


def record_unit(result: GameResult) -> WriteUnit:
    return lambda conn: record_game_sync(conn, result)


async def record_game(conn: aiosqlite.Connection, result: GameResult) -> int | None:
    """`record_game_sync` from inside a `Database.transaction()` block (one trip)."""
    game_id: int | None = await conn._execute(  # type: ignore[no-untyped-call]
        record_game_sync, conn._conn, result
    )
    return game_id
