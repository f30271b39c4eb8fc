"""Acknowledgement latency and memory per table of the real bot, played through the emulator.

    .venv/bin/python scripts/bench_latency.py              # 1, 50, 200 tables + memory (~3 min)
    .venv/bin/python scripts/bench_latency.py --tables 200 --memory-tables 0 --think 1
    .venv/bin/python scripts/bench_latency.py --humans 4 --profile
    .venv/bin/python scripts/bench_latency.py --tables 200 --bot-hook my_fix.py:apply
    .venv/bin/python scripts/bench_latency.py --tables 50 200 --ping-after 0 15 --memory-tables 0
    .venv/bin/python scripts/bench_latency.py --tables 200 --shards 1 2 --memory-tables 0

Two processes, as in production, where Discord is not in the bot's process: this one runs the
Discord emulator and the simulated people; a child process runs the real, unmodified bot
(`CardTableBot`, a temporary database, bot seats at zero delay), pointed at the emulator by the
two class attributes the harness uses.

The people do what people do. Each table's host types `/euchre new` or `/truco new` (tables
alternate), the others Join, bots fill the other seats, Start. Then each person plays from their
hand message, which the bot keeps live: when it offers actions newer than their last move, they
think (`--think` seconds on average, uniform 0.5x-1.5x) and click one of the enabled action
buttons at random (seeded). The table message is the fallback: "Show my hand" the first time it
mentions them, Refresh if their hand has not caught up with it after 2 s. At a game's end the host
clicks Play again. So a table moves as fast as its people think and its bot seats answer.

1. Latency: for each size in `--tables`, that many tables play at once (`--humans` people each,
   the other seats bots); after `--warmup` s, every interaction whose INTERACTION_CREATE frame
   went out during `--seconds` counts: acknowledgement latency = frame written -> first callback
   arrived, both stamped by the emulator (`Interaction.ack_latency`); and the answer "seen": the
   same, except for a click answered by a deferred update (callback type 6), whose answer is the
   later edit of its hand message (a bot that acknowledges at once and answers later cannot look
   fast this way). Printed: p50 / p99 / max, the rate, failures (no answer within 3 s), both
   processes' CPU over the window (near 100%: that process is saturated and the figures measure
   its queue). The emulator's garbage collector is off during the window: its pauses would
   count against the bot; so would its stalls at the window's edges (its collection before,
   counting the requests after), so the window begins `SETTLE` s after that collection and the
   requests are counted once its interactions are answered. Then what happened inside the
   bot over the same window: its event loop's lag (a 10 ms sleep's overshoot), its full GC
   pauses, `TableService.act` and the action writes' durations, and how many tasks
   queue for the database's lock (observed through wrappers that change nothing).
   Discord's limits (issue 25): the bot's requests on global-bound routes (all but interaction
   callbacks and interaction-token webhooks) per second, mean and busiest second, against
   Discord's 50; the 429s the emulator answered; and the table messages' staleness: for each
   game action in the window, from its new state (no later than its answer) until the table
   message shows that state or a later one, p50 / p99. The idle player's ping delay: on
   `--idle-share` of their turns a person sits idle `--idle` s; for every turn that reached a
   human in the window, the seconds from its `turn_since` until its ping was posted (observed
   in the bot: all turns with `--ping-after 0`, the old behaviour; the idle ones otherwise).
   `--ping-after S [S ...]` runs each size once per setting; `--shards K [K ...]` runs K bot
   processes (shard i of K each, one guild each, the tables dealt in turn, each process its
   own SQLite file and a 1/K share of the token's global budget), figures summed/merged. A
   summary table of these figures closes the run ("by tok": the share of table message edits
   made through an interaction's token, off the global budget). The bot as it was before issue
   25, under the same limits: `--ping-after 0 --bot-hook scripts/bench_before_25.py:apply`.
2. Memory per active table: a fresh bot; `--warm-tables` tables played a little first (caches,
   code paths); then tracemalloc starts in the bot process, `--memory-tables` more tables are
   opened and played to `--mid-moves` moves of their people, everything settles (bot moves done,
   edits sent, gc): traced bytes still held / tables = Python heap per table, with the RSS
   growth (an upper bound: SQLite's cache, allocator slack, tracemalloc's own records) and the
   largest allocation sites. A table's state grows with its game (action log, engine events),
   so the same tables then play on until they average MID_GAME_ACTIONS actions and are
   measured again there: the size at mid-game, the figure for the target, and what the actions
   in between added, by area of the code.
3. When p99 misses its target at the largest size (or with `--profile`): the likeliest cause from
   those figures, and a cProfile of the bot process for `--profile-seconds` under that load (the
   functions with the most own time and the most cumulative time).

4. `--compare REV [REV ...]` (issue 31): each commit's bot (`git archive REV` into a temporary
   folder) measured beside the working tree's in the same run, alternating (`--rounds` rounds of
   this tree, REV, ...; each a run of this script on that bot, the harness and the emulator
   being this tree's), then one table: acknowledgement p50/p99, picture seen p50/p99 (a click
   on a hand until that hand message shows a picture of the click's new state or a later one),
   bot CPU per answer (the bot process and its children: picture and search workers), the mean
   PNG bytes of the seat and table pictures uploaded in the window, and memory per table at
   mid-game (the first round's memory run of each, `--memory-tables`, 0: none).

       .venv/bin/python scripts/bench_latency.py --compare 06afc71 --tables 50 --seconds 10 \
           --memory-tables 50

`--bot-hook FILE.py:FUNCTION` calls FUNCTION(bot) in the bot process once it is ready: a way to
try a fix (a patched method, gc.freeze()...) under this load without editing the bot.

Targets (issue 5): p99 < 100 ms at 200 tables; < 50 KB per table. Figures only; nothing is
asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import dataclasses
import gc
import importlib
import io
import json
import logging
import multiprocessing
import os
import pstats
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# --compare's runs of another commit's bot: that tree's `bot` goes first on the path (in this
# process, and in the bot process and its workers, which inherit the path and the variable);
# the harness and the emulator stay this tree's, imported before.
BOT_ROOT = os.environ.get("BENCH_BOT_ROOT")
if BOT_ROOT:
    sys.path[:] = [entry for entry in sys.path if entry != BOT_ROOT]
    import emulator  # noqa: F401  (this tree's)

    sys.path.insert(0, BOT_ROOT)

from PIL import Image  # noqa: E402

from bot import event_loop  # noqa: E402
from bot.texts import t as catalog_text  # noqa: E402

try:
    from bot.ui.kit.custom_ids import parse_game_action
except ImportError:  # an older commit's bot (--compare), before the UI's rooms (issue 29)
    OLD_IDS = ".".join(("bot", "ui", "custom_ids"))
    parse_game_action = importlib.import_module(OLD_IDS).parse_game_action
from emulator import Emulator, EmulatorUsageError, InteractionFailed, Message, SimulatedUser  # noqa: E402
from emulator.state import Channel, Interaction, MessageVersion, iter_components  # noqa: E402

T = TypeVar("T")
P99_TARGET_MS = 100.0
MEMORY_TARGET_BYTES = 50 * 1024
ROUTE_IDS = re.compile(r"(?<=/)(\d+|[A-Za-z0-9_.-]{40,})(?=/|$)")  # ids and tokens in a path
SETTLE = 1.0  # seconds between the emulator's collection and the window (see measure)
POLL = 0.02  # seconds between two looks of a table's watcher at its message
CLICK_TIMEOUT = 10.0
TRACE_FRAMES = 4  # tracemalloc frames per allocation: enough to find the project's frame
GRACE = 2.0  # seconds a person gives their live hand to catch up with the table message
MID_GAME_TIMEOUT = 400.0
# Actions in half a game: a Euchre game to 10 takes about 200-270 actions, a Truco game to 12
# about 60-120; the tables alternate.
MID_GAME_ACTIONS = 100
# How a finished game's table message begins (its catalog text, the same in older bots).
GAME_OVER = catalog_text("result.content").split("{", 1)[0]
MID_GAME_MOVES = 4  # people's moves a table between two looks at how far the tables are
MEMORY_RUN_CLICKS = 16  # clicks in flight at once while tracemalloc slows the bot down
STALL = 15.0  # seconds a person called on waits for any change before looking again


# --- the bot process ------------------------------------------------------------------------------


def bot_process(conn: Connection, config: dict[str, Any]) -> None:
    """The child: the real bot on the emulator, serving the parent's measurement commands."""
    event_loop.run(_serve_bot(conn, config))  # the loop the bot runs on in production


class _ErrorCount(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.name}: {record.getMessage()}"[:300])


class GcPauses:
    """Every garbage collection's pause, as (generation, seconds), via gc.callbacks."""

    def __init__(self) -> None:
        self.pauses: list[tuple[int, float]] = []
        self._began = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.pauses.append((int(info["generation"]), time.perf_counter() - self._began))

    def take(self) -> list[tuple[int, float]]:
        taken, self.pauses = self.pauses, []
        return taken


class LoopLag:
    """How late a 10 ms sleep wakes up (the event loop's stalls, as the bot lives them), and how
    many tasks wait for the database's lock at that moment."""

    def __init__(self, db_waiters: Callable[[], int]) -> None:
        self.lags: list[float] = []
        self.queue: list[int] = []
        self._db_waiters = db_waiters

    async def run(self) -> None:
        while True:
            began = time.perf_counter()
            await asyncio.sleep(0.01)
            self.lags.append(time.perf_counter() - began - 0.01)
            self.queue.append(self._db_waiters())

    def take(self) -> tuple[list[float], list[int]]:
        taken = self.lags, self.queue
        self.lags, self.queue = [], []
        return taken


