"""The database itself: migrations, pragmas, transactions, backup. Real SQLite files, no mocks."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import (
    Database,
    SchemaTooNew,
    SqliteTableStore,
    StorageError,
    backup_database,
    database,
)
from bot.storage.database import load_migrations, split_sql
from tests.support.stored_games import act, lobby, open_db, peek, start

EXPECTED_TABLES = {
    "schema_version",
    "recaps",
    "house_rules",
    "tables",
    "table_seats",
    "table_actions",
    "games",
    "game_players",
    "player_stats",
    "ratings",
    "player_periods",
    "server_settings",
    "seasons",
    "season_ratings",
    "tournaments",
    "tournament_actions",
}
ROOT = Path(__file__).resolve().parents[2]


def user_tables(path: Path) -> set[str]:
    rows = peek(path, "SELECT name FROM sqlite_master WHERE type = 'table'")
    return {name for (name,) in rows if not name.startswith("sqlite_")}


# --- migrations ---------------------------------------------------------------------------------


async def test_migrations_build_the_schema_from_an_empty_file(tmp_path: Path) -> None:
    db = await open_db(tmp_path)
    try:
        latest = load_migrations()[-1].version
        assert await db.schema_version() == latest
        assert user_tables(db.path) == EXPECTED_TABLES
        assert peek(db.path, "SELECT version, name FROM schema_version") == [
            (1, "initial"),
            (2, "table_settings_and_bot_levels"),
            (3, "turn_timers_pings_ready"),
            (4, "one_open_table_per_channel"),
            (5, "weekly_recap"),
            (6, "house_rules"),
            (7, "turn_since"),
            (8, "server_settings"),
            (9, "seasons"),
            (10, "tournaments"),
            (11, "exactly_once_posts"),
            (12, "alone_intents"),
        ]
        assert await db.migrate() == []  # nothing left to apply
    finally:
        await db.close()


async def test_reopening_keeps_data_and_applies_nothing_twice(tmp_path: Path) -> None:
    db = await open_db(tmp_path)
    table_id = await SqliteTableStore(db).create_table(lobby())
    await db.close()
    db = await open_db(tmp_path)
    try:
        assert await db.migrate() == []
        assert peek(db.path, "SELECT count(*) FROM schema_version") == [(len(load_migrations()),)]
        assert await SqliteTableStore(db).get_table(table_id) is not None
    finally:
        await db.close()


async def test_a_failing_migration_is_rolled_back_whole(tmp_path: Path) -> None:
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    (migrations / "001_first.sql").write_text("CREATE TABLE first (x INTEGER);\n")
    (migrations / "002_second.sql").write_text(
        "-- the second statement fails: the first must not stay\n"
        "CREATE TABLE second (x INTEGER);\n"
        "INSERT INTO no_such_table VALUES (1);\n"
    )
    with pytest.raises(sqlite3.OperationalError):
        await Database.open(tmp_path / "m.db", migrations_dir=migrations)
    assert user_tables(tmp_path / "m.db") == {"schema_version", "first"}
    assert peek(tmp_path / "m.db", "SELECT version FROM schema_version") == [(1,)]

    (migrations / "002_second.sql").write_text("CREATE TABLE second (x INTEGER);\n")
    db = await Database.open(tmp_path / "m.db", migrations_dir=migrations)
    try:
        assert await db.schema_version() == 2
        assert user_tables(db.path) == {"schema_version", "first", "second"}
    finally:
        await db.close()


async def test_a_database_from_newer_code_is_refused(tmp_path: Path) -> None:
    db = await open_db(tmp_path)
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO schema_version VALUES (99, 'future', 0)")
    await db.close()
    with pytest.raises(SchemaTooNew):
        await open_db(tmp_path)


def test_migration_files_must_be_numbered_without_gaps(tmp_path: Path) -> None:
    (tmp_path / "001_a.sql").write_text("SELECT 1;")
    (tmp_path / "003_c.sql").write_text("SELECT 1;")
    with pytest.raises(StorageError, match="numbered"):
        load_migrations(tmp_path)
    (tmp_path / "003_c.sql").rename(tmp_path / "2_b.sql")
    with pytest.raises(StorageError, match="NNN_name"):
        load_migrations(tmp_path)


def test_split_sql_keeps_triggers_whole_and_drops_comments() -> None:
    script = (
        "-- a comment; with a semicolon\n"
        "CREATE TABLE a (x TEXT DEFAULT 'a;b');\n"
        "CREATE TRIGGER t AFTER INSERT ON a BEGIN\n"
        "  UPDATE a SET x = 'y';\n"
        "  DELETE FROM a WHERE x = 'z';\n"
        "END;\n"
        "-- trailing comment\n"
    )
    statements = split_sql(script)
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")
    with pytest.raises(StorageError, match="unterminated"):
        split_sql("CREATE TABLE b (x INTEGER)")


# --- pragmas ------------------------------------------------------------------------------------


async def test_wal_foreign_keys_and_busy_timeout_are_on(tmp_path: Path) -> None:
    db = await open_db(tmp_path)
    try:
        async with db.read() as conn:
            pragmas = {
                name: next(iter(await conn.execute_fetchall(f"PRAGMA {name}")))[0]
                for name in ("journal_mode", "foreign_keys", "busy_timeout", "synchronous")
            }
        assert pragmas == {
            "journal_mode": "wal",
            "foreign_keys": 1,
            "busy_timeout": 5000,
            "synchronous": 1,  # NORMAL
        }
        # The journal mode is stored in the file: a fresh plain connection sees WAL too.
        assert peek(db.path, "PRAGMA journal_mode") == [("wal",)]
        # Foreign keys are enforced, not just declared.
        with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
            async with db.transaction() as conn:
                await conn.execute(
                    "INSERT INTO table_seats (table_id, position, user_id, is_bot, name)"
                    " VALUES (12345, 0, 1, 0, 'x')"
                )
    finally:
        await db.close()


async def test_open_refuses_an_in_memory_database(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="file"):
        await Database.open(":memory:")


# --- transactions -------------------------------------------------------------------------------

INSERT_TABLE = (
    "INSERT INTO tables (guild_id, channel_id, host_id, game, options, status, version,"
    " created_at) VALUES (1, 2, 3, 'euchre', '{}', 'finished', 0, 0)"
)


async def test_an_exception_rolls_back_the_whole_transaction(tmp_path: Path) -> None:
    db = await open_db(tmp_path)
    try:
        with pytest.raises(RuntimeError, match="boom"):
            async with db.transaction() as conn:
                await conn.execute(INSERT_TABLE)
                await conn.execute(INSERT_TABLE)
                raise RuntimeError("boom")
        assert peek(db.path, "SELECT count(*) FROM tables") == [(0,)]
        async with db.transaction() as conn:  # the connection is usable afterwards
            await conn.execute(INSERT_TABLE)
        assert peek(db.path, "SELECT count(*) FROM tables") == [(1,)]
    finally:
        await db.close()


async def test_a_cancelled_transaction_writes_nothing(tmp_path: Path) -> None:
    db = await open_db(tmp_path)
    inside = asyncio.Event()

    async def slow_writer() -> None:
        async with db.transaction() as conn:
            await conn.execute(INSERT_TABLE)
            inside.set()
            await asyncio.sleep(30)

    try:
        task = asyncio.create_task(slow_writer())
        await inside.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert peek(db.path, "SELECT count(*) FROM tables") == [(0,)]
        async with db.transaction() as conn:
            await conn.execute(INSERT_TABLE)
        assert peek(db.path, "SELECT count(*) FROM tables") == [(1,)]
    finally:
        await db.close()


async def test_cancelled_while_waiting_for_another_writer_leaves_no_open_transaction(
    tmp_path: Path,
) -> None:
    """Another process holds the write lock; our BEGIN IMMEDIATE waits (busy timeout) and the
    task is cancelled meanwhile. The BEGIN still completes later on the connection's thread:
    it must be rolled back, or every later transaction would fail."""
    db = await open_db(tmp_path)
    other = sqlite3.connect(db.path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        task = asyncio.create_task(_write_once(db))
        await asyncio.sleep(0.2)  # the task is now waiting inside BEGIN IMMEDIATE
        task.cancel()
        await asyncio.sleep(0.05)
        other.execute("COMMIT")  # the waiting BEGIN now succeeds, after its task was cancelled
        with pytest.raises(asyncio.CancelledError):
            await task
        await _write_once(db)
        await _write_once(db)
        assert peek(db.path, "SELECT count(*) FROM tables") == [(2,)]
    finally:
        other.close()
        await db.close()


async def _write_once(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute(INSERT_TABLE)


async def test_a_transaction_inside_a_transaction_is_refused(tmp_path: Path) -> None:
    db = await open_db(tmp_path)
    try:
        with pytest.raises(RuntimeError, match="nested"):
            async with db.transaction() as conn:
                await conn.execute(INSERT_TABLE)
                async with db.transaction():
                    pass
        assert peek(db.path, "SELECT count(*) FROM tables") == [(0,)]
    finally:
        await db.close()


async def test_concurrent_tasks_never_interleave_inside_a_transaction(tmp_path: Path) -> None:
    """Read-modify-write from 20 tasks at once: with a shared connection and no lock, the reads
    and writes of different tasks would mix and increments would be lost."""
    db = await open_db(tmp_path)
    async with db.transaction() as conn:
        await conn.execute(INSERT_TABLE)

    async def bump() -> None:
        for _ in range(10):
            async with db.transaction() as conn:
                (row,) = await conn.execute_fetchall("SELECT version FROM tables WHERE id = 1")
                await asyncio.sleep(0)  # let the other tasks run mid-transaction
                await conn.execute("UPDATE tables SET version = ? WHERE id = 1", (row[0] + 1,))

    try:
        await asyncio.gather(*(bump() for _ in range(20)))
        assert peek(db.path, "SELECT version FROM tables") == [(200,)]
    finally:
        await db.close()


# --- backup -------------------------------------------------------------------------------------


def check_copy(path: Path) -> int:
    """A backup opens on its own, passes integrity_check, is one self-contained file, and is
    consistent: every table's version is exactly 1 (its start) + its logged actions."""
    assert peek(path, "PRAGMA integrity_check") == [("ok",)]
    assert peek(path, "PRAGMA journal_mode") == [("delete",)]
    rows = peek(
        path,
        "SELECT t.version, (SELECT count(*) FROM table_actions a WHERE a.table_id = t.id)"
        " FROM tables t",
    )
    assert rows and all(version == 1 + logged for version, logged in rows), rows
    return sum(logged for _, logged in rows)


