"""Event-driven waiting: `await notifier.wait_for(predicate)` wakes on each state change."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar, cast

T = TypeVar("T")


class Notifier:
    def __init__(self) -> None:
        self._waiters: list[tuple[Callable[[], object], asyncio.Future[object]]] = []

    def changed(self) -> None:
        """Re-evaluate every waiting predicate; called after each change of emulator state."""
        if not self._waiters:
            return
        pending = []
        for predicate, future in self._waiters:
            if future.done():
                continue
            try:
                value = predicate()
            except Exception as error:  # a broken predicate fails its waiter, not the emulator
                future.set_exception(error)
                continue
            if value:
                future.set_result(value)
            else:
                pending.append((predicate, future))
        self._waiters = pending

    async def wait_for(
        self,
        predicate: Callable[[], T | None],
        timeout: float,  # noqa: ASYNC109
        what: str = "condition",
    ) -> T:
        """The predicate's first truthy value; TimeoutError (with `what`) after `timeout` s."""
        value = predicate()
        if value:
            return value
        future: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        self._waiters.append((predicate, future))
        try:
            return cast(T, await asyncio.wait_for(future, timeout))
        except TimeoutError:
            raise TimeoutError(f"timed out after {timeout:g} s waiting for {what}") from None
        finally:
            if not future.done():
                future.cancel()