class Timed:
    """Wraps methods of the bot to time their calls, all in one list (observation only):
    coroutine methods and plain ones alike."""

    def __init__(self, owner: Any, *names: str) -> None:
        self.durations: list[float] = []
        for name in names:
            original = getattr(owner, name)
            if asyncio.iscoroutinefunction(original):
                setattr(owner, name, self._timed_coroutine(original))
            else:
                setattr(owner, name, self._timed(original))

    def _timed_coroutine(self, original: Callable[..., Any]) -> Callable[..., Any]:
        async def timed(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return await original(*args, **kwargs)
            finally:
                self.durations.append(time.perf_counter() - began)

        return timed

    def _timed(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                self.durations.append(time.perf_counter() - began)

        return timed

    def take(self) -> list[float]:
        taken, self.durations = self.durations, []
        return taken


class PingDelays:
    """Turn ping delays (observation only): for each ping posted, the seconds from the moment
    the turn reached the human(s) (the table's stored `turn_since`) until the ping message was
    posted (its id stored), through the table message worker's `_sync_ping`."""

    def __init__(self, public: Any, now: Callable[[], float]) -> None:
        self.delays: list[tuple[float, float]] = []  # (turn_since, seconds to the ping)
        original = public._sync_ping

        async def observed(table: Any, channel: Any) -> None:
            before = table.record.ping_message_id
            since = table.record.turn_since
            await original(table, channel)
            after = table.record.ping_message_id
            if after is not None and after != before and since is not None:
                self.delays.append((since, now() - since))

        public._sync_ping = observed

    def take(self) -> list[tuple[float, float]]:
        taken, self.delays = self.delays, []
        return taken


def _observer(make: Callable[[], T]) -> T | None:
    """An observer of the bot, or None where this bot lacks what it observes (--compare runs
    an older commit's bot under this harness)."""
    try:
        return make()
    except AttributeError as error:
        logging.getLogger(__name__).warning("not observed in this bot: %s", error)
        return None


def _rss_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


async def _serve_bot(conn: Connection, config: dict[str, Any]) -> None:
    import discord
    import discord.gateway
    import discord.http
    import yarl

    from bot.client import make_bot
    from bot.settings import Settings

    logging.basicConfig(level=logging.WARNING, format="bot process: %(levelname)s %(message)s")
    # "Can't keep up, websocket is N s behind" fires under the profiler; the loop lag is
    # measured and printed instead.
    logging.getLogger("discord.gateway").setLevel(logging.ERROR)
    errors = _ErrorCount()
    logging.getLogger().addHandler(errors)
    discord.VoiceClient.warn_nacl = False  # no voice in this bot
    discord.VoiceClient.warn_dave = False
    # What emulator.harness.pointed_at does, from the emulator's published addresses.
    discord.http.Route.BASE = config["api_base"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config["gateway_url"])
    # An older commit's bot (--compare) may not know every setting: only the ones it has.
    known = {f.name for f in dataclasses.fields(Settings)}
    extra = {"beacon_relays": tuple(config["beacon_relays"])}  # never drand's real relays
    settings = Settings(
        **{name: value for name, value in extra.items() if name in known},
        token=config["token"],
        database_path=Path(config["database"]),
        dev_guild_id=config["guild_id"],
        log_level="WARNING",
        bot_move_delay=0.0,
        # --shards K: this process is shard `shard_id` of K (its own guild, its own tables, a
        # 1/K share of the token's global budget).
        shard_count=config.get("shard_count"),
        shard_ids=config.get("shard_ids"),
    )
    bot = make_bot(settings, guild_ready_timeout=0.05)
    task = asyncio.create_task(bot.start(config["token"]))
    ready = asyncio.create_task(bot.wait_until_ready())
    await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
    if not ready.done():
        conn.send(("failed", repr(task.exception())))
        return
    if config.get("hook"):
        _load_hook(config["hook"])(bot)
    conn.send(("ready", os.getpid()))
    service = bot.table_service
    assert service is not None and bot.db is not None
    db_lock = bot.db._lock  # observed, not used: how many writers queue for the connection
    lag = LoopLag(lambda: len(getattr(db_lock, "_waiters", None) or ()))
    # Observers hold what they measure: none in a memory run, whose figure they would spoil.
    observe = bool(config.get("observe", True))
    pauses = GcPauses() if observe else None
    lag_task = asyncio.create_task(lag.run()) if observe else None
    acts = _observer(lambda: Timed(service, "act")) if observe else None
    # An action's write: at once on the loop's connection, or (another writer holds the
    # database) on the writer's thread, both behind the store's one append_action.
    writes = _observer(lambda: Timed(service.store, "append_action")) if observe else None
    pings = _observer(lambda: PingDelays(bot.table_ui.public, service.now)) if observe else None

    loop = asyncio.get_running_loop()
    inbox: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()

    def readable() -> None:
        try:
            inbox.put_nowait(conn.recv())
        except EOFError:  # the parent is gone: stop too
            loop.remove_reader(conn.fileno())
            inbox.put_nowait(("stop",))

    loop.add_reader(conn.fileno(), readable)
    profiler: cProfile.Profile | None = None
    kept: tracemalloc.Snapshot | None = None
    try:
        while True:
            command, *args = await inbox.get()
            if command == "stop":
                break
            if command == "cpu":
                times = os.times()
                conn.send(
                    {
                        "cpu": times.user + times.system,
                        "errors": errors.lines[:5],
                        "gc": pauses.take() if pauses else [],
                        "lag": lag.take(),
                        "act": acts.take() if acts else [],
                        "write": writes.take() if writes else [],
                        "pings": pings.take() if pings else [],
                    }
                )
            elif command == "idle":
                # Quiet: no bot move left to make, no table edit waiting (pacing included).
                service, ui = bot.table_service, bot.table_ui
                assert service is not None and ui is not None
                for table in list(service.tables):
                    await service.wait_for_bots(table.id)
                await ui.public.idle()
                # Actions of the games in play, and the versions: a version never goes back
                # (a game that ended and started again has fewer actions, a higher version).
                actions = sum(len(t.record.actions) for t in service.tables)
                versions = sum(t.version for t in service.tables)
                conn.send((len(service.tables), actions, versions))
            elif command == "trace":
                gc.collect()
                tracemalloc.start(int(args[0]))
                conn.send(_rss_bytes())
            elif command == "measure":
                # The traced bytes held now, the RSS, and the largest allocation sites: of all
                # that is traced ("all"), or of what grew since the previous measure ("growth").
                gc.collect()
                # Without the harness's own allocations in this process (the previous
                # snapshot it keeps, its commands): only what the bot holds.
                snapshot = tracemalloc.take_snapshot().filter_traces(
                    [tracemalloc.Filter(False, __file__, all_frames=True)]
                )
                current = sum(stat.size for stat in snapshot.statistics("filename"))
                limit = int(args[1]) if len(args) > 1 else 10
                if args[0] == "growth" and kept is not None:
                    sites = _growth_sites(snapshot, kept, limit)
                else:
                    sites = _allocation_sites(snapshot, limit)
                kept = snapshot
                conn.send((current, _rss_bytes(), sites))
            elif command == "untrace":
                tracemalloc.stop()
                conn.send(True)
            elif command == "profile_start":
                profiler = cProfile.Profile()
                profiler.enable()
                conn.send(True)
            elif command == "profile_stop":
                assert profiler is not None
                profiler.disable()
                conn.send(_profile_text(profiler, int(args[0])))
                profiler = None
    finally:
        if lag_task is not None:
            lag_task.cancel()
        loop.remove_reader(conn.fileno())
        await bot.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 10)
        with contextlib.suppress(OSError):
            conn.send(("stopped", errors.lines[:20]))


def _load_hook(spec: str) -> Callable[[Any], None]:
    """`path/to/file.py:function`: called with the ready bot, in the bot process."""
    import importlib.util

    path, _, name = spec.rpartition(":")
    module_spec = importlib.util.spec_from_file_location("bench_hook", path)
    assert module_spec is not None and module_spec.loader is not None, spec
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    hook: Callable[[Any], None] = getattr(module, name)
    return hook


def _site(traceback: tracemalloc.Traceback) -> str:
    """The allocating frame nearest to the project (or to discord.py / aiosqlite): where a
    reader can act on it."""
    frames = list(reversed(traceback))  # tracemalloc lists the oldest frame first
    for prefixes in (("bot/", "cogs/"), ("discord/", "aiosqlite/", "aiohttp/")):
        for frame in frames:
            name = frame.filename.replace(os.sep, "/")
            for prefix in prefixes:
                position = name.find("/" + prefix)
                if position >= 0:
                    return f"{name[position + 1 :]}:{frame.lineno}"
    frame = frames[0]
    return f"{Path(frame.filename).name}:{frame.lineno}"


def _allocation_sites(snapshot: tracemalloc.Snapshot, limit: int) -> list[tuple[str, int, int]]:
    """(site, bytes, blocks), largest first."""
    sites: dict[str, list[int]] = {}
    for stat in snapshot.statistics("traceback"):
        entry = sites.setdefault(_site(stat.traceback), [0, 0])
        entry[0] += stat.size
        entry[1] += stat.count
    ranked = sorted(sites.items(), key=lambda item: -item[1][0])
    return [(site, size, count) for site, (size, count) in ranked[:limit]]


def _growth_sites(
    snapshot: tracemalloc.Snapshot, before: tracemalloc.Snapshot, limit: int
) -> list[tuple[str, int, int]]:
    """(area, bytes, blocks) added since `before`, by area of the code (bot/engine/euchre,
    bot/tables, discord, ...), largest first; past 10 (`--memory-sites`), by line: the areas,
    then the lines."""
    areas: dict[str, list[int]] = {}
    lines: dict[str, list[int]] = {}
    for stat in snapshot.compare_to(before, "traceback"):
        line = _site(stat.traceback)
        entry = lines.setdefault(line, [0, 0])
        entry[0] += stat.size_diff
        entry[1] += stat.count_diff
        site = line.rsplit(":", 1)[0]
        parts = site.split("/")
        area = "/".join(parts[:3] if parts[:2] == ["bot", "engine"] else parts[:2])
        entry = areas.setdefault(area if "/" in site else f"other ({site})", [0, 0])
        entry[0] += stat.size_diff
        entry[1] += stat.count_diff
    ranked = sorted(areas.items(), key=lambda item: -item[1][0])
    if limit > 10:
        ranked = ranked[:10] + sorted(lines.items(), key=lambda item: -item[1][0])
    return [(area, size, count) for area, (size, count) in ranked[:limit]]


def _profile_text(profiler: cProfile.Profile, lines: int) -> str:
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.strip_dirs()
    out.write("--- by own time (tottime) ---\n")
    stats.sort_stats("tottime").print_stats(lines)
    out.write("--- by cumulative time ---\n")
    stats.sort_stats("cumulative").print_stats(lines)
    text = out.getvalue()
    return "\n".join(line for line in text.splitlines() if line.strip())


class BotProcess:
    """The bot in a child process, and the pipe to talk to it."""

    def __init__(
        self,
        emu: Emulator,
        guild_id: int,
        folder: str,
        hook: str | None,
        observe: bool,
        shard: tuple[int, int] | None = None,
    ) -> None:
        context = multiprocessing.get_context("spawn")  # no fork of a running event loop
        self.conn, child = context.Pipe()
        config = {
            "api_base": emu.api_base,
            "gateway_url": emu.gateway_url,
            "beacon_relays": emu.beacon_relays,  # fair-v2's rounds from the emulator's beacon
            "token": emu.token,
            "guild_id": guild_id,
            # Each shard process its own SQLite file: it owns only its guilds' tables. (In
            # production the processes share one database, PostgreSQL: not measured here.)
            "database": str(Path(folder) / f"bench-{shard[0] if shard else 0}.sqlite3"),
            "hook": hook,
            "observe": observe,
            "shard_count": shard[1] if shard else None,
            "shard_ids": (shard[0],) if shard else None,
        }
        # Not daemonic: the bot starts its own worker processes (the bot seats' search), which a
        # daemonic process may not; stop() ends it.
        self.process = context.Process(target=bot_process, args=(child, config), daemon=False)
        self.pid = 0
        self.errors: list[str] = []

    async def _recv(self, timeout: float = 120.0) -> Any:  # noqa: ASYNC109
        loop = asyncio.get_running_loop()
        ready = asyncio.Event()
        loop.add_reader(self.conn.fileno(), ready.set)
        try:
            await asyncio.wait_for(ready.wait(), timeout)
        finally:
            loop.remove_reader(self.conn.fileno())
        return self.conn.recv()

    async def ask(self, *command: Any, timeout: float = 120.0) -> Any:  # noqa: ASYNC109
        self.conn.send(command)
        return await self._recv(timeout)

    async def start(self) -> None:
        self.process.start()
        status, detail = await self._recv()
        if status != "ready":
            raise RuntimeError(f"the bot process did not start: {detail}")
        self.pid = detail

    async def stop(self) -> None:
        if self.pid == 0 and not self.process.is_alive():
            return  # never started
        if self.process.is_alive():
            with contextlib.suppress(Exception):
                self.conn.send(("stop",))
                _, self.errors = await self._recv(30)
        self.process.join(10)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(5)

    async def status(self) -> dict[str, Any]:
        """CPU seconds so far, error lines, GC pauses and loop lags since the last call."""
        answer: dict[str, Any] = await self.ask("cpu")
        return answer


# --- the people -------------------------------------------------------------------------------


@dataclass
class Counters:
    clicks: int = 0
    failed: int = 0  # "This interaction failed" or no answer in time
    refused: int = 0  # a button gone meanwhile (the state moved on): not sent
    refreshes: int = 0  # the table said "your turn" and the live hand had not caught up
    games: int = 0
    refusals: list[str] = field(default_factory=list)  # the bot's answers other than the hand
    stalls: list[str] = field(default_factory=list)  # a person called on, and nothing moved
    idle_turns: int = 0  # turns a person sat idle on (--idle-share)


class BenchTable:
    """One channel's table: its people, and what they see (looked at by one watcher task)."""

    def __init__(
        self,
        emu: Emulator,
        channel: Channel,
        people: list[SimulatedUser],
        game: str,
        rng: random.Random,
        think: float,
        counters: Counters,
    ) -> None:
        self.emu = emu
        self.channel = channel
        self.people = people
        self.game = game
        self.rng = rng
        self.think = think
        self.counters = counters
        self.message: Message | None = None
        self.hands: dict[int, Message] = {}  # user id -> their (live) hand message
        self.version = 0  # of the state the table message shows
        self.content = ""
        self.over = False
        self.ended = False
        self._seen: dict[int, int] = {}  # message id -> versions looked at
        self._changed = asyncio.Event()
        self.moves = 0  # actions clicked by this table's people
        # At most so many clicks in flight over all tables (the memory run: a bot slowed down
        # by tracemalloc must still answer in time); None: no limit.
        self.gate: asyncio.Semaphore | None = None
        self.idle_share = 0.0  # the share of turns on which a person sits idle...
        self.idle_seconds = 0.0  # ...this long
        self.ping_after: int | None = None  # the table's setting, given to `/... new`

    # --- watching ---------------------------------------------------------------------------

    def look(self) -> None:
        """Wake the people when the table message or one of their hands changed."""
        changed = False
        for message in (self.message, *self.hands.values()):
            if message is not None and len(message.versions) != self._seen.get(message.id):
                self._seen[message.id] = len(message.versions)
                changed = True
        if not changed:
            return
        message = self.message
        assert message is not None
        latest = message.versions[-1]
        self.version = shown_version(self.emu, latest) or 0
        # Components V2 (issue 30): the text, the mentions included, is in text displays, and
        # buttons sit inside containers: read the whole tree, as the emulator's Message.text does.
        parts = list(iter_components(latest.components))
        self.content = "\n".join(
            [latest.content, *(c.get("content") or "" for _, c in parts if c.get("type") == 10)]
        )
        self.over = any(c.get("label") == "Play again" for _, c in parts)
        # A game over without "Play again" (an older bot's, --compare): the table is done.
        self.ended = not self.over and self.content.startswith(GAME_OVER)
        self._changed.set()
        self._changed = asyncio.Event()

    async def changed(self, timeout: float | None = None) -> bool:  # noqa: ASYNC109
        """Until the table message or a hand changes (True), or `timeout` s pass (False)."""
        try:
            await asyncio.wait_for(self._changed.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def stall_report(self, person: SimulatedUser) -> str:
        hand = self.hands.get(person.id)
        ids, drawn = self.actions(hand)
        last = [i for i in reversed(self.emu.interactions[-5000:]) if i.user is person][:1]
        clicked = (
            f"last click {last[0].custom_id} answered with type {last[0].response_type} "
            f"after {(last[0].ack_latency or 0) * 1000:.0f} ms"
            if last
            else "no click"
        )
        return f"#{self.channel.name} v{self.version}, hand offers v{drawn} {ids[:2]}, {clicked}"

    # --- clicking ---------------------------------------------------------------------------

    async def click(self, person: SimulatedUser, message: Message, target: str) -> Message | None:
        self.counters.clicks += 1
        try:
            if self.gate is None:
                return await person.click(message, target, timeout=CLICK_TIMEOUT)
            async with self.gate:
                return await person.click(message, target, timeout=CLICK_TIMEOUT)
        except EmulatorUsageError:  # the button went away meanwhile: nothing was sent
            self.counters.clicks -= 1
            self.counters.refused += 1
        except (InteractionFailed, TimeoutError):
            self.counters.failed += 1
        return None

    async def pause(self) -> None:
        await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))

    async def pause_on_turn(self) -> None:
        """Think before a move; on `idle_share` of the turns, sit idle `idle_seconds` instead
        (the player the idle ping is for)."""
        if self.idle_share and self.rng.random() < self.idle_share:
            self.counters.idle_turns += 1
            await asyncio.sleep(self.idle_seconds)
        else:
            await self.pause()

    async def open(self) -> None:
        host = self.people[0]
        options = {} if self.ping_after is None else {"ping_after": self.ping_after}
        reply = await host.slash(self.channel, f"{self.game} new", timeout=CLICK_TIMEOUT, **options)
        # A slow creation is deferred: the table is then posted in the channel, and the
        # command's private answer links to it.
        self.message = reply if not reply.ephemeral else self.channel.last_message
        assert self.message is not None and not self.message.ephemeral, reply.text
        for person in self.people[1:]:
            await self.click(person, self.message, "Join")
        for _ in range(4 - len(self.people)):
            await self.click(host, self.message, "Add bot: easy")
        while not any(b.label == "Start" and not b.disabled for b in self.message.buttons):
            await self.changed(1.0)
        await self.click(host, self.message, "Start")
        while not any(b.label == "Show my hand" for b in self.message.buttons):
            await self.changed(1.0)

    @staticmethod
    def actions(hand: Message | None) -> tuple[list[str], int]:
        """The enabled action buttons of a hand message and the version they were drawn for."""
        if hand is None:
            return [], -1
        ids = []
        version = -1
        for button in hand.buttons:
            parsed = parse_game_action(button.custom_id or "")
            if parsed is not None and not button.disabled:
                ids.append(button.custom_id or "")
                version = parsed.version
        return ids, version

    async def person(self, person: SimulatedUser, until: Callable[[], bool]) -> None:
        """One person. Their hand message is live (the bot edits it as the table moves): when it
        offers actions newer than their last move, they think and click one. The table
        message's mention is the fallback (the first time, or when the hand lags behind it):
        "Show my hand", or Refresh after a grace period."""
        mention = f"<@{person.id}>"
        acted = -1  # the version of the state this person last acted on
        asked = -1  # the table version at which they last clicked Show my hand / Refresh
        host = person is self.people[0]
        assert self.message is not None
        while not until():
            hand = self.hands.get(person.id)
            if self.over:
                if host and self.version > acted:
                    acted = self.version
                    await self.pause()
                    if await self.click(person, self.message, "Play again") is not None:
                        self.counters.games += 1
                await self.changed()
                continue
            ids, drawn = self.actions(hand)
            if ids and drawn > acted:
                await self.pause_on_turn()
                ids, drawn = self.actions(hand)  # the hand may have moved on meanwhile
                if ids and hand is not None:
                    acted = max(acted, drawn)
                    answer = await self.click(person, hand, self.rng.choice(ids))
                    if answer is hand and self.actions(hand)[1] == drawn:
                        # Answered with the same state: the click took the seat back from
                        # the bot that played for them (turn timer), it made no move.
                        acted = drawn - 1
                    elif answer is hand:
                        self.moves += 1
                    else:  # failed, or refused with a sentence instead of the hand: again
                        if answer is not None:
                            self.counters.refusals.append(answer.text)
                        acted = drawn - 1
                continue
            if mention in self.content and self.version > max(acted, asked):
                if hand is None:
                    asked = self.version
                    await self.pause()
                    shown = await self.click(person, self.message, "Show my hand")
                    if shown is not None:
                        self.hands[person.id] = shown
                    continue
                await self.changed(GRACE)  # the live edit of the hand is usually on its way
                ids, drawn = self.actions(hand)
                if not (ids and drawn > acted) and self.version > max(acted, asked):
                    asked = self.version
                    self.counters.refreshes += 1
                    await self.click(person, hand, "Refresh")
                continue
            if not await self.changed(STALL) and mention in self.content:
                # Called on and nothing moves: look again from scratch (and say so).
                self.counters.stalls.append(self.stall_report(person))
                acted = asked = -1

    async def play(self, until: Callable[[], bool]) -> None:
        await asyncio.gather(*(self.person(p, until) for p in self.people))


