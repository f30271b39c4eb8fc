"""Shared fixtures: a Discord emulator with a small world, the real bot running on it, and a
"probe" bot (a minimal discord.py client whose one slash command runs what a test gives it).

    async def test_something(world, running_bot):
        reply = await world.alice.slash(world.table, "rules", game="euchre")
        assert reply.ephemeral

Storage on both back-ends: the `storage` fixture is parametrised over SQLite (a fresh file) and
PostgreSQL (one server per test session and xdist worker, started by the `pg_server` fixture on
127.0.0.1 from the pgserver wheel, see tests/pg_server.py; each test gets an empty, migrated
database: the worker's scratch database, truncated; a module fixture may make its own). When no
server can be started, the PostgreSQL variants FAIL with the reason when CI is set in the
environment (.ci/run sets it), and are skipped with a loud warning otherwise.

The `emulator` fixture fails a passing test at teardown if the bot broke a Discord rule, sent a
request the emulator does not handle, or logged an error (`Emulator.assert_clean()`); a test that
provokes one on purpose takes it with `emulator.take_violations(code)` / `take_bot_errors()`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import os
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable, Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot import event_loop
from bot.client import CardTableBot
from bot.emulator import Channel, Emulator, Guild, SimulatedUser, run_bot, run_client
from bot.settings import DatabaseTarget, Settings
from bot.storage.backend import Storage, open_storage
from tests.pg_server import PgServer, PgUnavailable, start_server


def pytest_asyncio_loop_factories(config: pytest.Config, item: pytest.Item) -> dict[str, Any]:
    """Every async test runs on the loop the bot runs on in production (bot/event_loop.py)."""
    return {"bot_loop": event_loop.loop_factory}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.stash[_CALL_FAILED] = report.failed


_CALL_FAILED = pytest.StashKey[bool]()


@pytest.fixture
async def emulator(request: pytest.FixtureRequest) -> AsyncIterator[Emulator]:
    """A started emulator (3 s deadline, 15 min tokens, no rate limits), stopped afterwards."""
    emu = Emulator()
    await emu.start()
    try:
        yield emu
        if not request.node.stash.get(_CALL_FAILED, False):
            emu.assert_clean()
    finally:
        await emu.stop()


@dataclass
class World:
    """One server "Cards" with a #table channel and four members with different locales."""

    emu: Emulator
    guild: Guild
    table: Channel
    alice: SimulatedUser
    bob: SimulatedUser
    carol: SimulatedUser
    dave: SimulatedUser

    @property
    def players(self) -> list[SimulatedUser]:
        return [self.alice, self.bob, self.carol, self.dave]


def build_world(emu: Emulator) -> World:
    guild = emu.add_guild("Cards")
    table = guild.add_channel("table")
    people = [
        emu.add_user(name, locale=locale)
        for name, locale in (
            ("alice", "en-US"),
            ("bob", "pt-BR"),
            ("carol", "fr"),
            ("dave", "en-GB"),
        )
    ]
    for person in people:
        guild.add_member(person)
    return World(emu, guild, table, *people)


@pytest.fixture
def world(emulator: Emulator) -> World:
    return build_world(emulator)


@pytest.fixture
def bot_settings(tmp_path: Path, world: World) -> Settings:
    """Settings for the real bot: a fresh database, commands synced to the world's guild."""
    return Settings(
        token=None,
        database_path=tmp_path / "cardtable.sqlite3",
        dev_guild_id=world.guild.id,
        log_level="DEBUG",
        bot_move_delay=0.0,
    )


@pytest.fixture
async def running_bot(
    emulator: Emulator, world: World, bot_settings: Settings
) -> AsyncIterator[CardTableBot]:
    """The real, unmodified CardTableBot, connected to the emulator and ready."""
    async with run_bot(emulator, bot_settings) as bot:
        yield bot


Handler = Callable[[discord.Interaction], Awaitable[Any]]


class ProbeBot(commands.Bot):
    """A minimal bot for proving the emulator's rules: `/probe` runs `handler(interaction)`;
    discord.HTTPExceptions it raises are kept in `errors` (the bot then moves on), and
    `await bot.handled(n)` waits until n runs of the handler have finished."""

    def __init__(self, guild_id: int, handler: Handler, **options: Any) -> None:
        options.setdefault("intents", discord.Intents.default())
        # A prefix nobody types: the probe has slash commands only.
        super().__init__(command_prefix="\x00probe:", guild_ready_timeout=0.05, **options)
        self.guild_id = guild_id
        self.handler = handler
        self.errors: list[discord.HTTPException] = []
        self.runs = 0
        self._ran = asyncio.Condition()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # discord.py waits 5 s before re-identifying; the emulator needs no such courtesy.
        return None

    async def handled(self, count: int = 1, timeout: float = 5.0) -> None:  # noqa: ASYNC109
        async with self._ran:
            await asyncio.wait_for(self._ran.wait_for(lambda: self.runs >= count), timeout)

    async def setup_hook(self) -> None:
        @app_commands.command(name="probe", description="Run the test's handler.")
        async def probe(interaction: discord.Interaction) -> None:
            try:
                await self.handler(interaction)
            except discord.HTTPException as error:
                self.errors.append(error)
            finally:
                async with self._ran:
                    self.runs += 1
                    self._ran.notify_all()

        guild = discord.Object(self.guild_id)
        self.tree.add_command(probe, guild=guild)
        await self.tree.sync(guild=guild)


