"""The quick paths of a click's answer (issue 13 item 7), through the emulator: the work runs in
the clicking task with a timer for the deadline, answers and edits ask Discord for nothing back,
and the bot subscribes to no message events."""

from __future__ import annotations

import random

from bot.client import CardTableBot
from bot.ui.kit.custom_ids import parse_game_action
from emulator import Emulator, Message
from emulator.gateway import GUILD_MESSAGES
from tests.support.live_hands import enabled_actions, next_human, open_hands, seat_and_start
from tests.support.play_driver import scale_rate_limits
from tests.support.world import World

GUILDS = 1 << 0


def shown_versions(hand: Message) -> set[int]:
    """The table versions the hand's game buttons were drawn for."""
    parsed = (parse_game_action(b.custom_id or "") for b in hand.buttons)
    return {p.version for p in parsed if p is not None}


async def test_a_click_slower_than_the_deadline_is_deferred_then_shown_in_place(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    """The move waits for the table (its lock held here) longer than the 50 ms deadline: the
    timer acknowledges the click (type 6) while the move waits; once it is made, the clicked
    hand shows it through the interaction's token. Nothing is answered twice."""
    scale_rate_limits(emulator, running_bot, per=1.0)
    driver = await seat_and_start(world, running_bot, "truco new", 4, target=6, turn_timer=0)
    hands = await open_hands(driver)
    assert running_bot.table_ui is not None
    running_bot.table_ui.ack_deadline = 0.05
    who = await next_human(driver, random.Random(5))
    assert who is not None
    _, person = who
    hand = hands[person.id]
    table = driver.table
    version = table.version
    await hand.wait_until(lambda m: shown_versions(m) == {version}, timeout=5)
    custom_id = sorted(enabled_actions(hand))[0]
    async with table.lock:
        click = await person.send_click(hand, custom_id)
        await emulator.wait_for(lambda: click.acknowledged or None, timeout=3, what="the deferral")
        assert click.response_type == 6 and table.version == version
    assert await click.response(5) is hand
    await hand.wait_until(lambda m: min(shown_versions(m)) > version, timeout=5)
    assert table.version > version
    edits = emulator.requests_to("PATCH", f"/{click.token}/messages/@original")
    assert [r.status for r in edits] == [200]
    callbacks = emulator.requests_to("POST", f"/interactions/{click.id}/")
    assert len(callbacks) == 1
    driver.assert_no_failures()


async def test_answers_ask_nothing_back_and_no_message_event_reaches_the_bot(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    """The clicks' answers (type 7 updates) are sent without `with_response`: Discord answers
    204 and the bot parses no message. The bot identifies with the guilds intent only, so the
    table messages, hands and pings it sends come back as no MESSAGE_CREATE / UPDATE event."""
    scale_rate_limits(emulator, running_bot, per=1.0)
    # Pings at once (ping_after=0): the channel messages whose events must not come back.
    driver = await seat_and_start(
        world, running_bot, "euchre new", 4, target=5, turn_timer=0, ping_after=0
    )
    hands = await open_hands(driver)
    rng = random.Random(8)
    clicked = []
    for _ in range(6):
        who = await next_human(driver, rng)
        assert who is not None
        _, person = who
        hand = hands[person.id]
        version = driver.table.version
        await hand.wait_until(lambda m, v=version: shown_versions(m) == {v}, timeout=5)
        click = await person.send_click(hand, rng.choice(sorted(enabled_actions(hand))))
        assert await click.response(5) is hand
        clicked.append(click)
    for click in clicked:
        (callback,) = emulator.requests_to("POST", f"/interactions/{click.id}/")
        assert click.response_type == 7 and "with_response" not in callback.query
        assert callback.status == 204 and not callback.raw_response
    (session,) = [s for s in emulator.gateway.sessions if s.identified]
    assert session.intents == GUILDS and not session.intents & GUILD_MESSAGES
    sent = [f.event for f in emulator.gateway.frames if f.direction == "out"]
    assert "INTERACTION_CREATE" in sent
    assert "MESSAGE_CREATE" not in sent and "MESSAGE_UPDATE" not in sent
    assert emulator.requests_to("POST", "/channels/")  # messages were sent all the same
    driver.assert_no_failures()
