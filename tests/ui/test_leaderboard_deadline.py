"""Slow answers are acknowledged in time: while the database is busy (here: held by the test),
/leaderboard shows "thinking" and then the board, a page click is a deferred update and then an
edit of its message, a log button "thinks" privately and then shows the log. The deadline is
shortened from 2 s so the test stays quick; the emulator enforces Discord's 3 s rule."""

from __future__ import annotations

import time

import pytest

from bot.client import CardTableBot
from bot.ui.kit import answer
from emulator import Emulator
from tests.support.leaderboard import Recorder, people
from tests.support.world import World


async def test_slow_answers_are_deferred_then_shown(
    emulator: Emulator,
    world: World,
    running_bot: CardTableBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(answer, "ACK_DEADLINE", 0.05)
    db = running_bot.db
    assert db is not None
    recorder = Recorder(db)
    crowd = people(emulator, world.guild, [f"p{i}" for i in range(12)])
    now = time.time()
    for seed in range(1, 13):
        seats = [crowd[(seed + k) % 12] for k in (0, 3, 6, 9)]
        await recorder.record(world.guild.id, "truco", seats, now - seed, seed, {"target": 6})

    async with db.read():  # the bot's queries wait for this
        command = await world.alice.send_slash(world.table, "leaderboard", game="truco")
        await emulator.wait_for(lambda: command.acknowledged, what="the deferral")
        assert command.response_type == 5 and command.original is not None
        assert command.original.loading and not command.original.ephemeral
    board = await command.response()
    assert not board.loading and "Truco Mineiro leaderboard" in board.text
    assert "Page 1 of 2" in board.text

    async with db.read():
        click = await world.bob.send_click(board, "▶")
        await emulator.wait_for(lambda: click.acknowledged, what="the deferred update")
        assert click.response_type == 6
    await board.wait_until(lambda m: "Page 2 of 2" in m.text)

    history = await world.alice.slash(world.table, "history")
    async with db.read():
        opened = await world.alice.send_click(history, "Log 1")
        await emulator.wait_for(lambda: opened.acknowledged, what="the private thinking")
        assert opened.response_type == 5
    log = await opened.response()
    assert log.ephemeral and not log.loading and "wins" in (log.embed or {}).get("title", "")
    assert not any(i.failed for i in emulator.interactions)
