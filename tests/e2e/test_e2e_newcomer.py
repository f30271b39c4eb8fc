"""Issue 30 item 5: a newcomer's first minutes. `/help` answers privately in the reader's
language: how to start a table, the commands, where the rules are; a start without a token
names the demo."""

from __future__ import annotations

from bot.__main__ import NO_TOKEN
from bot.client import CardTableBot
from bot.texts import t
from emulator import Emulator
from tests.support.world import World


async def test_help_is_private_and_says_how_to_start_the_commands_and_the_rules(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    synced = {c["name"] for c in emulator.commands.registered(world.guild.id)}
    assert "help" in synced
    reply = await world.alice.slash(world.table, "help")
    assert reply.ephemeral and reply.ephemeral_for is world.alice
    text = reply.text
    for command in ("/euchre new", "/truco new", "/table show", "/rules", "/leaderboard"):
        assert command in text
    assert "Start" in text and "Show my hand" in text  # the buttons a newcomer clicks
    assert world.table.messages == []  # nothing public


async def test_help_speaks_the_readers_language(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    person = emulator.add_user("Ana", locale="pt-BR")
    world.guild.add_member(person)
    reply = await person.slash(world.table, "help")
    assert reply.ephemeral
    assert t("help.title", "pt-BR") in reply.text and "Abra uma mesa" in reply.text


def test_no_token_names_the_demo() -> None:
    assert "python3 dev.py run --demo" in NO_TOKEN
