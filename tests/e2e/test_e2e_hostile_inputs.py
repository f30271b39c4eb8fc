"""Issue 33 through the emulator: hostile hand-record files for /replay record (defect 2), and
admin commands granted to everyone in a server's Integrations settings (defect 3). Each answer
is short, private and clear; nothing is changed, and the bot logs no error."""

from __future__ import annotations

import logging
import random
from collections import Counter
from typing import Any

import pytest

from bot.client import CardTableBot
from bot.storage.recording import COUNT_MATCHES
from bot.storage.server_settings import ServerSettings
from bot.texts import t
from emulator import Emulator
from emulator.commands import (
    ATTACHMENT,
    BOOLEAN,
    CHANNEL,
    INTEGER,
    NUMBER,
    STRING,
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
    USER,
)
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


# --- a fuzz of every command a member may run --------------------------------------------------

FUZZ_RUNS, FUZZ_RUNS_LONG = 60, 600
TEXTS = ["", "x", "@everyone", "<@1>", "**a**", "\u202e", "9" * 100, "ǅ" * 40, "\n\n", "é"]


def leaves(command: dict[str, Any]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Each runnable form of a command: its name with its subcommands, and its options."""
    out = []

    def walk(path: str, options: list[dict[str, Any]]) -> None:
        groups = [o for o in options if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        if not groups:
            out.append((path, options))
        for group in groups:
            walk(f"{path} {group['name']}", group.get("options") or [])

    walk(command["name"], command.get("options") or [])
    return out


def any_value(option: dict[str, Any], rng: random.Random, world: World) -> Any:
    """Any value Discord lets through for the option: one of its choices, a number in its
    range (the emulator checks both as Discord does), any text, any file."""
    kind = option["type"]
    choices = option.get("choices")
    if choices:
        return rng.choice(choices)["value"]
    if kind == STRING:
        return rng.choice(TEXTS)
    if kind == INTEGER:
        low, high = option.get("min_value", -(2**31)), option.get("max_value", 2**31)
        return rng.choice([int(low), int(high), rng.randint(int(low), int(high))])
    if kind == NUMBER:
        return rng.uniform(-1e6, 1e6)
    if kind == BOOLEAN:
        return rng.random() < 0.5
    if kind == USER:
        return rng.choice([*world.players, world.emu.owner])
    if kind == CHANNEL:
        return world.table
    if kind == ATTACHMENT:
        return ("x.txt", rng.choice([b"", b"\xff\xfe", HEADER.encode() + b"null", b"a" * 5000]))
    raise AssertionError(f"an option type the fuzz does not know: {kind}")


async def fuzz_commands(
    emulator: Emulator, world: World, caplog: pytest.LogCaptureFixture, runs: int
) -> Counter[str]:
    caplog.set_level(logging.INFO)
    guild = world.table.guild
    assert guild is not None
    forms = [
        form
        for command in emulator.commands.registered(guild.id)
        if command.get("default_member_permissions") is None  # the admin ones: above
        for form in leaves(command)
    ]
    rng = random.Random(33)
    unexpected = t("error.unexpected", world.bob.locale)
    counts: Counter[str] = Counter()
    for _ in range(runs):
        path, declared = rng.choice(forms)
        options = {
            o["name"]: any_value(o, rng, world)
            for o in declared
            if o.get("required") or rng.random() < 0.5
        }
        answer = await world.bob.slash(world.table, path, timeout=10, **options)
        content = answer.content
        assert unexpected not in content and "Traceback" not in content, (path, options)
        assert len(content) <= 2000, (path, options)
        counts[path] += 1
    assert not bot_errors(caplog)
    assert not world.bob.failures
    return counts


async def test_fuzz_every_command_a_member_may_run(
    emulator: Emulator, world: World, running_bot: CardTableBot, caplog: pytest.LogCaptureFixture
) -> None:
    counts = await fuzz_commands(emulator, world, caplog, FUZZ_RUNS)
    print("commands fuzzed:", sum(counts.values()), dict(counts))


@pytest.mark.slow
async def test_fuzz_every_command_a_member_may_run_long(
    emulator: Emulator, world: World, running_bot: CardTableBot, caplog: pytest.LogCaptureFixture
) -> None:
    counts = await fuzz_commands(emulator, world, caplog, FUZZ_RUNS_LONG)
    print("commands fuzzed (long):", sum(counts.values()), dict(counts))
