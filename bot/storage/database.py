"""The database: two long-lived aiosqlite connections (one writes, one reads), their pragmas,
migrations, transactions, backup.

Every piece of the bot shares one `Database`. SQLite allows one writer at a time anyway: an
`asyncio.Lock` hands the writing connection to one task at a time, so a transaction of one task
never interleaves with statements of another. Reads go through a second connection with its own
lock: in WAL mode a reader sees the last committed snapshot and never waits for a writer, so a
busy write path does not slow the leaderboard down, and a read never waits behind the writes.

- `run_write(fn)`: the write path's fast lane. `fn(sqlite3_connection)` runs with BEGIN
  IMMEDIATE before it and COMMIT after it (ROLLBACK if it raises), all at once. `run_batch(fns)`
  runs several such units in one transaction, each under its own SAVEPOINT, so one unit's error
  undoes only that unit (group commit; see scripts/bench_storage.py for whether it pays).
- Where it runs: on the event loop's own thread, through a third, plain sqlite3 connection,
  when nothing else writes at that instant. With WAL and synchronous=NORMAL a commit is an
  append to the WAL file, no fsync: an action's unit takes ~0.1 ms there, while a trip to the
  writer's thread cost several turns of a busy event loop (append p50 18 ms, p99 145 ms at 200
  tables; 0.1 / 4 ms on the loop: scripts/bench_latency.py). That connection never waits: its
  busy timeout is 0 and it does not checkpoint (a checkpoint syncs the disk). When another
  process holds the write lock, when a `transaction()` is open, or with synchronous=FULL (an
  fsync per commit), the unit takes the writer's thread as before and waits there. The WAL is
  checkpointed from a worker thread every `CHECKPOINT_EVERY` commits of the loop's connection.

- WAL journal: readers (a backup, a second process) never block the bot's writes, and a commit is
  one append to the WAL file.
- `synchronous=NORMAL` by default: in WAL mode a killed process (SIGKILL, OOM, crash) never loses
  a committed transaction and the file is never corrupted; only a power cut or kernel crash may
  drop the last few commits (they roll back whole, never half). `synchronous="FULL"` syncs
  every commit to disk too, at the price of one fsync per action (see scripts/bench_storage.py).
- Write transactions start with BEGIN IMMEDIATE: the write lock is taken up front, so a
  transaction never fails halfway with SQLITE_BUSY when another process holds the lock; it waits
  up to the busy timeout instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast

import aiosqlite

from bot.storage.errors import SchemaTooNew, StorageError

log = logging.getLogger(__name__)

DEFAULT_BUSY_TIMEOUT_MS = 5000
# Commits on the loop's connection between two checkpoints of the WAL: a few pages each, so
# the WAL stays within ~10 MB (SQLite's own automatic checkpoint is at 1,000 pages, ~4 MB).
CHECKPOINT_EVERY = 1000
# Writes at once in one turn of the event loop before a writer lets the others run: a task
# that only writes (a loop of appends) never suspends otherwise and would starve the loop.
WRITES_PER_TURN = 16
MIGRATIONS_DIR = Path(__file__).with_name("migrations")
SYNCHRONOUS_MODES = ("NORMAL", "FULL")

T = TypeVar("T")
WriteUnit = Callable[[sqlite3.Connection], Any]

_MIGRATION_NAME = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")


# --- migrations ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Migration:
    """One numbered `.sql` file of bot/storage/migrations, applied once, in one transaction.

    A migration runs inside BEGIN IMMEDIATE, so it must not change `PRAGMA foreign_keys` or
    `journal_mode` (SQLite ignores those inside a transaction)."""

    version: int
    name: str
    path: Path

    def statements(self) -> list[str]:
        return split_sql(self.path.read_text(encoding="utf-8"))


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The migrations of `directory`, by number; the numbers must run 1, 2, 3 ... without gaps."""
    migrations = []
    for path in sorted(directory.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if not match:
            raise StorageError(f"migration file {path.name!r} is not named NNN_name.sql")
        migrations.append(Migration(int(match.group(1)), match.group(2), path))
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise StorageError(f"migrations must be numbered 1, 2, 3 ...: {migration.path.name}")
    return migrations


def split_sql(script: str) -> list[str]:
    """Cut a script into single statements (triggers included) with SQLite's own tokenizer.

    `executescript` would do it too, but it commits any open transaction first, which would
    break a migration into pieces that could be half applied."""
    statements: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    leftover = [ln for ln in pending.splitlines() if ln.strip() and not ln.strip().startswith("--")]
    if leftover:
        raise StorageError(f"unterminated SQL statement: {' '.join(leftover)[:80]!r}")
    return statements


# --- small query helpers (one trip to the connection's thread each) -----------------------------


async def fetch_all(
    conn: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()
) -> list[sqlite3.Row]:
    return list(await conn.execute_fetchall(sql, params))


async def fetch_one(
    conn: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()
) -> sqlite3.Row | None:
    rows = await conn.execute_fetchall(sql, params)
    for row in rows:
        return row
    return None


async def completed_even_if_cancelled(write: Awaitable[T]) -> T:
    """Await a write that must complete even if the caller is cancelled meanwhile (the caller's
    state already says it is written): the cancellation waits for it, then goes on."""
    task = asyncio.ensure_future(write)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            await task
        raise


async def execute(conn: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> int:
    """Run one statement; returns the number of rows it changed. (The cursor is left to the
    garbage collector: closing it would cost one more trip to the connection's thread, and a
    finished statement holds no lock.)"""
    cursor = await conn.execute(sql, params)
    return cursor.rowcount


async def execute_many(conn: aiosqlite.Connection, sql: str, rows: Iterable[Sequence[Any]]) -> None:
    await conn.executemany(sql, rows)


# --- reading, on either back-end ---------------------------------------------------------------


class Reader(Protocol):
    """One read snapshot of either back-end. The SQL uses `?` placeholders (PostgreSQL's reader
    turns them into $1, $2 ...); rows can be read by position and by column name."""

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Any | None: ...


class ReadStore(Protocol):
    """What the results repository needs of a database: `async with db.reader() as r`."""

    def reader(self) -> contextlib.AbstractAsyncContextManager[Reader]: ...


class SqliteReader:
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await fetch_all(self._conn, sql, params)

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Any | None:
        return await fetch_one(self._conn, sql, params)


# --- the database -------------------------------------------------------------------------------


class Database:
    """The bot's database. Open it with `await Database.open(path)` (which runs the migrations)
    and close it with `await db.close()`, or use `async with await Database.open(path) as db`."""

    def __init__(
        self,
        conn: aiosqlite.Connection,
        path: Path,
        busy_timeout_ms: int,
        reader: aiosqlite.Connection | None = None,
        loop_conn: sqlite3.Connection | None = None,
    ) -> None:
        self._conn = conn
        self._reader = reader if reader is not None else conn
        # Writes that cannot wait a turn of the event loop (see the module docstring).
        self._loop_conn = loop_conn
        self._loop_commits = 0
        self._checkpoint: asyncio.Future[None] | None = None
        self._turn_writes = 0  # writes at once since the loop's current turn began
        self._path = path
        self._busy_timeout_ms = busy_timeout_ms
        self._lock = asyncio.Lock()
        self._holder: asyncio.Task[Any] | None = None
        # The reader has its own lock: reads wait for each other, never for the writer.
        self._read_lock = self._lock if reader is None else asyncio.Lock()
        self._read_holder: asyncio.Task[Any] | None = None

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        migrate: bool = True,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        synchronous: str = "NORMAL",
        migrations_dir: Path = MIGRATIONS_DIR,
    ) -> Database:
        """Open (creating if needed) the database file at `path`, set its pragmas and, unless
        `migrate=False`, bring its schema up to date."""
        file = Path(path)
        if str(path) == ":memory:" or str(path).startswith("file:"):
            raise ValueError("the bot's database is a file path (WAL needs a real file)")
        if synchronous not in SYNCHRONOUS_MODES:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS_MODES}")
        timeout_ms = int(busy_timeout_ms)
        file.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: the sqlite3 module never opens transactions behind our back;
        # `transaction()` issues BEGIN IMMEDIATE / COMMIT / ROLLBACK itself.
        conn = await aiosqlite.connect(file, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            # Pragmas take no bound parameters; the values are validated above.
            await execute(conn, f"PRAGMA busy_timeout = {timeout_ms}")
            row = await fetch_one(conn, "PRAGMA journal_mode = WAL")
            if row is None or str(row[0]).lower() != "wal":
                raise StorageError(f"could not switch {file} to WAL (got {row and row[0]!r})")
            await execute(conn, f"PRAGMA synchronous = {synchronous}")
            await execute(conn, "PRAGMA foreign_keys = ON")
            db = cls(conn, file, timeout_ms)
            if migrate:
                await db.migrate(load_migrations(migrations_dir))
            reader = await aiosqlite.connect(file, isolation_level=None)
        except BaseException:
            await conn.close()
            raise
        try:
            reader.row_factory = sqlite3.Row
            await execute(reader, f"PRAGMA busy_timeout = {timeout_ms}")
            await execute(reader, f"PRAGMA synchronous = {synchronous}")
            await execute(reader, "PRAGMA foreign_keys = ON")
            await execute(reader, "PRAGMA query_only = ON")
            loop_conn = _loop_connection(file) if synchronous == "NORMAL" else None
        except BaseException:
            await reader.close()
            await conn.close()
            raise
        return cls(conn, file, timeout_ms, reader, loop_conn)

    @property
    def path(self) -> Path:
        return self._path

    async def close(self) -> None:
        """Close both connections. It does not wait for the locks: each connection finishes
        what is already queued on its thread first, and a transaction cut short is rolled back
        by SQLite. Both are closed even if this is cancelled halfway (a connection left open
        keeps its thread, and the process, alive)."""
        try:
            if self._loop_conn is not None:
                self._loop_conn.close()
                self._loop_conn = None
            if self._checkpoint is not None:
                with contextlib.suppress(Exception):
                    await asyncio.shield(self._checkpoint)
            if self._reader is not self._conn:
                await self._reader.close()
        finally:
            await self._conn.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # --- using the connection -------------------------------------------------------------------

    @asynccontextmanager
    async def _exclusive(self) -> AsyncIterator[aiosqlite.Connection]:
        task = asyncio.current_task()
        if task is not None and task is self._holder:
            # asyncio.Lock is not reentrant: waiting here would wait forever.
            raise RuntimeError(
                "nested use of the database in one task (a transaction inside a transaction?)"
            )
        async with self._lock:
            self._holder = task
            try:
                yield self._conn
            finally:
                self._holder = None

    @property
    def writes_at_once(self) -> bool:
        """A write now would run at once on the loop's connection (unless another process
        holds the lock at that instant): queueing writes up for a group commit gains nothing."""
        return self._loop_conn is not None and not self._lock.locked()

    def write_at_once(self, fn: Callable[[sqlite3.Connection], T]) -> tuple[bool, T | None]:
        """`fn` in one write transaction on the loop's connection, right now: (True, its result;
        its errors are raised), or (False, None) when that cannot be done this instant (another
        writer holds the database, no loop connection): nothing was done. No fairness pause:
        the caller must not loop on it without awaiting something else (run_write does)."""
        return self._write_at_once(lambda conn: _write_transaction(conn, fn, at_once=True))

    def _write_at_once(self, run: Callable[[sqlite3.Connection], T]) -> tuple[bool, T | None]:
        """`run(conn)` (which begins and commits) on the loop's connection: (True, its result),
        or (False, None) when another writer holds the database this instant (nothing done)."""
        conn = self._loop_conn
        if conn is None or self._lock.locked():
            return False, None
        try:
            result = run(conn)
        except _Busy:
            return False, None
        self._loop_commits += 1
        self._turn_writes += 1
        if self._turn_writes == 1:
            asyncio.get_running_loop().call_soon(self._next_turn)
        if self._loop_commits % CHECKPOINT_EVERY == 0 and self._checkpoint is None:
            self._checkpoint = asyncio.get_running_loop().run_in_executor(
                None, _checkpoint, self._path, self._busy_timeout_ms
            )
            self._checkpoint.add_done_callback(self._checkpoint_done)
        return True, result

    def _next_turn(self) -> None:
        self._turn_writes = 0

    async def let_others_run(self) -> None:
        """After a write at once: suspend if this turn of the loop has written a lot already."""
        if self._turn_writes > WRITES_PER_TURN:
            await asyncio.sleep(0)

    def _checkpoint_done(self, future: asyncio.Future[None]) -> None:
        self._checkpoint = None
        if not future.cancelled() and future.exception() is not None:
            log.warning("WAL checkpoint failed: %s", future.exception())

    async def run_write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn(conn)` in one write transaction: BEGIN IMMEDIATE, `fn`, COMMIT; ROLLBACK (and
        the exception) if `fn` raises. At once on the loop's connection when it can (module
        docstring), else in ONE trip to the writer's thread. `fn` must only use `conn` (plain
        sqlite3) and pure code: it may run in either thread.

        Cancelling the caller does not stop a unit already queued: it is written whole or not
        at all, like any transaction, and the next one is queued behind it."""
        done, now = self.write_at_once(fn)
        if done:
            await self.let_others_run()
            return cast(T, now)
        async with self._exclusive() as conn:
            result: T = await conn._execute(_write_transaction, conn._conn, fn)  # type: ignore[no-untyped-call]
            return result

    async def run_batch(self, fns: Sequence[WriteUnit]) -> list[tuple[bool, Any]]:
        """Group commit: every unit of `fns` in ONE transaction and one trip, each under its own
        SAVEPOINT. Returns (True, value) or (False, exception) per unit; a unit that raised is
        undone alone. If the COMMIT itself fails, every unit fails with that error."""
        units = list(fns)
        done, outcomes_now = self._write_at_once(
            lambda conn: _write_batch(conn, units, at_once=True)
        )
        if done:
            await self.let_others_run()
            return cast(list[tuple[bool, Any]], outcomes_now)
        async with self._exclusive() as conn:
            outcomes: list[tuple[bool, Any]] = await conn._execute(
                _write_batch,
                conn._conn,
                list(fns),  # type: ignore[no-untyped-call]
            )
            return outcomes

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction: BEGIN IMMEDIATE, then COMMIT if the block ends normally, ROLLBACK
        if it raises (anything, cancellation included): all of it is written or none of it."""
        async with self._exclusive() as conn:
            try:
                # Inside the try: a task cancelled while BEGIN waits for another process's lock
                # does not stop the BEGIN (it is queued on the connection's thread); the
                # ROLLBACK below is queued after it, so the connection is never left in a
                # transaction nobody owns.
                await execute(conn, "BEGIN IMMEDIATE")
                yield conn
                # Shielded: once COMMIT is queued it runs anyway; the caller's cancellation
                # must not turn into a ROLLBACK that comes too late to matter.
                await asyncio.shield(conn.commit())
            except BaseException:
                # A no-op when the COMMIT already happened; otherwise undoes every statement.
                await asyncio.shield(conn.rollback())
                raise

    @asynccontextmanager
    async def read(self) -> AsyncIterator[aiosqlite.Connection]:
        """A read transaction: every query in the block sees one snapshot of the database, even
        while another process writes. Do not write inside it (it ends with a rollback; the
        reading connection is query_only anyway). It uses the reading connection: it never waits
        for the writer, and sees what was committed before it began."""
        task = asyncio.current_task()
        if task is not None and task is self._read_holder:
            raise RuntimeError("nested use of the database's reader in one task")
        async with self._read_lock:
            self._read_holder = task
            conn = self._reader
            try:
                await execute(conn, "BEGIN")
                yield conn
            finally:
                self._read_holder = None
                await asyncio.shield(conn.rollback())

    @asynccontextmanager
    async def reader(self) -> AsyncIterator[Reader]:
        """`read()` as a back-end-neutral `Reader` (what the results repository uses)."""
        async with self.read() as conn:
            yield SqliteReader(conn)

    # --- schema ----------------------------------------------------------------------------------

    async def schema_version(self) -> int:
        async with self.read() as conn:
            return await _schema_version(conn)

    async def migrate(self, migrations: list[Migration] | None = None) -> list[int]:
        """Apply the migrations this database lacks, each in its own transaction, and return the
        numbers applied (empty when it was up to date). Safe to run from two processes at once:
        each migration re-reads the version after taking the write lock."""
        migrations = load_migrations() if migrations is None else migrations
        async with self._exclusive() as conn:
            await execute(
                conn,
                "CREATE TABLE IF NOT EXISTS schema_version ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL"
                ") STRICT",
            )
        latest = migrations[-1].version if migrations else 0
        applied: list[int] = []
        for migration in migrations:
            async with self.transaction() as conn:
                current = await _schema_version(conn)
                if current > latest:
                    raise SchemaTooNew(
                        f"{self._path} has schema version {current}; this code knows up to "
                        f"{latest}. Run the newer bot, or restore a backup."
                    )
                if current >= migration.version:
                    continue
                for statement in migration.statements():
                    await execute(conn, statement)
                await execute(
                    conn,
                    "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                    (migration.version, migration.name, time.time()),
                )
            log.info("applied migration %03d_%s", migration.version, migration.name)
            applied.append(migration.version)
        if not migrations:
            current = await self.schema_version()
            if current > latest:
                raise SchemaTooNew(f"{self._path} has schema version {current}; code knows 0")
        return applied

    # --- operations -----------------------------------------------------------------------------

    async def backup(self, dest_path: str | os.PathLike[str], *, verify: bool = True) -> None:
        """Write a consistent copy of the database to `dest_path` while the bot keeps running."""
        await backup_database(
            self._path, dest_path, verify=verify, busy_timeout_ms=self._busy_timeout_ms
        )


class _Busy(Exception):
    """The loop's connection found the write lock taken (busy timeout 0): nothing was done."""


def _begin(conn: sqlite3.Connection, at_once: bool) -> None:
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as error:
        # The primary code: SQLITE_BUSY and its extended forms (BUSY_RECOVERY, ...).
        if at_once and error.sqlite_errorcode & 0xFF == sqlite3.SQLITE_BUSY:
            raise _Busy from error
        raise


def _loop_connection(file: Path) -> sqlite3.Connection:
    """The connection the event loop writes through itself (module docstring)."""
    conn = sqlite3.connect(file, isolation_level=None)
    try:
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA busy_timeout = 0")  # never wait on the loop: the thread waits
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA wal_autocheckpoint = 0")  # checkpoints sync: `_checkpoint` does it
    except BaseException:
        conn.close()
        raise
    return conn


def _checkpoint(path: Path, busy_timeout_ms: int) -> None:
    # Runs in a worker thread, on a connection of its own. PASSIVE: copies what it can from the
    # WAL into the database file without ever blocking a writer.
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
    finally:
        conn.close()


def _write_transaction(
    conn: sqlite3.Connection, fn: Callable[[sqlite3.Connection], T], *, at_once: bool = False
) -> T:
    # Runs in the writer's thread, or on the loop's connection (`at_once`).
    _begin(conn, at_once)
    try:
        result = fn(conn)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.rollback()
        raise
    return result


def _write_batch(
    conn: sqlite3.Connection, fns: list[WriteUnit], *, at_once: bool = False
) -> list[tuple[bool, Any]]:
    # Runs in the writer's thread, or on the loop's connection (`at_once`).
    outcomes: list[tuple[bool, Any]] = []
    _begin(conn, at_once)
    try:
        for fn in fns:
            conn.execute("SAVEPOINT unit")
            try:
                outcomes.append((True, fn(conn)))
            except Exception as error:
                conn.execute("ROLLBACK TO unit")
                outcomes.append((False, error))
            conn.execute("RELEASE unit")
        conn.execute("COMMIT")
    except BaseException as error:
        if conn.in_transaction:
            conn.rollback()
        if isinstance(error, Exception):
            return [(False, error) for _ in fns]
        raise
    return outcomes


async def _schema_version(conn: aiosqlite.Connection) -> int:
    row = await fetch_one(conn, "SELECT coalesce(max(version), 0) FROM schema_version")
    return int(row[0]) if row else 0


# --- backup -------------------------------------------------------------------------------------


async def backup_database(
    src_path: str | os.PathLike[str],
    dest_path: str | os.PathLike[str],
    *,
    verify: bool = True,
    busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
) -> None:
    """Copy the database at `src_path` to `dest_path` with SQLite's online backup API.

    Safe while the bot runs, from the bot's process or any other (`python -m bot backup PATH`):
    it reads through its own connection, in one read transaction, so the copy is one consistent
    snapshot, and in WAL mode that reader never blocks the bot's writes. The copy is a single
    self-contained file (rollback journal, no -wal), checked with `PRAGMA integrity_check` unless
    `verify=False`, and appears at `dest_path` only when complete (written aside, then renamed).
    """
    await asyncio.to_thread(
        _backup_file, Path(src_path), Path(dest_path), verify, int(busy_timeout_ms)
    )


def _backup_file(src: Path, dest: Path, verify: bool, busy_timeout_ms: int) -> None:
    if not src.is_file():
        # sqlite3.connect would silently create an empty database there.
        raise FileNotFoundError(f"no database at {src}")
    if dest.exists() and dest.resolve() == src.resolve():
        raise ValueError("the backup must not overwrite the database itself")
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(f".{dest.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        source = sqlite3.connect(src, isolation_level=None)
        try:
            source.execute(f"PRAGMA busy_timeout = {busy_timeout_ms}")
            target = sqlite3.connect(partial, isolation_level=None)
            try:
                # pages=-1: every page in one step, i.e. inside one read transaction. Smaller
                # steps would restart from scratch whenever the bot commits in between.
                source.backup(target, pages=-1)
                target.execute("PRAGMA journal_mode = DELETE")
                if verify:
                    problems = [r[0] for r in target.execute("PRAGMA integrity_check")]
                    if problems != ["ok"]:
                        raise StorageError(f"backup failed integrity_check: {problems[:5]}")
            finally:
                target.close()
        finally:
            source.close()
        os.replace(partial, dest)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    log.info("backed up %s to %s", src, dest)
