"""Worker processes for CPU-heavy work (bot seats' search, reviews), and how every worker
starts (the pictures' workers too, bot/socket_workers.py).

Spawned (a fresh interpreter, not a fork of a process with running threads and sockets), and
tied to the bot: a worker whose bot process is gone (SIGKILL, OOM) exits by itself instead of
lingering as an orphan.

Every worker runs as a batch task (Linux's SCHED_BATCH): its share of the CPU is that of its
niceness, but a job's arrival does not let it preempt the process that sent the job. As a
plain task, a seat picture's worker woken by the event loop's write took the core from the loop
in the middle of that write, on a busy 2-core machine (issue 31: at 200 busy tables,
scripts/bench_latency.py, ack p50 15-19 -> 12.5 ms). A niceness above 0 would have done the
same but also starved the pictures beside busy processes (the loaded test suite).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

PARENT_CHECK_SECONDS = 1.0


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(PARENT_CHECK_SECONDS)
        if os.getppid() != parent:
            os._exit(0)  # the bot is gone: nothing left to work for


def start_worker(parent: int, niceness: int) -> None:
    with contextlib.suppress(OSError, AttributeError):  # not Linux: plain scheduling
        os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))
    if niceness:
        with contextlib.suppress(OSError, AttributeError):
            os.nice(niceness)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def worker_pool(max_workers: int, niceness: int = 0) -> ProcessPoolExecutor:
    """A pool of `max_workers` processes; `niceness` > 0 lets them yield the CPU to the bot."""
    return ProcessPoolExecutor(
        max_workers=max_workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=start_worker,
        initargs=(os.getpid(), niceness),
    )
