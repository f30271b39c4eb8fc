"""The global request budget (issue 25): never more than Discord's 50 a second, pings first,
then table messages, then the rest; nothing waits forever."""

from __future__ import annotations

import asyncio

import pytest

from bot.ui.kit.budget import DISCORD_GLOBAL_PER_SECOND, GlobalBudget, Priority


def most_in_one_second(stamps: list[float]) -> int:
    stamps = sorted(stamps)
    best, start = 0, 0
    for end, stamp in enumerate(stamps):
        while stamp - stamps[start] >= 1.0:
            start += 1
        best = max(best, end - start + 1)
    return best


async def test_a_flood_of_requests_stays_under_discords_global_limit_in_every_window() -> None:
    """Measured on the budget's own clock (the event loop's), so a loaded machine only slows
    the flood down; it can never push it over."""
    loop = asyncio.get_running_loop()
    budget = GlobalBudget(clock=loop.time)
    stamps: list[float] = []

    async def request() -> None:
        await budget.take(Priority.WATCHED)
        stamps.append(loop.time())

    await asyncio.gather(*(request() for _ in range(120)))
    assert len(stamps) == 120
    assert most_in_one_second(stamps) < DISCORD_GLOBAL_PER_SECOND


async def test_waiting_requests_go_out_ping_first_then_table_messages_then_the_rest() -> None:
    """The budget's clock stands still until every request waits, so a loaded machine cannot
    let the first one through before the others queue (with the loop's clock, 1 ms late was
    enough: CI saw "delete" first); then it moves one token's time at every look."""
    now = 0.0
    moving = False

    def clock() -> float:
        nonlocal now
        if moving:
            now += 0.001
        return now

    budget = GlobalBudget(per_second=1000, burst=1, clock=clock)
    await budget.take(Priority.REST)  # the bucket is empty now
    order: list[str] = []

    async def request(name: str, priority: Priority) -> None:
        await budget.take(priority)
        order.append(name)

    tasks = [
        asyncio.create_task(request(name, priority))
        for name, priority in [
            ("delete", Priority.REST),
            ("edit 1", Priority.WATCHED),
            ("repost", Priority.REST),
            ("ping", Priority.PING),
            ("edit 2", Priority.WATCHED),
        ]
    ]
    await asyncio.sleep(0)
    assert budget.queued == 5  # all of them wait before the first token comes back
    moving = True
    await asyncio.gather(*tasks)
    assert order == ["ping", "edit 1", "edit 2", "delete", "repost"]
    assert budget.taken == {Priority.REST: 3, Priority.WATCHED: 2, Priority.PING: 1}


async def test_a_cancelled_waiter_does_not_hold_up_the_others() -> None:
    budget = GlobalBudget(per_second=200, burst=1)
    await budget.take(Priority.REST)
    gone = asyncio.create_task(budget.take(Priority.PING))
    await asyncio.sleep(0)
    gone.cancel()
    await asyncio.wait_for(budget.take(Priority.REST), timeout=5)
    assert budget.queued == 0


@pytest.mark.parametrize(
    ("shards", "rate"), [(None, 36.0), ([(0, 2)], 18.0), ([(0, 4), (1, 4)], 18.0)]
)
def test_shard_processes_split_the_tokens_budget(
    shards: list[tuple[int, int]] | None, rate: float
) -> None:
    assert GlobalBudget.for_shards(shards).per_second == rate


def test_the_budget_refills_with_its_clock() -> None:
    now = [100.0]
    budget = GlobalBudget(per_second=10, burst=2, clock=lambda: now[0])
    budget._tokens = 0
    now[0] += 0.15
    budget._refill()
    assert budget._tokens == pytest.approx(1.5)
    now[0] += 10
    budget._refill()
    assert budget._tokens == 2  # never more than the burst