async def watch(tables: list[BenchTable], stop: asyncio.Event) -> None:
    """One task looks at every table's message every POLL s (cheaper than a waiter per person
    re-checked at every change of the emulator)."""
    while not stop.is_set():
        for table in tables:
            table.look()
        await asyncio.sleep(POLL)


# --- one run: an emulator, a bot process, N tables ------------------------------------------------


@dataclass
class World:
    emu: Emulator
    bots: list[BotProcess]  # one, or one per shard (--shards K)
    tables: list[BenchTable] = field(default_factory=list)
    counters: Counters = field(default_factory=Counters)
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)
    ping_after: int | None = None  # the tables' ping_after setting (None: the default)
    idle_share: float = 0.0
    idle_seconds: float = 0.0

    @property
    def bot(self) -> BotProcess:
        """The (first) bot process: the one profiled, and the memory run's only one."""
        return self.bots[0]

    async def status(self) -> dict[str, Any]:
        """Every bot process's status since the last call, merged: CPU seconds summed (over
        K processes a figure above 100% means several cores), the lists joined."""
        answers = [await bot.status() for bot in self.bots]
        merged: dict[str, Any] = {"cpu": sum(a["cpu"] for a in answers)}
        for key in ("errors", "gc", "act", "write", "pings"):
            merged[key] = [v for a in answers for v in a[key]]
        merged["lag"] = (
            [v for a in answers for v in a["lag"][0]],
            [v for a in answers for v in a["lag"][1]],
        )
        return merged


