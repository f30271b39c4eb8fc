"""Random full hands per second: this engine next to OpenSpiel's euchre driven from Python.

    .venv/bin/python scripts/bench_euchre.py [--seconds 6] [--slice 0.05]

Both sides run the same driver: at every decision, ask for the legal actions and apply one
picked by `random.Random`. OpenSpiel's chance nodes (the dealer and the 21 cards of its deal)
are sampled the same way, through `legal_actions()`. This engine plays whole games (counting
every hand dealt, thrown-in hands included); OpenSpiel plays single hands. Options where the
rules coincide: alone=maker, lead=left_of_dealer, no lone defender, no stick the dealer.

The machine is shared, so the two sides alternate in short slices and each side's figure is
its hands over its own CPU time (`time.process_time`): a change of load hits both alike and
the ratio is what to read.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.euchre import Options, new_game

COMPARABLE = Options(alone="maker", lead="left_of_dealer")


def engine_hands(options: Options) -> Iterator[int]:
    """Plays random games forever; yields after each game the number of hands it had."""
    rng = random.Random(1)
    seed = 0
    while True:
        game = new_game(options, seed)
        seed += 1
        while not game.is_over:
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            game.apply(seat, legal[rng.randrange(len(legal))])
        yield game.hand_number + 1


def openspiel_hands() -> Iterator[int]:
    """Plays random single hands of OpenSpiel's euchre forever; yields 1 per hand."""
    import pyspiel

    game = pyspiel.load_game("euchre", {"allow_lone_defender": False, "stick_the_dealer": False})
    rng = random.Random(1)
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            # Chance nodes are uniform: their legal actions are the outcomes.
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        yield 1


def run_slice(source: Iterator[int], seconds: float) -> tuple[int, float]:
    clock: Callable[[], float] = time.process_time
    start = clock()
    hands = 0
    while clock() - start < seconds:
        hands += next(source)
    return hands, clock() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="CPU seconds per side")
    parser.add_argument("--slice", type=float, default=0.05, help="seconds per turn")
    args = parser.parse_args()
    sides = {
        "ours": engine_hands(COMPARABLE),
        "openspiel": openspiel_hands(),
        "default": engine_hands(Options()),
    }
    totals = {name: [0, 0.0] for name in sides}
    for _ in range(max(1, round(args.seconds / args.slice))):
        for name, source in sides.items():
            hands, spent = run_slice(source, args.slice)
            totals[name][0] += hands
            totals[name][1] += spent
    rate = {name: hands / spent for name, (hands, spent) in totals.items()}
    print(f"this engine (alone=maker, lead=left_of_dealer): {rate['ours']:8.0f} hands/s")
    print(f"OpenSpiel euchre via pyspiel, same driver:      {rate['openspiel']:8.0f} hands/s")
    print(
        f"ratio engine / OpenSpiel:                       {rate['ours'] / rate['openspiel']:8.2f}x"
    )
    print(f"this engine, default options (alone=anyone):   {rate['default']:8.0f} hands/s")


if __name__ == "__main__":
    main()
