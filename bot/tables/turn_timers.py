"""Turn timers: a listener of table changes that runs ONE scheduler task for every table.

A timer is table state, not a sleeping coroutine per click: each action stores the deadline of
the human whose turn it is (`turn_deadline`, so a restart keeps it; see `Table.turn_deadline`),
and the scheduler wakes at the earliest warning or deadline of all tables, on the service's
clock. Every change (but a close) wakes it to look again, at the tables that changed: the
others' next due times are kept from their own last change. When the human(s) to act have been
idle for the table's `ping_after` seconds (from the stored `turn_since`) listeners hear
CHANGE_PING: the turn ping goes out only then, not on every turn. At half time listeners hear
CHANGE_WARNING; at the deadline a bot plays that turn for the human through the service's one
apply path (their seat counts a missed turn; after 3 in a row the bot keeps the seat until they
are back).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging

from bot.tables import bot_moves
from bot.tables.bot_seats import choose_bot_action, retry_pause
from bot.tables.errors import NoSuchTable, StaleVersion
from bot.tables.table import (
    CHANGE_ACTION,
    CHANGE_CLOSED,
    CHANGE_PING,
    CHANGE_WARNING,
    Table,
    TableHost,
)

log = logging.getLogger(__name__)

AWAY_AFTER = 3  # missed turns in a row after which the bot keeps the seat
TAKEOVER_LEVEL = bot_moves.DEFAULT_LEVEL  # the bot that plays for a human whose time ran out


def timer_due(table: Table) -> float | None:
    """When the table next needs the scheduler: the idle ping, the warning, the deadline."""
    if table.closed:
        return None
    ping = table.ping_due()
    deadline = table.record.turn_deadline
    if deadline is None:
        return ping
    due = deadline if table.record.turn_warned else deadline - table.turn_timer / 2
    return due if ping is None else min(due, ping)


class TurnTimers:
    """The one scheduler task, woken by the changes it hears."""

    def __init__(self, host: TableHost, *, retry_delay: float, max_retry_delay: float) -> None:
        self._host = host
        self.retry_delay = retry_delay
        self.max_retry_delay = max_retry_delay
        self._closing = False
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        # When each table next needs the scheduler (timer_due), kept between looks: a change
        # asks it again of the tables that changed, not of every table (issue 31: asked of
        # every table at every change, it was ~7% of the bot's CPU at 200 busy tables).
        self._dues: dict[int, tuple[float, Table]] = {}
        self._changed: dict[int, Table] = {}  # tables to ask again at the next look
        self._ask_all = True  # the first look, or the clock jumped: ask every table

    def __call__(self, table: Table, change: str) -> None:
        if change == CHANGE_CLOSED:
            self._dues.pop(table.id, None)
            self._changed.pop(table.id, None)
            return
        self._changed[table.id] = table
        self._look()

    def wake(self) -> None:
        """Look at every table's deadlines again now (the clock jumped)."""
        self._ask_all = True
        self._look()

    def _look(self) -> None:
        if self._closing:
            return
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="turn-timers")
        self._wake.set()

    def _due_now(self) -> list[tuple[float, Table]]:
        """Every table's next due time, the changed ones asked again."""
        if self._ask_all:
            self._ask_all = False
            self._changed.clear()
            self._dues.clear()
            asked: list[Table] = self._host.tables
        else:
            asked = list(self._changed.values())
            self._changed.clear()
        for table in asked:
            due = timer_due(table)
            if due is None:
                self._dues.pop(table.id, None)
            else:
                self._dues[table.id] = (due, table)
        return list(self._dues.values())

    def stop(self) -> list[asyncio.Task[None]]:
        """Cancel the scheduler (the deadlines are stored); the caller awaits the task returned."""
        self._closing = True
        if self._task is None:
            return []
        self._task.cancel()
        return [self._task]

    async def _run(self) -> None:
        """Sleep until the earliest warning or deadline of any table (or a wake-up), handle
        what is due, repeat."""
        failures = 0
        while not self._closing:
            self._wake.clear()
            now = self._host.now()
            dues = self._due_now()
            pause = None
            for due, table in dues:
                if due > now:
                    continue
                # Asked again at the next look whatever happens here: handled, refused or
                # failed, its due time may have moved with no change heard.
                self._changed[table.id] = table
                try:
                    await self._on_timer(table)
                    failures = 0
                except (StaleVersion, NoSuchTable):
                    failures = 0  # reloaded from the store (another process wrote): look again
                except Exception:
                    failures += 1
                    pause = retry_pause(failures, self.retry_delay, self.max_retry_delay)
                    log.warning(
                        "turn timer of table %s failed; retrying in %.0f s",
                        table.id,
                        pause,
                        exc_info=True,
                    )
            if pause is None:
                later = [due - now for due, _ in dues if due > now]
                if any(due <= now for due, _ in dues):
                    continue  # handled some: look again (new deadlines, a warning then due)
                pause = min(later) if later else None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), pause)

    async def _on_timer(self, table: Table) -> None:
        """Idle long enough: the ping. Half time: the warning. The deadline: a bot plays that
        turn for the human."""
        async with table.lock:
            due = timer_due(table)
            now = self._host.now()
            record = table.record
            if table.closed or due is None or due > now:
                return
            ping = table.ping_due()
            if ping is not None and ping <= now:
                # Nothing to store: `turn_since` is, so a restart makes this due again.
                table.ping_due_for = record.turn_since
                change = CHANGE_PING
            elif record.turn_deadline is None:
                return
            elif now < record.turn_deadline:
                await self._host.store.set_turn(table.id, record.turn_deadline, True)
                record.turn_warned = True
                change = CHANGE_WARNING
            else:
                humans = table.humans_to_act()
                if not humans:  # cannot happen: the deadline is only set for a human
                    record.turn_deadline = None
                    return
                seat = humans[0]
                position = table.position_of_seat(seat)
                player = table.seats[position]
                assert player is not None
                seats = list(table.seats)
                missed = player.missed + 1
                seats[position] = dataclasses.replace(
                    player, missed=missed, away=missed >= AWAY_AFTER
                )
                action = await choose_bot_action(table, seat, TAKEOVER_LEVEL)
                await self._host.apply_locked(table, seat, action, seats=seats)
                change = CHANGE_ACTION
        self._host.changed(table, change)
