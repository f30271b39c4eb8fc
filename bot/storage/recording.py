"""Recording a finished game: the game row, its players, their statistics, ratings and period
counts. Runs inside the caller's transaction (the one that appends the game's last action), so
either all of it is written together with that action or none of it is."""

from __future__ import annotations

import json
import logging

import aiosqlite

from bot.storage.database import execute_many, fetch_all
from bot.storage.periods import COUNTED_PERIODS, period_start
from bot.storage.ratings import NEW_PLAYER, Skill, rate_game, rated_user_ids
from bot.tables.records import GameResult

log = logging.getLogger(__name__)


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


async def record_game(conn: aiosqlite.Connection, result: GameResult) -> int | None:
    """Write `result` and return the new game's id, or None when this game (same table, same
    start time) was already recorded: recording is idempotent, a replayed finish changes
    nothing."""
    _check(result)
    cursor = await conn.execute(
        "INSERT INTO games (guild_id, channel_id, table_id, game, started_at, ended_at,"
        " hands_played, score0, score1, winner_team, margin, seed, first_dealer, options, actions)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (table_id, started_at) DO NOTHING",
        (
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
        ),
    )
    inserted, game_id = cursor.rowcount, cursor.lastrowid
    if inserted == 0 or game_id is None:
        log.warning(
            "game of table %s started at %s is already recorded; not recording it again",
            result.table_id,
            result.started_at,
        )
        return None

    counted = rated_user_ids(result.players)
    before = await _load_skills(conn, result.guild_id, result.game, counted)
    after = rate_game(result.players, result.winner_team, before)

    player_rows = []
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
    await execute_many(
        conn,
        "INSERT INTO game_players (game_id, seat, guild_id, user_id, is_bot, name, team, won,"
        " stats, mu_before, sigma_before, mu_after, sigma_after)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        player_rows,
    )

    humans = [p for p in result.players if p.user_id is not None and p.user_id in counted]
    rating_rows: list[tuple[object, ...]] = []
    stat_rows: list[tuple[int, str, int, str, int]] = []
    period_rows: list[tuple[int, str, str, int, int, int, float]] = []
    for p in humans:
        assert p.user_id is not None
        won = int(p.team == result.winner_team)
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
                won,
                skill.ordinal,
            )
            for period in COUNTED_PERIODS
        )
    await execute_many(
        conn,
        "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, ordinal, games, wins,"
        " last_played) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)"
        " ON CONFLICT (guild_id, user_id, game) DO UPDATE SET"
        " name = excluded.name, mu = excluded.mu, sigma = excluded.sigma,"
        " ordinal = excluded.ordinal, games = games + 1, wins = wins + excluded.wins,"
        " last_played = max(last_played, excluded.last_played)",
        rating_rows,
    )
    await execute_many(
        conn,
        "INSERT INTO player_stats (guild_id, game, user_id, stat, value) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, user_id, game, stat) DO UPDATE SET"
        " value = value + excluded.value",
        stat_rows,
    )
    await execute_many(
        conn,
        "INSERT INTO player_periods (guild_id, game, period, period_start, user_id, games, wins,"
        " ordinal) VALUES (?, ?, ?, ?, ?, 1, ?, ?)"
        " ON CONFLICT (guild_id, game, period, period_start, user_id) DO UPDATE SET"
        " games = games + 1, wins = wins + excluded.wins, ordinal = excluded.ordinal",
        period_rows,
    )
    return game_id


async def _load_skills(
    conn: aiosqlite.Connection, guild_id: int, game: str, user_ids: set[int]
) -> dict[int, Skill]:
    if not user_ids:
        return {}
    ids = sorted(user_ids)
    marks = ", ".join("?" for _ in ids)
    rows = await fetch_all(
        conn,
        f"SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND game = ?"
        f" AND user_id IN ({marks})",
        (guild_id, game, *ids),
    )
    return {row["user_id"]: Skill(row["mu"], row["sigma"]) for row in rows}
