"""The workers the event loop feeds over sockets (bot/socket_workers.py, issue 31): jobs run in
another process, answers find their callers however the bytes arrive, a dead worker fails its
jobs and is replaced, and the pool follows the running loop (the suite runs many)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from bot.socket_workers import SocketWorkers, Superseded
from tests.support.processes import ROOT, kill_and_see_worker_go


def worker_pid(_job: object) -> int:
    return os.getpid()


def reversed_bytes(data: bytes) -> bytes:
    return data[::-1]


def refuse(message: str) -> None:
    raise ValueError(message)


def sleep(seconds: float) -> None:
    time.sleep(seconds)


@pytest.fixture
def pool() -> Iterator[SocketWorkers]:
    workers = SocketWorkers(2)
    yield workers
    workers.close()


async def test_a_job_runs_in_a_worker_process(pool: SocketWorkers) -> None:
    pids = {await pool.run(worker_pid, None) for _ in range(4)}
    assert os.getpid() not in pids and pids <= set(pool.pids())


async def test_every_caller_gets_its_own_answer_when_many_large_jobs_overlap(
    pool: SocketWorkers,
) -> None:
    # 300 KB each way: more than a socket buffer, so jobs and answers go out in pieces.
    jobs = [bytes([n]) * 150_000 + os.urandom(150_000) for n in range(40)]
    answers = await asyncio.gather(*(pool.run(reversed_bytes, job) for job in jobs))
    assert answers == [job[::-1] for job in jobs]


async def test_a_job_that_fails_raises_its_error_in_the_caller(pool: SocketWorkers) -> None:
    with pytest.raises(ValueError, match="no such card"):
        await pool.run(refuse, "no such card")
    assert await pool.run(reversed_bytes, b"ab") == b"ba"  # the worker goes on


async def test_a_dead_worker_fails_its_jobs_and_the_next_job_gets_a_new_one() -> None:
    pool = SocketWorkers(1)
    try:
        first = await pool.run(worker_pid, None)
        job = asyncio.ensure_future(pool.run(sleep, 30.0))
        await asyncio.sleep(0)  # the job is written
        os.kill(first, signal.SIGKILL)
        with pytest.raises(BrokenProcessPool):
            await asyncio.wait_for(job, 30)
        second = await pool.run(worker_pid, None)
        assert second not in (first, os.getpid())
    finally:
        pool.close()


def test_the_pool_follows_the_running_loop() -> None:
    pool = SocketWorkers(1)
    try:
        first = asyncio.run(pool.run(worker_pid, None))
        second = asyncio.run(pool.run(worker_pid, None))  # a new loop, the same worker
        assert first == second != os.getpid()
    finally:
        pool.close()


def pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


async def test_a_second_worker_comes_when_the_first_is_busy_and_takes_jobs_once_ready() -> None:
    pool = SocketWorkers(2)
    try:
        first = await pool.run(worker_pid, None)
        assert pool.pids() == [first]  # one is enough while jobs come one at a time
        busy = asyncio.ensure_future(pool.run(sleep, 0.2))
        await asyncio.sleep(0)
        # The second is spawned now; not prepared yet, so this job waits for the first.
        assert await pool.run(worker_pid, None) == first
        await busy
        assert len(pool.pids()) == 2
        while pool.ready() < 2:  # noqa: ASYNC110 (readiness is read off the socket: no event)
            await asyncio.sleep(0.05)
        both = await asyncio.gather(pool.run(pid_after, 0.2), pool.run(pid_after, 0.2))
        assert set(both) == set(pool.pids())
    finally:
        pool.close()


def touch(path: str) -> str:
    Path(path).touch()
    return path


async def test_a_job_taken_back_before_it_is_begun_is_never_run_and_its_caller_told() -> None:
    """Issue 31: `supersede` takes back the slot's jobs of older versions that the worker has
    not begun (they are never run: Superseded), leaves a begun one and the newest alone."""
    pool = SocketWorkers(1)
    folder = Path(tempfile.mkdtemp())
    try:
        await pool.run(worker_pid, None)  # ready
        begun = asyncio.ensure_future(pool.run(pid_after, 0.3, "slot", 1))
        await asyncio.sleep(0.1)  # the worker is in it
        queued = [
            asyncio.ensure_future(pool.run(touch, str(folder / f"v{v}"), "slot", v)) for v in (2, 3)
        ]
        other = asyncio.ensure_future(pool.run(touch, str(folder / "other"), "other", 2))
        await asyncio.sleep(0)  # all written
        pool.supersede("slot", 3)
        assert pool.taken_back == 2  # the begun job (1) and the queued one of 2
        assert await begun == pool.pids()[0]  # begun: answered as any other
        with pytest.raises(Superseded):
            await queued[0]
        assert await queued[1] == str(folder / "v3")
        assert await other == str(folder / "other")
        assert sorted(os.listdir(folder)) == ["other", "v3"]  # v2 never ran
        pool.supersede("slot", 9)  # nothing left of it: nothing sent
        assert pool.taken_back == 2
        # The only job queued taken back: the worker waits for the next one.
        begun = asyncio.ensure_future(pool.run(pid_after, 0.2))
        await asyncio.sleep(0.1)
        lone = asyncio.ensure_future(pool.run(touch, str(folder / "lone"), "slot", 10))
        await asyncio.sleep(0)
        pool.supersede("slot", 11)
        await begun
        with pytest.raises(Superseded):
            await lone
        assert await pool.run(reversed_bytes, b"ab") == b"ba"
        assert "lone" not in os.listdir(folder)
    finally:
        pool.close()


def test_a_worker_whose_bot_is_killed_leaves_quietly(tmp_path: Path) -> None:
    # A bot killed with jobs on their way resets the socket: the worker exits without a
    # traceback in the bot's log (the crash tests read the log for errors).
    log = tmp_path / "bot.log"
    with log.open("w") as out:
        bot = subprocess.Popen(
            [sys.executable, "-c", KILLED_BOT],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=out,
            text=True,
        )
        try:
            assert bot.stdout is not None
            worker = int(bot.stdout.readline())
            assert kill_and_see_worker_go(bot, worker), "the worker outlived its bot"
        finally:
            bot.kill()
    assert "Traceback" not in log.read_text(), log.read_text()


# A bot stand-in: a worker with a job in hand and another one queued, then killed mid-job.
KILLED_BOT = """
import asyncio, os, sys, time
from bot.socket_workers import SocketWorkers, Superseded

async def main():
    pool = SocketWorkers(1)
    await pool.run(abs, -1)
    pid = pool.pids()[0]
    jobs = [asyncio.ensure_future(pool.run(time.sleep, 0.5)) for _ in range(3)]
    await asyncio.sleep(0.1)
    print(pid, flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""