@contextlib.asynccontextmanager
async def world(
    tables: int,
    humans: int,
    think: float,
    seed: int,
    hook: str | None = None,
    *,
    observe: bool = True,
    shards: int = 1,
    ping_after: int | None = None,
    idle_share: float = 0.0,
    idle_seconds: float = 0.0,
) -> Any:
    # Discord's per-channel edit bucket enforced (its global limit and route buckets are on
    # by default); with shards, guilds go to the session of (guild_id >> 22) % K.
    emu = Emulator(rate_limits=True, shard_count=shards)
    await emu.start()
    if shards > 1:
        guilds = [emu.add_guild(f"Bench {i}", shard=(i, shards)) for i in range(shards)]
    else:
        guilds = [emu.add_guild("Bench")]
    with tempfile.TemporaryDirectory(prefix="cardtable-bench-") as folder:
        bots = [
            BotProcess(emu, guild.id, folder, hook, observe, (i, shards) if shards > 1 else None)
            for i, guild in enumerate(guilds)
        ]
        state = World(
            emu,
            bots,
            ping_after=ping_after,
            idle_share=idle_share,
            idle_seconds=idle_seconds,
        )
        try:
            await asyncio.gather(*(bot.start() for bot in bots))
            await emu.wait_connected(sessions=len(bots))
            add_tables(state, guilds, tables, humans, think, seed)
            # One watcher for every table, those added later included.
            state.tasks.append(asyncio.create_task(watch(state.tables, state.stop)))
            yield state
        finally:
            state.stop.set()
            for task in state.tasks:
                task.cancel()
            for task in state.tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            # Clicks already sent get their answer before the bot goes.
            with contextlib.suppress(TimeoutError):
                await emu.wait_for(
                    lambda: all(i.settled for i in emu.interactions[-500:]),
                    timeout=5,
                    what="the last clicks to be answered",
                )
            for bot in bots:
                await bot.stop()
            await emu.stop()
            for bot in bots:
                if bot.errors:
                    print(f"{'':>15}the bot logged errors: {bot.errors[:3]}", flush=True)


def add_tables(
    state: World, guilds: list[Any], count: int, humans: int, think: float, seed: int
) -> list[BenchTable]:
    """`count` more tables, dealt in turn to the guilds (to the shards, one guild each)."""
    new = []
    start = len(state.tables)
    for n in range(start, start + count):
        guild = guilds[n % len(guilds)]
        channel = guild.add_channel(f"table-{n}")
        people = [state.emu.add_user(f"p{n}x{k}") for k in range(humans)]
        for person in people:
            guild.add_member(person)
        game = "euchre" if n % 2 == 0 else "truco"
        rng = random.Random(seed * 100_003 + n)
        table = BenchTable(state.emu, channel, people, game, rng, think, state.counters)
        table.ping_after = state.ping_after
        table.idle_share, table.idle_seconds = state.idle_share, state.idle_seconds
        new.append(table)
    state.tables += new
    return new


async def open_tables(tables: list[BenchTable], concurrency: int = 50) -> None:
    gate = asyncio.Semaphore(concurrency)

    async def one(table: BenchTable) -> None:
        async with gate:
            await table.open()

    await asyncio.gather(*(one(t) for t in tables))


def start_playing(state: World, tables: list[BenchTable], until: Callable[[], bool]) -> None:
    for table in tables:
        state.tasks.append(asyncio.create_task(table.play(until)))


