"""A TableService on real storage for the table-layer tests: ids, a stepping clock, full tables,
random play."""

from __future__ import annotations

import itertools
import random

from bot.storage.backend import Storage
from bot.tables.service import Table, TableService

GUILD = 1000
HOST, ANA, BIA, CAU, DUDA = 11, 12, 13, 14, 15


CHANNEL = 2000


class Clock:
    """A clock that moves one second per reading: distinct, ordered timestamps."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def make_service(
    db: Storage, seeds: itertools.count[int] | None = None, *, fair_deals: bool = False
) -> TableService:
    """The old dealing unless `fair_deals` (the tests written before fair deals)."""
    counter = seeds if seeds is not None else itertools.count(7)
    return TableService(
        db.tables,
        bot_move_delay=0,
        clock=Clock(),
        seed_source=lambda: next(counter),
        fair_deals=fair_deals,
    )


async def full_table(
    service: TableService,
    game: str = "truco",
    options: dict[str, object] | None = None,
    channel: int = CHANNEL,
) -> Table:
    table = await service.create(
        guild_id=GUILD,
        channel_id=channel,
        host_id=HOST,
        host_name="Host",
        game=game,
        options=options,
    )
    for user, name in ((ANA, "Ana"), (BIA, "Bia"), (CAU, "Cau")):
        await service.join(table.id, user, name)
    await service.start(table.id, HOST)
    return table


def user_at(table: Table, seat: int) -> int:
    user = table.player_at(seat).user_id
    assert user is not None
    return user


async def play_random(
    service: TableService, table: Table, rng: random.Random, max_actions: int | None = None
) -> int:
    """Humans play random legal moves until the game ends (or `max_actions`)."""
    done = 0
    while table.game is not None and not table.game.is_over:
        if max_actions is not None and done >= max_actions:
            break
        humans = [s for s in table.game.to_act if not table.is_bot_seat(s)]
        if not humans:
            await service.wait_for_bots(table.id)
            continue
        seat = rng.choice(humans)
        action = rng.choice(table.game.legal_actions(seat))
        await service.act(table.id, user_at(table, seat), action, table.version)
        done += 1
    return done
