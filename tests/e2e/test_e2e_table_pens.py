"""Issue 25: the table message is edited through the interaction token that posted it, off the
token's global budget (bot/ui/table/table_pens.py); a click renews that token by posting the table
again once its message is 12 minutes old; a table with no live token uses the channel route."""

from __future__ import annotations

import random

from bot.client import CardTableBot
from bot.settings import Settings
from emulator import Emulator, run_bot
from tests.support.play_driver import GameStates, TableDriver, scale_rate_limits
from tests.support.world import World

MINUTE = 60.0


def channel_edits(emu: Emulator, channel_id: int, message_id: int) -> int:
    return len(emu.requests_to("PATCH", f"/channels/{channel_id}/messages/{message_id}"))


def token_edits(emu: Emulator, message_id: int) -> int:
    return sum(
        1 for r in emu.requests_to("PATCH", "/webhooks/") if r.path.endswith(f"/{message_id}")
    )


async def test_a_table_message_is_edited_through_its_commands_token_then_a_clicks(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    scale_rate_limits(emulator, running_bot, per=1.0)
    assert running_bot.table_ui is not None
    public = running_bot.table_ui.public
    budget = running_bot.table_ui.budget
    # No turn pings and no turn timer: the channel's traffic is the table message alone, and
    # the minutes that pass must not let bots play for the people.
    driver = TableDriver(emulator, running_bot, world.table, world.players)
    lobby = await driver.open(world.alice, "euchre new", target=5, pings=False, turn_timer=0)
    await driver.sit(lobby, world.players[1:], 0, world.alice)
    await driver.start(lobby, world.alice)
    rng = random.Random(40)
    for _ in range(6):
        assert await driver.step(rng)
    await driver.settle()
    first = driver.message
    if first.interaction is None:
        # `/euchre new` was deferred (a loaded machine): the table was posted by the channel
        # route and has no token yet; it keeps that route until a click may renew it.
        assert token_edits(emulator, first.id) == 0
    else:
        # The command's answer is the table message: its edits went through its token.
        assert token_edits(emulator, first.id) > 0
        assert channel_edits(emulator, world.table.id, first.id) == 0
    budget_before = sum(budget.taken.values())

    # 12.5 minutes on: the next click's token posts the table again, at the bottom.
    emulator.clock.advance(12.5 * MINUTE)
    table = driver.table
    for _ in range(10):
        assert await driver.step(rng)
        await driver.settle()
        if table.message_id != first.id:
            break
    else:
        raise AssertionError("no click renewed the table message")
    second = driver.message
    assert first.deleted and second is world.table.last_message
    assert second.interaction is not None and second.interaction.type == 3  # a click's follow-up
    assert public.renewals >= 1
    # Play goes on: every edit of the new message goes through the click's token.
    for _ in range(6):
        assert await driver.step(rng)
    await driver.settle()
    assert token_edits(emulator, second.id) > 0
    assert channel_edits(emulator, world.table.id, second.id) == 0
    # The budget paid for one request of the renewal (deleting the old message), no edits.
    assert sum(budget.taken.values()) - budget_before <= 2

    await driver.play_to_end(rng)
    assert driver.message is second  # a game shorter than 12 more minutes: no other renewal
    states = GameStates.replay(table)
    assert driver.check_public_history(states, second) > 0
    await driver.check_result_recorded()
    assert not emulator.take_violations(50027)  # no edit through a dead token
    driver.assert_no_failures()


async def test_after_a_restart_the_table_is_edited_by_the_channel_route(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    rng = random.Random(41)
    async with run_bot(emulator, bot_settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        driver = TableDriver(emulator, bot, world.table, world.players)
        lobby = await driver.open(world.alice, "truco new", target=6, pings=False, turn_timer=0)
        await driver.sit(lobby, world.players[1:], 0, world.alice)
        await driver.start(lobby, world.alice)
        for _ in range(4):
            assert await driver.step(rng)
        await driver.settle()
        message = driver.message

    async with run_bot(emulator, bot_settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        driver = TableDriver(emulator, bot, world.table, world.players)
        before = channel_edits(emulator, world.table.id, message.id)
        tokens_before = token_edits(emulator, message.id)
        for _ in range(4):
            assert await driver.step(rng)
        await driver.settle()
        # The pen died with the process: the message (young) keeps its place, edited by id.
        assert driver.message is message
        assert channel_edits(emulator, world.table.id, message.id) > before
        assert token_edits(emulator, message.id) == tokens_before
        await driver.play_to_end(rng)
        states = GameStates.replay(driver.table)
        assert driver.check_public_history(states, message) > 0
        driver.assert_no_failures()
