"""Table pictures drawn in a worker process, not in a thread of the bot's own process.

A picture costs a few ms of CPU (draw, palette, PNG; less where bands of it are cached:
bot/pictures/layers.py), most of it holding the GIL. In a thread, at 200 busy tables, that
starved the event loop and the database's thread: acknowledgements waited seconds
(scripts/bench_latency.py). Worker processes draw them instead; a table whose picture is slow
to come simply sends fewer, newer pictures (edits are coalesced). Where a process cannot be
started (a daemonic parent, a sandbox), or keeps dying, pictures are drawn in a thread as before.

Two pools (issue 31). Seat pictures follow the answers to clicks at once (bot/ui/table/
seat_picture.py), so their workers are not niced: a niced worker on a busy machine left the
players' pictures seconds behind their hands. Everything else (table pictures, replays, charts)
stays niced. Each pool keeps its own band cache. The workers are fed by the event loop itself
(bot/socket_workers.py): no thread of the bot's process takes the GIL from the loop per picture.

A table's picture and the live hands' seat pictures are drawn for a state that may be gone
before a worker comes to them (issue 31): `supersede` takes back a table's queued pictures of
older versions, and their callers ask for the newest state (Superseded).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from bot.pictures import seat
from bot.pictures.scene import Scene, SeatScene
from bot.pictures.table import prepare, table_png
from bot.socket_workers import SocketWorkers, Superseded

__all__ = ["Superseded", "render_job", "render_png", "render_seat_png", "supersede", "warm_up"]

log = logging.getLogger(__name__)

S = TypeVar("S")

# One worker per four cores, up to four: on a 16-core machine one worker was the bottleneck at
# 500 busy tables (every answer waited for its seat picture: acknowledgements at the 2 s
# deadline, scripts/bench_latency.py); on a small machine one worker leaves the bot its cores.
PICTURE_WORKERS = max(1, min(4, (os.cpu_count() or 1) // 4))

ANSWER, BACKGROUND = "answer", "background"
# Niceness per pool: the answer's pictures at the bot's own priority, the others yield to it.
NICENESS = {ANSWER: 0, BACKGROUND: 10}

_pools: dict[str, SocketWorkers] = {}
_threads_only = False


def _worker_pool(kind: str = BACKGROUND) -> SocketWorkers:
    pool = _pools.get(kind)
    if pool is None:
        # The answers' pool has two workers at least: a click's picture must not queue behind
        # the live hands' pictures of the bot seats' moves (about four per click, one table),
        # which a single worker on a loaded 2-core machine did (ack p50 ~340 ms at 50 tables,
        # bench_latency --compare).
        workers = max(2, PICTURE_WORKERS) if kind == ANSWER else PICTURE_WORKERS
        pool = _pools[kind] = SocketWorkers(workers, NICENESS[kind], prepare=_ready)
    return pool


def _ready() -> None:
    prepare()  # in the worker: imported the drawing code, and made what every picture uses
    seat.prepare()


def warm_up() -> None:
    """Start the workers now: spawning one and importing Pillow takes a second or more on a
    busy machine, which the first table's answer must not wait for."""
    global _threads_only
    if _threads_only:
        return
    try:
        for kind in (ANSWER, BACKGROUND):
            _worker_pool(kind).start()
    except (AssertionError, OSError, RuntimeError) as error:
        log.warning("pictures drawn in a thread: no worker process (%s)", error)
        _threads_only = True


TABLE, SEATS = "table", "seats"  # the slots a table's pictures are drawn in


async def render_png(scene: Scene, *, supersedable: bool = False) -> bytes:
    """The PNG of `scene`, drawn off the event loop (in the worker process when there is one).
    `supersedable`: `supersede` may take it back (Superseded) until a worker begins it."""
    slot = (TABLE, scene.table_id) if supersedable else None
    return await _render(table_png, scene, BACKGROUND, slot, scene.version)


async def render_seat_png(scene: SeatScene, *, supersedable: bool = False) -> bytes:
    """One player's own picture (bot/pictures/seat.py), drawn the same way as a table's, by
    the answers' worker. `supersedable`: as for `render_png`."""
    slot = (SEATS, scene.table_id) if supersedable else None
    return await _render(seat.seat_png, scene, ANSWER, slot, scene.version)


def supersede(table_id: int, version: int) -> None:
    """Table `table_id` is at `version`: its supersedable pictures (table and seats) of older
    versions that no worker has begun are taken back."""
    for kind, slot in ((BACKGROUND, TABLE), (ANSWER, SEATS)):
        pool = _pools.get(kind)
        if pool is not None:
            pool.supersede((slot, table_id), version)


async def render_job(draw: Callable[[S], bytes], job: S) -> bytes:
    """Any other picture (a replay step, a chart): `draw(job)` in the same worker; `draw` is a
    module-level function and `job` plain data, so both travel to the worker process."""
    return await _render(draw, job)


async def _render(
    draw: Callable[[S], bytes],
    scene: S,
    kind: str = BACKGROUND,
    slot: tuple[str, int] | None = None,
    version: int = 0,
) -> bytes:
    global _threads_only
    for attempt in (1, 2):
        if _threads_only:
            break
        try:
            pool = _worker_pool(kind)
            pool.start()
        except (AssertionError, OSError, RuntimeError) as error:
            # e.g. "daemonic processes are not allowed to have children"
            log.warning("pictures drawn in a thread: no worker process (%s)", error)
            _threads_only = True
            break
        try:
            data: bytes = await pool.run(draw, scene, slot, version)
            return data
        except BrokenProcessPool:
            log.warning("the %s picture worker broke (attempt %d)", kind, attempt)
    return await asyncio.to_thread(draw, scene)
