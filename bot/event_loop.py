"""The event loop the bot runs on: uvloop where it is installed, else asyncio's own.

The bot is one event loop serving every table of its process; at 200 busy tables most of its
CPU is the loop itself and the sockets of its Discord calls, which uvloop (libuv, in C) does in
a fraction of asyncio's time. It is a drop-in loop: nothing in the bot depends on which one runs.
The test suite runs on the same loop (tests/conftest.py). Windows has no uvloop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def loop_factory() -> Any:
    """A new event loop of the kind the bot runs on."""
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


def run(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run`, on the bot's kind of loop."""
    with asyncio.Runner(loop_factory=loop_factory) as runner:
        return runner.run(main)