ProbeFactory = Callable[..., contextlib.AbstractAsyncContextManager[ProbeBot]]


@pytest.fixture
def probe_bot(emulator: Emulator, world: World) -> ProbeFactory:
    """`async with probe_bot(handler) as bot:` runs a ProbeBot on the emulator."""

    @contextlib.asynccontextmanager
    async def start(handler: Handler, **options: Any) -> AsyncIterator[ProbeBot]:
        async with run_client(emulator, ProbeBot(world.guild.id, handler, **options)) as bot:
            yield bot

    return start


async def raw_callback(interaction: discord.Interaction, payload: dict[str, Any]) -> Any:
    """POST a hand-built interaction callback, bypassing discord.py's own checks."""
    from discord.http import MultipartParameters
    from discord.webhook.async_ import async_context

    http = interaction.client.http
    return await async_context.get().create_interaction_response(
        interaction.id,
        interaction.token,
        session=interaction._session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        params=MultipartParameters(payload=payload, multipart=None, files=None),
    )


async def raw_channel_message(
    client: discord.Client, channel_id: int, payload: dict[str, Any]
) -> Any:
    """POST a hand-built message to a channel through the client's HTTP layer."""
    from discord.http import Route

    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
    return await client.http.request(route, json=payload)


# --- storage on both back-ends -------------------------------------------------------------------


class PostgresUnavailableWarning(UserWarning):
    """The PostgreSQL variants of the storage tests did not run."""


TEMPLATE_DB = "cardtable_template"
BACKENDS = ["sqlite", "postgres"]
_database_numbers = itertools.count(1)


async def _make_template(server: PgServer) -> None:
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


@pytest.fixture(scope="session")
def pg_server() -> Generator[PgServer, None, None]:
    """One PostgreSQL server for the session (of this xdist worker), stopped at the end."""
    try:
        server = start_server()
    except PgUnavailable as error:
        reason = f"POSTGRESQL TESTS NOT RUN: no server could be started: {error}"
        if os.environ.get("CI"):
            pytest.fail(reason, pytrace=False)
        warnings.warn(reason, PostgresUnavailableWarning, stacklevel=1)
        pytest.skip(reason)
    try:
        # In a thread of its own: this may be first asked for from inside a running event loop.
        with concurrent.futures.ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, _make_template(server)).result()
        yield server
    finally:
        server.stop()


async def new_pg_database(server: PgServer) -> str:
    """A fresh, migrated database on `server`; returns its DSN."""
    import asyncpg

    name = f"test_{os.getpid()}_{next(_database_numbers)}"
    conn = await asyncpg.connect(server.dsn("postgres"))
    try:
        await conn.execute(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE_DB}")
    finally:
        await conn.close()
    return server.dsn(name)


@pytest.fixture(scope="session")
def pg_scratch(pg_server: PgServer) -> str:
    """This worker's scratch database, emptied before each test that uses it (a TRUNCATE takes
    milliseconds; a CREATE DATABASE, hundreds of them on a busy machine)."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, new_pg_database(pg_server)).result()


async def empty_pg_database(dsn: str) -> None:
    """Every table of the schema emptied, identities restarted: as good as a fresh database."""
    import asyncpg

    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(
            "TRUNCATE tables, table_seats, table_actions, games, game_players, player_stats,"
            " ratings, player_periods RESTART IDENTITY CASCADE"
        )
    finally:
        await conn.close()


async def storage_target(
    request: pytest.FixtureRequest, backend: str, folder: Path
) -> DatabaseTarget:
    if backend == "sqlite":
        return DatabaseTarget("sqlite", path=folder / "bot.db")
    dsn = request.getfixturevalue("pg_scratch")
    await empty_pg_database(dsn)
    return DatabaseTarget("postgresql", dsn=dsn)


@pytest.fixture(params=BACKENDS)
async def storage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Storage]:
    """An empty, migrated database on each back-end (issue 14), with its table store and results
    repository: `storage.tables`, `storage.results`, `storage.db`."""
    opened = await open_storage(await storage_target(request, request.param, tmp_path))
    try:
        yield opened
    finally:
        await opened.close()


async def reopen(storage: Storage) -> Storage:
    """A second, independent connection (pool) to the same database: like another process."""
    from bot.storage.postgres import PgDatabase

    if isinstance(storage.db, PgDatabase):
        return await open_storage(DatabaseTarget("postgresql", dsn=storage.db.dsn))
    return await open_storage(DatabaseTarget("sqlite", path=storage.db.path))


async def fetch_rows(
    storage: Storage, sql: str, params: tuple[Any, ...] = ()
) -> list[tuple[Any, ...]]:
    """What is committed, read through the store's own database (`?` placeholders)."""
    async with storage.db.reader() as reader:
        return [tuple(row) for row in await reader.all(sql, params)]


COUNTED_TABLES = ("tables", "table_seats", "table_actions", "games", "game_players",
                  "player_stats", "ratings", "player_periods")  # fmt: skip


async def count_rows(storage: Storage) -> dict[str, int]:
    return {
        t: (await fetch_rows(storage, f"SELECT count(*) FROM {t}"))[0][0] for t in COUNTED_TABLES
    }
