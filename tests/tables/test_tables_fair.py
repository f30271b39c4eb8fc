"""Issue 24 phase B at the table layer: new tables deal fair-v1 from a 256-bit seed drawn with
the lobby (stored as text on both back-ends), and the table makes every hand's cut itself: the
Start click cuts hand 1, a click that ends a hand cuts the next, a typed cut wins, and a hand
ended by bots is cut after the wait without anyone clicking (the table never stalls)."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest

from bot.engine.fair_deal import hand_commitment
from bot.storage.backend import Storage
from bot.tables import fair
from bot.tables.fair_check import check_hand
from bot.tables.service import TableService
from tests.support.service import GUILD, HOST, full_table, make_service, user_at

BIG = (1 << 255) + 987_654_321  # a 256-bit seed: the store keeps it as text


@pytest.fixture
def service_options() -> dict[str, Any]:
    return {"seeds": itertools.count(BIG), "fair_version": 1, "cuts": {"wait": 0.05}}  # v1's


async def test_lobby_draws_the_seed_and_the_start_click_cuts_hand_1(
    service: TableService, db: Storage
) -> None:
    table = await service.create(
        guild_id=GUILD, channel_id=5, host_id=HOST, host_name="Host", game="euchre"
    )
    assert table.record.seed == BIG
    stored = await db.tables.get_table(table.id)
    assert stored is not None and stored.seed == BIG  # 256 bits survive the TEXT column
    for user in (12, 13, 14):
        await service.join(table.id, user, f"P{user}")
    service.fair_cuts.seen(table.id, 1311111111111111111)  # the Start click
    await service.start(table.id, HOST)
    await asyncio.sleep(0)  # the cut task runs
    for _ in range(50):
        if table.game is not None and table.game.phase != "cut":
            break
        await asyncio.sleep(0.01)
    async with table.lock:  # the cut's write is done (it holds the lock while it writes)
        assert table.game is not None and table.game.phase != "cut"
    assert table.options["deal"] == "fair-v1"
    assert table.options["players"] == [str(HOST), "12", "13", "14"]
    first = table.record.actions[0]
    assert first[1] == "cut:1311111111111111111"
    fair_view = table.game.view(None)["fair"]
    assert fair_view["commitment"] == hand_commitment(BIG, 1)
    assert table.game.fair_records() == []  # nothing revealed while hand 1 is in play
    stored = await db.tables.get_table(table.id)
    assert stored is not None and stored.actions[:1] == [first]


async def test_bots_and_clicks_play_a_whole_fair_game_with_every_deal_checking(
    service: TableService,
) -> None:
    table = await full_table(service, "truco")
    clicks = itertools.count(1_400_000_000_000_000_000)
    while table.game is not None and not table.game.is_over:
        game = table.game
        if game.phase == "cut":
            await asyncio.sleep(0.02)  # waits for a click or the fallback: never stalls
            continue
        seat = game.to_act[0]
        action = game.legal_actions(seat)[0]
        await service.act(table.id, user_at(table, seat), action, table.version, next(clicks))
    assert table.game is not None
    records = table.game.fair_records()
    assert records and [r["hand"] for r in records] == list(range(1, len(records) + 1))
    for record in records:
        check = check_hand(records, record["hand"])
        assert check is not None and check.ok
    # every hand after the first was cut by the click that ended the one before
    assert all(r["cut"].isdigit() for r in records[1:])


async def test_a_typed_cut_of_the_next_cutter_is_used_and_a_stranger_cannot_cut(
    service: TableService,
) -> None:
    table = await full_table(service, "euchre")
    for _ in range(500):  # hand 1 waits for its cut: no click came, the fallback cuts it
        if table.game is not None and table.game.phase != "cut":
            break
        await asyncio.sleep(0.01)
    game = table.game
    assert game is not None
    dealer = game.view(None)["fair"]["dealer"]
    other = (dealer + 1) % 4
    with pytest.raises(fair.NotTheCutter):
        await service.fair_cuts.cut(table.id, user_at(table, other), "mine")
    _, applied = await service.fair_cuts.cut(table.id, user_at(table, dealer), "Olá ♠")
    assert not applied  # kept for the next hand, which the dealer cuts
    hand = game.view(None)["fair"]["hand"]
    while table.game is not None and not table.game.is_over:
        game = table.game
        if game.view(None)["fair"]["hand"] > hand:
            break
        if game.phase == "cut":
            await asyncio.sleep(0.01)
            continue
        seat = game.to_act[0]
        await service.act(
            table.id, user_at(table, seat), game.legal_actions(seat)[0], table.version, 99
        )
    assert table.game is not None
    assert table.game.fair_records()[-1]["hand"] == hand
    cuts = [a for _, a in table.record.actions if a.startswith("cut:")]
    assert cuts[1] == "cut:Olá ♠"


async def test_old_dealing_when_fair_deals_are_off(db: Storage) -> None:
    service = make_service(db, fair_deals=False)  # this test is about the old dealing
    table = await full_table(service, "euchre")
    assert "deal" not in table.options and table.game is not None and table.game.to_act
