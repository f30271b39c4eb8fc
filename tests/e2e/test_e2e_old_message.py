"""A table that plays for more than an hour: Discord limits edits of messages older than an hour
(error 30046). The bot then posts the table again at the bottom of the channel, deletes the old
message, and the game goes on from the new one with nothing lost."""

from __future__ import annotations

import random

import discord
import pytest

from bot.client import CardTableBot
from bot.ui.table import render
from emulator import Emulator
from tests.support import shown
from tests.support.play_driver import GameStates, TableDriver, scale_rate_limits
from tests.support.world import ProbeFactory, World

HOUR = 3600.0


async def test_an_old_table_message_out_of_edits_is_reposted_and_play_goes_on(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    scale_rate_limits(emulator, running_bot, per=1.0)
    assert running_bot.table_ui is not None
    # An hour passes for the bot too: its live hands must not use tokens Discord killed.
    running_bot.table_ui.live_hands.clock = emulator.clock.now
    # A table whose message no click posted again (no live token: bot/ui/table/table_pens.py): its
    # edits take the channel route, where an hour-old message runs out of edits. (With tokens,
    # a click after 12 minutes posts it again first: tests/e2e/test_e2e_table_pens.py.)
    running_bot.table_ui.public.use_tokens = False
    driver = TableDriver(emulator, running_bot, world.table, world.players)
    # No turn pings (the reposted table message must be the channel's last message) and no turn
    # timer (the hour that passes must not let bots play for the people).
    lobby = await driver.open(world.alice, "truco new", target=12, pings=False, turn_timer=0)
    await driver.sit(lobby, world.players[1:], 0, world.alice)
    await driver.start(lobby, world.alice)
    rng = random.Random(30)
    for _ in range(3):
        assert await driver.step(rng)
    await driver.settle()
    old = driver.message
    table = driver.table

    emulator.set_old_message_edits(limit=2, per=HOUR)
    emulator.clock.advance(HOUR + 1)  # the table message is now older than an hour
    for _ in range(40):
        assert await driver.step(rng)
        await driver.settle()
        if table.message_id != old.id:
            break
    else:
        raise AssertionError("the table message was never reposted")

    refusals = emulator.old_message_edit_refusals
    assert [r.message_id for r in refusals] == [old.id]
    assert old.edits >= 2 and old.deleted
    new = driver.message
    assert new is world.table.last_message and not new.deleted
    assert new.created_at > old.created_at
    # The state as it is now, nothing lost: the table's current version, drawn as it is now.
    assert shown.picture_version(emulator, new.versions[-1]) == table.version
    assert shown.readable(new.versions[-1]) == shown.rendered(render.table_message(table))

    # The game goes on from the new message ("Show my hand" on it) to its end.
    await driver.play_to_end(rng)
    assert driver.message is new
    states = GameStates.replay(table)
    assert driver.check_public_history(states, new) > 0
    assert driver.check_private_messages(states) > 0
    await driver.check_result_recorded()
    driver.assert_no_failures()
    assert len(emulator.old_message_edit_refusals) == 1  # the new message is young: no more


async def test_the_emulator_limits_edits_of_old_messages_only_when_enabled(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async def nothing(interaction: discord.Interaction) -> None:
        return None

    async with probe_bot(nothing) as bot:
        channel = bot.get_partial_messageable(world.table.id, guild_id=world.guild.id)
        sent = await channel.send("table")
        message = channel.get_partial_message(sent.id)
        emulator.clock.advance(HOUR + 1)
        for number in range(5):  # off by default: Discord publishes no numbers
            await message.edit(content=f"edit {number}")
        emulator.set_old_message_edits(limit=2, per=600.0)
        young = await channel.send("young")
        for number in range(5):  # a message younger than an hour is neither limited nor counted
            await channel.get_partial_message(young.id).edit(content=f"young {number}")
        await message.edit(content="one")
        await message.edit(content="two")
        with pytest.raises(discord.HTTPException) as refused:
            await message.edit(content="three")
        assert refused.value.status == 400 and refused.value.code == 30046
        assert [r.message_id for r in emulator.old_message_edit_refusals] == [sent.id]
        stored = world.table.public(sent.id)
        assert stored is not None and stored.content == "two"
        assert not emulator.violations  # a limit to handle, not a broken rule
        emulator.clock.advance(601)  # the window has passed
        await message.edit(content="three")
        assert stored.content == "three"  # live: always the latest state
