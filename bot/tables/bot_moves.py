"""How strong a bot seat plays, and where its thinking runs.

Three levels: "easy" is the rule player (bot_player, instant); "normal" and "hard" are the
game's look-ahead (its search module, in bot/engine/registry.py) with a fixed number of
play-outs. The budget is a count, not a time, so a move depends only on the table (its seed, the
actions so far, the seat) and a restored table replays the same bot moves; the counts are chosen
so a hard decision stays well under 300 ms on a 2-core machine (scripts/bench_ai.py prints
the times).

The search runs in a worker process: a thread would hold the GIL for its whole think and the
event loop (and every player's 3-second answer) would wait behind it.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.engine.common import Rng
from bot.engine.protocol import GameProtocol
from bot.engine.registry import engine_for
from bot.workers import worker_pool

log = logging.getLogger(__name__)

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"

# Search budget per decision, by game and level: play-outs (euchre), sampled deals each played
# out once per card in hand (truco). scripts/bench_ai.py measures the time they take. Euchre's
# hard went from 350 to 1000 once the play-outs read the lean policy_view (1.6x faster): p99
# about 200 ms of CPU a decision, and +0.05 points a hand over 06afc71's hard at 350 (issue 35).
ITERATIONS: dict[str, dict[str, int]] = {
    "euchre": {"normal": 150, "hard": 1000},
    "truco": {"normal": 200, "hard": 800},
}

_pool: ProcessPoolExecutor | None = None


def search_seed(table_seed: int, actions_so_far: int, seat: int) -> int:
    """The seed of one decision: from the table's seed, the number of actions and the seat."""
    return Rng(table_seed, actions_so_far, seat).next64()


def think(
    game_name: str, view: dict[str, Any], history: list[tuple[int, str]], iterations: int, seed: int
) -> str:
    """One search (in the worker process): what the seat's view and hand history lead to."""
    return engine_for(game_name).search(view, history, iterations, seed)


def _worker_pool() -> ProcessPoolExecutor:
    global _pool
    if _pool is None:
        _pool = worker_pool(max_workers=2)
    return _pool


async def searched_action(
    game_name: str,
    game: GameProtocol,
    seat: int,
    level: str,
    seed: int,
    view: dict[str, Any] | None = None,
) -> str:
    """The search's move for `seat` at `level`, computed off the event loop. The view and the
    hand history are taken before the first await: the move is for the position it was asked in.
    `view`: the seat's view of this position, where the caller has it (never changed after)."""
    global _pool
    if view is None:
        view = game.view(seat)
    history = game.hand_history(seat)
    iterations = ITERATIONS[game_name][level]
    loop = asyncio.get_running_loop()
    for attempt in (1, 2):
        pool = _worker_pool()
        try:
            return await loop.run_in_executor(
                pool, think, game_name, view, history, iterations, seed
            )
        except BrokenProcessPool:
            # A worker died (killed, out of memory): start a fresh pool and ask once more.
            log.warning("the search worker pool broke (attempt %d)", attempt)
            if _pool is pool:
                _pool = None
    raise RuntimeError("the search worker pool keeps breaking")
