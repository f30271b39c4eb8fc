"""Bot levels end to end (issue 9): a host adds hard bots from the lobby through the emulator,
the seats show their level, the hard bots play a whole game through the search in its worker
process, and their moves replay identically from the stored table (as after a restart)."""

from __future__ import annotations

import random

import pytest

from bot.client import CardTableBot
from bot.tables import bot_moves
from bot.tables.errors import UnknownBotLevel
from bot.tables.service import Table
from emulator import Emulator
from emulator.state import MESSAGE_COMPONENT
from tests.support.play_driver import TableDriver, message_texts
from tests.support.refusals import assert_refusal
from tests.support.world import World


@pytest.mark.parametrize(("command", "options"), [("truco new", {}), ("euchre new", {"target": 5})])
async def test_hard_bots_added_in_the_lobby_play_a_whole_game(
    world: World,
    running_bot: CardTableBot,
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    options: dict[str, object],
) -> None:
    game_name = command.split()[0]
    # Small budgets keep the test fast: the level's search is the same, only shorter.
    monkeypatch.setitem(bot_moves.ITERATIONS[game_name], "hard", 12)
    host = world.alice
    driver = TableDriver(world.emu, running_bot, world.table, [host])
    lobby = await driver.open(host, command, **options)
    assert [b.label for b in lobby.buttons if b.label and b.label.startswith("Add bot")] == [
        "Add bot: easy",
        "Add bot: normal",
        "Add bot: hard",
    ]
    await driver.sit(lobby, [], 3, host, level="hard")
    shown = " ".join(message_texts(lobby.versions[-1]))
    for number in (2, 3, 4):
        assert f"Bot {number} (hard)" in shown
    table = driver.table
    assert [s.level for s in table.seats if s is not None and s.is_bot] == ["hard"] * 3
    await driver.start(lobby, host)
    await driver.play_to_end(random.Random(3))
    await driver.check_result_recorded()
    driver.assert_no_failures()

    # Determinism: each hard move, asked again of a table rebuilt from the stored log up to it.
    service = driver.service
    record = table.record
    checked = 0
    for index, (seat, action) in enumerate(record.actions):
        if not table.is_bot_seat(seat) or checked == 12:
            continue
        game = table.rules.replay(
            record.options, record.seed, record.first_dealer, record.actions[:index]
        )
        if len(game.legal_actions(seat)) < 2:
            continue
        rebuilt = Table(record=record, rules=table.rules, game=game)
        assert await service._choose_bot_action(rebuilt, seat, "hard") == action
        checked += 1
    assert checked >= 3  # a short truco game may give the bots only a few real choices


async def test_a_forged_bot_level_is_refused(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    """A custom_id naming no level is not a valid button: a short private answer, no bot; the
    service refuses an unknown level too."""
    host = world.alice
    driver = TableDriver(world.emu, running_bot, world.table, [host])
    await driver.open(host, "truco new")
    table = driver.table
    version = table.version
    click = emulator.interaction_service.create(
        kind=MESSAGE_COMPONENT,
        user=host,
        channel=world.table,
        data={"custom_id": f"tb:{table.id}:bot:expert", "component_type": 2},
        source_message=driver.message,
    )
    assert_refusal(await click.response(), host, "not valid")
    with pytest.raises(UnknownBotLevel):
        await driver.service.add_bot(table.id, host.id, level="expert")
    assert table.version == version and all(seat is None for seat in table.seats[1:])
    driver.assert_no_failures()
