"""Waiting on state that has no event to wait on (polled, with a generous limit)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


async def until(predicate: Callable[[], bool], timeout: float = 15.0) -> None:  # noqa: ASYNC109
    """Until `predicate()` holds. Service state has no event to wait on: it is polled."""
    step = 0.01
    for _ in range(int(timeout / step)):
        if predicate():
            return
        await asyncio.sleep(step)
    raise TimeoutError(f"still not true after {timeout:g} s")