# --- writes at once on the event loop's thread (issue 13 item 7) ---------------------------------


ORPHAN_SEAT = (
    "INSERT INTO table_seats (table_id, position, user_id, is_bot, name)"
    " VALUES (12345, 0, 1, 0, 'x')"
)


def _insert_table(conn: sqlite3.Connection) -> int:
    return int(conn.execute(INSERT_TABLE).lastrowid or 0)


async def test_a_write_is_committed_without_waiting_a_turn_of_the_event_loop(
    tmp_path: Path,
) -> None:
    """Issue 13 item 7: the unit runs and commits on the loop's own connection; the coroutine
    completes at its first step, without handing the loop to anything else."""
    db = await open_db(tmp_path)
    try:
        assert db.writes_at_once
        step = db.run_write(_insert_table)
        with pytest.raises(StopIteration) as finished:
            step.send(None)
        assert finished.value.value == 1
        assert peek(db.path, "SELECT count(*) FROM tables") == [(1,)]  # committed, on disk
        # An error rolls the unit back whole; foreign keys are enforced on this connection too.
        with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
            await db.run_write(lambda conn: (_insert_table(conn), conn.execute(ORPHAN_SEAT)))
        assert peek(db.path, "SELECT count(*) FROM tables") == [(1,)]
    finally:
        await db.close()


