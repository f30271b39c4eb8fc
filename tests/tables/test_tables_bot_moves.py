"""Bot moves off the event loop (bot/tables/bot_moves.py): the worker process gives the move the
search gives in-process, and a dead worker is replaced."""

from __future__ import annotations

import os
import random
import signal

import pytest

from bot.engine.euchre import Options, new_game
from bot.engine.euchre import search as euchre_search
from bot.engine.truco import Options as TrucoOptions
from bot.engine.truco import new_game as new_truco
from bot.engine.truco import search as truco_search
from bot.storage import Database
from bot.tables import bot_moves
from tests.support.service import CHANNEL, GUILD, HOST, make_service, play_random


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


@pytest.mark.parametrize("game", ["truco", "euchre"])
async def test_bots_of_every_level_finish_a_game_and_keep_their_level(
    db: Database, small_budgets: None, game: str
) -> None:
    """One person and a bot of each level: every bot move goes through the apply path (an
    illegal one would stop the bots and the game would never end); a restored table keeps each
    seat's level."""
    service = make_service(db)
    try:
        table = await service.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            host_id=HOST,
            host_name="Host",
            game=game,
            options={"target": 5} if game == "euchre" else None,
        )
        for level in bot_moves.LEVELS:
            await service.add_bot(table.id, HOST, level=level)
        assert [s.level for s in table.seats[1:] if s is not None] == list(bot_moves.LEVELS)
        await service.set_message(table.id, 555)
        await service.start(table.id, HOST)
    finally:
        await service.close()
    restored = make_service(db)
    try:
        await restored.restore()
        table = restored.get(table.id)
        assert [s.level for s in table.seats[1:] if s is not None] == list(bot_moves.LEVELS)
        await play_random(restored, table, random.Random(1))
        assert table.game is not None and table.game.is_over
    finally:
        await restored.close()
