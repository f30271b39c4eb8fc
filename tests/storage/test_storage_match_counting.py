"""How a best-of match counts on the board (issue 23): once by default, or once per game when
the server's admin says so (server_settings, migration 008), on both back-ends."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.storage.backend import Storage
from bot.storage.ratings import Skill, rate_game
from bot.storage.recording import COUNT_MATCHES
from bot.storage.server_settings import ServerSettings
from tests.support.stored_games import act, finish, lobby, result_for, start

GUILD = 77


async def record_match(storage: Storage, winners: tuple[int, ...], ended_at: float) -> None:
    """A truco match through the real write path, the games won by `winners` in turn."""
    table = lobby(guild=GUILD, channel=GUILD * 10, game="truco", seats=[1, 2, 3, 4])
    await start(storage.tables, table, started_at=ended_at - 600.0)  # type: ignore[arg-type]
    await act(storage.tables, table, 0, "raise")  # type: ignore[arg-type]
    result = result_for(table, winners[-1], ended_at)
    result = replace(result, actions=[*table.actions, (3, "play:AS")], game_winners=winners)
    await finish(storage.tables, table, result)  # type: ignore[arg-type]


async def board(storage: Storage) -> dict[int, tuple[int, int, int]]:
    """user id -> (games, wins, shown rating) on the all-time board."""
    page = await storage.results.leaderboard(GUILD, "truco", min_games=1)
    return {row.user_id: (row.games, row.wins, row.rating) for row in page.rows}


async def test_a_match_counts_once_by_default(storage: Storage) -> None:
    settings = ServerSettings(storage.db)
    assert await settings.get(GUILD, COUNT_MATCHES) == "match"
    await record_match(storage, (0, 1, 0), 1_000_000.0)
    rows = await board(storage)
    assert {u: r[:2] for u, r in rows.items()} == {1: (1, 1), 3: (1, 1), 2: (1, 0), 4: (1, 0)}


async def test_a_server_may_count_each_game_of_a_match(storage: Storage) -> None:
    settings = ServerSettings(storage.db)
    await settings.set(GUILD, COUNT_MATCHES, "game")
    assert await settings.get(GUILD, COUNT_MATCHES) == "game"
    assert await settings.get(GUILD + 1, COUNT_MATCHES) == "match"  # per server
    await record_match(storage, (0, 1, 0), 1_000_000.0)
    rows = await board(storage)
    assert {u: r[:2] for u, r in rows.items()} == {1: (3, 2), 3: (3, 2), 2: (3, 1), 4: (3, 1)}
    # Rated game by game, in the order played: as three games in a row would be.
    table = lobby(guild=GUILD, channel=1, game="truco", seats=[1, 2, 3, 4])
    players = result_for(table, 0, 0.0).players
    skills: dict[int, Skill] = {}
    for winner in (0, 1, 0):
        skills.update(rate_game(players, winner, skills))
    assert rows[1][2] == skills[1].display and rows[2][2] == skills[2].display
    stats = await storage.results.player_stats(GUILD, 1, "truco")
    assert stats.records["truco"].games == 3 and stats.records["truco"].wins == 2


async def test_an_unknown_count_is_refused(storage: Storage) -> None:
    settings = ServerSettings(storage.db)
    with pytest.raises(ValueError):
        await settings.set(GUILD, COUNT_MATCHES, "hand")
    with pytest.raises(ValueError):
        await settings.set(GUILD, "colour", "red")
