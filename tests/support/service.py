"""A TableService on real storage for the table-layer tests: ids, a stepping clock, full tables,
random play."""

from __future__ import annotations

import itertools
import random

from bot.storage.backend import Storage
from bot.tables.service import Table, TableService
from tests.support.beacon import Announcer, MemoryBeacon

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


CLICKS = itertools.count(1_400_000_000_000_000_000)  # interaction ids, as Discord's snowflakes
CUT_WAIT = 0.05  # the table layer's humans act without a click id: each hand is cut after this


def make_service(
    db: Storage,
    seeds: itertools.count[int] | None = None,
    *,
    fair_deals: bool = True,
    fair_version: int = 2,
) -> TableService:
    """Fair deals as in production unless `fair_deals` is False (a test of the old dealing);
    version 2's beacon is in memory (tests/support/beacon.py) and its commitment messages are
    snowflakes of now (`service.fair_cuts.announce`)."""
    counter = seeds if seeds is not None else itertools.count(7)
    service = TableService(
        db.tables,
        bot_move_delay=0,
        clock=Clock(),
        seed_source=lambda: next(counter),
        fair_deals=fair_deals,
        cut_wait=CUT_WAIT,
        fair_version=fair_version,
        beacon=MemoryBeacon(),
    )
    service.fair_cuts.announce = Announcer()
    return service


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
    service.fair_cuts.seen(table.id, next(CLICKS))  # the Start click: it cuts hand 1
    await service.start(table.id, HOST)
    await cut_made(service, table)
    return table


async def cut_made(service: TableService, table: Table) -> None:
    """Until the fair hand waiting for its cut (if one does) is cut: at once after a click,
    else after the service's cut wait. The bots are not waited for."""
    await service.fair_cuts.until_cut(table.id)
    assert table.game is None or table.game.phase != "cut", "the hand was not cut"


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
        # With a click id, as the UI acts: the click that ends a hand cuts the next one.
        await service.act(table.id, user_at(table, seat), action, table.version, next(CLICKS))
        done += 1
    return done
