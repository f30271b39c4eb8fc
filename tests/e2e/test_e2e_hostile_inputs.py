"""Issue 33 through the emulator: hostile hand-record files for /replay record (defect 2), and
admin commands granted to everyone in a server's Integrations settings (defect 3). Each answer
is short, private and clear; nothing is changed, and the bot logs no error."""

from __future__ import annotations

import logging

import pytest

from bot.client import CardTableBot
from bot.storage.recording import COUNT_MATCHES
from bot.storage.server_settings import ServerSettings
from bot.texts import t
from emulator import Emulator
from tests.support.world import World

HEADER = "# card-table hand record 1\ngame: euchre\nseed: 5\nfirst_dealer: 0\noptions: "
HOSTILE_OPTIONS = ["[" * 100_000 + "]" * 100_000, "null", "[1,2]", '"x"', "true", "{"]


def bot_errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name.startswith("bot") and r.levelno >= 40]


async def test_hostile_hand_records_get_the_record_does_not_replay_answer(
    world: World, running_bot: CardTableBot, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    bob = world.bob  # any member
    bad = t("replay.record.bad", bob.locale, error="")
    for options in HOSTILE_OPTIONS:
        text = (HEADER + options + "\n").encode()
        answer = await bob.slash(world.table, "replay", record=("game.txt", text))
        assert answer.ephemeral and answer.content.startswith(bad), (options[:20], answer.content)
        assert len(answer.content) < 400
    assert not bot_errors(caplog)
    assert not bob.failures


# /settings and /recap checked Manage Server already; the others did not (issue 33).
ADMIN_COMMANDS: list[tuple[str, dict[str, object]]] = [
    ("season start", {"game": "truco", "length": "month"}),
    ("season end", {"game": "truco"}),
    ("board-count", {"count": "game"}),
    ("settings", {"game": "truco"}),
    ("recap", {}),
]


async def test_admin_commands_granted_to_everyone_still_need_manage_server(
    emulator: Emulator, world: World, running_bot: CardTableBot, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    guild = world.table.guild
    assert guild is not None and running_bot.db is not None
    guild.owner_id = world.alice.id  # the server's admin
    opened = await world.alice.slash(world.table, "season start", game="truco", length="open")
    assert not opened.ephemeral
    # The server grants every command to everyone (Integrations settings): Discord no longer
    # stops a member at its default permissions.
    for name in {command.split()[0] for command, _ in ADMIN_COMMANDS}:
        registered = emulator.commands.find(guild.id, name)
        assert registered is not None and registered["default_member_permissions"] is not None
        registered["default_member_permissions"] = None
    bob = world.bob
    refused = t("error.user_missing_permissions", bob.locale, permissions="manage_guild")
    for command, options in ADMIN_COMMANDS:
        answer = await bob.slash(world.table, command, **options)
        assert answer.ephemeral and answer.content == refused, (command, answer.content)
    season = await running_bot.seasons.current(guild.id, "truco")
    assert season is not None and season.number == 1  # not ended, and no second one
    count = await ServerSettings(running_bot.db).get(guild.id, COUNT_MATCHES)
    assert count != "game"
    assert not bot_errors(caplog)
