"""Truco hard of any commit, on that commit's own code, against the rule player or a bluffer:
games to 12 won, with a 95% interval. It reproduces the issue's figures for an older hard, so the
bluffer and the rule player of scripts/bench_ai.py can be checked against the ones the issue used.

    .venv/bin/python scripts/bench_truco_rev.py REV [--opponent rules|bluffer|bluffer-rules]
        [--games 1000] [--first 0] [--jobs 2]

REV is a commit (its `bot/` is taken with `git archive`) or `.` for this tree. Each seed is
played twice with the seats swapped, as in bench_ai.py: seeds 5,000,000 + index, REV's hard at
REV's budget, each decision's seed from REV's `search_seed`. The bluffer raises whenever it may,
accepts every ask it cannot raise, and plays a legal card at random (bluffer) or like the rule
player (bluffer-rules); the rule player is REV's own.
"""

from __future__ import annotations

import argparse
import io
import itertools
import math
import random
import subprocess
import sys
import tarfile
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _tree(rev: str, into: str) -> str:
    """The directory whose `bot/` is REV's."""
    if rev == ".":
        return str(ROOT)
    archive = subprocess.run(
        ["git", "archive", rev, "bot"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def _games(root: str, opponent: str, first: int, count: int) -> list[float]:
    """Pairs of games (both seatings) from seed `first` on: the hard pair's share won."""
    sys.path.insert(0, root)  # a fresh worker process: REV's `bot` is the one imported
    from bot.engine.truco import Options, new_game, search
    from bot.engine.truco import bot_player as rules
    from bot.tables.bot_moves import ITERATIONS, search_seed

    hard = ITERATIONS["truco"]["hard"]  # REV's hard at its own budget

    def other(game: Any, seat: int, rng: random.Random) -> str:
        legal = game.legal_actions(seat)
        if opponent != "rules":
            for action in ("raise", "accept"):
                if action in legal:
                    return str(action)
            if opponent == "bluffer":
                return str(legal[rng.randrange(len(legal))])
        return str(rules.choose_action(game, seat))

    pairs = []
    for index in range(first, first + count):
        won = 0
        for team in (0, 1):
            game = new_game(Options(), 5_000_000 + index)
            rng = random.Random(index)
            while not game.is_over:
                seat = game.to_act[0]
                if seat % 2 == team:
                    legal = game.legal_actions(seat)
                    if len(legal) == 1:
                        action = legal[0]
                    else:
                        seed = search_seed(index, len(game.actions), seat)
                        action = search.choose_action(game, seat, hard, seed)
                else:
                    action = other(game, seat, rng)
                game.apply(seat, action)
            won += game.winner == team
        pairs.append(won / 2)
    return pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("rev", help="a commit, or . for this tree")
    parser.add_argument(
        "--opponent", choices=("rules", "bluffer", "bluffer-rules"), default="bluffer"
    )
    parser.add_argument("--games", type=int, default=1000, help="games (even: seeds x 2)")
    parser.add_argument("--first", type=int, default=0, help="first seed index")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    seeds = args.games // 2
    with tempfile.TemporaryDirectory() as tmp:
        root = _tree(args.rev, tmp)
        cuts = [args.first + seeds * j // args.jobs for j in range(args.jobs + 1)]
        with ProcessPoolExecutor(args.jobs) as pool:
            parts = pool.map(
                _games,
                [root] * args.jobs,
                [args.opponent] * args.jobs,
                cuts[:-1],
                [b - a for a, b in itertools.pairwise(cuts)],
            )
            pairs = [p for part in parts for p in part]
    mean = sum(pairs) / len(pairs)
    sd = math.sqrt(sum((p - mean) ** 2 for p in pairs) / max(1, len(pairs) - 1))
    half = 1.96 * sd / math.sqrt(len(pairs))
    print(
        f"truco hard of {args.rev} vs {args.opponent}, {2 * len(pairs)} games from seed "
        f"{args.first}: {100 * mean:.1f}% +/- {100 * half:.1f}"
    )


if __name__ == "__main__":
    main()
