"""The table stores: the TableStore round trip, the version guard, the finish transaction,
idempotent recording, and crashes (an exception, a SIGKILL) that must leave nothing half-written.
Issue 14: every test that takes the `storage` fixture runs on both back-ends, SQLite
(`SqliteTableStore`, a real file) and PostgreSQL (`PgTableStore`, a real server); the crash tests
are SQLite's own. No mocks."""

from __future__ import annotations

import asyncio
import itertools
import json
import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from bot.storage import (
    Database,
    SqliteTableStore,
    StaleAppend,
    TableNotFound,
    TableNotPlaying,
)
from bot.storage.backend import Storage
from bot.storage.postgres import PgDatabase, record_game_pg
from bot.storage.ratings import DEFAULT_MU, DEFAULT_SIGMA
from bot.storage.recording import record_game
from bot.tables.records import (
    GameResult,
    PlayerResult,
    SeatRecord,
    StoreConflict,
    TableRecord,
    TableStore,
)
from tests.support.storage import count_rows, fetch_rows, reopen
from tests.support.stored_games import (
    EMPTY,
    SEED_64,
    act,
    counts,
    finish,
    lobby,
    open_db,
    peek,
    play_game,
    result_for,
    start,
)

ROOT = Path(__file__).resolve().parents[2]


async def loaded(store: TableStore) -> dict[int, TableRecord]:
    return {t.id: t for t in await store.load_active()}


async def record_directly(storage: Storage, result: GameResult) -> int | None:
    """Record a game straight through the recording code, in a transaction of its own."""
    if isinstance(storage.db, PgDatabase):
        async with storage.db.transaction() as pg:
            return await record_game_pg(pg, result)
    async with storage.db.transaction() as conn:
        return await record_game(conn, result)


# --- the round trip -----------------------------------------------------------------------------


async def test_table_round_trip_lobby_start_append_returns_exact_records(storage: Storage) -> None:
    store = storage.tables
    table = lobby(seats=(100, EMPTY, None, EMPTY))  # host at 0, a bot at 2
    table.id = await store.create_table(table)
    assert table.id > 0
    assert await loaded(store) == {table.id: table}

    # The lobby fills up; the host changes an option.
    table.seats = [
        SeatRecord(100, "user100"),
        SeatRecord(101, "Zoë ♠"),
        SeatRecord(None, "Bot", True, level="hard"),
        SeatRecord(103, "user103"),
    ]
    table.options = {**table.options, "target": 11}
    table.settings = {"turn_timer": 60, "pings": False}
    table.version = 4
    await store.save_lobby(table)
    await store.set_message(table.id, 987654321098765432)
    table.message_id = 987654321098765432
    assert await loaded(store) == {table.id: table}

    await start(store, table, started_at=1_700_000_123.25)
    assert table.seed == SEED_64 and table.seed > 2**63
    for seat, action in [(1, "pass"), (2, "order"), (3, "discard:9H"), (1, "play:JH")]:
        await act(store, table, seat, action)
    restored = await loaded(store)
    assert restored == {table.id: table}
    assert restored[table.id].actions == [
        (1, "pass"),
        (2, "order"),
        (3, "discard:9H"),
        (1, "play:JH"),
    ]
    assert restored[table.id].version == 9
    assert await store.get_table(table.id) == table


async def test_several_tables_load_with_their_own_seats_and_logs(storage: Storage) -> None:
    store = storage.tables
    tables = []
    for n in range(4):
        table = lobby(guild=1 + n % 2, channel=20 + n, seats=(n, n + 10, n + 20, None))
        await start(store, table, started_at=float(n))
        for i in range(n):
            await act(store, table, i % 4, f"a{n}.{i}")
        tables.append(table)
    waiting = lobby(channel=99)
    waiting.id = await store.create_table(waiting)
    assert await loaded(store) == {t.id: t for t in [*tables, waiting]}


async def test_start_game_clears_the_previous_games_log(storage: Storage) -> None:
    """Play again reuses the table: the new game starts with an empty log, the version goes on."""
    store = storage.tables
    table = await play_game(store, guild=1, seats=(1, 2, 3, 4), winner=0, ended_at=5000.0)
    assert (await loaded(store))[table.id].status == "finished"
    await start(store, table, started_at=6000.0)
    again = (await loaded(store))[table.id]
    assert again.actions == [] and again.status == "playing"
    assert again.version == table.version == 5
    assert again.started_at == 6000.0


