"""Faults seen under test (issue 25): each test failed on the code before its fix."""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
from typing import Any

import aiohttp
import discord
import pytest

from bot.client import CardTableBot
from bot.settings import Settings
from bot.texts import t
from bot.ui.kit import discord_internals as internals
from bot.ui.kit.buttons import KeyButton
from emulator import Emulator
from emulator.state import APPLICATION_COMMAND
from tests.support.hardening import started_table
from tests.support.play_driver import TableDriver
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


def bot_lines(caplog: pytest.LogCaptureFixture, level: int) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name.startswith("bot") and r.levelno >= level]


async def test_a_click_answer_lost_in_transport_is_sent_again_once_with_one_line(
    emulator: Emulator,
    world: World,
    running_bot: CardTableBot,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Fault 1: the connection drops as the bot answers a click (ServerDisconnectedError
    before anything reached Discord). The answer is sent again once and the person sees it;
    the bot logs one warning line, no traceback."""
    driver = await started_table(world, running_bot, "euchre new")
    failures = inject_disconnects(monkeypatch, count=1)
    caplog.clear()
    caplog.set_level(logging.INFO)
    assert await driver.step(random.Random(3))
    assert failures == [], "the injected disconnect was hit"
    assert not [r for r in bot_lines(caplog, logging.ERROR)]
    assert not [r for r in caplog.records if r.exc_info]
    warnings = bot_lines(caplog, logging.WARNING)
    assert len(warnings) == 1 and "again" in warnings[0].getMessage(), warnings


async def test_a_click_on_a_closed_session_logs_one_line_and_no_traceback(
    emulator: Emulator,
    world: World,
    running_bot: CardTableBot,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Fault 1, the rest of it: the answer fails in transport, then its fallback meets
    `RuntimeError: Session is closed` (the bot is going down). Nothing escapes `guarded` or
    `KeyButton.callback`: one warning line, no traceback, no retry of the closed session."""
    driver = await started_table(world, running_bot, "euchre new")
    person = world.alice
    inject_disconnects(monkeypatch, count=1)
    # New interactions take the HTTP client's session: give them one that is closed (the
    # gateway keeps its own connection, opened on the real session).
    closed = aiohttp.ClientSession()
    await closed.close()
    monkeypatch.setattr(running_bot.http, "_HTTPClient__session", closed)
    caplog.clear()
    caplog.set_level(logging.INFO)
    click = await person.send_click(driver.message, f"tb:{driver.table.id}:hand")
    await click.wait_settled(timeout=10)
    assert click.failed  # nothing could answer it
    emulator.take_violations(10062)
    assert not [r for r in bot_lines(caplog, logging.ERROR)]
    assert not [r for r in caplog.records if r.exc_info]
    warnings = bot_lines(caplog, logging.WARNING)
    assert len(warnings) == 1, [w.getMessage() for w in warnings]


def inject_disconnects(monkeypatch: pytest.MonkeyPatch, count: int) -> list[int]:
    """The next `count` interaction callbacks fail as a dropped connection does, before
    reaching the emulator; the list empties as they are used."""
    real = internals.post_callback
    left = list(range(count))

    async def flaky(interaction: Any, params: Any) -> None:
        if left:
            left.pop()
            raise aiohttp.ServerDisconnectedError()
        await real(interaction, params)

    monkeypatch.setattr(internals, "post_callback", flaky)
    return left


async def test_a_database_outage_is_logged_once_then_counted_then_back(
    emulator: Emulator,
    world: World,
    running_bot: CardTableBot,
    bot_settings: Settings,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Fault 4: while the database refuses writes (another process holds its write lock),
    every click is still answered, but the log holds one ERROR with one traceback for the
    whole outage, not one per click; the first write that works says it is back."""
    driver = await started_table(world, running_bot, "euchre new")
    assert running_bot.db is not None
    # Fail fast instead of waiting 5 s per write for the lock to come free.
    await running_bot.db._conn.execute("PRAGMA busy_timeout = 20")  # type: ignore[union-attr]
    holder = sqlite3.connect(bot_settings.database_path, isolation_level=None)
    caplog.clear()
    caplog.set_level(logging.INFO)
    try:
        holder.execute("BEGIN IMMEDIATE")
        table = driver.table
        before = table.version
        for _ in range(5):
            seat = next(s for s in table.game.to_act if not table.is_bot_seat(s))  # type: ignore[union-attr]
            person = driver.person_at(seat)
            hand = await person.click(driver.message, f"tb:{table.id}:hand")
            action = next(
                b for b in hand.buttons if b.custom_id.startswith("t:") and not b.disabled
            )
            answer = await person.click(hand, action.custom_id)
            assert t("error.unexpected", person.locale) in answer.content
        assert table.version == before  # nothing was written
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    errors = bot_lines(caplog, logging.ERROR)
    assert len(errors) == 1 and "database unavailable" in errors[0].getMessage(), errors
    assert len([r for r in caplog.records if r.exc_info]) == 1
    assert await driver.step(random.Random(5))  # the database is back: a move goes through
    assert any("database back" in r.getMessage() for r in bot_lines(caplog, logging.WARNING))
    assert len(emulator.take_bot_errors("database unavailable")) == 1  # the one expected


async def test_a_turn_ping_is_forgotten_in_the_database_before_it_is_deleted(
    emulator: Emulator,
    world: World,
    running_bot: CardTableBot,
    bot_settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Fault 5: a SIGKILL between deleting the turn ping and storing the next one left the old
    id stored, and the restart deleted it again (a 404). The stored id is cleared first: at
    the moment any ping is deleted, the database no longer names it."""
    stored_at_delete: list[tuple[int, int | None]] = []
    real_delete = discord.PartialMessage.delete

    async def observed_delete(
        message: discord.PartialMessage, *, delay: float | None = None
    ) -> None:
        with sqlite3.connect(bot_settings.database_path) as conn:
            for (ping,) in conn.execute("SELECT ping_message_id FROM tables"):
                stored_at_delete.append((message.id, ping))
        await real_delete(message, delay=delay)

    monkeypatch.setattr(discord.PartialMessage, "delete", observed_delete)
    driver = TableDriver(world.emu, running_bot, world.table, world.players)
    lobby = await driver.open(world.alice, "euchre new", pings=True, turn_timer=0, ping_after=0)
    await driver.sit(lobby, world.players[1:], 0, world.alice)
    await driver.start(lobby, world.alice)
    rng = random.Random(11)
    for _ in range(4):  # the turn passes from person to person: each new ping retires the last
        assert await driver.step(rng)
        await driver.settle()
    assert stored_at_delete, "pings were deleted"
    assert all(ping != deleted for deleted, ping in stored_at_delete), stored_at_delete


async def test_a_click_answered_after_its_deadline_logs_one_warning_and_no_traceback(
    emulator: Emulator,
    world: World,
    running_bot: CardTableBot,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Fault 4 of the rest of issue 25: the bot answers a click after Discord's 3 s deadline
    (a loaded bot, a long pause): Discord answers 10062 Unknown interaction. Nothing can reach
    the person any more (a fallback would meet the same 10062) and it is no bug to trace: one
    warning line, no ERROR, no traceback."""
    driver = await started_table(world, running_bot, "euchre new")
    handled = asyncio.Event()
    real = KeyButton.callback

    async def late(self: KeyButton, interaction: Any) -> None:
        # The bot gets to the click after its deadline: the emulator's clock jumps past it.
        emulator.clock.advance(emulator.response_deadline + 1)
        try:
            await real(self, interaction)
        finally:
            handled.set()  # the click's whole handling, its logging included, is over

    monkeypatch.setattr(KeyButton, "callback", late)
    caplog.clear()
    caplog.set_level(logging.INFO)
    click = await world.alice.send_click(driver.message, f"tb:{driver.table.id}:hand")
    await asyncio.wait_for(handled.wait(), 10)
    assert click.failed  # the person saw "This interaction failed"
    assert emulator.take_violations(10062)
    assert not [r for r in bot_lines(caplog, logging.ERROR)]
    assert not [r for r in caplog.records if r.exc_info]
    warnings = bot_lines(caplog, logging.WARNING)
    assert len(warnings) == 1 and "too late" in warnings[0].getMessage(), [
        w.getMessage() for w in warnings
    ]
