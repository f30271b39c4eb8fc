"""Whole games through the emulator: four simulated people (or one and three bots) clicking the
buttons they see, with Discord's per-channel rate limits enforced."""

from __future__ import annotations

import random

import pytest

from bot.client import CardTableBot
from bot.texts import t
from emulator import Emulator
from tests.support.games import play_game
from tests.support.play_driver import TableDriver, scale_rate_limits
from tests.support.world import World


@pytest.mark.parametrize(
    ("seed", "options"),
    [
        (1, {"target": 5}),
        (
            2,
            {
                "target": 5,
                "alone": "maker",
                "stick_the_dealer": True,
                "seating": "draw",
                "deck": 28,
                "joker": True,
            },
        ),
    ],
)
async def test_euchre_four_people_play_a_whole_game(
    emulator: Emulator,
    world: World,
    running_bot: CardTableBot,
    seed: int,
    options: dict[str, object],
) -> None:
    scale_rate_limits(emulator, running_bot, per=1.0)
    await play_game(world, running_bot, "euchre new", seed, **options)


async def test_truco_four_people_play_a_whole_game(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    scale_rate_limits(emulator, running_bot, per=1.0)
    await play_game(world, running_bot, "truco new", 3)


async def test_truco_one_person_and_three_bots_under_real_rate_limits(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    scale_rate_limits(emulator, running_bot)  # Discord's 5 edits per 5 s
    driver = await play_game(world, running_bot, "truco new", 4, humans=1, target=6)
    bot_actions = [s for s, _ in driver.table.record.actions if driver.table.is_bot_seat(s)]
    assert bot_actions


async def test_euchre_one_person_and_three_bots(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    pytest.importorskip("bot.engine.euchre.bot_player")
    scale_rate_limits(emulator, running_bot, per=1.0)
    await play_game(world, running_bot, "euchre new", 5, humans=1, target=5)


async def test_play_again_starts_a_new_game_with_the_same_seats(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    scale_rate_limits(emulator, running_bot, per=1.0)
    driver = await play_game(world, running_bot, "truco new", 6, target=6)
    first_seed = driver.table.record.seed
    seats = list(driver.table.seats)
    message = driver.message
    table_id = driver.table.id
    # A ready check (issue 10): the game starts when the four humans have clicked.
    for count, person in enumerate(world.players[:3], start=1):
        ready = await person.click(message, "Play again")
        assert ready.ephemeral and ready.content == t("result.you_are_ready", person.locale)
        await message.wait_until(lambda m, n=count: f"({n} of 4)" in m.text)  # type: ignore[misc]
        assert driver.table.status == "finished"
    again = await world.alice.click(message, "Play again")
    assert again.content == t("table.error.already_ready", world.alice.locale)
    assert f"<@{world.alice.id}>, <@{world.bob.id}>, <@{world.carol.id}>" in message.text
    last = await world.dave.click(message, "Play again")
    # Issue 21 item 4: the last click started the game; it is not told to wait for everyone.
    assert last.ephemeral and last.content == t("result.everyone_ready", world.dave.locale)
    await message.wait_until(
        lambda m: any(b.custom_id == f"tb:{table_id}:hand" for b in m.buttons), timeout=15
    )
    assert driver.table.status == "playing" and driver.table.seats == seats
    assert driver.table.record.seed != first_seed
    # Nobody has played yet: only the fair-v2 cut's own actions (the new game's commitment
    # message, hand 1's beacon cut), which come by themselves from the cut's background task.
    assert all(a.startswith("cut:") for _, a in driver.table.record.actions)


async def test_slow_work_is_deferred_and_every_answer_still_arrives(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    """With no time budget at all, every click and command is deferred first (as when the disk
    or a table lock is slow), then answered: the game plays the same."""
    scale_rate_limits(emulator, running_bot, per=1.0)
    assert running_bot.table_ui is not None
    running_bot.table_ui.ack_deadline = 0.0
    reply = await world.alice.slash(world.table, "truco new", target=6)
    # Issue 30 item 6: even a slow start answers with the table itself, publicly (its public
    # "thinking" becomes the table message), not with a private link to it.
    assert not reply.ephemeral and reply.button("Join")
    lobby = world.table.last_message
    assert lobby is reply
    driver = TableDriver(world.emu, running_bot, world.table, world.players)
    await driver.sit(lobby, world.players[1:], 0, world.alice)
    await driver.start(lobby, world.alice)
    await driver.play_to_end(random.Random(21))
    await driver.check_result_recorded()
    deferred = [i for i in emulator.interactions if i.response_type in (5, 6)]
    assert len(deferred) > 10
    driver.assert_no_failures()


async def test_T15_coberta_two_people_and_two_bots_play_a_whole_game(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    # Issue 21: the hand message's face-down row is clicked like any button; every version of
    # the table message and every hand is checked for a face it must not show.
    scale_rate_limits(emulator, running_bot, per=1.0)
    rng = random.Random(8)

    def covers_when_it_may(view: dict[str, object], seat: int, legal: list[str]) -> str:
        # The deal is fair (unseeded): people cover whenever they may, so the row is clicked.
        covers = [a for a in legal if a.startswith("cover:")]
        return rng.choice(covers or legal)

    driver = await play_game(
        world,
        running_bot,
        "truco new",
        8,
        humans=2,
        choose=covers_when_it_may,
        target=6,
        coberta=True,
    )
    table = driver.table
    assert table.options.get("coberta") is True
    covers = [(s, a) for s, a in table.record.actions if a.startswith("cover:")]
    assert any(not table.is_bot_seat(s) for s, _ in covers), "a person played face down"
    hands_won = [e for e in table.game.events if e.kind == "hand_won"]
    assert sum(len(e.data["covered"]) for e in hands_won) == len(covers)
