"""Driving live hand messages in e2e tests: seat people, open their hands, find who acts next."""

from __future__ import annotations

import random

from bot.client import CardTableBot
from bot.ui.kit.custom_ids import parse_game_action
from emulator import Message, SimulatedUser
from tests.support.play_driver import HAND_BUTTON, TableDriver
from tests.support.world import World


def enabled_actions(hand: Message) -> dict[str, tuple[int, str]]:
    """custom_id -> (version, action) of the game buttons one can click (truco's signal
    buttons aside: talk, not moves; tests/ui/test_ui_signals.py has them)."""
    found = {}
    for button in hand.buttons:
        parsed = parse_game_action(button.custom_id or "")
        if parsed is not None and not button.disabled and not parsed.action.startswith("signal:"):
            found[button.custom_id or ""] = (parsed.version, parsed.action)
    return found


async def seat_and_start(
    world: World, bot: CardTableBot, command: str, humans: int, **options: object
) -> TableDriver:
    people = world.players[:humans]
    driver = TableDriver(world.emu, bot, world.table, people)
    lobby = await driver.open(people[0], command, **options)
    await driver.sit(lobby, people[1:], 4 - humans, people[0])
    await driver.start(lobby, people[0])
    return driver


async def open_hands(driver: TableDriver) -> dict[int, Message]:
    """Each person clicks "Show my hand" once."""
    hands = {}
    for person in driver.people.values():
        hand = await person.click(driver.message, HAND_BUTTON)
        assert hand.ephemeral and hand.ephemeral_for is person
        hands[person.id] = hand
    return hands


async def next_human(driver: TableDriver, rng: random.Random) -> tuple[int, SimulatedUser] | None:
    """Who acts next (bots done first); None once the game is over."""
    table = driver.table
    await driver.service.wait_for_bots(table.id)
    game = table.game
    assert game is not None
    if game.is_over:
        return None
    humans = [s for s in game.to_act if not table.is_bot_seat(s)]
    assert humans, f"a bot seat should be acting: {game.to_act}"
    seat = rng.choice(humans)
    return seat, driver.person_at(seat)
