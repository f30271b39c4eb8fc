"""Races through the emulator: each resolves deterministically, exactly one click applies, and
every click is answered (no "This interaction failed")."""

from __future__ import annotations

import asyncio
import random

from bot.client import CardTableBot
from bot.engine.common import team_of
from bot.texts import t
from emulator import Emulator, Message, SimulatedUser
from tests.support.play_driver import HAND_BUTTON, TableDriver, scale_rate_limits
from tests.support.world import World


async def four_at_a_table(
    world: World, bot: CardTableBot, command: str, **options: object
) -> TableDriver:
    driver = TableDriver(world.emu, bot, world.table, world.players)
    lobby = await driver.open(world.alice, command, **options)
    await driver.sit(lobby, world.players[1:], 0, world.alice)
    await driver.start(lobby, world.alice)
    return driver


def action_buttons(hand: Message) -> list[str]:
    return [
        b.custom_id
        for b in hand.buttons
        if b.custom_id and b.custom_id.startswith("t:") and not b.disabled
    ]


async def test_T9_two_opponents_answering_a_truco_at_once_one_answer_counts(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    scale_rate_limits(emulator, running_bot, per=1.0)
    driver = await four_at_a_table(world, running_bot, "truco new")
    table = driver.table
    rng = random.Random(7)
    # Play until the player on turn may ask truco, then ask it from their hand.
    while True:
        game = table.game
        assert game is not None and not game.is_over
        asker = driver.person_at(game.to_act[0])
        hand = await asker.click(driver.message, HAND_BUTTON)
        raise_id = next((c for c in action_buttons(hand) if c.endswith(":raise")), None)
        if raise_id is not None:
            await asker.click(hand, raise_id)
            break
        await asker.click(hand, rng.choice(action_buttons(hand)))
    answerers = [driver.person_at(s) for s in table.game.to_act]
    assert len(answerers) == 2 and team_of(table.game.to_act[0]) == team_of(table.game.to_act[1])
    hands = [await p.click(driver.message, HAND_BUTTON) for p in answerers]
    version = table.version
    accept = [next(c for c in action_buttons(h) if c.endswith(":accept")) for h in hands]
    run = [next(c for c in action_buttons(h) if c.endswith(":run")) for h in hands]
    clicks = await asyncio.gather(
        answerers[0].send_click(hands[0], accept[0]),
        answerers[1].send_click(hands[1], run[1]),
    )
    shown = [await click.response() for click in clicks]
    assert table.version == version + 1, "exactly one answer applied"
    seat, action = table.record.actions[-1]
    winner = 0 if action == "accept" else 1
    assert driver.person_at(seat) is answerers[winner]
    loser_text = shown[1 - winner].text
    assert t("hand.note.answered", answerers[1 - winner].locale) in loser_text
    driver.assert_no_failures()


async def test_a_double_click_applies_once(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    scale_rate_limits(emulator, running_bot, per=1.0)
    driver = await four_at_a_table(world, running_bot, "euchre new")
    table = driver.table
    player = driver.person_at(table.game.to_act[0])
    hand = await player.click(driver.message, HAND_BUTTON)
    button = action_buttons(hand)[0]
    version = table.version
    done = len(table.record.actions)  # hand 1's cut (fair deals)
    first, second = await asyncio.gather(
        player.send_click(hand, button), player.send_click(hand, button)
    )
    await first.response()
    await second.response()
    assert table.version == version + 1 and len(table.record.actions) == done + 1
    assert {first.response_type, second.response_type} <= {6, 7}
    driver.assert_no_failures()


async def test_a_click_on_a_stale_hand_changes_nothing_and_shows_the_current_hand(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    scale_rate_limits(emulator, running_bot, per=1.0)
    driver = await four_at_a_table(world, running_bot, "truco new")
    table = driver.table
    player: SimulatedUser = driver.person_at(table.game.to_act[0])
    old_hand = await player.click(driver.message, HAND_BUTTON)
    new_hand = await player.click(driver.message, HAND_BUTTON)
    assert old_hand is not new_hand
    play = [c for c in action_buttons(new_hand) if ":play:" in c]
    await player.click(new_hand, play[0])
    version, actions = table.version, list(table.record.actions)
    stale = [c for c in action_buttons(old_hand) if ":play:" in c and c != play[0]]
    shown = await player.click(old_hand, stale[0])
    assert shown is old_hand  # updated in place
    assert t("hand.note.stale", player.locale) in shown.text
    assert table.version == version and table.record.actions == actions
    assert all(f":{version}:" in c for c in action_buttons(shown)) or not action_buttons(shown)
    driver.assert_no_failures()
