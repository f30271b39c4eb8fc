"""Faults seen under test (issue 25): each test failed on the code before its fix."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.client import CardTableBot
from bot.texts import t
from emulator import Emulator
from emulator.state import APPLICATION_COMMAND
from tests.support.world import World


def slash_payload(world: World, command: str, **options: Any) -> dict[str, Any]:
    """The data Discord would send for `/command`, as built by the emulator for Alice."""
    return world.alice._slash_data(world.table, command, options)


async def send_raw_slash(emulator: Emulator, world: World, data: dict[str, Any]) -> str:
    """Send a hand-built slash interaction and return the private answer Alice sees."""
    interaction = emulator.interaction_service.create(
        kind=APPLICATION_COMMAND, user=world.alice, channel=world.table, data=data
    )
    answer = await interaction.response(5)
    assert answer.ephemeral and answer.ephemeral_for is world.alice
    return answer.content


def out_of_date_payloads(world: World) -> dict[str, dict[str, Any]]:
    """Payloads of a Discord client whose command list is older (or newer) than the bot's."""
    unknown = slash_payload(world, "euchre new")
    unknown["name"] = "poker"  # a command the bot no longer has
    renamed = slash_payload(world, "euchre new")
    renamed["options"][0]["name"] = "deal"  # a subcommand the bot no longer has
    bad_choice = slash_payload(world, "euchre new", target=5)
    bad_choice["options"][0]["options"][0]["value"] = 99  # a choice the bot no longer offers
    return {"unknown": unknown, "renamed": renamed, "bad_choice": bad_choice}


@pytest.mark.parametrize("case", ["unknown", "renamed", "bad_choice"])
async def test_an_out_of_date_slash_command_is_answered_as_such_with_one_warning(
    emulator: Emulator,
    world: World,
    running_bot: CardTableBot,
    caplog: pytest.LogCaptureFixture,
    case: str,
) -> None:
    """Fault 2: a payload matching no command (or a choice the bot no longer offers) comes
    from a client with a stale command list: "this command is out of date", a warning, no
    traceback, no table opened."""
    caplog.set_level(logging.INFO)
    data = out_of_date_payloads(world)[case]
    text = await send_raw_slash(emulator, world, data)
    assert text == t("error.command_out_of_date", "en-US")
    mine = [r for r in caplog.records if r.name.startswith("bot")]
    assert not [r for r in mine if r.levelno >= logging.ERROR or r.exc_info]
    assert [r for r in mine if r.levelno == logging.WARNING and "out of date" in r.getMessage()]
    assert running_bot.table_service.in_channel(world.table.id) is None