@dataclass
class Window:
    tables: int
    humans: int
    interactions: list[Interaction]
    seconds: float
    bot_cpu: float
    emulator_cpu: float
    bot_gc: list[tuple[int, float]]
    emulator_gc: list[tuple[int, float]]
    bot_lag: list[float]
    emulator_lag: list[float]
    db_queue: list[int]
    acts: list[float]
    writes: list[float]
    seen: list[float]  # seconds until the clicking person saw the answer (see answer_seen)
    requests: dict[str, int] = field(default_factory=dict)  # the bot's REST calls, by route
    # Issue 25: Discord's global limit. Requests on global-bound routes (all but interaction
    # callbacks and interaction-token webhooks): their start times, and the 429s answered.
    global_starts: list[float] = field(default_factory=list)
    too_many: int = 0
    # Table message edits, and of those the ones through an interaction's token (exempt from
    # the global limit: bot/ui/table/table_pens.py).
    table_edits: int = 0
    token_edits: int = 0
    staleness: list[float] = field(default_factory=list)  # s: state change -> table message
    # s: a turn reached a human (in the window) -> its ping posted (all turns at ping_after 0;
    # only the idle ones otherwise)
    ping_delays: list[float] = field(default_factory=list)
    ping_after: int | None = None
    shards: int = 1
    idle_turns: int = 0  # over the whole run so far
    # Issue 31: s from a click on a hand to that hand showing a picture of its new state;
    # CPU seconds of the bot processes and their children (picture, search workers); the
    # PNG bytes of the pictures uploaded in the window, by file name.
    picture_seen: list[float] = field(default_factory=list)
    tree_cpu: float = 0.0
    picture_bytes: dict[str, list[int]] = field(default_factory=dict)

    def figures(self) -> dict[str, float]:
        """The --compare table's figures of this run."""
        ms = self.latencies_ms
        shown = sorted(v * 1000 for v in self.picture_seen)
        answers = max(1, len(ms))
        sizes = {
            name: statistics.mean(v) if v else float("nan")
            for name, v in self.picture_bytes.items()
        }
        return {
            "ack_p50": percentile(ms, 0.5),
            "ack_p99": percentile(ms, 0.99),
            "picture_seen_p50": percentile(shown, 0.5),
            "picture_seen_p99": percentile(shown, 0.99),
            "cpu_ms_per_answer": self.tree_cpu / answers * 1000,
            "answers_per_s": len(ms) / self.seconds,
            "seat_png_bytes": sizes.get("seat.png", float("nan")),
            "table_png_bytes": sizes.get("table.png", float("nan")),
        }

    def summary(self) -> str:
        """One line of the issue's capacity figures for this run."""
        ms = self.latencies_ms
        stale = sorted(self.staleness)
        pings = sorted(self.ping_delays)
        setting = "default" if self.ping_after is None else f"{self.ping_after:g}"
        return (
            f"{self.tables:>6} {self.shards:>6} {setting:>10} "
            f"{percentile(stale, 0.5):>7.2f} {percentile(stale, 0.99):>7.2f} "
            f"{percentile(ms, 0.5):>7.1f} {percentile(ms, 0.99):>7.1f} "
            f"{len(self.global_starts) / self.seconds:>7.1f} {self.too_many:>5} "
            f"{percentile(pings, 0.5):>7.1f} {percentile(pings, 0.99):>7.1f} {len(pings):>6} "
            f"{self.unanswered:>6} {self.bot_cpu:>7.0%} "
            f"{self.token_edits / max(1, self.table_edits):>7.0%}"
        )

    def limits_line(self) -> str:
        """Discord's limits: global requests/s (mean and busiest second), 429s, and how long
        the table messages trail the state (a click's new state -> its message shows it)."""
        starts = sorted(self.global_starts)
        peak, first = 0, 0
        for last, stamp in enumerate(starts):
            while stamp - starts[first] >= 1.0:
                first += 1
            peak = max(peak, last - first + 1)
        stale = sorted(self.staleness)
        return (
            f"global-bound requests {len(starts) / self.seconds:.1f}/s (busiest second {peak}, "
            f"Discord's limit 50); 429s {self.too_many}; table message staleness p50 "
            f"{percentile(stale, 0.5):.2f} s / p99 {percentile(stale, 0.99):.2f} s "
            f"({len(stale)} states)"
        )

    def request_mix(self) -> str:
        """The bot's REST calls in the window, per acknowledged click, by route: the work a
        click brings about besides its answer."""
        clicks = max(1, len(self.latencies_ms))
        total = sum(self.requests.values())
        top = sorted(self.requests.items(), key=lambda item: -item[1])[:6]
        parts = ", ".join(f"{route} {count / clicks:.2f}" for route, count in top)
        return f"REST calls per click: {total / clicks:.2f} ({parts})"

    @property
    def latencies_ms(self) -> list[float]:
        return sorted(i.ack_latency * 1000 for i in self.interactions if i.ack_latency is not None)

    @property
    def unanswered(self) -> int:
        return sum(1 for i in self.interactions if i.ack_latency is None)

    @property
    def p99_ms(self) -> float:
        return percentile(self.latencies_ms, 0.99)

    def row(self) -> str:
        ms = self.latencies_ms
        if not ms:
            return f"{self.tables:>6} {self.humans:>6}   no interactions measured"
        few = "*" if len(ms) < 100 else " "  # a p99 of fewer than 100 values is their maximum
        seen = sorted(v * 1000 for v in self.seen)
        return (
            f"{self.tables:>6} {self.humans:>6} {len(ms):>7} {len(ms) / self.seconds:>7.1f} "
            f"{statistics.median(ms):>7.1f} {self.p99_ms:>7.1f}{few}{ms[-1]:>7.1f} "
            f"{percentile(seen, 0.5):>7.1f} {percentile(seen, 0.99):>7.1f} "
            f"{self.unanswered:>6} {self.bot_cpu:>7.0%} {self.emulator_cpu:>7.0%}"
        )

    def verdict(self) -> str:
        """The first cause that explains a slow tail, from what was measured inside the bot."""
        ms = sorted(v * 1000 for v in self.seen) or self.latencies_ms
        acks_p50 = percentile(ms, 0.5)
        writes = sorted(v * 1000 for v in self.writes)
        queue = statistics.mean(self.db_queue) if self.db_queue else 0.0
        full_gc = max((d * 1000 for g, d in self.bot_gc if g == 2), default=0.0)
        if queue >= 1 and percentile(writes, 0.5) >= acks_p50 / 2:
            return (
                "the answers wait for the database: an action is answered after its write, and "
                "every write of every table queues for the one connection "
                f"(Database.transaction's lock, {queue:.0f} tasks waiting on average; "
                "each SqliteTableStore.append_action is one trip to aiosqlite's thread, "
                "queued appends share one (group commit))"
            )
        if self.bot_cpu >= 0.85:
            return "the bot process is CPU-bound (one core): see the profile for where it goes"
        if full_gc >= P99_TARGET_MS / 2:
            return f"full garbage collections of the bot stall it for up to {full_gc:.0f} ms"
        lag = percentile(sorted(v * 1000 for v in self.bot_lag), 0.99)
        if lag >= P99_TARGET_MS / 2:
            return (
                f"the bot's event loop is busy ({self.bot_cpu:.0%} CPU): a ready callback waits "
                f"up to {lag:.0f} ms (p99) for its turn; see the profile for where the CPU goes"
            )
        emu_lag = percentile(sorted(v * 1000 for v in self.emulator_lag), 0.99)
        if emu_lag >= P99_TARGET_MS / 2:
            return (
                f"the emulator, the measuring instrument, is late ({self.emulator_cpu:.0%} CPU, "
                f"its loop lag p99 {emu_lag:.0f} ms): a frame waits for it to go out and a "
                "callback to be stamped, which counts against the bot"
            )
        return "no single cause stands out (a busy machine? compare the emulator's CPU)"

    def diagnosis(self) -> str:
        """Where the tail comes from: stalls of either process's event loop, GC pauses."""
        lag = sorted(v * 1000 for v in self.bot_lag)
        bot_gc = [d * 1000 for g, d in self.bot_gc if g == 2]
        emu_gc = [d * 1000 for g, d in self.emulator_gc if g == 2]
        acts = sorted(v * 1000 for v in self.acts)
        writes = sorted(v * 1000 for v in self.writes)
        queue = self.db_queue or [0]
        emu_lag = sorted(v * 1000 for v in self.emulator_lag)
        return (
            f"bot loop lag p99 {percentile(lag, 0.99):.1f} ms, max {max(lag, default=0):.1f} ms; "
            f"emulator loop lag p99 {percentile(emu_lag, 0.99):.1f} ms, "
            f"max {max(emu_lag, default=0):.1f} ms; "
            f"full GCs: bot {len(bot_gc)} (max {max(bot_gc, default=0):.0f} ms), "
            f"emulator {len(emu_gc)} (max {max(emu_gc, default=0):.0f} ms)\n"
            f"{'':>15}inside the bot: TableService.act p50 {percentile(acts, 0.5):.1f} / p99 "
            f"{percentile(acts, 0.99):.1f} ms; an action's write ({len(writes)}, "
            f"{len(writes) / self.seconds:.0f}/s) p50 {percentile(writes, 0.5):.1f} / p99 "
            f"{percentile(writes, 0.99):.1f} ms; tasks queued on the database lock: mean "
            f"{statistics.mean(queue):.1f}, max {max(queue)}"
        )


def percentile(sorted_values: list[float], fraction: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * fraction))]


HEADER = (
    f"{'':>29}{'acknowledgement (ms)':-^23} {'seen (ms)':-^15}\n"
    f"{'tables':>6} {'humans':>6} {'acks':>7} {'acks/s':>7} {'p50':>7} {'p99':>7} "
    f"{'max':>7} {'p50':>7} {'p99':>7} {'failed':>6} {'bot CPU':>7} {'emu CPU':>7}"
)
SUMMARY_HEADER = (
    f"{'':>25}{'staleness (s)':-^16}{'ack (ms)':-^16}{'global':^8}{'':>6}"
    f"{'idle ping (s)':-^23}\n"
    f"{'tables':>6} {'procs':>6} {'ping_after':>10} {'p50':>7} {'p99':>7} {'p50':>7} {'p99':>7} "
    f"{'req/s':>7} {'429s':>5} {'p50':>7} {'p99':>7} {'pings':>6} {'failed':>6} {'bot CPU':>7} "
    f"{'by tok':>7}"
)
EMULATOR_GC = GcPauses()


def own_cpu() -> float:
    times = os.times()
    return times.user + times.system


