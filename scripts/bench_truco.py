"""Truco engine speed: random full hands per second on one core (target: at least 50,000).

Random players drive whole games through the public API only (to_act, legal_actions, apply,
is_over), so the figure includes the deal, validation, events and the players' choices. Every
hand of a finished game is complete, so hands = sum of (hand_number + 1) over the games.

Rates are per CPU-second of this process (time.process_time), which a busy shared machine
disturbs less than wall time; the wall-clock rate is printed too. A reference loop of plain
Python runs in the same process, so figures taken on differently loaded machines compare by
the ratio.

    .venv/bin/python scripts/bench_truco.py [--seconds 1.0] [--repeats 5]
    .venv/bin/python scripts/bench_truco.py --openspiel [--seconds 6]

`--openspiel`: the ratio to OpenSpiel's euchre instead (issue 31's mark: at least 2.0x), the
two sides alternating in short slices in one process as in bench_euchre.py, each side's figure
its hands over its own CPU time: a change of load hits both alike.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.truco import Options, new_game


def play_for(
    seconds: float, first_seed: int, chooser: random.Random
) -> tuple[int, int, float, float]:
    """Whole random games for about `seconds` of CPU: (hands, actions, cpu, wall)."""
    options = Options()
    # The players' random numbers are drawn up front and cycled, so the figure measures the
    # engine rather than the `random` module (k % n is uniform enough for a benchmark).
    rand = itertools.cycle([chooser.getrandbits(30) for _ in range(1 << 16)]).__next__
    hands = actions = 0
    seed = first_seed
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    while time.process_time() - cpu_start < seconds:
        for _ in range(100):  # read the clock every hundred games only
            game = new_game(options, seed)
            seed += 1
            legal = game.legal_actions
            apply = game.apply
            while not game.is_over:
                # The first seat listed acts (when both partners may answer an ask, which one
                # does changes nothing but the event's seat).
                seat = game.to_act[0]
                choices = legal(seat)
                apply(seat, choices[rand() % len(choices)])
            hands += game.hand_number + 1
            actions += len(game.actions)
    return hands, actions, time.process_time() - cpu_start, time.perf_counter() - wall_start


def reference_loops_per_second(seconds: float = 0.3) -> float:
    """A plain Python loop with dict, list and attribute work, as a machine-speed yardstick."""
    table = {i: i * 3 for i in range(64)}
    done = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        acc: list[int] = []
        for i in range(10_000):
            acc.append(table[i & 63] + i)
        done += 10_000
    return done / (time.process_time() - start)


def truco_hands(first_seed: int = 0) -> Iterator[int]:
    """Random truco games forever, one game at a time: yields each game's hands. The driver
    is bench_euchre.py's (random.Random.randrange at every decision), the same as OpenSpiel's
    side, so the ratio compares the engines."""
    rng = random.Random(1)
    options = Options()
    seed = first_seed
    while True:
        game = new_game(options, seed)
        seed += 1
        while not game.is_over:
            seat = game.to_act[0]
            choices = game.legal_actions(seat)
            game.apply(seat, choices[rng.randrange(len(choices))])
        yield game.hand_number + 1


def openspiel_ratio(seconds: float, slice_seconds: float = 0.05) -> None:
    from scripts.bench_euchre import openspiel_hands, run_slice

    sides = {"truco": truco_hands(), "openspiel": openspiel_hands()}
    totals = {name: [0, 0.0] for name in sides}
    for _ in range(max(1, round(seconds / slice_seconds))):
        for name, source in sides.items():
            hands, spent = run_slice(source, slice_seconds)
            totals[name][0] += hands
            totals[name][1] += spent
    rate = {name: hands / spent for name, (hands, spent) in totals.items()}
    print(f"truco random full hands:           {rate['truco']:8.0f} hands/s")
    print(f"OpenSpiel euchre via pyspiel:      {rate['openspiel']:8.0f} hands/s")
    print(f"ratio truco / OpenSpiel euchre:    {rate['truco'] / rate['openspiel']:8.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds of one run")
    parser.add_argument("--repeats", type=int, default=5, help="runs; best and median shown")
    parser.add_argument("--openspiel", action="store_true", help="the ratio to OpenSpiel's euchre")
    args = parser.parse_args()
    if args.openspiel:
        openspiel_ratio(args.seconds)
        return

    chooser = random.Random(2024)  # the players' choices only; deals come from the engine's PRNG
    play_for(0.2, 10**9, chooser)  # warm-up
    rates, wall_rates, references = [], [], []
    total_hands = total_actions = 0
    for run in range(args.repeats):
        references.append(reference_loops_per_second())
        hands, actions, cpu, wall = play_for(args.seconds, run * 10**7, chooser)
        rates.append(hands / cpu)
        wall_rates.append(hands / wall)
        total_hands += hands
        total_actions += actions
    reference = max(references)
    print(
        f"truco random full hands per CPU-second (one core): best {max(rates):,.0f}, "
        f"median {statistics.median(rates):,.0f} over {args.repeats} runs of {args.seconds:g} s; "
        f"wall-clock best {max(wall_rates):,.0f}\n"
        f"  {total_hands:,} hands, {total_actions / total_hands:.1f} actions per hand; "
        f"reference loop {reference / 1e6:.2f} M/s, so {max(rates) / reference * 1e3:.1f} "
        f"hands per thousand reference iterations"
    )


if __name__ == "__main__":
    main()
