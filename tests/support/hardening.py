"""A table started through the emulator for the hardening and fault tests."""

from __future__ import annotations

from bot.client import CardTableBot
from tests.support.play_driver import TableDriver
from tests.support.world import World


async def started_table(
    world: World, bot: CardTableBot, command: str, **settings: object
) -> TableDriver:
    driver = TableDriver(world.emu, bot, world.table, world.players)
    lobby = await driver.open(world.alice, command, pings=False, turn_timer=0, **settings)
    await driver.sit(lobby, world.players[1:], 0, world.alice)
    await driver.start(lobby, world.alice)
    await driver.settle()
    return driver
