"""Worker processes (bot/workers.py): the pictures' and the search's. Issue 13 item 7: the
pictures left the bot's process (they starved its event loop); a worker never outlives its bot."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bot import event_loop
from bot.pictures import samples
from bot.pictures.render_pool import render_png
from bot.pictures.scene import scene_of
from bot.pictures.table import table_png
from bot.workers import worker_pool
from tests.support.processes import ROOT, alive, kill_and_see_worker_go

# A bot stand-in: starts a pool, prints its worker's pid, then waits to be killed.
CHILD = """
import os, sys, time
from bot.workers import worker_pool
pool = worker_pool(max_workers=1, niceness=5)
print(pool.submit(os.getpid).result(), pool.submit(os.nice, 0).result(), flush=True)
time.sleep(60)
"""


def test_a_worker_exits_when_its_bot_is_killed() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        worker, niceness = (int(x) for x in child.stdout.readline().split())
        assert worker != child.pid and alive(worker)
        assert niceness >= 5  # the pictures' worker yields the CPU to the bot
        assert kill_and_see_worker_go(child, worker), "the worker outlived its bot"
    finally:
        child.kill()


async def test_a_picture_drawn_in_the_worker_is_the_picture() -> None:
    scene = scene_of(samples.stages("truco")["trick"])
    assert await render_png(scene) == table_png(scene)


def test_a_worker_pool_runs_its_jobs_in_another_process() -> None:
    pool = worker_pool(max_workers=1)
    try:
        assert pool.submit(os.getpid).result(timeout=60) != os.getpid()
    finally:
        pool.shutdown()


@pytest.mark.skipif(not hasattr(os, "SCHED_BATCH"), reason="Linux's scheduling policies only")
def test_a_worker_is_a_batch_task_that_does_not_preempt_the_bot() -> None:
    # Issue 31: a job's arrival must not hand the core from the bot's loop to its worker.
    pool = worker_pool(max_workers=1)
    try:
        assert pool.submit(os.sched_getscheduler, 0).result(timeout=60) == os.SCHED_BATCH
        assert os.sched_getscheduler(0) != os.SCHED_BATCH  # the bot itself is not
    finally:
        pool.shutdown()


def test_the_bot_loop_gets_the_gil_back_from_its_threads_within_half_a_millisecond() -> None:
    # The worker pools' threads share the GIL with the bot's loop (bot/event_loop.py): the bot
    # runs with a short switch interval, and gives the process its old one back afterwards.
    async def interval_inside() -> float:
        return sys.getswitchinterval()

    before = sys.getswitchinterval()
    assert event_loop.run(interval_inside()) == event_loop.SWITCH_INTERVAL < before
    assert sys.getswitchinterval() == before
