"""Restart (issue 6): tables in play and lobbies come back from SQLite, their messages say so,
old buttons keep working, bot seats resume."""

from __future__ import annotations

import dataclasses
import random

from bot.settings import Settings
from bot.texts import t
from bot.ui.kit.custom_ids import parse_game_action
from emulator import Emulator, Message, SimulatedUser, run_bot
from tests.support.play_driver import (
    HAND_BUTTON,
    GameStates,
    TableDriver,
    scale_rate_limits,
)
from tests.support.world import World, open_table


async def test_a_game_and_a_lobby_survive_a_restart(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    other = world.guild.add_channel("other")
    rng = random.Random(12)
    async with run_bot(emulator, bot_settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        driver = TableDriver(emulator, bot, world.table, world.players)
        lobby = await driver.open(world.alice, "euchre new", target=5)
        await driver.sit(lobby, world.players[1:], 0, world.alice)
        await driver.start(lobby, world.alice)
        for _ in range(9):
            await driver.step(rng)
        table = driver.table
        assert table.game is not None
        saved = (table.version, table.game.to_json(), list(table.seats))
        on_turn = driver.person_at(table.game.to_act[0])
        old_hand = await on_turn.click(driver.message, HAND_BUTTON)  # drawn before the restart
        second = await open_table(world.carol, other, "truco new")
        await world.bob.click(second, "Join")
        await driver.settle()
        message = driver.message

    async with run_bot(emulator, bot_settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        driver = TableDriver(emulator, bot, world.table, world.players)
        table = driver.table
        assert table.game is not None
        assert (table.version, table.game.to_json(), list(table.seats)) == saved
        await message.wait_until(lambda m: "restored" in m.text, timeout=10)
        # The hand drawn before the restart still works: its version is the table's.
        button = next(
            b.custom_id
            for b in old_hand.buttons
            if b.custom_id and b.custom_id.startswith("t:") and not b.disabled
        )
        shown = await on_turn.click(old_hand, button)
        assert shown is old_hand and table.version == saved[0] + 1
        await driver.play_to_end(rng)
        states = GameStates.replay(table)
        assert driver.check_public_history(states, message) > 0
        await driver.check_result_recorded()
        # The lobby too: its buttons work after the restart.
        await world.dave.click(second, "Join")
        await second.wait_until(lambda m: "Dave" in m.text)
        driver.assert_no_failures()


async def test_bot_seats_resume_after_a_restart(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    slow = dataclasses.replace(bot_settings, bot_move_delay=3600.0)  # bots never move in run 1
    rng = random.Random(13)
    async with run_bot(emulator, slow) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        driver = TableDriver(emulator, bot, world.table, [world.alice])
        lobby = await driver.open(world.alice, "truco new", target=6)
        await driver.sit(lobby, [], 3, world.alice)
        await driver.start(lobby, world.alice)
        table = driver.table
        assert table.game is not None
        while not any(table.is_bot_seat(s) for s in table.game.to_act):
            hand = await driver.hand_of(world.alice, rng)
            enabled = [
                b.custom_id
                for b in hand.buttons
                if b.custom_id and b.custom_id.startswith("t:") and not b.disabled
            ]
            await world.alice.click(hand, rng.choice(enabled))
        stuck_at = table.version

    async with run_bot(emulator, bot_settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        driver = TableDriver(emulator, bot, world.table, [world.alice])
        await driver.service.wait_for_bots(driver.table.id)
        assert driver.table.version > stuck_at  # the bots moved on their own
        await driver.play_to_end(rng)
        await driver.check_result_recorded()
        driver.assert_no_failures()


async def click_action(driver: TableDriver, person: SimulatedUser, action: str) -> Message:
    """The person's hand, and a click on its button for `action`; the hand as updated."""
    hand = await person.click(driver.message, HAND_BUTTON)
    button = next(
        b.custom_id
        for b in hand.buttons
        if b.custom_id
        and not b.disabled
        and (parsed := parse_game_action(b.custom_id)) is not None
        and parsed.action == action
    )
    return await driver.click_and_see_update(person, hand, button)


async def test_E14_order_up_alone_survives_a_restart_before_the_question(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    """Issue 33: the maker at the dealer's left clicks "Order up · alone" (E14, alone=anyone);
    the bot restarts while the dealer still has to discard (E15: the discard, then the
    question). The maker's hand says the same after the restart, and the maker goes alone."""
    async with run_bot(emulator, bot_settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        driver = TableDriver(emulator, bot, world.table, world.players)
        lobby = await driver.open(world.alice, "euchre new", target=5)
        await driver.sit(lobby, world.players[1:], 0, world.alice)
        await driver.start(lobby, world.alice)
        table = driver.table
        game = table.game
        assert game is not None and table.options.get("alone", "anyone") == "anyone"
        assert game.phase == "bidding1"  # the default deck has no joker to name a suit for
        maker, dealer = game.to_act[0], game.dealer
        person = driver.person_at(maker)
        hand = await click_action(driver, person, "order:alone")
        assert game.phase == "discard" and table.record.actions[-1] == (maker, "order")
        # The hand's switch shows it (in the player's language); beside the picture the hand has
        # no room for the explanation after the first lines (issue 30).
        said = t("hand.button.alone_on", person.locale)
        assert said in [b.label for b in hand.buttons]
        await driver.settle()
        saved = (table.version, game.to_json())

    async with run_bot(emulator, bot_settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        driver = TableDriver(emulator, bot, world.table, world.players)
        table = driver.table
        game = table.game
        assert game is not None and (table.version, game.to_json()) == saved
        await driver.message.wait_until(lambda m: "restored" in m.text, timeout=10)
        again = await driver.person_at(maker).click(driver.message, HAND_BUTTON)
        assert said in [b.label for b in again.buttons]  # the maker sees what they saw before
        await click_action(driver, driver.person_at(dealer), game.legal_actions(dealer)[0])
        assert game.phase == "play"
        assert game.view(None)["alone"] == [maker]
        assert (maker, "alone") in table.record.actions
        await driver.settle()
        driver.assert_no_failures()
