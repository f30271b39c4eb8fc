"""Bot moves off the event loop (bot/tables/bot_moves.py): the worker process gives the move the
search gives in-process, and a dead worker is replaced."""

from __future__ import annotations

import os
import signal

import pytest

from bot.engine.euchre import Options, new_game
from bot.engine.euchre import search as euchre_search
from bot.engine.truco import Options as TrucoOptions
from bot.engine.truco import new_game as new_truco
from bot.engine.truco import search as truco_search
from bot.tables import bot_moves


@pytest.fixture
def small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    for game in ("euchre", "truco"):
        monkeypatch.setitem(bot_moves.ITERATIONS, game, {"normal": 10, "hard": 20})


async def test_the_worker_moves_as_the_search_does(small_budgets: None) -> None:
    game = new_game(Options(), 42)
    seat = game.to_act[0]
    for level, budget in (("normal", 10), ("hard", 20)):
        moved = await bot_moves.searched_action("euchre", game, seat, level, 7)
        assert moved == euchre_search.choose_action(game, seat, budget, 7)
    truco = new_truco(TrucoOptions(), 42)
    seat = truco.to_act[0]
    moved = await bot_moves.searched_action("truco", truco, seat, "hard", 7)
    assert moved == truco_search.choose_action(truco, seat, 20, 7)


async def test_a_killed_worker_is_replaced(small_budgets: None) -> None:
    game = new_game(Options(), 5)
    seat = game.to_act[0]
    first = await bot_moves.searched_action("euchre", game, seat, "hard", 1)
    pool = bot_moves._worker_pool()
    for pid in list(pool._processes):
        os.kill(pid, signal.SIGKILL)
    assert await bot_moves.searched_action("euchre", game, seat, "hard", 1) == first
    assert bot_moves._worker_pool() is not pool
