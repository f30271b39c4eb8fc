"""Issue 33, defect 1, end to end: two people and two bots play euchre to its end, one person
clicks Leave, the bot stops and starts again on the same database. The table comes back: Play
again, Start now, /table show and /table end answer as they did before the restart (they used to
answer "This table no longer exists.", the table left unrestored at every start-up)."""

from __future__ import annotations

import random

from bot.settings import Settings
from bot.texts import t
from emulator import Emulator, Message, run_bot
from tests.support.play_driver import TableDriver, scale_rate_limits
from tests.support.world import World

GONE = t("table.error.no_table", None)


async def finished_and_left(emulator: Emulator, world: World, settings: Settings) -> int:
    """A finished euchre table that Bob left; the table's id."""
    alice, bob = world.players[:2]
    async with run_bot(emulator, settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        driver = TableDriver(emulator, bot, world.table, world.players)
        lobby = await driver.open(alice, "euchre new", target=5)
        await driver.sit(lobby, [bob], 2, alice)
        message = await driver.start(lobby, alice)
        await driver.play_to_end(random.Random(33))
        assert driver.table.status == "finished"
        left = await bob.click(message, t("table.button.leave", driver.locale))
        assert left.ephemeral and left.content == t("table.left.after_game", bob.locale)
        assert driver.table.seats[1] is None
        driver.assert_no_failures()
        return driver.table.id


async def test_play_again_start_now_and_table_show_after_a_restart(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    alice = world.alice
    table_id = await finished_and_left(emulator, world, bot_settings)
    async with run_bot(emulator, bot_settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        driver = TableDriver(emulator, bot, world.table, world.players)
        assert driver.table.id == table_id and driver.table.status == "finished"
        shown: Message = await alice.slash(world.table, "table show")
        assert GONE not in shown.content
        message = driver.message
        ready = await alice.click(message, t("result.button.again", driver.locale))
        assert ready.ephemeral and ready.content == t("result.you_are_ready", alice.locale)
        await alice.click(message, t("result.button.start_now", driver.locale))
        await message.wait_until(
            lambda m: any(b.custom_id == f"tb:{table_id}:hand" for b in m.buttons), timeout=15
        )
        table = driver.table
        assert table.status == "playing" and table.is_full
        assert table.seats[1] is not None and table.seats[1].is_bot  # Bob's seat, now a bot's
        driver.assert_no_failures()


async def test_table_end_after_a_restart(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    alice = world.alice
    await finished_and_left(emulator, world, bot_settings)
    async with run_bot(emulator, bot_settings) as bot:
        ended = await alice.slash(world.table, "table end")
        assert ended.ephemeral and ended.content == t("table.ended", alice.locale)
        service = bot.table_service
        assert service is not None and service.in_channel(world.table.id) is None
