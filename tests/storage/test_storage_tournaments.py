"""Tournaments in storage (issue 23), on both back-ends: one open per channel, actions appended
only as the next one, and the log read back at start-up rebuilds the same tournament."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage.backend import Storage
from bot.storage.tournaments import TournamentRepository
from bot.tables.tournament import Tournament, TournamentConfig
from bot.tables.tournament_records import TournamentRecord, TournamentStale, TournamentTaken


def record(channel: int = 70) -> TournamentRecord:
    return TournamentRecord(
        id=0, guild_id=7, channel_id=channel, host_id=1,
        config={"rounds": 2, "hands": 1}, status="lobby", version=0, created_at=1000.0,
    )  # fmt: skip


async def test_the_action_log_rebuilds_the_tournament(storage: Storage) -> None:
    store = TournamentRepository(storage.db)
    tid = await store.create_tournament(record())
    with pytest.raises(TournamentTaken):
        await store.create_tournament(record())
    config = TournamentConfig(rounds=2, hands=1)
    live = Tournament(config)
    for action in [*(f"join:{u}:P{u}" for u in range(1, 7)), "start", "open:0:0:11"]:
        live.apply(action)
        await store.append_tournament_action(tid, live.version - 1, action, live.status)
    await store.set_tournament_message(tid, 555)
    [loaded] = await store.load_tournaments()
    assert loaded.id == tid and loaded.status == "playing" and loaded.version == live.version
    assert loaded.message_id == 555 and loaded.config == {"rounds": 2, "hands": 1}
    assert Tournament.replay(config, loaded.actions) == live


async def test_only_the_next_action_is_written(storage: Storage) -> None:
    store = TournamentRepository(storage.db)
    tid = await store.create_tournament(record(71))
    results = await asyncio.gather(
        store.append_tournament_action(tid, 0, "join:1:A", "lobby"),
        store.append_tournament_action(tid, 0, "join:2:B", "lobby"),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["NoneType", "TournamentStale"]
    with pytest.raises(TournamentStale):
        await store.append_tournament_action(tid, 5, "start", "playing")
    stored = await store.get_tournament(tid)
    assert stored is not None and stored.version == 1 and len(stored.actions) == 1
    await store.append_tournament_action(tid, 1, "end", "finished")
    assert await store.load_tournaments() == []  # a finished one is not loaded at start-up
    assert await store.create_tournament(record(71)) != tid  # the channel is free again