async def measure(state: World, seconds: float) -> Window:
    """Every interaction whose frame went out during the window."""
    emu = state.emu
    # The emulator is the measuring instrument: a full collection of its growing records would
    # stall it and count against the bot. Its collector is off during the window (the bot's is
    # not: its pauses are the bot's own).
    gc.collect()
    gc.freeze()
    gc.disable()
    # That collection stalled the emulator (its records are large), and every click and
    # callback it held back then goes at once: the window begins once that burst is over.
    await asyncio.sleep(SETTLE)
    before = await state.status()
    tree_before = tree_cpu([bot.pid for bot in state.bots])
    emu_before = own_cpu()
    EMULATOR_GC.take()
    # The instrument's own stalls: a click's frame waits for the emulator's loop to go out,
    # and a callback to be stamped, exactly as the bot's callbacks wait for the bot's loop.
    emu_lag = LoopLag(lambda: 0)
    emu_lag_task = asyncio.create_task(emu_lag.run())
    began = time.perf_counter()
    began_wall = time.time()  # the bots' clock: turn_since is stamped with it
    first = len(emu.interactions)
    first_request = len(emu.requests)
    try:
        await asyncio.sleep(seconds)
    except BaseException:
        gc.enable()
        raise
    finally:
        emu_lag_task.cancel()
    ended = time.perf_counter()
    ended_wall = time.time()
    tree_after = tree_cpu([bot.pid for bot in state.bots])
    after = await state.status()
    emu_after = own_cpu()
    emulator_gc = EMULATOR_GC.take()
    window = [i for i in emu.interactions[first:] if _in(i, began, ended)]
    # Counting the window's requests below holds the emulator's loop for a while: the
    # interactions still in flight get their answers first (else their callbacks, stamped
    # late, would count that stall against the bot).
    with contextlib.suppress(TimeoutError):  # those in flight get their answer (or fail at 3 s)
        await emu.wait_for(
            lambda: all(i.settled for i in window), timeout=3.5, what="the window's answers"
        )
    gc.enable()  # not before: a full collection would stall the answers just awaited
    requests: dict[str, int] = {}
    global_starts: list[float] = []
    too_many = 0
    table_edits = token_edits = 0
    for record in emu.requests[first_request:]:
        if began <= record.started <= ended:
            route = f"{record.method} {ROUTE_IDS.sub('{}', record.path)}"
            requests[route] = requests.get(route, 0) + 1
            if is_global_bound(record.path):
                global_starts.append(record.started)
            too_many += record.status == 429
            if record.method == "PATCH" and edits_a_public_message(emu, record.path):
                table_edits += 1
                token_edits += "/webhooks/" in record.path
    wall = emu.clock.time() - time.perf_counter()  # message versions carry wall-clock times
    with contextlib.suppress(TimeoutError):  # deferred answers still being written
        await emu.wait_for(
            lambda: all(answer_seen(i, wall) is not None for i in window if not i.failed),
            timeout=10,
            what="the deferred answers",
        )
    seen = [answer_seen(i, wall) for i in window if not i.failed]
    with contextlib.suppress(TimeoutError):  # the hands' pictures still being drawn
        await emu.wait_for(
            lambda: all(picture_seen(emu, i, wall) is not None for i in window if hand_move(i)),
            timeout=5,
            what="the hands' pictures",
        )
    shown_at = [picture_seen(emu, i, wall) for i in window if hand_move(i)]
    # The table messages catch up with the window's moves (looked at twice a second: the
    # emulator shares this process, and a check on every event would stall it).
    moves = [i for i in window if is_move(i)]
    for _ in range(30):
        stale = staleness(state, moves, wall)
        if all(v is not None for v in stale):
            break
        await asyncio.sleep(0.5)
    # Turn pings of the turns that reached a human during the window: an idle turn's ping goes
    # out `ping_after` s later, so wait that long (and 5 s more) past the window for them.
    pings = after["pings"]
    if state.ping_after != 0:
        delay = 15 if state.ping_after is None else state.ping_after
        await asyncio.sleep(max(0.0, ended_wall + delay + 5 - time.time()))
        pings += (await state.status())["pings"]
    ping_delays = [delay for since, delay in pings if began_wall <= since < ended_wall]
    return Window(
        tables=len(state.tables),
        humans=len(state.tables[0].people) if state.tables else 0,
        interactions=window,
        seconds=ended - began,
        bot_cpu=(after["cpu"] - before["cpu"]) / (ended - began),
        emulator_cpu=(emu_after - emu_before) / (ended - began),
        bot_gc=after["gc"],
        emulator_gc=emulator_gc,
        bot_lag=after["lag"][0],
        emulator_lag=emu_lag.take()[0],
        db_queue=after["lag"][1],
        acts=after["act"],
        writes=after["write"],
        seen=[v for v in seen if v is not None],
        requests=requests,
        global_starts=global_starts,
        too_many=too_many,
        table_edits=table_edits,
        token_edits=token_edits,
        staleness=[v for v in stale if v is not None],
        ping_delays=ping_delays,
        ping_after=state.ping_after,
        shards=len(state.bots),
        idle_turns=state.counters.idle_turns,
        picture_seen=[v for v in shown_at if v is not None],
        tree_cpu=tree_after - tree_before,
        picture_bytes=uploaded_pictures(state, window, began + wall, ended + wall),
    )


def edits_a_public_message(emu: Emulator, path: str) -> bool:
    """A PATCH of a public message (a table message: the only public ones the bot edits)."""
    last = path.rsplit("/", 1)[-1]
    message = emu.messages.get(int(last)) if last.isdigit() else None
    return message is not None and message.ephemeral_for is None


def is_global_bound(path: str) -> bool:
    """Discord's global limit counts every route but the interaction endpoints: callbacks
    (/interactions/{id}/{token}/callback) and the interaction-token webhooks (followups, edits
    of the original answer and of hand messages)."""
    return "/interactions/" not in path and "/webhooks/" not in path


def shown_version(emu: Emulator, shown: MessageVersion) -> int | None:
    """The table version a table message shows: its picture's PNG text chunk names it (the
    footer counts hands). Read from the chunks before the image data: nothing is decoded."""
    return picture_version(emu, shown, "table.png")


def tree_cpu(pids: list[int]) -> float:
    """CPU seconds so far of these processes and all their descendants (Linux's /proc): the
    bot and its picture and search workers. A child that ended is not counted."""
    parents: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError):
            with open(f"/proc/{entry}/stat") as file:
                fields = file.read().rsplit(")", 1)[1].split()
            parents[int(entry)] = int(fields[1])
            ticks[int(entry)] = int(fields[11]) + int(fields[12])  # utime + stime
    wanted = set(pids)
    grew = True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in wanted} - wanted
        grew = bool(more)
        wanted |= more
    return sum(ticks.get(pid, 0) for pid in wanted) / os.sysconf("SC_CLK_TCK")


_PICTURE_VERSIONS: dict[int, int | None] = {}  # file id -> the table version its PNG shows


def picture_version(emu: Emulator, shown: MessageVersion, filename: str) -> int | None:
    """The table version of the picture `filename` a message version shows (its PNG text
    chunk), None without one."""
    for attachment in shown.attachments:
        if attachment.get("filename") == filename:
            file_id = int(attachment["id"])
            if file_id not in _PICTURE_VERSIONS:
                data = emu.message_service.files[file_id].data
                with Image.open(io.BytesIO(data)) as image:
                    version = image.info.get("version")
                _PICTURE_VERSIONS[file_id] = int(version) if version is not None else None
            return _PICTURE_VERSIONS[file_id]
    return None


def hand_move(interaction: Interaction) -> bool:
    """A game action clicked on a hand message (whose picture then shows the new state)."""
    source = interaction.source_message
    return (
        is_move(interaction)
        and not interaction.failed
        and source is not None
        and source.ephemeral
        and any(a.get("filename") == "seat.png" for v in source.versions for a in v.attachments)
    )


def picture_seen(emu: Emulator, interaction: Interaction, wall: float) -> float | None:
    """Seconds from a hand move's frame until its hand message showed a picture of the new
    state (the clicked version + 1) or a later one; None while it has not."""
    source = interaction.source_message
    parsed = parse_game_action(interaction.custom_id or "")
    if source is None or parsed is None or interaction.dispatched_at is None:
        return None
    clicked = interaction.dispatched_at + wall - 0.001
    for version in source.versions:
        if version.at >= clicked:
            shows = picture_version(emu, version, "seat.png")
            if shows is not None and shows > parsed.version:
                return max(0.0, version.at - wall - interaction.dispatched_at)
    return None


def uploaded_pictures(
    state: World, window: list[Interaction], began: float, ended: float
) -> dict[str, list[int]]:
    """Bytes of each picture first shown in the window (a kept attachment counts once, where
    it first appeared), by file name (seat.png, table.png); `began`, `ended` on the emulator's
    clock."""
    messages = {id(t.message): t.message for t in state.tables if t.message is not None}
    for interaction in window:
        if interaction.source_message is not None:
            messages[id(interaction.source_message)] = interaction.source_message
    first: dict[int, tuple[float, str]] = {}
    for message in messages.values():
        for version in message.versions:
            for attachment in version.attachments:
                file_id = int(attachment["id"])
                if file_id not in first:
                    first[file_id] = (version.at, str(attachment.get("filename")))
    out: dict[str, list[int]] = {}
    for file_id, (at, name) in first.items():
        if began <= at < ended:
            out.setdefault(name, []).append(len(state.emu.message_service.files[file_id].data))
    return out


def is_move(interaction: Interaction) -> bool:
    """A game action answered (it made a new state of its table, unless it was stale)."""
    custom_id = interaction.custom_id or ""
    return custom_id.startswith("t:") and interaction.acked_at is not None


def staleness(state: World, moves: list[Interaction], wall: float) -> list[float | None]:
    """For each game action: seconds from its new state (no later than its answer) until the
    table message showed that state or a later one. None: not shown yet."""
    shown: dict[int, list[tuple[int, float]]] = {}  # channel id -> (move, when) of its versions
    for table in state.tables:
        if table.message is None:
            continue
        marks = []
        for version in table.message.versions:
            move = shown_version(state.emu, version)
            if move is not None:
                marks.append((move, version.at))
        shown[table.channel.id] = marks
    out: list[float | None] = []
    for interaction in moves:
        parts = (interaction.custom_id or "").split(":")
        marks = shown.get(interaction.channel.id, [])
        wanted = int(parts[2]) + 1 if len(parts) >= 4 and parts[2].isdigit() else None
        acked = (interaction.acked_at or 0.0) + wall
        out.append(
            next((max(0.0, at - acked) for move, at in marks if wanted and move >= wanted), None)
        )
    return out


