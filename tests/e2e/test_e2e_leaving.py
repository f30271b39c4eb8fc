"""Issue 21 items 1 and 2, end to end: leaving a running game asks first (a private answer with
one more button), and what leaving did is said truly — a bot plays the seat, the table closes
(the last person left), or the seat is free for the next game (the Play-again ready check)."""

from __future__ import annotations

import random

from bot.client import CardTableBot
from bot.texts import t
from emulator import Emulator
from tests.support.play_driver import TableDriver
from tests.support.world import World


async def test_item2_leave_asks_first_and_item1_the_last_person_closes_the_table(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    alice = world.players[0]
    driver = TableDriver(emulator, running_bot, world.table, world.players)
    lobby = await driver.open(alice, "truco new", target=6)
    await driver.sit(lobby, [], 3, alice)
    message = await driver.start(lobby, alice)
    table = driver.table

    asked = await alice.click(message, t("table.button.leave", driver.locale))
    assert asked.ephemeral and asked.content == t("table.leave.confirm_last", alice.locale)
    # Nothing happened yet: she still plays.
    assert table.status == "playing" and table.humans() == [alice.id] and not table.closed

    left = await alice.click(asked, t("table.leave.button", alice.locale))
    assert left.ephemeral and left.content == t("table.left.closed", alice.locale)
    assert table.closed and driver.service.in_channel(world.table.id) is None
    driver.assert_no_failures()


async def test_item1_leaving_the_ready_check_frees_the_seat_for_the_next_game(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    alice, bob = world.players[:2]
    driver = TableDriver(emulator, running_bot, world.table, world.players)
    lobby = await driver.open(alice, "truco new", target=6)
    await driver.sit(lobby, [bob], 2, alice)
    message = await driver.start(lobby, alice)
    table = driver.table
    await driver.play_to_end(random.Random(3))
    assert table.status == "finished"

    # No game runs: no question, and no word of a bot playing the seat.
    left = await bob.click(message, t("table.button.leave", driver.locale))
    assert left.ephemeral and left.content == t("table.left.after_game", bob.locale)
    assert table.position_of(bob.id) is None and not table.closed
    driver.assert_no_failures()