async def test_a_write_waits_for_another_process_on_the_writers_thread_not_on_the_loop(
    tmp_path: Path,
) -> None:
    """Another process holds the write lock: the loop's connection does not wait (busy
    timeout 0); the unit goes to the writer's thread, which waits for the lock while the event
    loop keeps running, and lands once the other process commits."""
    db = await open_db(tmp_path)
    other = sqlite3.connect(db.path, isolation_level=None)
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    clock = asyncio.create_task(ticker())
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute(INSERT_TABLE)
        write = asyncio.create_task(db.run_write(_insert_table))
        await asyncio.sleep(0.3)
        assert not write.done() and ticks >= 10  # waiting, and the loop is not blocked
        other.execute("COMMIT")
        assert await asyncio.wait_for(write, 5) == 2
        assert peek(db.path, "SELECT count(*) FROM tables") == [(2,)]
        assert await db.run_write(_insert_table) == 3  # and at once again afterwards
    finally:
        clock.cancel()
        other.close()
        await db.close()


async def test_a_task_that_only_writes_still_lets_the_loop_run(tmp_path: Path) -> None:
    """Writes at once never suspend their task; a loop of them must not starve the others."""
    db = await open_db(tmp_path)
    try:
        others_ran = asyncio.Event()
        asyncio.get_running_loop().call_soon(others_ran.set)
        written = 0
        while not others_ran.is_set():
            await db.run_write(_insert_table)
            written += 1
            assert written <= 100, "the event loop never got a turn"
        assert written > 1
    finally:
        await db.close()


