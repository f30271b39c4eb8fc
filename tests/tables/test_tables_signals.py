"""Truco's sinais through the table service (issue 35): a person's signal is stored in the
table's log like a move (a restart keeps it, the partner sees it, the other pair does not), it
leaves the turn's timer be; bots signal honestly once a hand before their card."""

from __future__ import annotations

import random

import pytest

from bot.engine.truco.signals import fits
from bot.storage import Database
from bot.tables import bot_moves
from tests.support.service import HOST, full_table, make_service, play_random, user_at


async def test_a_persons_signal_is_stored_and_only_the_pair_sees_it(db: Database) -> None:
    service = make_service(db)
    try:
        table = await full_table(service)
        await service.set_message(table.id, 555)
        game = table.game
        assert game is not None
        # Someone not on turn signals: the turn, and its deadline, stay as they were.
        sender = (game.to_act[0] + 1) % 4
        deadline, since = table.record.turn_deadline, table.record.turn_since
        await service.act(table.id, user_at(table, sender), "signal:copas", table.version)
        assert (table.record.turn_deadline, table.record.turn_since) == (deadline, since)
    finally:
        await service.close()
    restored = make_service(db)
    try:
        await restored.restore()
        table = restored.get(table.id)
        game = table.game
        assert game is not None
        assert game.view((sender + 2) % 4)["signals"]["partner"] == "copas"
        assert game.view(sender)["signals"]["mine"] == "copas"
        for opponent in ((sender + 1) % 4, (sender + 3) % 4):
            signals = game.view(opponent)["signals"]
            assert signals["partner"] is None or signals["partner"] != "copas"
            assert all(a != "signal:copas" for _, a in game.hand_history(opponent))
    finally:
        await restored.close()


@pytest.fixture
def small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(bot_moves.ITERATIONS, "truco", {"normal": 10, "hard": 20})


async def test_bots_signal_the_truth_once_a_hand(db: Database, small_budgets: None) -> None:
    service = make_service(db)
    try:
        table = await service.create(
            guild_id=1000, channel_id=2000, host_id=HOST, host_name="Host", game="truco"
        )
        for level in bot_moves.LEVELS:
            await service.add_bot(table.id, HOST, level=level)
        await service.set_message(table.id, 555)
        await service.start(table.id, HOST)
        await play_random(service, table, random.Random(3))
        game = table.game
        assert game is not None and game.is_over
        # Replay the log: each bot's signal fits the cards it held when it sent it.
        replayed = table.rules.replay(table.record.options, game.seed, game.first_dealer, [])
        signalled: set[tuple[int, int]] = set()
        for seat, action in game.actions:
            if action.startswith("signal:"):
                assert table.is_bot_seat(seat)  # the person here never signals
                hand = replayed.view(seat)["hand"]
                assert fits(action.split(":")[1], hand), (action, hand)
                key = (replayed.game_number * 1000 + replayed.hand_number, seat)
                assert key not in signalled
                signalled.add(key)
            replayed.apply(seat, action)
        assert len(signalled) >= 3
    finally:
        await service.close()
