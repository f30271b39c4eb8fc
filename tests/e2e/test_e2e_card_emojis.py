"""Card emojis through the emulator (issue 12): the bot uploads one application emoji per card
once, finds them by name after a restart, and its hand buttons show them; without emojis (the
application is full) the cards stay text and the game plays the same."""

from __future__ import annotations

import random

import pytest

from bot.client import CardTableBot
from bot.pictures.cards import deck_codes
from bot.settings import Settings
from bot.ui.kit.card_emojis import emoji_name
from bot.ui.words.cards import card_text, cards_in_text
from emulator import Emulator, Message, run_bot
from emulator.rest_emojis import MAX_APPLICATION_EMOJIS
from tests.support.card_emojis import seed_card_emojis
from tests.support.games import play_game
from tests.support.play_driver import HAND_BUTTON, TableDriver, scale_rate_limits
from tests.support.world import World

# The bot's real first start: no card emoji yet, 53 uploads under Discord's global limit (the
# other e2e tests start with the emojis an earlier start left, see tests/conftest.py).
pytestmark = pytest.mark.first_start


async def open_hand(driver: TableDriver, world: World) -> Message:
    lobby = await driver.open(world.alice, "truco new")
    await driver.sit(lobby, [], 3, world.alice)
    await driver.start(lobby, world.alice)
    hand = await world.alice.click(driver.message, HAND_BUTTON)
    # On a busy machine the hand may be opened while the deal still waits for its cut (fair-v2):
    # the live hand message shows them once they are dealt.
    return await hand.wait_until(lambda m: len(card_buttons(m)) == 3, timeout=15)


def card_buttons(hand: Message) -> dict[str, dict[str, object] | None]:
    """Card code -> the emoji its button shows."""
    out = {}
    for button in hand.buttons:
        cards = cards_in_text(button.label or "")
        if len(cards) == 1 and button.label == card_text(code := cards.pop()):
            out[code] = button.emoji
    return out


async def test_card_emojis_are_uploaded_once_and_shown_on_the_hand_buttons(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    async with run_bot(emulator, bot_settings) as bot:
        assert bot.table_ui is not None
        emojis = bot.table_ui.card_emojis
        await emojis.ready()
        assert emojis.uploaded == 53
        names = {e["name"]: int(e["id"]) for e in emulator.application_emojis.values()}
        assert set(names) == {emoji_name(code) for code in deck_codes()}
        scale_rate_limits(emulator, bot, per=1.0)
        hand = await open_hand(TableDriver(emulator, bot, world.table, world.players), world)
        shown = card_buttons(hand)
        assert len(shown) == 3
        for code, emoji in shown.items():
            assert emoji is not None
            assert (
                emoji["name"] == emoji_name(code) and int(str(emoji["id"])) == names[emoji["name"]]
            )

    async with run_bot(emulator, bot_settings) as bot:
        assert bot.table_ui is not None
        await bot.table_ui.card_emojis.ready()
        assert bot.table_ui.card_emojis.uploaded == 0  # found by name
        by_card = bot.table_ui.card_emojis.by_card
        assert {code: e.id for code, e in by_card.items()} == {
            code: names[emoji_name(code)] for code in deck_codes()
        }
    assert len(emulator.application_emojis) == 53


async def test_without_emojis_the_cards_stay_text_and_the_game_plays(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    # An application already holding 2,000 emojis: every upload is refused (30008).
    for number in range(MAX_APPLICATION_EMOJIS):
        emulator.application_emojis[10**6 + number] = {
            "id": str(10**6 + number),
            "name": f"e{number}",
        }
    async with run_bot(emulator, bot_settings) as bot:
        assert bot.table_ui is not None
        await bot.table_ui.card_emojis.ready()
        assert bot.table_ui.card_emojis.by_card == {}
        scale_rate_limits(emulator, bot, per=1.0)
        driver = TableDriver(emulator, bot, world.table, world.players[:1])
        hand = await open_hand(driver, world)
        shown = card_buttons(hand)
        assert len(shown) == 3 and all(emoji is None for emoji in shown.values())
        await driver.play_to_end(random.Random(9))
        driver.assert_no_failures()
    refused = [r for r in emulator.requests if r.path.endswith("/emojis") and r.method == "POST"]
    assert [r.status for r in refused] == [400]  # the first refusal stops the uploads


async def test_a_whole_game_with_card_emojis_on_every_hand(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    assert running_bot.table_ui is not None
    await running_bot.table_ui.card_emojis.ready()
    scale_rate_limits(emulator, running_bot, per=1.0)
    driver = await play_game(world, running_bot, "euchre new", 3, target=5)
    hands = [m for person in driver.people.values() for m in person.own_ephemerals]
    assert hands
    for message in hands:
        for code, emoji in card_buttons(message).items():
            assert emoji is not None and emoji["name"] == emoji_name(code)


async def test_a_start_after_the_first_finds_the_seeded_emojis_and_uploads_none(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    """The other e2e tests' world (tests/conftest.py): the application already holds the card
    emojis, as Discord keeps them from the first start; the bot lists them, uploads nothing,
    and the hand buttons show them."""
    seed_card_emojis(emulator)
    async with run_bot(emulator, bot_settings) as bot:
        assert bot.table_ui is not None
        emojis = bot.table_ui.card_emojis
        await emojis.ready()
        assert emojis.uploaded == 0
        assert set(emojis.by_card) == set(deck_codes())
        scale_rate_limits(emulator, bot, per=1.0)
        hand = await open_hand(TableDriver(emulator, bot, world.table, world.players), world)
        assert all(emoji is not None for emoji in card_buttons(hand).values())
    assert not [r for r in emulator.requests if r.path.endswith("/emojis") and r.method == "POST"]
