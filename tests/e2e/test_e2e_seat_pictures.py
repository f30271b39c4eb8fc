"""A player's own seat picture on their hand message (issue 21), through the emulator: every hand
update of a whole game of each carries that player's picture of the very state its buttons act
on, uploaded only when it changes (at most one upload per update); a click on a card in it plays
that card; a click is answered at once and its picture follows (issue 31), a stale one never
past its bound."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from bot.client import CardTableBot
from bot.pictures import render_pool
from bot.socket_workers import SocketWorkers
from bot.ui.kit.custom_ids import parse_game_action
from bot.ui.kit.layout import flat
from bot.ui.table import live_hands as live_hands_module
from bot.ui.table import seat_picture
from bot.ui.words.cards import card_text
from emulator import Emulator, SimulatedUser
from tests.support.live_hands import enabled_actions, open_hands, seat_and_start
from tests.support.play_driver import GameStates, TableDriver, game_custom_ids, scale_rate_limits
from tests.support.seat_pictures import (
    hand_requests,
    picture_of,
    play_alone_with_pictures,
    ui_of,
)
from tests.support.shown import picture_version, text_of
from tests.support.world import World


def check_card_clicks(driver: TableDriver, person: SimulatedUser) -> int:
    """Each card the person clicked was a button showing that card, on a hand version carrying
    the picture of the state it acts on, and that card was played: how many."""
    table = driver.table
    seat = table.seat_of(person.id)
    played = 0
    for interaction in driver.emu.interactions:
        custom_id = str(interaction.data.get("custom_id", ""))
        parsed = parse_game_action(custom_id)
        if parsed is None or not parsed.action.startswith("play:"):
            continue
        card = parsed.action.removeprefix("play:")
        message = interaction.source_message
        assert message is not None and message.ephemeral_for is person
        showing = [v for v in message.versions if custom_id in game_custom_ids(v)]
        assert showing, "the clicked card was on the hand message"
        picture = picture_of(driver.emu, showing[-1])
        assert picture is not None and picture.version == parsed.version
        (button,) = [c for c in flat(showing[-1].components) if c.get("custom_id") == custom_id]
        assert button["label"] == card_text(card), "a card button shows its card"
        assert table.record.actions[parsed.version - table.start_version] == (seat, parsed.action)
        played += 1
    return played


@pytest.mark.parametrize(
    ("command", "seed", "options"),
    [
        ("euchre new", 5, {"target": 5, "turn_timer": 0}),
        ("truco new", 4, {"target": 6}),
    ],
    ids=["euchre", "truco"],
)
async def test_every_hand_update_of_a_whole_game_carries_the_players_own_picture(
    emulator: Emulator,
    world: World,
    running_bot: CardTableBot,
    command: str,
    seed: int,
    options: dict[str, object],
) -> None:
    if command.startswith("euchre"):
        pytest.importorskip("bot.engine.euchre.bot_player")
    scale_rate_limits(emulator, running_bot, per=1.0)
    person = world.alice
    driver, seen = await play_alone_with_pictures(world, running_bot, command, seed, **options)
    states = GameStates.replay(driver.table)
    assert seen.updates >= 10 and seen.kept > 0
    # One upload per new picture, none for a kept one: the requests that carried one (a retry
    # after a 429 aside) are exactly the hand versions with a new picture.
    requests = hand_requests(emulator)
    assert max(r.uploads for r in requests) == 1
    uploaded = [str(r) for r in requests if r.uploads and r.status < 300]
    assert len(uploaded) == seen.uploads, uploaded
    assert check_card_clicks(driver, person) >= 3
    assert driver.check_private_messages(states) > 0
    # The last update shows the game's end, and the picture says who won.
    last = [m for m in person.own_ephemerals if m.buttons][-1]
    final = picture_of(emulator, last.versions[-1])
    assert final is not None and final.version == driver.table.version


async def test_a_refresh_that_changes_nothing_keeps_the_picture_without_uploading_it(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    scale_rate_limits(emulator, running_bot, per=1.0)
    driver = await seat_and_start(world, running_bot, "truco new", 1, target=6, turn_timer=0)
    ui = ui_of(running_bot)
    person = world.alice
    hand = (await open_hands(driver))[person.id]
    await driver.service.wait_for_bots(driver.table.id)
    await ui.live_hands.idle()
    first = picture_of(emulator, hand.versions[-1])
    assert first is not None and first.version == driver.table.version
    clicks = []
    for _ in range(2):
        seen = len(hand.versions)
        click = await person.send_click(hand, f"tb:{driver.table.id}:refresh")
        assert await click.response(5) is hand
        await hand.wait_until(lambda m, seen=seen: len(m.versions) > seen)
        clicks.append(click)
    for click, shown in zip(clicks, hand.versions[-2:], strict=True):
        picture = picture_of(emulator, shown)
        assert picture is not None and picture.attachment_id == first.attachment_id
        (callback,) = emulator.requests_to("POST", f"/interactions/{click.id}/")
        assert callback.uploads == 0
    driver.assert_no_failures()


async def test_a_click_is_answered_at_once_and_its_picture_follows(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    """Issue 31: a new hand message given no time for its picture is the text alone, at once,
    and the live hand brings the picture in the next edit (one upload). A card played is
    answered at once with the new text and buttons, the message keeping the picture it shows
    (or already the new one, if it was drawn in time: never none); the live hand then brings
    the picture of the new state."""
    scale_rate_limits(emulator, running_bot, per=1.0)
    driver = await seat_and_start(world, running_bot, "euchre new", 1, target=5, turn_timer=0)
    ui = ui_of(running_bot)
    ui.seat_pictures.wait = 0.0
    ui.live_hands.pace = 0.05
    person = world.alice
    await driver.service.wait_for_bots(driver.table.id)
    hand = (await open_hands(driver))[person.id]
    assert picture_of(emulator, hand.versions[-1]) is None
    await ui.live_hands.idle()
    shown = [v for v in hand.versions if v.components]  # (a deferred answer "thinks" first)
    assert len(shown) == 2  # the text, then the same text with its picture
    assert text_of(shown[0].components) == text_of(shown[1].components)
    assert picture_of(emulator, shown[0]) is None
    before = picture_of(emulator, shown[1])
    assert before is not None and before.version == driver.table.version

    seen = len(hand.versions)
    click = await person.send_click(hand, sorted(enabled_actions(hand))[0])
    assert await click.response(5) is hand
    answered = picture_of(emulator, hand.versions[seen])
    assert answered is not None, "the answer keeps a picture: never none"
    (callback,) = emulator.requests_to("POST", f"/interactions/{click.id}/")
    assert answered.attachment_id == before.attachment_id or answered.version > before.version
    assert callback.uploads == (0 if answered.attachment_id == before.attachment_id else 1)
    await driver.service.wait_for_bots(driver.table.id)
    await ui.live_hands.idle()
    latest = picture_of(emulator, hand.versions[-1])
    assert latest is not None and latest.version == driver.table.version
    assert max(r.uploads for r in hand_requests(emulator)) == 1
    driver.assert_no_failures()


def hold_seat_pictures(monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """Seat pictures are drawn only once the returned event is set."""
    gate = asyncio.Event()
    draw = seat_picture.render_seat_png

    async def held(scene: Any, **options: Any) -> bytes:
        await gate.wait()
        return await draw(scene, **options)

    monkeypatch.setattr(seat_picture, "render_seat_png", held)
    return gate


async def assert_the_latest_picture_is_current(
    emulator: Emulator, driver: TableDriver, bot: CardTableBot, hand: Any
) -> None:
    """Once the bots are done and every live edit is out, the hand shows the table's state."""
    await driver.service.wait_for_bots(driver.table.id)
    await ui_of(bot).live_hands.idle()
    latest = picture_of(emulator, hand.versions[-1])
    assert latest is not None and latest.version == driver.table.version
    driver.assert_no_failures()


