"""A whole game played through the emulator by clicking what the players see."""

from __future__ import annotations

import random

from bot.client import CardTableBot
from tests.support.play_driver import Chooser, GameStates, TableDriver
from tests.support.world import World


async def play_game(
    world: World,
    bot: CardTableBot,
    command: str,
    seed: int,
    *,
    humans: int = 4,
    choose: Chooser | None = None,
    **options: object,
) -> TableDriver:
    people = world.players[:humans]
    driver = TableDriver(world.emu, bot, world.table, people)
    host = people[0]
    lobby = await driver.open(host, command, **options)
    await driver.sit(lobby, people[1:], 4 - humans, host)
    await driver.start(lobby, host)
    await driver.play_to_end(random.Random(seed), choose=choose)
    states = GameStates.replay(driver.table)
    assert driver.check_public_history(states, driver.message) > 0
    assert driver.check_private_messages(states) > 0
    await driver.check_result_recorded()
    driver.assert_no_failures()
    # Channel routes only: the bot's start-up burst of emoji uploads may meet the global limit
    # (as on Discord; discord.py waits it out), the table's messages must never.
    channel_hits = [r for r in world.emu.rate_limit_hits if "/channels/" in r.path]
    assert not channel_hits, "the table message edits outran the channel's bucket"
    return driver
