"""Worker processes that the event loop feeds itself, over one socket each: no thread of the bot.

concurrent.futures' process pool keeps two threads in the bot's process (one feeds the jobs,
one collects the results) and wakes them through a pipe on every job. Those threads share the
GIL with the event loop: at 200 busy tables a profile showed the loop blocked ~1.4 ms on every
picture job, waiting for the GIL after the wake-up write (issue 31). Here the loop writes each
job to a worker's socket and reads the results when the socket is readable (`add_reader`),
so a job costs the loop a pickle and a send, and nothing else runs in the bot's process.

A job may name a *slot* (what it draws a state of: one table's picture, one table's seat
pictures) and the version of that state. Once a newer state of the slot exists, `supersede`
takes back the slot's older jobs that no worker has begun: the worker reads every frame that
has come before it takes its next job, drops a job taken back and says so; its caller gets
`Superseded` and asks for the newest state instead (issue 31: at 200 busy tables, the bot
seats at zero delay, 0.78 table pictures and 0.10 seat pictures a click were taken back so).
A job already begun is drawn and answered as any other.

The workers are spawned and tied to the bot like every worker (bot/workers.py). A worker that
dies fails its jobs with BrokenProcessPool, as concurrent.futures does; the next job starts a
new one. The pool follows the running loop: jobs of a loop that is gone are dropped (a test
suite runs many loops; the workers and their warm caches stay).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import multiprocessing
import os
import pickle
import select
import socket
import struct
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.workers import start_worker

S = TypeVar("S")
HEADER = struct.Struct("!II")  # job id, payload length
READY = 0xFFFFFFFF  # the job id of a worker's first frame: prepared, ready for jobs
# The length of a frame with no payload: to a worker, "take this job back"; from a worker,
# "taken back before it was begun".
TAKEN_BACK = 0xFFFFFFFF
READ_SIZE = 1 << 16


class Superseded(Exception):
    """A job taken back before a worker began it: its slot has a newer state."""


def _read_exact(sock: socket.socket, size: int) -> bytes | None:
    data = bytearray()
    while len(data) < size:
        try:
            chunk = sock.recv(size - len(data))
        except OSError:  # reset: the bot was killed
            return None
        if not chunk:
            return None  # the bot closed its end: nothing left to work for
        data += chunk
    return bytes(data)


def _serve(
    sock: socket.socket, parent: int, niceness: int, prepare: Callable[[], object] | None
) -> None:
    """A worker: `prepare()`, then run each job that comes, send back (True, result) or
    (False, error). Before each job it reads every frame already there, so a job taken back
    meanwhile is dropped (answered TAKEN_BACK), never begun."""
    start_worker(parent, niceness)
    if prepare is not None:
        prepare()
    pending: OrderedDict[int, bytes] = OrderedDict()  # job id -> payload, in arrival order
    with sock, contextlib.suppress(OSError):  # a reset or a broken pipe: the bot was killed
        sock.sendall(HEADER.pack(READY, 0))
        while True:
            block = not pending  # nothing to do: wait for a frame; else only those there
            while block or select.select([sock], [], [], 0)[0]:
                block = False
                header = _read_exact(sock, HEADER.size)
                if header is None:
                    return
                job_id, size = HEADER.unpack(header)
                if size == TAKEN_BACK:
                    if pending.pop(job_id, None) is not None:
                        sock.sendall(HEADER.pack(job_id, TAKEN_BACK))
                    continue  # begun already (or done): its answer goes as usual
                payload = _read_exact(sock, size)
                if payload is None:
                    return
                pending[job_id] = payload
            if not pending:
                continue  # only jobs taken back came
            job_id, payload = pending.popitem(last=False)
            try:
                draw, job = pickle.loads(payload)
                answer = pickle.dumps((True, draw(job)), pickle.HIGHEST_PROTOCOL)
            except Exception as error:  # the caller's to see, as with concurrent.futures
                try:
                    answer = pickle.dumps((False, error), pickle.HIGHEST_PROTOCOL)
                except Exception:
                    answer = pickle.dumps((False, RuntimeError(repr(error))))
            sock.sendall(HEADER.pack(job_id, len(answer)) + answer)


class _Worker:
    """One worker process and the bot's end of its socket."""

    def __init__(self, niceness: int, prepare: Callable[[], object] | None) -> None:
        mine, theirs = socket.socketpair()
        context = multiprocessing.get_context("spawn")
        self.process = context.Process(
            target=_serve, args=(theirs, os.getpid(), niceness, prepare), daemon=True
        )
        try:
            self.process.start()
        finally:
            theirs.close()
        mine.setblocking(False)
        self.sock = mine
        self.loop: asyncio.AbstractEventLoop | None = None
        self.jobs: dict[int, asyncio.Future[Any]] = {}
        self.buffer = bytearray()  # results read, not yet whole
        self.outgoing = bytearray()  # jobs not yet written
        self.ready = False  # prepared: jobs given to it now are drawn at once
        self.broken = False

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Serve the jobs of `loop` (the running one); a former loop's jobs are dropped (their
        results, when they come, are read and thrown away: the stream stays whole)."""
        if self.loop is loop:
            return
        fd = self.sock.fileno()
        if self.loop is not None and not self.loop.is_closed():
            self.loop.remove_reader(fd)
            self.loop.remove_writer(fd)
        self._fail(BrokenProcessPool("the event loop of this job is gone"))
        self.loop = loop
        loop.add_reader(fd, self._readable)
        if self.outgoing:
            loop.add_writer(fd, self._writable)

    def send(self, data: bytes) -> None:
        """Write `data` now if the socket takes it, else when it is writable; never blocks, and
        frames never interleave (they go out in order through one buffer)."""
        if not self.outgoing:
            try:
                sent = self.sock.send(data)
            except (BlockingIOError, InterruptedError):
                sent = 0
            if sent == len(data):
                return
            assert self.loop is not None
            self.loop.add_writer(self.sock.fileno(), self._writable)
            data = data[sent:]
        self.outgoing += data

    def _writable(self) -> None:
        try:
            sent = self.sock.send(self.outgoing)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self.close()
            return
        del self.outgoing[:sent]
        if not self.outgoing and self.loop is not None:
            self.loop.remove_writer(self.sock.fileno())

    def _readable(self) -> None:
        try:
            chunk = self.sock.recv(READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            chunk = b""
        if not chunk:
            self.close()
            return
        self.buffer += chunk
        while len(self.buffer) >= HEADER.size:
            job_id, size = HEADER.unpack_from(self.buffer)
            if size == TAKEN_BACK:
                del self.buffer[: HEADER.size]
                future = self.jobs.pop(job_id, None)
                if future is not None and not future.done():
                    future.set_exception(Superseded())
                continue
            end = HEADER.size + size
            if len(self.buffer) < end:
                return
            if job_id == READY:
                self.ready = True
                del self.buffer[:end]
                continue
            ok, value = pickle.loads(self.buffer[HEADER.size : end])
            del self.buffer[:end]
            future = self.jobs.pop(job_id, None)
            if future is None or future.done():
                continue  # its caller stopped waiting
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

    def _fail(self, error: BaseException) -> None:
        jobs, self.jobs = self.jobs, {}
        for future in jobs.values():
            if not future.done() and not future.get_loop().is_closed():
                future.set_exception(error)

    def close(self) -> None:
        """The worker is gone (or let go): its jobs fail, its process is ended."""
        if self.broken:
            return
        self.broken = True
        if self.loop is not None and not self.loop.is_closed():
            self.loop.remove_reader(self.sock.fileno())
            self.loop.remove_writer(self.sock.fileno())
        self.sock.close()
        self._fail(BrokenProcessPool("a picture worker died"))
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=1)


class SocketWorkers:
    """`size` worker processes; each job goes to the one with the fewest jobs in hand.
    `prepare`: what each worker does first (a module-level function: import, warm caches)."""

    def __init__(
        self, size: int, niceness: int = 0, prepare: Callable[[], object] | None = None
    ) -> None:
        self.size = size
        self.niceness = niceness
        self.prepare = prepare
        self._workers: list[_Worker] = []
        self._ids = itertools.count()
        # slot -> {job id: (its worker, the version it draws)}, for jobs not answered yet
        self._slots: dict[Hashable, dict[int, tuple[_Worker, int]]] = {}
        self.taken_back = 0  # jobs taken back (sent TAKEN_BACK), for tests and benchmarks

    def start(self) -> None:
        """Spawn a worker now if there is none (it takes a second or more to import what it
        draws with, and to prepare)."""
        self._workers = [w for w in self._workers if not w.broken]
        if not self._workers:
            self._workers.append(_Worker(self.niceness, self.prepare))

    def _pick(self, loop: asyncio.AbstractEventLoop) -> _Worker:
        """The ready worker with the fewest jobs in hand. One more is spawned (up to `size`)
        when every worker has a job in hand, as concurrent.futures does: a bot starting on a
        busy machine does not prepare all of them at once. Until it is ready, the others
        take the jobs."""
        self.start()
        if len(self._workers) < self.size and all(w.jobs for w in self._workers):
            self._workers.append(_Worker(self.niceness, self.prepare))
        for worker in self._workers:
            worker.attach(loop)  # a new one's "ready" is read on this loop
        ready = [w for w in self._workers if w.ready] or self._workers
        return min(ready, key=lambda w: len(w.jobs))

    async def run(
        self,
        draw: Callable[[S], Any],
        job: S,
        slot: Hashable | None = None,
        version: int = 0,
    ) -> Any:
        """`draw(job)` in a worker; `draw` a module-level function and `job` plain data.
        `slot`, `version`: the state the job draws, which `supersede` may take back until a
        worker begins it (then this raises Superseded)."""
        loop = asyncio.get_running_loop()
        worker = self._pick(loop)
        job_id = next(self._ids)
        future: asyncio.Future[Any] = loop.create_future()
        worker.jobs[job_id] = future
        jobs = None
        if slot is not None:
            jobs = self._slots.setdefault(slot, {})
            jobs[job_id] = (worker, version)
        try:
            try:
                payload = pickle.dumps((draw, job), pickle.HIGHEST_PROTOCOL)
                worker.send(HEADER.pack(job_id, len(payload)) + payload)
            except OSError as error:
                worker.close()
                raise BrokenProcessPool("a picture worker died") from error
            return await future
        finally:
            worker.jobs.pop(job_id, None)
            if jobs is not None:
                jobs.pop(job_id, None)
                if not jobs and self._slots.get(slot) is jobs:
                    del self._slots[slot]

    def supersede(self, slot: Hashable, version: int) -> None:
        """A state of `slot` at `version` exists: its jobs of older versions are taken back
        (those a worker has not begun end in Superseded; the others are answered)."""
        jobs = self._slots.get(slot)
        if not jobs:
            return
        for job_id, (worker, drawn) in list(jobs.items()):
            if drawn < version and not worker.broken:
                del jobs[job_id]  # taken back once
                self.taken_back += 1
                try:
                    worker.send(HEADER.pack(job_id, TAKEN_BACK))
                except OSError:
                    worker.close()
        if not jobs:
            del self._slots[slot]

    def ready(self) -> int:
        """How many workers are prepared (tests)."""
        return sum(1 for w in self._workers if w.ready and not w.broken)

    def pids(self) -> list[int]:
        return [w.process.pid for w in self._workers if not w.broken and w.process.pid]

    def close(self) -> None:
        for worker in self._workers:
            with contextlib.suppress(OSError):
                worker.close()
        self._workers = []
