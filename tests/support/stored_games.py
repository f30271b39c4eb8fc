"""Builders shared by the storage tests (no tests here): tables, results, and whole games played
through the real `SqliteTableStore`, plus a plain sqlite3 peek at the file for assertions."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.storage import Database, SqliteTableStore
from bot.tables.records import GameResult, PlayerResult, SeatRecord, TableRecord

# A seat spec: a user id (a human named after it) or None (a bot).
Seat = int | None

SEED_64 = 0xACDACFFF0505A3B7  # above 2**63: must survive the trip through SQLite


def seat_record(user: Seat) -> SeatRecord:
    if user is None:
        return SeatRecord(user_id=None, name="Bot", is_bot=True)
    return SeatRecord(user_id=user, name=f"user{user}")


EMPTY = "empty"


def _position(spec: Seat | str) -> SeatRecord | None:
    return None if isinstance(spec, str) else seat_record(spec)


def lobby(
    guild: int = 1,
    channel: int = 10,
    host: int = 100,
    game: str = "euchre",
    seats: Sequence[Seat | str] = (100, EMPTY, EMPTY, EMPTY),
    created_at: float = 1_700_000_000.0,
) -> TableRecord:
    """A table record in its lobby; EMPTY leaves a position free."""
    return TableRecord(
        id=0,
        guild_id=guild,
        channel_id=channel,
        host_id=host,
        game=game,
        options={"target": 10, "stick_the_dealer": True, "names": ["é", "♠"]},
        seats=[_position(s) for s in seats],
        created_at=created_at,
    )


def result_for(
    table: TableRecord,
    winner: int,
    ended_at: float,
    stats: dict[int, dict[str, int]] | None = None,
    hands: int = 7,
) -> GameResult:
    """The GameResult of `table`'s game (seat i plays game seat i), won by `winner`."""
    players = []
    for seat, record in enumerate(table.seats):
        assert record is not None
        players.append(
            PlayerResult(
                seat=seat,
                team=seat % 2,
                user_id=record.user_id,
                name=record.name,
                is_bot=record.is_bot,
                stats=(stats or {}).get(seat, {}),
            )
        )
    return GameResult(
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        table_id=table.id,
        game=table.game,
        options=table.options,
        seed=table.seed if table.seed is not None else 0,
        first_dealer=table.first_dealer,
        actions=list(table.actions),
        started_at=table.started_at if table.started_at is not None else 0.0,
        ended_at=ended_at,
        hands_played=hands,
        scores=(10, 4) if winner == 0 else (6, 10),
        winner_team=winner,
        margin=None,
        players=players,
    )


async def start(store: SqliteTableStore, table: TableRecord, started_at: float) -> TableRecord:
    """Create (if new) and start `table`: status playing, a seed, version bumped."""
    if table.id == 0:
        table.id = await store.create_table(table)
    table.status = "playing"
    table.seed = SEED_64
    table.first_dealer = 1
    table.version += 1
    table.started_at = started_at
    table.actions = []
    await store.start_game(table)
    return table


async def act(store: SqliteTableStore, table: TableRecord, seat: int, action: str) -> None:
    await store.append_action(table.id, seat, action, table.version + 1)
    table.version += 1
    table.actions.append((seat, action))


async def finish(
    store: SqliteTableStore, table: TableRecord, result: GameResult, seat: int = 3
) -> None:
    await store.append_action(table.id, seat, "play:AS", table.version + 1, result)
    table.version += 1
    table.actions.append((seat, "play:AS"))
    table.status = "finished"


async def play_game(
    store: SqliteTableStore,
    *,
    guild: int,
    seats: Sequence[Seat],
    winner: int,
    ended_at: float,
    game: str = "euchre",
    stats: dict[int, dict[str, int]] | None = None,
    hands: int = 7,
) -> TableRecord:
    table, _ = await play_recorded(
        store, guild=guild, seats=seats, winner=winner, ended_at=ended_at, game=game,
        stats=stats, hands=hands,
    )  # fmt: skip
    return table


async def play_recorded(
    store: SqliteTableStore,
    *,
    guild: int,
    seats: Sequence[Seat],
    winner: int,
    ended_at: float,
    game: str = "euchre",
    stats: dict[int, dict[str, int]] | None = None,
    hands: int = 7,
    names: dict[int, str] | None = None,
) -> tuple[TableRecord, GameResult]:
    """A whole game through the real write path: create, start, two actions, the finishing one.
    `names` renames users (by user id) for this game."""
    table = lobby(guild=guild, channel=guild * 10, game=game, seats=seats)
    table.seats = [
        replace(s, name=names[s.user_id])
        if s is not None and s.user_id is not None and names and s.user_id in names
        else s
        for s in table.seats
    ]
    await start(store, table, started_at=ended_at - 600.0)
    await act(store, table, 0, "pass")
    await act(store, table, 1, "order")
    # The result lists the actions including the last one, as the service would send it.
    result = result_for(table, winner, ended_at, stats, hands)
    result = replace(result, actions=[*table.actions, (3, "play:AS")])
    await finish(store, table, result)
    return table, result


async def open_db(tmp_path: Path, name: str = "bot.db") -> Database:
    return await Database.open(tmp_path / name)


def peek(path: Path, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Read the file through a separate plain connection: what is really committed on disk."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def counts(path: Path) -> dict[str, int]:
    tables = ("tables", "table_seats", "table_actions", "games", "game_players", "player_stats",
              "ratings", "player_periods")  # fmt: skip
    return {t: peek(path, f"SELECT count(*) FROM {t}")[0][0] for t in tables}