async def test_going_alone_intents_are_stored_with_the_bid_and_by_the_switch(
    storage: Storage,
) -> None:
    """Issue 33 (E14, alone=anyone): the going-alone intents come back with the table. A maker's
    is written by the bid's own append (one transaction); a private switch by its own write,
    only onto the version the caller holds; an append without them keeps them; a new game
    clears them."""
    store = storage.tables
    table = await start(store, lobby(seats=(1, 2, 3, 4)), started_at=100.0)
    # A switch in hand 1: no new version.
    await store.set_alone_intents(table.id, table.version, {(1, 3)})
    table.alone_intents = {(1, 3)}
    assert await store.get_table(table.id) == table
    # "Order up · alone" by seat 0: the bid and the answer in one append.
    await store.append_action(
        table.id, 0, "order", table.version + 1, alone_intents={(1, 0), (1, 3)}
    )
    table.version += 1
    table.actions.append((0, "order"))
    table.alone_intents = {(1, 0), (1, 3)}
    assert await loaded(store) == {table.id: table}
    await act(store, table, 2, "discard:9H")  # an append without intents keeps them
    assert await store.get_table(table.id) == table
    # A stale append writes no intents either; a switch onto another version writes nothing.
    with pytest.raises(StaleAppend):
        await store.append_action(table.id, 1, "pass", table.version, alone_intents=set())
    for version in (table.version - 1, table.version + 1):
        with pytest.raises(StoreConflict):
            await store.set_alone_intents(table.id, version, set())
    with pytest.raises(StoreConflict):
        await store.set_alone_intents(4242, 1, set())
    assert await store.get_table(table.id) == table
    # Play again: the new game's hands are numbered from 1 again; nobody goes alone yet.
    table.alone_intents = set()
    await start(store, table, started_at=200.0)
    assert await store.get_table(table.id) == table


async def test_delete_forgets_the_table_keeps_its_games_and_never_reuses_its_id(
    storage: Storage,
) -> None:
    store = storage.tables
    table = await play_game(store, guild=1, seats=(1, 2, 3, 4), winner=1, ended_at=5000.0)
    await store.delete_table(table.id)
    await store.delete_table(table.id)  # closing twice is harmless
    assert await loaded(store) == {}
    assert (
        (await count_rows(storage))["table_seats"]
        == (await count_rows(storage))["table_actions"]
        == 0
    )
    assert (await count_rows(storage))["games"] == 1
    # Old buttons carry the old id: a new table must never get it.
    assert await store.create_table(lobby()) > table.id


async def test_missing_tables_are_reported(storage: Storage) -> None:
    store = storage.tables
    ghost = replace(lobby(), id=4242)
    with pytest.raises(TableNotFound):
        await store.save_lobby(ghost)
    with pytest.raises(TableNotFound):
        await store.start_game(ghost)
    with pytest.raises(TableNotFound):
        await store.set_message(4242, 1)
    with pytest.raises(TableNotFound):
        await store.append_action(4242, 0, "pass", 1)
    assert await store.get_table(4242) is None


# --- the version guard --------------------------------------------------------------------------


async def test_stale_version_is_rejected_and_writes_nothing(storage: Storage) -> None:
    store = storage.tables
    table = await start(store, lobby(seats=(1, 2, 3, 4)), started_at=100.0)
    await act(store, table, 0, "pass")
    before = await count_rows(storage)
    for version in (table.version, table.version + 2, 0, table.version - 1):
        with pytest.raises(StaleAppend) as caught:
            await store.append_action(table.id, 1, "order", version)
        assert caught.value.stored == table.version and caught.value.given == version
    # A stale append carrying a game result records no game either.
    result = result_for(table, winner=0, ended_at=200.0)
    with pytest.raises(StaleAppend):
        await store.append_action(table.id, 1, "play:AS", table.version, result)
    assert await count_rows(storage) == before
    assert await store.get_table(table.id) == table


async def test_racing_appends_of_one_version_apply_exactly_once(storage: Storage) -> None:
    """A double click, or two partners answering at once: same version, one wins."""
    store = storage.tables
    table = await start(store, lobby(seats=(1, 2, 3, 4)), started_at=100.0)
    outcomes = await asyncio.gather(
        *(store.append_action(table.id, s, f"accept{s}", table.version + 1) for s in range(4)),
        return_exceptions=True,
    )
    assert sum(o is None for o in outcomes) == 1
    assert sum(isinstance(o, StaleAppend) for o in outcomes) == 3
    stored = await store.get_table(table.id)
    assert stored is not None and len(stored.actions) == 1
    assert stored.version == table.version + 1