async def test_a_picture_older_than_its_text_is_taken_away_at_the_bound(
    emulator: Emulator,
    world: World,
    running_bot: CardTableBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 31's bound: while the new picture cannot be drawn (the drawing held here), the
    old one stays beside the new text at most `stale_for` seconds, then the text goes alone;
    once drawn, the new picture comes."""
    scale_rate_limits(emulator, running_bot, per=1.0)
    driver = await seat_and_start(world, running_bot, "euchre new", 1, target=5, turn_timer=0)
    ui = ui_of(running_bot)
    ui.live_hands.pace = 0.05
    ui.live_hands.stale_for = 0.3
    person = world.alice
    await driver.service.wait_for_bots(driver.table.id)
    hand = (await open_hands(driver))[person.id]
    await ui.live_hands.idle()
    assert picture_of(emulator, hand.versions[-1]) is not None

    gate = hold_seat_pictures(monkeypatch)
    seen = len(hand.versions)
    click = await person.send_click(hand, sorted(enabled_actions(hand))[0])
    assert await click.response(5) is hand
    old = picture_of(emulator, hand.versions[seen])
    assert old is not None and old.version < driver.table.version  # kept, for now
    # (the bots play on meanwhile: the text alone may be of a later state)
    await hand.wait_until(lambda m: picture_of(emulator, m.versions[-1]) is None, timeout=30)
    gate.set()
    await assert_the_latest_picture_is_current(emulator, driver, running_bot, hand)


async def test_a_click_while_the_stale_picture_is_being_taken_away_shows_no_missing_picture(
    emulator: Emulator,
    world: World,
    running_bot: CardTableBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The edit that takes a stale picture away reaches Discord; before the bot hears back, the
    player clicks Refresh. The answer must not keep the picture the message no longer has
    (Discord: 'Attachment seat.png is not an attachment of this message'); it comes without
    it, or with the new one, and the interaction is answered."""
    scale_rate_limits(emulator, running_bot, per=1.0)
    driver = await seat_and_start(world, running_bot, "euchre new", 1, target=5, turn_timer=0)
    ui = ui_of(running_bot)
    ui.live_hands.pace = 0.05
    ui.live_hands.stale_for = 0.3
    ui.seat_pictures.wait = 0.3  # the answer's wait for a picture it cannot keep
    person = world.alice
    await driver.service.wait_for_bots(driver.table.id)
    hand = (await open_hands(driver))[person.id]
    await ui.live_hands.idle()

    drawing = hold_seat_pictures(monkeypatch)
    removal_landed, answer_out = asyncio.Event(), asyncio.Event()
    edit = live_hands_module.rest.edit_by_token

    async def heard_late(client: Any, token: str, message_id: int, parts: Any) -> Any:
        result = await edit(client, token, message_id, parts)
        if parts.files == [] and not removal_landed.is_set():
            removal_landed.set()  # at Discord now; the bot hears back after the click
            await answer_out.wait()
        return result

    monkeypatch.setattr(live_hands_module.rest, "edit_by_token", heard_late)
    click = await person.send_click(hand, sorted(enabled_actions(hand))[0])
    assert await click.response(5) is hand
    await asyncio.wait_for(removal_landed.wait(), 30)
    assert picture_of(emulator, hand.versions[-1]) is None
    refresh = await person.send_click(hand, f"tb:{driver.table.id}:refresh")
    assert await refresh.response(10) is hand
    answer_out.set()
    drawing.set()
    await assert_the_latest_picture_is_current(emulator, driver, running_bot, hand)


async def busy_workers(kind: str, seconds: float) -> list[asyncio.Future[None]]:
    """Every worker of the `kind` picture pool busy for `seconds` (all of them ready first):
    a picture asked for meanwhile waits in its queue, not begun."""
    pool: SocketWorkers = render_pool._worker_pool(kind)
    while pool.ready() < pool.size:
        await asyncio.gather(*(pool.run(time.sleep, 0.05) for _ in range(pool.size + 1)))
    busy = [asyncio.ensure_future(pool.run(time.sleep, seconds)) for _ in range(pool.size)]
    await asyncio.sleep(0)  # written: one to each worker (the fewest jobs in hand)
    return busy


@pytest.mark.parametrize("kind", [render_pool.ANSWER, render_pool.BACKGROUND])
async def test_a_picture_of_a_state_gone_before_a_worker_came_to_it_is_never_drawn(
    emulator: Emulator, world: World, running_bot: CardTableBot, kind: str
) -> None:
    """Issue 31: with the workers busy, the picture asked for right after a click (the live
    hand's, or the table message's) waits in their queue; the bots move on before a worker
    comes to it (0.1 s apart here), so it is taken back, never drawn, and the newest state is
    drawn instead: the hand and the table message end showing the table's state, and no
    picture of a state that was superseded while queued."""
    scale_rate_limits(emulator, running_bot, per=1.0)
    driver = await seat_and_start(world, running_bot, "truco new", 1, target=6, turn_timer=0)
    ui = ui_of(running_bot)
    ui.live_hands.pace = 0.05
    person = world.alice
    await driver.service.wait_for_bots(driver.table.id)
    hand = (await open_hands(driver))[person.id]
    await ui.live_hands.idle()
    await ui.public.idle()
    pool = render_pool._worker_pool(kind)
    driver.service.bot_move_delay = 0.5  # a bot's move 0.1 s after the one before
    for _ in range(6):  # a click the bots answer (the hand may end with it: then the next)
        before = pool.taken_back
        busy = await busy_workers(kind, 1.0)
        actions = enabled_actions(hand)
        plays = [c for c, (_, action) in actions.items() if action.startswith("play:")]
        click = await person.send_click(hand, (plays or sorted(actions))[0])
        assert await click.response(5) is hand
        await asyncio.gather(*busy)
        await driver.service.wait_for_bots(driver.table.id)
        await ui.live_hands.idle()
        await ui.public.idle()
        latest = picture_of(emulator, hand.versions[-1])
        assert latest is not None and latest.version == driver.table.version
        assert picture_version(emulator, driver.message.versions[-1]) == driver.table.version
        if pool.taken_back > before:
            break
    else:
        pytest.fail("no picture was ever taken back")
    driver.assert_no_failures()