def answer_seen(interaction: Interaction, wall: float) -> float | None:
    """Seconds from the click's frame until the person saw its answer: the callback itself,
    except for a deferred update (type 6) of a hand message, whose answer is the hand's next
    edit (a deferred click on the table message shows on its next, paced, edit: not counted
    here, the acknowledgement stands). None while that edit has not come."""
    if interaction.dispatched_at is None or interaction.acked_at is None:
        return None
    source = interaction.source_message
    if interaction.response_type != 6 or source is None or not source.ephemeral:
        return interaction.acked_at - interaction.dispatched_at
    acked = interaction.acked_at + wall - 0.001  # versions are stamped to the microsecond
    for version in source.versions:
        if version.at >= acked:
            return version.at - wall - interaction.dispatched_at
    return None


def _in(interaction: Interaction, began: float, ended: float) -> bool:
    return interaction.dispatched_at is not None and began <= interaction.dispatched_at < ended


def timeline(window: Window) -> str:
    """Per second of the window: interactions and their slowest acknowledgement; then the
    slowest of all, what they were (a custom_id's first part, a command) and when."""
    if not window.interactions:
        return ""
    start = min(i.dispatched_at or 0.0 for i in window.interactions)
    bins: dict[int, list[float]] = {}
    for interaction in window.interactions:
        second = int((interaction.dispatched_at or 0.0) - start)
        bins.setdefault(second, []).append((interaction.ack_latency or 3.0) * 1000)
    seconds = "  ".join(
        f"{second}s:{len(values)}/{max(values):.0f}" for second, values in sorted(bins.items())
    )
    slowest = sorted(window.interactions, key=lambda i: -(i.ack_latency or 3.0))[:8]
    named = ", ".join(
        f"{(i.ack_latency or 3.0) * 1000:.0f} ms {kind_of(i)} "
        f"at {(i.dispatched_at or 0.0) - start:.1f}s"
        for i in slowest
    )
    return f"{seconds}\n{'':>15}slowest: {named}"


def kind_of(interaction: Interaction) -> str:
    """What was clicked or typed, without its ids: the custom_id's first part, or the command."""
    data = interaction.data
    return str(data.get("custom_id") or "").split(":")[0] or str(data.get("name") or "?")


async def latency_run(
    args: argparse.Namespace,
    size: int,
    largest: bool,
    *,
    shards: int = 1,
    ping_after: int | None = None,
) -> Window:
    async with world(
        size,
        args.humans,
        args.think,
        args.seed,
        args.bot_hook,
        shards=shards,
        ping_after=ping_after,
        idle_share=args.idle_share,
        idle_seconds=args.idle,
    ) as state:
        began = time.perf_counter()
        await open_tables(state.tables)
        opened = time.perf_counter() - began
        start_playing(state, state.tables, state.stop.is_set)
        await asyncio.sleep(args.warmup)
        result = await measure(state, args.seconds)
        print(result.row(), flush=True)
        counters = state.counters
        print(
            f"{'':>15}{size} tables opened in {opened:.1f} s; {counters.games} games ended; "
            f"{counters.refreshes} Refresh clicks; {counters.refused} buttons gone before "
            f"the click; {len(counters.stalls)} stalls\n{'':>15}{result.diagnosis()}\n"
            f"{'':>15}{result.request_mix()}\n{'':>15}{result.limits_line()}",
            flush=True,
        )
        if args.verbose:
            print(f"{'':>15}per second, acks/slowest ms: {timeline(result)}", flush=True)
        missed = bool(result.latencies_ms) and not result.p99_ms < P99_TARGET_MS
        slow_seen = percentile(sorted(result.seen), 0.99) * 1000 >= P99_TARGET_MS
        if largest and (missed or slow_seen):
            print(f"{'':>15}p99 over {P99_TARGET_MS:g} ms: {result.verdict()}", flush=True)
        if largest and (args.profile or missed or slow_seen):
            await profile_bot(state, args)
        problems = state.emu.problems() + (await state.status())["errors"]
        if problems:
            print(f"{'':>15}problems: {problems[:5]}", flush=True)
        return result


async def profile_bot(state: World, args: argparse.Namespace) -> None:
    print(
        f"\ncProfile of the bot process, {args.profile_seconds:g} s at {len(state.tables)} tables "
        "(timings under the profiler run slower; compare functions, not absolute times):",
        flush=True,
    )
    await state.bot.ask("profile_start")
    await asyncio.sleep(args.profile_seconds)
    print(await state.bot.ask("profile_stop", args.profile_lines), flush=True)


# --- memory -------------------------------------------------------------------------------------


async def play_to_mid_game(state: World, tables: list[BenchTable], moves: int) -> None:
    """Play until each table's people made `moves` moves (the bots made theirs in between)."""
    pending = set(tables)

    def done_with(table: BenchTable) -> Callable[[], bool]:
        return lambda: table.moves >= moves or table.ended or state.stop.is_set()

    tasks = [asyncio.create_task(t.play(done_with(t))) for t in tables]
    state.tasks += tasks
    began = time.perf_counter()
    while pending:
        pending = {t for t in pending if t.moves < moves and not t.ended}
        for task in tasks:
            if task.done() and not task.cancelled() and task.exception() is not None:
                raise RuntimeError("a simulated person failed") from task.exception()
        if time.perf_counter() - began > MID_GAME_TIMEOUT:
            stuck = sorted(pending, key=lambda t: t.channel.name)[:3]
            raise RuntimeError(
                f"{len(pending)} tables did not reach {moves} moves in {MID_GAME_TIMEOUT:g} s, "
                "e.g. "
                + "; ".join(
                    f"#{t.channel.name}: {t.moves} moves, message v{t.version} {t.content!r}, "
                    f"hand actions {t.actions(t.hands.get(t.people[0].id))}"
                    for t in stuck
                )
            )
        await asyncio.sleep(0.2)
    for task in tasks:
        task.cancel()


async def memory_run(args: argparse.Namespace) -> tuple[float, float, float]:
    """Bytes per active table early in a game (`--mid-moves` moves of their people) and at
    mid-game (played on to MID_GAME_ACTIONS actions a table and measured there), and what each
    action added between the two."""
    count: int = args.memory_tables
    warm: int = args.warm_tables
    moves: int = args.mid_moves
    think = min(args.think, 0.2)  # memory does not depend on the pace: get there sooner
    async with world(
        warm, args.humans, think, args.seed + 1, args.bot_hook, observe=False
    ) as state:
        guild = next(iter(state.emu.guilds.values()))
        await open_tables(state.tables)
        await play_to_mid_game(state, state.tables, moves)
        _, actions_before, _ = await state.bot.ask("idle")
        rss_before = await state.bot.ask("trace", TRACE_FRAMES)
        new = add_tables(state, [guild], count, args.humans, think, args.seed + 2)
        gate = asyncio.Semaphore(MEMORY_RUN_CLICKS)
        for table in state.tables:
            table.gate = gate
        await open_tables(new, concurrency=8)  # tracemalloc slows the bot down several times
        await play_to_mid_game(state, new, moves)
        active, actions_early, versions_early = await state.bot.ask("idle")
        traced, rss_after, sites = await state.bot.ask("measure", "all", args.memory_sites)
        print(
            f"measured at {(actions_early - actions_before) / count:.0f} actions a table: "
            f"{traced / count / 1024:.1f} KB per table (Python heap), "
            f"{(rss_after - rss_before) / count / 1024:.1f} KB RSS",
            flush=True,
        )
        # The same tables played on to mid-game and measured there, not extrapolated: a table
        # keeps only its last two hands' events (bot/tables/games.py), so its first actions
        # grow it faster than later ones. How far: the actions a table had at the first
        # measure and those played since (by the versions: a table whose game ended and began
        # again counts all it played).
        actions_each = (actions_early - actions_before) / count
        versions_mid = versions_early
        while actions_each + (versions_mid - versions_early) / count < MID_GAME_ACTIONS:
            if all(t.ended for t in new):
                break  # an older bot's games that ended for good (no "Play again")
            moves += MID_GAME_MOVES
            await play_to_mid_game(state, new, moves)
            _, _, versions_mid = await state.bot.ask("idle")
        traced_mid, _, growth = await state.bot.ask("measure", "growth", args.memory_sites)
        await state.bot.ask("untrace")
    per_table = float(traced) / count
    more_actions = max(1, versions_mid - versions_early)
    per_action = (traced_mid - traced) / more_actions
    actions_at_mid = actions_each + more_actions / count
    at_mid = float(traced_mid) / count
    print(
        f"{count} tables opened and played to {args.mid_moves} moves of their people each "
        f"({actions_each:.0f} actions on average, the bot seats' included), after {warm} "
        f"warm-up tables; {active} active tables in the bot:"
    )
    print(
        f"  Python heap (tracemalloc)  +{traced / 1e6:7.2f} MB  = {per_table / 1024:6.1f} KB "
        f"per table (target < {MEMORY_TARGET_BYTES // 1024} KB)"
    )
    print(
        f"  process RSS                +{(rss_after - rss_before) / 1e6:7.2f} MB  = "
        f"{(rss_after - rss_before) / count / 1024:6.1f} KB per table (an upper bound: SQLite's "
        "cache, allocator slack, tracemalloc's own records)"
    )
    print(
        f"  played on to {moves} moves ({actions_at_mid:.0f} actions a table, {more_actions} "
        f"more in all): {at_mid / 1024:.1f} KB per table at mid-game (Python heap), "
        f"{per_action:.0f} B per action in between; at 200 actions (a long game) at most "
        f"{(at_mid + max(0.0, per_action) * (200 - actions_at_mid)) / 1024:.1f} KB"
    )
    print("  largest allocation sites, per table (the allocating frame nearest to the project):")
    for site, size, blocks in sites[: args.memory_sites]:
        print(f"    {size / count:9.0f} B  {blocks / count:6.1f} blocks  {site}")
    print("  what the further actions added, per action, by area of the code:")
    for site, size, blocks in growth[: max(8, args.memory_sites)]:
        print(f"    {size / more_actions:9.0f} B  {blocks / more_actions:6.2f} blocks  {site}")
    return per_table, actions_each, at_mid


