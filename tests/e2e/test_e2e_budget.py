"""The bot within Discord's global limit (issue 25): its channel traffic goes through one budget;
when the budget is saturated, clicks are still answered at once and nothing is lost — every
table message ends showing its table's latest state."""

from __future__ import annotations

import asyncio
import random

from bot.client import CardTableBot
from bot.ui.kit.budget import GlobalBudget, Priority
from emulator import Emulator
from tests.support.play_driver import TableDriver
from tests.support.world import World


async def test_under_a_saturated_budget_every_table_message_ends_at_the_latest_state(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    # A budget of 4 requests a second for the whole bot (Discord's is 50): two busy tables
    # with turn pings want many times that.
    budget = GlobalBudget(per_second=4, burst=1)
    running_bot.table_ui.budget = budget
    running_bot.table_ui.public.budget = budget
    # The channel route's edits (a table no click's token can edit: bot/ui/table/table_pens.py).
    running_bot.table_ui.public.use_tokens = False
    second = world.guild.add_channel("second")
    others = [emulator.add_user(f"p{n}", locale="en-US") for n in range(4)]
    for person in others:
        world.guild.add_member(person)
    drivers = []
    for channel, people in ((world.table, world.players), (second, others)):
        driver = TableDriver(emulator, running_bot, channel, people)
        lobby = await driver.open(people[0], "euchre new", pings=True, turn_timer=0, ping_after=0)
        await driver.sit(lobby, people[1:], 0, people[0])
        await driver.start(lobby, people[0])
        drivers.append(driver)

    async def play(driver: TableDriver, seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(12):
            if not await driver.step(rng):
                break

    await asyncio.gather(play(drivers[0], 1), play(drivers[1], 2))
    assert budget.waited > 0, "the budget was saturated (requests waited for it)"
    assert budget.taken[Priority.WATCHED] and budget.taken[Priority.PING]
    for driver in drivers:
        await driver.settle()  # the message shows the table's current version, in the end
        driver.assert_no_failures()  # and every click was answered
