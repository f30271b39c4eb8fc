"""Every bad input gets one short private sentence and changes nothing (issue 5)."""

from __future__ import annotations

from bot.client import CardTableBot
from bot.texts import t
from emulator import Emulator, Message
from emulator.state import MESSAGE_COMPONENT
from tests.support.fair_deals import cut_done
from tests.support.play_driver import HAND_BUTTON, TableDriver, scale_rate_limits
from tests.support.refusals import assert_refusal
from tests.support.world import World, open_table


async def open_full_table(
    world: World, bot: CardTableBot, command: str = "truco new"
) -> tuple[TableDriver, Message]:
    driver = TableDriver(world.emu, bot, world.table, world.players)
    lobby = await driver.open(world.alice, command)
    await driver.sit(lobby, [world.bob, world.carol], 1, world.alice)
    return driver, lobby


async def test_lobby_refusals(emulator: Emulator, world: World, running_bot: CardTableBot) -> None:
    driver = TableDriver(world.emu, running_bot, world.table, world.players)
    lobby = await driver.open(world.alice, "truco new")
    await world.bob.click(lobby, "Join")
    version = driver.table.version
    assert_refusal(
        await world.bob.click(lobby, "Join"),
        world.bob,
        t("table.error.already_seated", world.bob.locale),
    )
    assert_refusal(await world.dave.click(lobby, "Leave"), world.dave, "not seated")
    assert_refusal(await world.dave.click(lobby, "Add bot: easy"), world.dave, "not seated")
    assert_refusal(
        await world.carol.click(lobby, "Cancel"),
        world.carol,
        t("table.error.not_host", world.carol.locale),
    )
    assert driver.table.version == version
    await driver.sit(lobby, [world.carol], 1, world.alice)
    version = driver.table.version
    assert_refusal(
        await world.bob.click(lobby, "Start"),
        world.bob,
        t("table.error.not_host", world.bob.locale),
    )
    assert driver.table.version == version
    # A second table in the same channel: where the current one is.
    busy = await world.dave.slash(world.table, "euchre new")
    assert_refusal(busy, world.dave, "already a table", f"/{driver.table.message_id}")
    driver.assert_no_failures()


async def test_game_refusals(emulator: Emulator, world: World, running_bot: CardTableBot) -> None:
    driver, lobby = await open_full_table(world, running_bot)
    await driver.start(lobby, world.alice)
    await driver.settle()  # the bot seat may lead: its move is no refusal's doing
    table = driver.table
    version = table.version
    assert_refusal(await world.dave.click(driver.message, HAND_BUTTON), world.dave, "not seated")
    # A forged custom_id, sent as a click on the real table message.
    for forged in (f"t:{table.id}:{version}:play:ZZ", f"tb:{table.id}:explode", "t:1:x:y"):
        click = emulator.interaction_service.create(
            kind=MESSAGE_COMPONENT,
            user=world.alice,
            channel=world.table,
            data={"custom_id": forged, "component_type": 2},
            source_message=driver.message,
        )
        assert_refusal(await click.response(), world.alice, "not valid")
    assert table.version == version
    driver.assert_no_failures()


async def test_a_closed_table_and_its_old_buttons(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    driver, lobby = await open_full_table(world, running_bot)
    await driver.start(lobby, world.alice)
    table = driver.table
    message = driver.message
    hand = await world.bob.click(message, HAND_BUTTON)
    refused = await world.bob.slash(world.table, "table end")  # not the host, no Manage Server
    assert_refusal(refused, world.bob, t("table.error.not_allowed_to_end", world.bob.locale))
    ended = await world.alice.slash(world.table, "table end")
    assert ended.ephemeral and "closed" in ended.content
    await message.wait_until(lambda m: "closed" in m.text and not m.buttons)
    assert driver.service.in_channel(world.table.id) is None
    assert_refusal(
        await world.bob.click(hand, f"tb:{table.id}:refresh"),
        world.bob,
        t("table.error.no_table", world.bob.locale),
    )
    # The channel is free again.
    again = await open_table(world.carol, world.table, "truco new")
    assert not again.ephemeral and again.button("Join")
    driver.assert_no_failures()


async def test_a_command_in_a_dm(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    await running_bot.tree.sync()  # published globally, so a DM may run it
    assert_refusal(await world.alice.slash(world.alice.dm, "truco new"), world.alice, "server")
    assert_refusal(await world.alice.slash(world.alice.dm, "table show"), world.alice, "server")


async def test_no_permission_to_post_in_the_channel(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    quiet = world.guild.add_channel("quiet", bot_can_send=False)
    refused = await world.alice.slash(quiet, "euchre new")
    assert_refusal(refused, world.alice, "Send Messages")
    assert running_bot.table_service is not None
    assert running_bot.table_service.in_channel(quiet.id) is None


async def test_table_show_reposts_the_table_at_the_bottom(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    driver, lobby = await open_full_table(world, running_bot)
    await driver.start(lobby, world.alice)
    old = driver.message
    await world.dave.say(world.table, "chatter pushes the table up")
    shown = await world.dave.slash(world.table, "table show")
    assert not shown.ephemeral and shown is world.table.last_message
    assert driver.table.message_id == shown.id
    await old.wait_until(lambda m: m.deleted)
    hand = await world.alice.click(shown, HAND_BUTTON)
    assert hand.ephemeral and hand.buttons
    driver.assert_no_failures()


async def test_a_deleted_table_message_comes_back_at_the_next_move(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    scale_rate_limits(emulator, running_bot, per=1.0)
    driver, lobby = await open_full_table(world, running_bot)
    await driver.start(lobby, world.alice)
    table = driver.table
    await cut_done(driver)  # hand 1 is dealt once the beacon's round has cut it (fair-v2)
    await driver.service.wait_for_bots(table.id)  # the bot seat's moves, if it leads
    player = driver.person_at(table.game.to_act[0])
    hand = await player.click(driver.message, HAND_BUTTON)
    emulator.delete_message(driver.message)  # a moderator cleans the channel
    button = next(
        b.custom_id
        for b in hand.buttons
        if b.custom_id and b.custom_id.startswith("t:") and not b.disabled
    )
    await player.click(hand, button)
    old_id = hand.id
    reposted = await world.table.wait_for_message(
        lambda m: any(b.label == HAND_BUTTON for b in m.buttons)
    )
    assert reposted.id != old_id and not reposted.deleted
    await driver.settle()
    assert table.message_id == reposted.id
    driver.assert_no_failures()
