"""The long crash test: the bot as a separate process, SIGKILLed many times at random points of
many games, restarted, and the games finished by clicking the same old buttons. Every check of
tests/e2e/test_crash_restart.py runs (it is the same `CrashScenario`); prints how many kills were
survived.

    .venv/bin/python scripts/soak_crash.py [--rounds 3] [--seed 1] [--kills-per-kind 6]

Each round is a fresh emulator and database with eight tables (Euchre with various options,
Truco, four people or two people and two bots), each playing two games or more while kills
remain to be made.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from emulator import Emulator
from tests.support.crash import (
    BIDDING,
    IN_FLIGHT,
    LAST_CARD,
    LOBBY,
    LOBBY_CLICK,
    MID_TRICK,
    TRUCO_ASK,
    CrashScenario,
    TableSpec,
)

SOAK_SPECS = [
    TableSpec("euchre-1", "euchre new", {"target": 5}, humans=4, games=2),
    TableSpec(
        "euchre-2",
        "euchre new",
        {"target": 5, "stick_the_dealer": True, "alone": "maker", "seating": "draw"},
        humans=4,
        games=2,
    ),
    TableSpec("euchre-3", "euchre new", {"target": 7, "deck": 32}, humans=4, games=1),
    TableSpec("euchre-bots", "euchre new", {"target": 5, "lead": "left_of_dealer"}, humans=2),
    TableSpec("truco-1", "truco new", {"target": 6}, humans=4, games=2),
    TableSpec("truco-2", "truco new", {}, humans=4, games=1),
    TableSpec("truco-bots", "truco new", {"target": 6}, humans=2, games=2),
    TableSpec("truco-bots-2", "truco new", {"target": 6}, humans=2, games=2),
]


async def soak(rounds: int, seed: int, per_kind: int) -> int:
    kills = {
        LOBBY: per_kind,
        LOBBY_CLICK: max(1, per_kind // 2),
        BIDDING: per_kind,
        MID_TRICK: per_kind,
        TRUCO_ASK: per_kind,
        LAST_CARD: per_kind,
        IN_FLIGHT: 2 * per_kind,
    }
    total: Counter[str] = Counter()
    games = 0
    started = time.monotonic()
    for n in range(rounds):
        with tempfile.TemporaryDirectory(prefix="soak-crash-") as workdir:
            emu = Emulator()
            await emu.start()
            try:
                scenario = CrashScenario(
                    emu,
                    Path(workdir),
                    SOAK_SPECS,
                    seed=seed + n,
                    kills=kills,
                    in_flight_chance=0.05,
                    max_extra_games=6,
                )
                report = await scenario.run(time_limit=1800)
            finally:
                await emu.stop()
        print(f"round {n + 1}/{rounds} (seed {seed + n}): {report.summary()}", flush=True)
        total.update(report.by_kind)
        games += report.games
    kinds = ", ".join(f"{k}: {v}" for k, v in sorted(total.items()))
    print(
        f"SURVIVED {sum(total.values())} kills in {rounds} rounds ({kinds}); {games} games "
        f"recorded exactly once; {time.monotonic() - started:.0f} s"
    )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kills-per-kind", type=int, default=6)
    args = parser.parse_args()
    return asyncio.run(soak(args.rounds, args.seed, args.kills_per_kind))


if __name__ == "__main__":
    sys.exit(main())