async def test_two_connections_like_two_processes_cannot_double_apply(storage: Storage) -> None:
    """The check runs after BEGIN IMMEDIATE (SQLite) or under the row's lock (PostgreSQL), so it
    holds across connections (processes) too."""
    other = await reopen(storage)
    try:
        store_a, store_b = storage.tables, other.tables
        table = await start(store_a, lobby(seats=(1, 2, 3, 4)), started_at=100.0)
        for step in range(20):
            version = table.version + 1
            outcomes = await asyncio.gather(
                store_a.append_action(table.id, 0, f"a{step}", version),
                store_b.append_action(table.id, 1, f"b{step}", version),
                return_exceptions=True,
            )
            assert sorted(type(o).__name__ for o in outcomes) == ["NoneType", "StaleAppend"]
            table.version = version
        stored = await store_b.get_table(table.id)
        assert stored is not None and len(stored.actions) == 20 and stored.version == 21
    finally:
        await other.close()


async def test_appends_to_a_lobby_or_a_finished_table_are_refused(storage: Storage) -> None:
    store = storage.tables
    waiting = lobby(channel=11)  # play_game plays in channel 10
    waiting.id = await store.create_table(waiting)
    with pytest.raises(TableNotPlaying):
        await store.append_action(waiting.id, 0, "pass", 1)
    done = await play_game(store, guild=1, seats=(1, 2, 3, 4), winner=0, ended_at=9.0)
    with pytest.raises(TableNotPlaying):
        await store.append_action(done.id, 0, "pass", done.version + 1)
    assert (await count_rows(storage))["games"] == 1


# --- the finish transaction ---------------------------------------------------------------------


async def test_finishing_append_records_the_game_once_with_ratings_and_stats(
    storage: Storage,
) -> None:
    store = storage.tables
    table = await start(store, lobby(guild=7, seats=(1, None, 3, 4)), started_at=1000.0)
    await act(store, table, 0, "pass")
    stats = {0: {"marches": 1, "made_trump": 2}, 1: {"marches": 5}, 3: {"got_euchred": 1}}
    result = replace(
        result_for(table, winner=0, ended_at=2000.0, stats=stats),
        actions=[*table.actions, (3, "play:AS")],
    )
    await finish(store, table, result)

    stored = await store.get_table(table.id)
    assert stored is not None and stored.status == "finished"
    assert stored.actions[-1] == (3, "play:AS") and stored.version == table.version
    game = await fetch_rows(
        storage,
        "SELECT guild_id, table_id, game, seed, score0, score1, winner_team, hands_played,"
        " started_at, ended_at, actions FROM games",
    )
    assert game == [
        (7, table.id, "euchre", str(SEED_64), 10, 4, 0, 7, 1000.0, 2000.0,
         json.dumps([[0, "pass"], [3, "play:AS"]], separators=(",", ":")))
    ]  # fmt: skip
    players = await fetch_rows(
        storage,
        "SELECT seat, user_id, is_bot, team, won, stats, mu_before IS NULL, mu_after > ?"
        " FROM game_players ORDER BY seat",
        (DEFAULT_MU,),
    )
    assert players == [
        (0, 1, 0, 0, 1, '{"made_trump": 2, "marches": 1}', 0, 1),
        (1, None, 1, 1, 0, '{"marches": 5}', 1, None),  # the bot: no rating at all
        (2, 3, 0, 0, 1, "{}", 0, 1),
        (3, 4, 0, 1, 0, '{"got_euchred": 1}', 0, 0),
    ]
    ratings = await fetch_rows(
        storage,
        "SELECT user_id, games, wins, mu > ?, sigma < ? FROM ratings ORDER BY user_id",
        (DEFAULT_MU, DEFAULT_SIGMA),
    )
    assert ratings == [(1, 1, 1, 1, 1), (3, 1, 1, 1, 1), (4, 1, 0, 0, 1)]
    assert await fetch_rows(
        storage, "SELECT user_id, stat, value FROM player_stats ORDER BY 1, 2"
    ) == [
        (1, "made_trump", 2),
        (1, "marches", 1),
        (4, "got_euchred", 1),
    ]  # the bot's marches are nowhere
    assert await fetch_rows(storage, "SELECT count(*) FROM player_periods") == [
        (6,)
    ]  # 3 x week+month
    # The same finishing append again (a retry after a lost answer) is stale: still one game.
    with pytest.raises(StaleAppend):
        await store.append_action(table.id, 3, "play:AS", table.version, result)
    assert (await count_rows(storage))["games"] == 1


