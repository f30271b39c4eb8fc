"""A throw-away PostgreSQL server on 127.0.0.1 for the tests and scripts/bench_storage.py.

The server's binaries come from a package the test command installs: the `pgserver` wheel
pinned in requirements-dev.lock (it ships initdb, pg_ctl and postgres). When that wheel is
missing or its binaries do not run, Debian's /usr/lib/postgresql/NN/bin are used if present.

PostgreSQL refuses to run as root; when we are root (CI here is), the server runs as a system
user made for it (`pgserver`, the wheel's own choice), created with useradd if missing, and the
folders on the way to the binaries are made traversable for it.

    server = start_server(Path(tmp), durable=False)   # raises PgUnavailable(reason)
    server.dsn("postgres")  # postgresql://postgres@127.0.0.1:PORT/postgres
    server.stop()
"""

from __future__ import annotations

import contextlib
import importlib.util
import itertools
import os
import pwd
import shutil
import socket
import stat
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

SERVER_USER = "pgserver"


class PgUnavailable(RuntimeError):
    """No PostgreSQL server could be started here; the message says why."""


def binary_dirs() -> list[Path]:
    """Where initdb/pg_ctl/postgres may be: the pgserver wheel first, then Debian's."""
    found: list[Path] = []
    # Located, not imported: importing pgserver sets up things (and warns) we do not need.
    spec = importlib.util.find_spec("pgserver")
    if spec is not None and spec.submodule_search_locations:
        wheel = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
        if (wheel / "pg_ctl").exists():
            found.append(wheel)
    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
    found.extend(d for d in debian if (d / "pg_ctl").exists())
    return found


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _server_account() -> pwd.struct_passwd | None:
    """None when we are not root; else the account the server runs as (made if missing)."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(SERVER_USER)
    except KeyError:
        pass
    made = subprocess.run(
        ["useradd", "--system", "--no-create-home", "--shell", "/bin/false", SERVER_USER],
        capture_output=True,
        text=True,
        check=False,
    )
    if made.returncode != 0:
        raise PgUnavailable(f"running as root and could not create user {SERVER_USER!r}: "
                            f"{made.stderr.strip()}")  # fmt: skip
    return pwd.getpwnam(SERVER_USER)


def _open_path_for_others(path: Path) -> None:
    """Let another user traverse every folder down to `path` and read/run what is in it."""
    traverse = stat.S_IXGRP | stat.S_IXOTH
    for folder in [*reversed(path.parents), path]:
        mode = folder.stat().st_mode
        if mode & traverse != traverse:
            folder.chmod(mode | traverse | stat.S_IRGRP | stat.S_IROTH)


@dataclass
class PgServer:
    bin_dir: Path
    root: Path  # holds data/ and the log
    port: int
    account: pwd.struct_passwd | None

    @property
    def data(self) -> Path:
        return self.root / "data"

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        user = {} if self.account is None else {"user": self.account.pw_uid,
                                                "group": self.account.pw_gid}  # fmt: skip
        return subprocess.run(
            [str(self.bin_dir / args[0]), *args[1:]],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            cwd=self.root,
            env={**os.environ, "LC_ALL": "C", "LANG": "C"},
            **user,  # type: ignore[arg-type]
        )

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop", timeout=30)
        shutil.rmtree(self.root, ignore_errors=True)


def start_server(parent: Path | None = None, *, durable: bool = False) -> PgServer:
    """Start a new server (a fresh cluster in a new folder) on 127.0.0.1 and a free port.

    durable=False (tests): fsync and synchronous_commit off, for speed; a crash of the machine
    may lose it, which a test server does not mind. durable=True (the benchmark): PostgreSQL's
    defaults (every commit flushed to disk), as a real deployment runs."""
    dirs = binary_dirs()
    if not dirs:
        raise PgUnavailable(
            "no PostgreSQL binaries: install the dev requirements (the pgserver wheel) or "
            "Debian's postgresql package"
        )
    account = _server_account()
    problems = []
    for bin_dir in dirs:
        root = Path(tempfile.mkdtemp(prefix="cardtable-pg-", dir=parent))
        server = PgServer(bin_dir, root, _free_port(), account)
        try:
            if account is not None:
                _open_path_for_others(bin_dir)
                _open_path_for_others(bin_dir.parent / "lib")
                _open_path_for_others(root)
                os.chown(root, account.pw_uid, account.pw_gid)
            init = server._run(
                "initdb", "-D", str(server.data), "-U", "postgres", "--auth=trust",
                "--encoding=UTF8", "--no-locale", "--no-sync",
            )  # fmt: skip
            if init.returncode != 0:
                raise PgUnavailable(f"initdb failed: {init.stderr.strip()[-500:]}")
            options = [
                f"-p {server.port}",
                "-c listen_addresses=127.0.0.1",
                f"-c unix_socket_directories={server.root}",
                "-c max_connections=200",
                "-c shared_buffers=128MB",
            ]
            if not durable:
                options += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
            for _attempt in range(3):  # another process may take the free port first
                started = server._run(
                    "pg_ctl", "-D", str(server.data), "-l", str(root / "server.log"), "-w",
                    "-t", "60", "-o", " ".join(options), "start",
                )  # fmt: skip
                if started.returncode == 0:
                    break
                server.port = _free_port()
                options[0] = f"-p {server.port}"
            if started.returncode != 0:
                log = (root / "server.log").read_text(errors="replace")[-800:]
                raise PgUnavailable(f"pg_ctl start failed: {started.stderr.strip()} {log}")
            return server
        except (PgUnavailable, OSError, subprocess.SubprocessError) as error:
            problems.append(f"{bin_dir}: {error}")
            server.stop()
    raise PgUnavailable("; ".join(problems))


# --- databases for the storage tests ---


class PostgresUnavailableWarning(UserWarning):
    """The PostgreSQL variants of the storage tests did not run."""


TEMPLATE_DB = "cardtable_template"
BACKENDS = ["sqlite", "postgres"]
database_numbers = itertools.count(1)


async def make_template(server: PgServer) -> None:
    """A migrated database that every test's fresh database is copied from (fast)."""
    import asyncpg

    from bot.storage.postgres import PgDatabase

    conn = await asyncpg.connect(server.dsn("postgres"))
    try:
        await conn.execute(f"CREATE DATABASE {TEMPLATE_DB}")
    finally:
        await conn.close()
    db = await PgDatabase.open(server.dsn(TEMPLATE_DB), max_size=1)
    await db.close()


async def new_pg_database(server: PgServer) -> str:
    """A fresh, migrated database on `server`; returns its DSN."""
    import asyncpg

    name = f"test_{os.getpid()}_{next(database_numbers)}"
    conn = await asyncpg.connect(server.dsn("postgres"))
    try:
        await conn.execute(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE_DB}")
    finally:
        await conn.close()
    return server.dsn(name)


async def empty_pg_database(dsn: str) -> None:
    """Every table of the schema emptied, identities restarted: as good as a fresh database."""
    import asyncpg

    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(
            "TRUNCATE tables, table_seats, table_actions, games, game_players, player_stats,"
            " ratings, player_periods, recaps, house_rules, server_settings, seasons,"
            " season_ratings, tournaments, tournament_actions RESTART IDENTITY CASCADE"
        )
    finally:
        await conn.close()