async def test_the_wal_is_checkpointed_by_a_worker_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loop's connection never checkpoints (a checkpoint syncs the disk); every
    CHECKPOINT_EVERY of its commits, a worker thread copies the WAL into the database file."""
    monkeypatch.setattr(database, "CHECKPOINT_EVERY", 10)
    db = await open_db(tmp_path)
    try:
        for _ in range(10):
            await db.run_write(_insert_table)
        assert db._checkpoint is not None
        await asyncio.wait_for(asyncio.shield(db._checkpoint), 5)
        # Nothing left to copy: every frame of the WAL is already in the database file.
        busy, frames, copied = peek(db.path, "PRAGMA wal_checkpoint(PASSIVE)")[0]
        assert (busy, copied) == (0, frames)
        with sqlite3.connect(f"file:{db.path}?mode=ro&immutable=1", uri=True) as main_file:
            assert main_file.execute("SELECT count(*) FROM tables").fetchone() == (10,)
    finally:
        await db.close()


async def test_backup_is_consistent_while_another_task_keeps_writing(tmp_path: Path) -> None:
    db = await open_db(tmp_path)
    store = SqliteTableStore(db)
    tables = [await start(store, lobby(channel=c), started_at=1.0) for c in range(5)]
    stop = asyncio.Event()
    written = 0

    async def writer() -> None:
        nonlocal written
        while not stop.is_set():
            table = tables[written % len(tables)]
            await act(store, table, written % 4, f"play:{written}")
            written += 1

    try:
        task = asyncio.create_task(writer())
        copies = []
        for n in range(8):
            await asyncio.sleep(0.02)
            dest = tmp_path / "backups" / f"copy{n}.db"
            await db.backup(dest)
            copies.append(dest)
        stop.set()
        await task
        logged = [check_copy(copy) for copy in copies]
        assert logged == sorted(logged)  # each copy is a later snapshot
        assert logged[0] > 0 and logged[-1] <= written
        assert not list((tmp_path / "backups").glob(".*partial"))
    finally:
        await db.close()


async def test_backup_cli_helper_from_another_process_while_the_bot_writes(
    tmp_path: Path,
) -> None:
    """`python -m bot backup PATH`: a separate process copies the live database."""
    db = await open_db(tmp_path)
    store = SqliteTableStore(db)
    table = await start(store, lobby(), started_at=1.0)
    stop = asyncio.Event()

    async def writer() -> None:
        while not stop.is_set():
            await act(store, table, 0, "pass")

    dest = tmp_path / "copy.db"
    env = {**os.environ, "DATABASE_PATH": str(db.path)}
    try:
        task = asyncio.create_task(writer())
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "backup", str(dest), cwd=ROOT, env=env
        )
        assert await process.wait() == 0
        stop.set()
        await task
        assert check_copy(dest) <= len(table.actions)
    finally:
        await db.close()


async def test_backup_of_a_missing_database_creates_nothing(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        await backup_database(tmp_path / "missing.db", tmp_path / "copy.db")
    assert not (tmp_path / "missing.db").exists()
    assert not (tmp_path / "copy.db").exists()


def test_backup_command_without_a_database_is_one_sentence(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_PATH": str(tmp_path / "missing.db")}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "backup", str(tmp_path / "copy.db")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "no database" in done.stderr.lower()
    assert not (tmp_path / "copy.db").exists()


def test_bench_script_runs_small(pg_server: object) -> None:
    """The benchmark script stays runnable on both back-ends (a tiny run; its figures are not
    checked). It starts its own PostgreSQL; `pg_server` only says whether one can start here."""
    result = subprocess.run(
        [sys.executable, "scripts/bench_storage.py", "--games", "2000", "--appends", "30",
         "--finishes", "5", "--repeat", "3", "--rounds", "1", "--tables", "5",
         "--per-table", "5"],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "SQLite queries" in result.stdout and "PostgreSQL queries" in result.stdout
    assert result.stdout.count("leaderboard euchre all") == 4
