"""Bytes held in bot/engine/fair_deal.py per further action of a fair euchre game (tracemalloc),
the figure issue 31 measured (~103 B per action in the bot before issue 32).

    PYTHONPATH=. .venv/bin/python scripts/fair_memory.py fair-v2   (or fair-v1)

30 games are played to 20 and to 100 actions (random legal moves, the view rendered after each
action as a table does); what fair_deal.py allocated and still holds is divided by the games.
"""

from __future__ import annotations

import gc
import random
import sys
import tracemalloc
from typing import Any

from bot.engine import fair_deal
from bot.engine.euchre.game import new_game
from bot.engine.euchre.options import Options

MESSAGE = 1143924991197315072  # a commitment message (docs/fair-deals.md's example)


def play(deal: str, actions: int, seed: int) -> Any:
    rng = random.Random(seed)
    options = Options(deal=deal, players=("1", "2", "3", "4"), target=10)
    game = new_game(options, (1 << 255) + seed)
    done = 0
    while not game.is_over and done < actions:
        if game.phase == "cut":
            fair = game.view(None)["fair"]
            if deal == fair_deal.DEAL_OPTION:
                game.apply(fair["cutter"], "cut:1311111111111111111")
                continue
            if fair.get("message") is None:
                game.apply(fair["cutter"], f"cut:msg:{MESSAGE}")
            number = fair_deal.beacon_round(MESSAGE, fair["hand"])
            game.apply(fair["cutter"], f"cut:drand:{number}:{'ab' * 32}")
        else:
            seat = game.to_act[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            done += 1
        game.view(None)
    return game


def held(deal: str, actions: int, games: int = 30) -> float:
    gc.collect()
    tracemalloc.start()
    kept = [play(deal, actions, seed) for seed in range(games)]
    gc.collect()
    snapshot = tracemalloc.take_snapshot()
    tracemalloc.stop()
    mine = snapshot.filter_traces([tracemalloc.Filter(True, "*fair_deal.py")])
    total = sum(stat.size for stat in mine.statistics("filename"))
    del kept
    return total / games


def main() -> None:
    deal = sys.argv[1] if len(sys.argv) > 1 else fair_deal.DEAL_V2
    at_20, at_100 = held(deal, 20), held(deal, 100)
    print(
        f"{deal}: fair_deal.py holds {at_20:.0f} B at 20 actions, {at_100:.0f} B at 100 "
        f"actions per game: {(at_100 - at_20) / 80:.1f} B per further action"
    )


if __name__ == "__main__":
    main()
