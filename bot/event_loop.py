"""The event loop the bot runs on: uvloop where it is installed, else asyncio's own.

The bot is one event loop serving every table of its process; at 200 busy tables most of its
CPU is the loop itself and the sockets of its Discord calls, which uvloop (libuv, in C) does in
a fraction of asyncio's time. It is a drop-in loop: nothing in the bot depends on which one runs.
The test suite runs on the same loop (tests/conftest.py). Windows has no uvloop.

The loop shares the GIL with threads of its own process (the worker pools' feeder and manager
threads, the database's thread). Each time the loop makes a system call (a write to a worker's
pipe, a socket send) it lets the GIL go, and a busy thread may keep it for the whole switch
interval, 5 ms by default, before the loop gets it back. At 200 busy tables a profile showed the
loop blocked ~1.4 ms per picture job submitted; with a 0.5 ms interval the loop answered more
clicks with less CPU each (scripts/bench_latency.py --compare, issue 31).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

SWITCH_INTERVAL = 0.0005  # seconds a thread may hold the GIL while the loop waits for it


def loop_factory() -> Any:
    """A new event loop of the kind the bot runs on."""
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


def run(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run`, on the bot's kind of loop, with the loop's threads on a short leash."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        with asyncio.Runner(loop_factory=loop_factory) as runner:
            return runner.run(main)
    finally:
        sys.setswitchinterval(interval)