# --- main ---------------------------------------------------------------------------------------


async def main(args: argparse.Namespace) -> None:
    if args.compare:
        compare(args)
        return
    print(
        f"Acknowledgement latency through the emulator, the bot in its own process; "
        f"{args.humans} simulated {'person' if args.humans == 1 else 'people'} per table "
        f"(other seats: bots at delay 0), think {args.think:g} s (0.5x-1.5x), warm-up "
        f"{args.warmup:g} s, window {args.seconds:g} s; {os.cpu_count()} cores.",
        flush=True,
    )
    print(HEADER, flush=True)
    results = []
    largest = max(args.tables)
    runs = [
        (size, shards, ping_after)
        for size in args.tables
        for shards in args.shards
        for ping_after in args.ping_after
    ]
    for size, shards, ping_after in runs:
        print(
            f"{'':>15}{size} tables, {shards} bot process{'es' if shards > 1 else ''}, "
            f"ping_after {'default' if ping_after is None else ping_after}:",
            flush=True,
        )
        last = (size, shards, ping_after) == runs[-1]
        results.append(
            await latency_run(
                args, size, largest=size == largest and last, shards=shards, ping_after=ping_after
            )
        )
    print(
        f"\nDiscord's limits (issue 25), limits on; {os.cpu_count()} cores; idle turns "
        f"{args.idle_share:.0%} of a person's turns, {args.idle:g} s each:"
    )
    print(SUMMARY_HEADER)
    for result in results:
        print(result.summary())
    big = next(r for r in reversed(results) if r.tables == largest)
    if args.memory_tables > 0:
        print()
    memory = await memory_run(args) if args.memory_tables > 0 else None
    seen_p99 = percentile(sorted(v * 1000 for v in big.seen), 0.99)
    if args.json:
        figures = big.figures()
        figures["memory_kb_mid_game"] = memory[2] / 1024 if memory else float("nan")
        _write_json(args.json, figures)
    print()
    print(f"Targets at {largest} tables (issue 5):")
    ack = big.p99_ms
    print(f"  {met_or_missed(ack, P99_TARGET_MS)}  acknowledgement p99 {ack:.1f} ms < 100 ms")
    seen = seen_p99
    print(f"  {met_or_missed(seen, P99_TARGET_MS)}  answer seen, p99      {seen:.1f} ms < 100 ms")
    if memory is not None:
        early, actions, mid = memory
        kb = MEMORY_TARGET_BYTES / 1024
        print(
            f"  {met_or_missed(early, MEMORY_TARGET_BYTES)}  memory per table, early in a game   "
            f"{early / 1024:.1f} KB < {kb:g} KB ({actions:.0f} actions)"
        )
        print(
            f"  {met_or_missed(mid, MEMORY_TARGET_BYTES)}  memory per table, at mid-game      "
            f"{mid / 1024:.1f} KB < {kb:g} KB ({MID_GAME_ACTIONS} actions)"
        )


COMPARED = (
    ("ack p50", "ack_p50", "ms"),
    ("ack p99", "ack_p99", "ms"),
    ("pic seen p50", "picture_seen_p50", "ms"),
    ("pic seen p99", "picture_seen_p99", "ms"),
    ("CPU/answer", "cpu_ms_per_answer", "ms"),
    ("answers/s", "answers_per_s", ""),
    ("seat.png", "seat_png_bytes", "B"),
    ("table.png", "table_png_bytes", "B"),
    ("KB/table@100", "memory_kb_mid_game", ""),
)


def _archive(rev: str, folder: Path) -> Path:
    """The tree of commit `rev`, unpacked into a new folder under `folder`."""
    target = folder / rev.replace("/", "_")
    target.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", rev],
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def compare(args: argparse.Namespace) -> None:
    """--compare: this tree's bot and each REV's, alternating, each size and round a run of
    this script on that bot; then the table (each figure: its runs' values, min-max)."""
    sides: dict[str, str | None] = {"this tree": None}
    runs: dict[tuple[str, int], list[dict[str, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-compare-") as temporary:
        folder = Path(temporary)
        for rev in args.compare:
            sides[rev] = str(_archive(rev, folder))
        for round_number in range(args.rounds):
            for label, root in sides.items():
                for size in args.tables:
                    out = folder / f"{label.replace(' ', '_')}-{size}-{round_number}.json"
                    command = [
                        sys.executable,
                        str(Path(__file__).resolve()),
                        *("--tables", str(size), "--seconds", str(args.seconds)),
                        *("--warmup", str(args.warmup), "--think", str(args.think)),
                        *("--humans", str(args.humans), "--seed", str(args.seed)),
                        *("--json", str(out)),
                        # memory: once per side (the first round), at the first size
                        "--memory-tables",
                        str(args.memory_tables if round_number == 0 else 0),
                    ]
                    if size != args.tables[0]:
                        command[-1] = "0"
                    env = dict(os.environ)
                    env.pop("BENCH_BOT_ROOT", None)
                    if root is not None:
                        env["BENCH_BOT_ROOT"] = root
                    print(f"--- round {round_number + 1}: {label}, {size} tables", flush=True)
                    done = subprocess.run(command, env=env, capture_output=True, text=True)
                    lines = done.stdout.splitlines()
                    # the run's own row, and its memory figures
                    shown = [
                        line
                        for line in lines
                        if line.split()[:1] == [str(size)]
                        or "KB per table (Python heap)" in line
                        or "per table at mid-game" in line
                    ]
                    print("\n".join(shown), flush=True)
                    if done.returncode != 0 or not out.exists():
                        print(f"    failed ({done.returncode}): {done.stderr[-800:]}", flush=True)
                        continue
                    runs.setdefault((label, size), []).append(json.loads(out.read_text()))
    print(
        f"\n--compare: {args.rounds} alternating round(s), window {args.seconds:g} s, "
        f"{args.humans} person(s) and {4 - args.humans} bots a table, seed {args.seed}; "
        f"{os.cpu_count()} cores (min-max over the rounds)"
    )
    header = f"{'bot':>12} {'tables':>6} " + " ".join(f"{name:>13}" for name, _, _ in COMPARED)
    print(header)
    for size in args.tables:
        for label in sides:
            values = runs.get((label, size), [])
            cells = []
            for _, key, _unit in COMPARED:
                got = sorted(v[key] for v in values if v.get(key) == v.get(key))  # no NaN
                if not got:
                    cells.append(f"{'-':>13}")
                elif len(got) == 1 or round(got[0], 1) == round(got[-1], 1):
                    cells.append(f"{got[0]:>13.1f}")
                else:
                    cells.append(f"{f'{got[0]:.1f}-{got[-1]:.1f}':>13}")
            print(f"{label[:12]:>12} {size:>6} " + " ".join(cells))


def _write_json(path: str, figures: dict[str, float]) -> None:
    Path(path).write_text(json.dumps(figures))


def met_or_missed(value: float, target: float) -> str:
    return "met   " if value < target else "MISSED"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="scripts/bench_latency.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 50, 200])
    parser.add_argument("--humans", type=int, choices=(1, 2, 3, 4), default=1)
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds per decision")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--seconds", type=float, default=15.0, help="measurement window")
    parser.add_argument("--memory-tables", type=int, default=100, help="0: no memory run")
    parser.add_argument(
        "--memory-sites",
        type=int,
        default=10,
        help="allocation sites listed (past 10: growth by line too)",
    )
    parser.add_argument("--warm-tables", type=int, default=10)
    parser.add_argument("--mid-moves", type=int, default=4)
    parser.add_argument("--profile", action="store_true", help="profile at the largest size")
    parser.add_argument("--profile-seconds", type=float, default=8.0)
    parser.add_argument("--profile-lines", type=int, default=25)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--shards",
        type=int,
        nargs="+",
        default=[1],
        metavar="K",
        help="bot processes, each shard i of K with its own guild and 1/K of the tables",
    )
    parser.add_argument(
        "--ping-after",
        type=int,
        nargs="+",
        default=[None],
        metavar="S",
        help="the tables' ping_after setting, one run each (default: the setting's default)",
    )
    parser.add_argument(
        "--idle-share",
        type=float,
        default=0.05,
        help="share of a person's turns on which they sit idle (the idle ping's player)",
    )
    parser.add_argument("--idle", type=float, default=20.0, help="seconds of an idle turn")
    parser.add_argument("--verbose", action="store_true", help="a per-second timeline")
    parser.add_argument(
        "--compare",
        nargs="+",
        metavar="REV",
        help="measure these commits' bots beside this tree's, alternating (issue 31)",
    )
    parser.add_argument("--rounds", type=int, default=2, help="--compare: alternating rounds")
    parser.add_argument("--json", help=argparse.SUPPRESS)  # --compare: a run's figures
    parser.add_argument(
        "--bot-hook",
        metavar="FILE.py:FUNCTION",
        help="called with the ready bot in the bot process: try a fix without editing the bot",
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
