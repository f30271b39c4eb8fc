"""A table's turn ping, kept in step with the table in a task of its own (its budget waits hold
no table edit): posted when a person's turn has waited `ping_after` seconds, deleted when it is
no longer wanted. A part of `PublicMessages` (bot/ui/table/public.py), which inherits it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.tables.errors import TableError
from bot.tables.service import Table, TableService
from bot.ui.kit import rest
from bot.ui.kit.budget import GlobalBudget, Priority
from bot.ui.table import render

log = logging.getLogger(__name__)

NO_PING_YET = object()  # no ping sent since start-up: whatever the table wants is sent


@dataclass(slots=True)
class ChannelQueue:
    """A channel's table edits: those waiting, and the times of its recent edits (at most
    `max_edits`: a list, not a deque, which costs ~600 B a channel however few it holds)."""

    pending: dict[int, Table] = field(default_factory=dict)
    sent: list[float] = field(default_factory=list)
    # The drain while it runs; None once done (a finished task kept its coroutine, ~1 KB a
    # channel, issue 31).
    task: asyncio.Task[None] | None = None


class TurnPings:
    """The base of `PublicMessages`: the turn pings, and the helpers both use (the server's
    language, background tasks, the channel's edit window). `PublicMessages` sets the state."""

    _client: discord.Client
    _service: TableService
    _clock: Callable[[], float]
    _closed: bool
    _background: set[asyncio.Task[None]]
    _pinged: dict[int, Any]
    _pinging: dict[int, asyncio.Task[None]]
    _ping_again: set[int]
    budget: GlobalBudget
    max_edits: int
    per_seconds: float

    def locale_of(self, table: Table) -> str | None:
        """Public table messages speak the server's language (its Community locale)."""
        guild = self._client.get_guild(table.guild_id)
        return str(guild.preferred_locale) if guild is not None else None

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    async def _wait_for_slot(self, channel: ChannelQueue) -> None:
        while True:
            now = self._clock()
            while channel.sent and now - channel.sent[0] >= self.per_seconds:
                del channel.sent[0]
            if len(channel.sent) < self.max_edits:
                return
            await asyncio.sleep(self.per_seconds - (now - channel.sent[0]))

    def _schedule_ping(self, table: Table, channel: ChannelQueue) -> None:
        """Sync the table's ping in a task of its own: a ping's requests wait on the global
        budget (its delete at the lowest priority), and the channel's table edits, which go
        through tokens and need none, must not wait behind them."""
        if self._closed:
            return
        if table.id in self._pinging:
            self._ping_again.add(table.id)  # the running sync looks once more when done
            return
        self._pinging[table.id] = self._spawn(self._ping_worker(table, channel))

    async def _ping_worker(self, table: Table, channel: ChannelQueue) -> None:
        try:
            while True:
                self._ping_again.discard(table.id)
                try:
                    await self._sync_ping(table, channel)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("turn ping of table %s failed", table.id)
                if table.id not in self._ping_again:
                    return
        finally:
            self._pinging.pop(table.id, None)

    async def _sync_ping(self, table: Table, channel: ChannelQueue) -> None:
        """Make the channel show the ping the table wants now: delete the previous one, then
        send the new one (so there is never more than one)."""
        async with table.lock:
            wanted = render.ping_key(table)
            ping = render.ping_message(table, self.locale_of(table)) if wanted is not None else None
        if self._pinged.get(table.id, NO_PING_YET) == wanted:
            return
        old = table.record.ping_message_id
        if old is not None:
            # "No ping" is stored before the delete: a crash between the two then leaves a
            # ping in the channel rather than an id the restart would delete again (a 404).
            with contextlib.suppress(TableError):
                await self._service.set_ping(table.id, None)
            await self._wait_for_slot(channel)
            await self.budget.take(Priority.REST)
            messages = self._client.get_partial_messageable(table.channel_id)
            try:
                await messages.get_partial_message(old).delete()
            except discord.NotFound:
                pass
            except discord.HTTPException as error:
                log.info("could not delete ping %s of table %s: %s", old, table.id, error)
            finally:
                channel.sent.append(self._clock())
        new_id = None
        if ping is not None:
            content, user_ids = ping
            await self._wait_for_slot(channel)
            await self.budget.take(Priority.PING)
            try:
                new_id = await rest.send_channel_message(
                    self._client,
                    table.channel_id,
                    content,
                    discord.AllowedMentions(
                        everyone=False,
                        roles=False,
                        replied_user=False,
                        users=[discord.Object(u) for u in user_ids],
                    ),
                )
            finally:
                channel.sent.append(self._clock())
        if table.closed:
            self._pinged.pop(table.id, None)
        else:
            self._pinged[table.id] = wanted
        if new_id is not None:
            with contextlib.suppress(TableError):  # closed meanwhile: nothing to remember
                await self._service.set_ping(table.id, new_id)
