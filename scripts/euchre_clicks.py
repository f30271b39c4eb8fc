"""Clicks per hand of a whole euchre game for one person (issue 21 item 3), before and after
the going-alone question stopped asking people.

One person and three easy bots play whole euchre games (alone=anyone, the default) through the
real table service on a throw-away SQLite file. The person plays as the easy bot would (the
table's rule player), one click per action they take through `TableService.act`. "before":
the table leaves the going-alone question to the person (as before issue 21: one click each
time they are asked). "after": the table answers it for them at once; the person bids plain
and never switches "Go alone" on (a person who wants to go alone as a non-maker spends one
click on the switch that hand; a maker says it with the bid, no extra click).

    .venv/bin/python scripts/euchre_clicks.py [games]
"""

from __future__ import annotations

import asyncio
import itertools
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.settings import DatabaseTarget
from bot.storage.backend import open_storage
from bot.tables import alone
from bot.tables.service import TableService

PERSON = 11


async def one_game(service: TableService, channel: int) -> tuple[int, int, int]:
    """(clicks, hands, questions the person was asked) of one whole game."""
    table = await service.create(
        guild_id=1, channel_id=channel, host_id=PERSON, host_name="P", game="euchre"
    )
    for _ in range(3):
        await service.add_bot(table.id, PERSON, level="easy")
    await service.start(table.id, PERSON)
    game = table.game
    assert game is not None
    clicks = asked = 0
    while not game.is_over:
        seat = table.seat_of(PERSON)
        if seat is None or seat not in game.to_act:
            await service.wait_for_bots(table.id)
            continue
        action = table.rules.bot_action(game, seat)
        if action in alone.ANSWERS:
            asked += 1
        await service.act(table.id, PERSON, action, table.version)
        clicks += 1
    hands = game.hand_number + 1
    await service.end(table.id, PERSON)
    return clicks, hands, asked


async def run(mode: str, games: int) -> list[tuple[int, int, int]]:
    with tempfile.TemporaryDirectory() as folder:
        storage = await open_storage(DatabaseTarget("sqlite", Path(folder) / "clicks.sqlite3"))
        seeds = itertools.count(1)
        service = TableService(storage.tables, bot_move_delay=0, seed_source=lambda: next(seeds))
        due = alone.answer_due
        if mode == "before":
            alone.answer_due = lambda table: None  # type: ignore[assignment]
        try:
            return [await one_game(service, 100 + g) for g in range(games)]
        finally:
            alone.answer_due = due  # type: ignore[assignment]
            await service.close()
            await storage.close()


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    for mode in ("before", "after"):
        rows = asyncio.run(run(mode, games))
        clicks = sum(r[0] for r in rows)
        hands = sum(r[1] for r in rows)
        asked = sum(r[2] for r in rows)
        per_game = statistics.mean(r[0] for r in rows)
        print(
            f"{mode:6}: {games} games, {hands} hands, {clicks} clicks: "
            f"{clicks / hands:.2f} clicks per hand ({per_game:.1f} per game), "
            f"going-alone questions clicked: {asked} ({asked / hands:.2f} per hand)"
        )


if __name__ == "__main__":
    main()