async def test_ratings_and_stats_accumulate_over_games(storage: Storage) -> None:
    store = storage.tables
    for n in range(3):
        await play_game(
            store,
            guild=1,
            seats=(1, 2, 3, 4),
            winner=0,
            ended_at=10_000.0 + n,
            stats={0: {"marches": 1}},
        )
    rows = await fetch_rows(storage, "SELECT user_id, games, wins FROM ratings ORDER BY user_id")
    assert rows == [(1, 3, 3), (2, 3, 0), (3, 3, 3), (4, 3, 0)]
    assert await fetch_rows(storage, "SELECT value FROM player_stats WHERE user_id = 1") == [(3,)]
    # Each game's "before" is the previous game's "after".
    chain = await fetch_rows(
        storage,
        "SELECT mu_before, sigma_before, mu_after, sigma_after FROM game_players"
        " WHERE user_id = 1 ORDER BY game_id",
    )
    assert chain[0][:2] == (DEFAULT_MU, DEFAULT_SIGMA)
    for previous, following in itertools.pairwise(chain):
        assert following[:2] == previous[2:]
    assert await fetch_rows(storage, "SELECT mu, sigma FROM ratings WHERE user_id = 1") == [
        chain[-1][2:]
    ]


async def test_recording_is_idempotent_per_table_and_start_time(storage: Storage) -> None:
    store = storage.tables
    table = await play_game(store, guild=1, seats=(1, 2, 3, 4), winner=1, ended_at=50.0)
    once = await count_rows(storage)
    rating_once = await fetch_rows(storage, "SELECT * FROM ratings ORDER BY user_id")
    result = result_for(table, winner=1, ended_at=50.0)

    # Recording the same game again directly: no new rows, no rating moves.
    assert await record_directly(storage, result) is None

    # Through the public API: the same game replayed onto the table (same start time),
    # e.g. a restore gone wrong. The actions go into the log, the game is not recorded again.
    await start(store, table, started_at=result.started_at)
    await act(store, table, 0, "pass")
    await finish(store, table, result)
    assert await count_rows(storage) == {**once, "table_actions": 2}
    assert await fetch_rows(storage, "SELECT * FROM ratings ORDER BY user_id") == rating_once

    # A new game of the same table (a new start time) is a new record.
    await start(store, table, started_at=60.0)
    await finish(store, table, replace(result, started_at=60.0, ended_at=70.0))
    assert (await count_rows(storage))["games"] == 2


async def test_bots_and_doubly_seated_users_are_never_rated(storage: Storage) -> None:
    store = storage.tables
    await play_game(store, guild=1, seats=(1, None, None, None), winner=0, ended_at=10.0)
    await play_game(store, guild=1, seats=(None, None, None, None), winner=1, ended_at=11.0)
    await play_game(store, guild=1, seats=(5, 5, 6, None), winner=1, ended_at=12.0)
    assert await fetch_rows(
        storage, "SELECT user_id, games, wins FROM ratings ORDER BY user_id"
    ) == [
        (1, 1, 1),
        (6, 1, 0),
    ]
    assert await fetch_rows(storage, "SELECT count(*) FROM game_players") == [(12,)]  # all recorded
    unrated = await fetch_rows(storage, "SELECT count(*) FROM game_players WHERE mu_after IS NULL")
    assert unrated == [(3 + 4 + 3,)]  # bots, and user 5 who sat twice


# --- crashes ------------------------------------------------------------------------------------


async def test_an_error_midway_through_the_finish_leaves_nothing_half_written(
    tmp_path: Path,
) -> None:
    """The game row is written first; a bad player row fails after it. Everything — the game,
    the action, the version, the status — must roll back, and a correct retry then succeeds."""
    db = await open_db(tmp_path)
    store = SqliteTableStore(db)
    try:
        table = await start(store, lobby(seats=(1, 2, 3, 4)), started_at=100.0)
        await act(store, table, 0, "pass")
        before = counts(db.path)
        good = result_for(table, winner=0, ended_at=200.0)
        broken_players = [
            *good.players[:3],
            PlayerResult(seat=3, team=1, user_id=None, name="?", is_bot=False, stats={}),
        ]
        for broken in (
            replace(good, players=broken_players),  # a human without a user id: CHECK fails
            replace(good, players=[*good.players[:3], replace(good.players[3], team=2)]),
        ):
            with pytest.raises(Exception, match="CHECK constraint failed"):
                await store.append_action(table.id, 3, "play:AS", table.version + 1, broken)
            assert counts(db.path) == before
            assert await store.get_table(table.id) == table
        await finish(store, table, good)
        assert counts(db.path)["games"] == 1
    finally:
        await db.close()


