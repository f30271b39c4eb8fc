"""How often does a fair table wait for a cut, and for how long? (issue 24 follow-up)

One person and three bots play whole games on the real TableService (SQLite in a temporary
folder). The person acts like the UI does: every action carries its click's interaction id, so
the click that ends a hand cuts the next one at once, and any click made during a hand (after
the next hand's commitment was shown) may cut the next hand. A hand that ends with no unused
click at all waits for a click that never comes here, then falls back; each such hand would make
a real table stand still for the whole wait (`FairCuts.wait`, 15 s in production).

Printed per game: hands, hands cut without waiting, hands that waited, and the time a real table
would have stood still (waits x the production wait).

    python3 scripts/fair_cut_waits.py              # 20 games of each
    python3 scripts/fair_cut_waits.py --games 5
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.settings import DatabaseTarget
from bot.storage.backend import open_storage
from bot.tables.fair import CUT_WAIT, FairCuts
from bot.tables.service import Table, TableService

HOST = 11
TEST_WAIT = 0.005  # here: the fallback comes at once (the count, not the time, is measured)


class Counted:
    """Counts the cuts that fell back after the wait (wraps FairCuts._fallback)."""

    def __init__(self, cuts: FairCuts) -> None:
        self.waits = 0
        inner = cuts._fallback

        def fallback(table: Table) -> str:
            self.waits += 1
            return inner(table)

        cuts._fallback = fallback  # type: ignore[method-assign]


async def one_game(service: TableService, game: str, channel: int, rng: random.Random) -> int:
    clicks = itertools.count(1_400_000_000_000_000_000 + channel * 1_000_000)
    table = await service.create(
        guild_id=1000, channel_id=channel, host_id=HOST, host_name="Host", game=game
    )
    for _ in range(3):
        await service.add_bot(table.id, HOST, level="easy")
    service.fair_cuts.seen(table.id, next(clicks))  # the Start click
    await service.start(table.id, HOST)
    while True:
        await service.wait_for_bots(table.id)
        played = table.game
        assert played is not None
        if played.is_over:
            break
        seat = table.seat_of(HOST)
        assert seat is not None and seat in played.to_act, played.phase
        action = rng.choice(played.legal_actions(seat))
        await service.act(table.id, HOST, action, table.version, next(clicks))
    return len(played.fair_records())


async def main(games: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        storage = await open_storage(DatabaseTarget("sqlite", path=Path(folder) / "t.sqlite3"))
        # version 1's cuts: the waits this script measures (version 2 is cut by the beacon)
        service = TableService(storage.tables, bot_move_delay=0, cut_wait=TEST_WAIT, fair_version=1)
        counted = Counted(service.fair_cuts)
        rng = random.Random(24)
        channel = itertools.count(1)
        try:
            for game in ("euchre", "truco"):
                hands = waits = 0
                worst = 0
                for _ in range(games):
                    before = counted.waits
                    hands += await one_game(service, game, next(channel), rng)
                    waited = counted.waits - before
                    waits += waited
                    worst = max(worst, waited)
                print(
                    f"{game}: {games} games, {hands} hands ({hands / games:.1f} a game); "
                    f"{waits} hands waited for a cut ({100 * waits / max(hands, 1):.1f}%, "
                    f"{waits / games:.2f} a game, at most {worst} in one game); "
                    f"a real table stands still {CUT_WAIT * waits / games:.1f} s a game "
                    f"(at most {CUT_WAIT * worst:.0f} s) at {CUT_WAIT:.0f} s a wait"
                )
        finally:
            await service.close()
            await storage.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    asyncio.run(main(parser.parse_args().games))
