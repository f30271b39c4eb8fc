"""Shared fixtures: a Discord emulator with a small world, the real bot running on it, and a
"probe" bot (a minimal discord.py client whose one slash command runs what a test gives it).

    async def test_something(world, running_bot):
        reply = await world.alice.slash(world.table, "rules", game="euchre")
        assert reply.ephemeral

Storage on both back-ends: the `storage` fixture is parametrised over SQLite (a fresh file) and
PostgreSQL (one server per test session and xdist worker, started by the `pg_server` fixture on
127.0.0.1 from the pgserver wheel, see tests/support/postgres.py; each test gets an empty, migrated
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
import os
import warnings
from collections.abc import AsyncIterator, Generator
from pathlib import Path
from typing import Any

import pytest

from bot import event_loop
from bot.client import CardTableBot
from bot.settings import Settings
from bot.storage.backend import Storage, open_storage
from bot.tables.service import TableService
from emulator import Emulator, run_bot, run_client
from tests.support.card_emojis import seed_card_emojis
from tests.support.openapi import Contract
from tests.support.postgres import (
    PgServer,
    PgUnavailable,
    PostgresUnavailableWarning,
    make_template,
    new_pg_database,
    start_server,
)
from tests.support.service import make_service
from tests.support.storage import BACKENDS, storage_target
from tests.support.world import Handler, ProbeBot, ProbeFactory, World, build_world


def pytest_asyncio_loop_factories(config: pytest.Config, item: pytest.Item) -> dict[str, Any]:
    """Every async test runs on the loop the bot runs on in production (bot/event_loop.py)."""
    return {"bot_loop": event_loop.loop_factory}


E2E_FOLDER = Path(__file__).resolve().parent / "e2e"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test under tests/e2e is an e2e test: the folder says it, no test has to."""
    for item in items:
        if item.path.is_relative_to(E2E_FOLDER):
            item.add_marker(pytest.mark.e2e)


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
    """A started emulator (3 s deadline, 15 min tokens, Discord's global limit, route buckets and
    invalid-request ban on; per-channel message buckets off unless a test asks), stopped
    afterwards. In e2e tests, every request and answer must also fit Discord's OpenAPI
    description (tests/support/openapi.py; its ACCEPTED lists where Discord is laxer)."""
    emu = Emulator()
    await emu.start()
    if request.node.path.is_relative_to(E2E_FOLDER) and not request.node.get_closest_marker(
        "first_start"
    ):
        # The application's card emojis, as Discord keeps them from an earlier start: each bot
        # start lists them instead of uploading 53 under the global limit. Tests marked
        # first_start (tests/e2e/test_e2e_card_emojis.py) see the real first upload.
        seed_card_emojis(emu)
    try:
        yield emu
        if not request.node.stash.get(_CALL_FAILED, False):
            emu.assert_clean()
            if request.node.path.is_relative_to(E2E_FOLDER):
                # The real bot's traffic and the emulator's answers hold to Discord's spec.
                problems = Contract().traffic_errors(emu.requests)
                assert problems == [], "outside Discord's OpenAPI description:\n  " + "\n  ".join(
                    problems
                )
    finally:
        await emu.stop()


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
        # fair_deals keeps the production default (on): every hand starts in the "cut" phase.
    )


@pytest.fixture
async def running_bot(
    emulator: Emulator, world: World, bot_settings: Settings
) -> AsyncIterator[CardTableBot]:
    """The real, unmodified CardTableBot, connected to the emulator and ready."""
    async with run_bot(emulator, bot_settings) as bot:
        yield bot


@pytest.fixture
def probe_bot(emulator: Emulator, world: World) -> ProbeFactory:
    """`async with probe_bot(handler) as bot:` runs a ProbeBot on the emulator."""

    @contextlib.asynccontextmanager
    async def start(handler: Handler, **options: Any) -> AsyncIterator[ProbeBot]:
        async with run_client(emulator, ProbeBot(world.guild.id, handler, **options)) as bot:
            yield bot

    return start


# --- storage on both back-ends -------------------------------------------------------------------


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
            thread.submit(asyncio.run, make_template(server)).result()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def pg_scratch(pg_server: PgServer) -> str:
    """This worker's scratch database, emptied before each test that uses it (a TRUNCATE takes
    milliseconds; a CREATE DATABASE, hundreds of them on a busy machine)."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, new_pg_database(pg_server)).result()


@pytest.fixture(params=BACKENDS)
async def storage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Storage]:
    """An empty, migrated database on each back-end (issue 14), with its table store and results
    repository: `storage.tables`, `storage.results`, `storage.db`."""
    opened = await open_storage(await storage_target(request, request.param, tmp_path))
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def service_options() -> dict[str, Any]:
    """How a test module's table service is built: tests/support/service.py's `make_service`
    arguments, and `cuts` for attributes of its fair cuts. A module overrides this fixture."""
    return {}


@pytest.fixture
async def service(db: Storage, service_options: dict[str, Any]) -> AsyncIterator[TableService]:
    """The table service of one test, on the module's `db` (both back-ends under tests/tables),
    closed after the test: the one place the table-layer tests build it."""
    options = dict(service_options)
    cuts = options.pop("cuts", {})
    svc = make_service(db, **options)
    for name, value in cuts.items():
        setattr(svc.fair_cuts, name, value)
    try:
        yield svc
    finally:
        await svc.close()