CRASHING_CHILD = """
import asyncio, os, signal, sys
from bot.storage import Database, SqliteTableStore
from bot.storage.recording import record_game
from tests.support.stored_games import result_for

async def main(path, table_id, version, when):
    db = await Database.open(path)
    store = SqliteTableStore(db)
    table = await store.get_table(table_id)
    result = result_for(table, winner=0, ended_at=500.0)
    if when == "before-commit":
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO table_actions (table_id, seq, seat, action) VALUES (?, ?, 3, 'x')",
                (table_id, len(table.actions)))
            await conn.execute("UPDATE tables SET version = ?, status = 'finished'"
                               " WHERE id = ?", (version, table_id))
            await record_game(conn, result)
            os.kill(os.getpid(), signal.SIGKILL)  # everything written, nothing committed
    else:
        await store.append_action(table_id, 3, "play:AS", version, result)
        os.kill(os.getpid(), signal.SIGKILL)  # committed, then killed before closing

path, table_id, version, when = sys.argv[1:]
asyncio.run(main(path, int(table_id), int(version), when))
"""


async def test_sigkill_before_or_after_the_finishing_commit(tmp_path: Path) -> None:
    """A real crash: a child process is killed inside the finish transaction (nothing may
    remain), then killed right after it commits (the game must be there exactly once)."""
    db = await open_db(tmp_path)
    store = SqliteTableStore(db)
    table = await start(store, lobby(seats=(1, 2, 3, 4)), started_at=100.0)
    await act(store, table, 0, "pass")
    await db.close()
    before = counts(tmp_path / "bot.db")

    def child(when: str) -> int:
        run = subprocess.run(
            [sys.executable, "-c", CRASHING_CHILD, str(tmp_path / "bot.db"), str(table.id),
             str(table.version + 1), when],
            cwd=ROOT, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        return run.returncode

    assert child("before-commit") == -signal.SIGKILL
    assert peek(tmp_path / "bot.db", "PRAGMA integrity_check") == [("ok",)]
    assert counts(tmp_path / "bot.db") == before

    assert child("after-commit") == -signal.SIGKILL
    assert peek(tmp_path / "bot.db", "PRAGMA integrity_check") == [("ok",)]
    after = counts(tmp_path / "bot.db")
    assert after["games"] == 1 and after["table_actions"] == before["table_actions"] + 1

    # Restarted: the table is finished at the new version; a replayed finish is stale.
    db = await open_db(tmp_path)
    store = SqliteTableStore(db)
    try:
        restored = await store.get_table(table.id)
        assert restored is not None
        assert (restored.status, restored.version) == ("finished", table.version + 1)
        with pytest.raises(StaleAppend):
            await store.append_action(
                table.id, 3, "play:AS", table.version + 1, result_for(table, 0, 500.0)
            )
        assert counts(db.path)["games"] == 1
    finally:
        await db.close()


# --- group commit (issue 13 item 7) -------------------------------------------------------------


async def test_group_commit_gives_each_queued_append_its_own_outcome(tmp_path: Path) -> None:
    """Issue 13 item 7: appends that queue up together are committed in one transaction, yet
    each keeps its own guarantees: a stale one is refused (and undone) alone, the others land,
    and a finishing one records its game in the same transaction as its action. (With
    synchronous=FULL: the writes take the writer's thread, where appends queue up.)"""
    db = await Database.open(tmp_path / "bot.db", synchronous="FULL")
    store = SqliteTableStore(db, group_commit=True)
    assert not db.writes_at_once
    try:
        tables = []
        for n in range(6):
            table = lobby(channel=100 + n, seats=(1 + 4 * n, 2 + 4 * n, 3 + 4 * n, 4 + 4 * n))
            table.id = await store.create_table(table)
            await start(store, table, started_at=1000.0 + n)
            tables.append(table)
        finishing = tables[5]
        outcomes = await asyncio.gather(
            *(store.append_action(t.id, 0, "pass", t.version + 1) for t in tables[:4]),
            store.append_action(tables[4].id, 0, "pass", tables[4].version + 5),  # stale
            store.append_action(
                finishing.id,
                0,
                "pass",
                finishing.version + 1,
                result_for(finishing, winner=1, ended_at=2000.0),
            ),
            return_exceptions=True,
        )
        assert outcomes[:4] == [None] * 4 and outcomes[5] is None
        assert isinstance(outcomes[4], StaleAppend)
        stored = await loaded(store)
        for table in tables[:4]:
            assert stored[table.id].actions == [(0, "pass")]
            assert stored[table.id].version == table.version + 1
        assert stored[tables[4].id].actions == []
        assert stored[tables[4].id].version == tables[4].version
        assert stored[finishing.id].status == "finished"
        assert counts(db.path)["games"] == 1
    finally:
        await db.close()
