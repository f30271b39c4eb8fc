"""A server's house rules (issue 21) on both back-ends: per server and game, only the values set,
replaced as a whole, cleared back to nothing. Real SQLite and PostgreSQL, no mocks."""

from __future__ import annotations

from bot.storage.backend import Storage
from bot.storage.house_rules import HouseRulesStore
from bot.tables.records import HouseRules
from tests.support.storage import reopen

A, B = 1, 2


async def test_house_rules_are_kept_per_server_and_game(storage: Storage) -> None:
    store = HouseRulesStore(storage.db)
    assert await store.get(A, "truco") == HouseRules()
    truco = HouseRules({"target": 6, "coberta": True}, {"turn_timer": 60, "pings": False})
    await store.set(A, "truco", truco, by=9, now=100.0)
    await store.set(A, "euchre", HouseRules({"deck": 32}, {}), by=9, now=100.0)
    assert await store.get(A, "truco") == truco
    assert await store.get(A, "euchre") == HouseRules({"deck": 32}, {})
    assert await store.get(B, "truco") == HouseRules()  # another server has none
    # Another process (or a restart) reads the same rules.
    other = await reopen(storage)
    try:
        assert await HouseRulesStore(other.db).get(A, "truco") == truco
    finally:
        await other.close()
    await store.set(A, "truco", HouseRules({"target": 24}, {}), by=9, now=200.0)
    assert await store.get(A, "truco") == HouseRules({"target": 24}, {})
    await store.clear(A, "truco")
    assert await store.get(A, "truco") == HouseRules()
    assert await store.get(A, "euchre") == HouseRules({"deck": 32}, {})
