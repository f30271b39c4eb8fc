"""Edits of the public table messages: coalesced per table, paced per channel.

A burst of plays (four players, bots at zero delay) must never exceed Discord's per-channel
edit rate. So a state change only marks the table dirty; one worker per channel edits its
tables one at a time, at most `max_edits` per `per_seconds`, and renders each table when its
edit goes out — the latest state wins and intermediate ones are skipped. A table whose message
already shows its current state is not edited again.

Messages are edited through the interaction token that posted them while it lives (no cost
on the token's global budget, bot/ui/table/table_pens.py), else by channel message id
(`PATCH /channels/{c}/messages/{m}`, on the budget). A click at a table whose message is 12
minutes old posts it again as that click's follow-up, with a fresh token. A deleted table
message is posted again.

Turn pings take the same pacing, each table's in a task of its own (their requests wait on the
global budget; the edits, through tokens, must not wait behind them). Discord notifies nobody
for a mention edited into a message, so when the turn passes to a human (or half their time is
gone) the bot deletes the table's previous ping and sends a short NEW message mentioning the
players to act (`allowed_mentions` names them). The channel holds at most one ping per table;
its id is stored, so after a restart the old ping is deleted too (and cleared before it is
deleted, so a restart never deletes it twice).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

import discord

from bot.pictures.render_pool import Superseded
from bot.tables.errors import TableError
from bot.tables.service import Table, TableService
from bot.ui.kit import rest
from bot.ui.kit.budget import GlobalBudget, Priority
from bot.ui.kit.message_parts import MessageParts, detach, send_kwargs
from bot.ui.table import render
from bot.ui.table.table_pens import TablePens
from bot.ui.table.table_picture import TablePictures, wants_picture
from bot.ui.table.turn_pings import NO_PING_YET, ChannelQueue, TurnPings

log = logging.getLogger(__name__)

# Observed on Discord: 5 edits per ~5 s per channel (the bucket is not published).
DEFAULT_MAX_EDITS = 5
DEFAULT_PER_SECONDS = 5.0
RETRY_DELAY = 5.0
# "Maximum number of edits to messages older than 1 hour reached. Try again later."
OLD_MESSAGE_EDITS_EXHAUSTED = 30046
MAX_ATTEMPTS = 3
# Table pictures taken back in a row for one edit (the table moved on before a worker began
# them: the edit takes the newer state) before the next is drawn whatever comes.
SUPERSEDED_AT_MOST = 3

ShownKey = tuple[Any, ...]


def shown_key(table: Table) -> ShownKey:
    """What a table message shows: its version, closed or not, the notice line, and what
    changes without a new version (who a bot plays for, who is ready, the turn timer)."""
    notice = bool(table.notice) and table.notice_version == table.version
    record = table.record
    return (
        table.version,
        table.closed,
        notice,
        tuple(record.seats),
        tuple(record.ready),
        record.turn_deadline,
    )


class PublicMessages(TurnPings):
    def __init__(
        self,
        client: discord.Client,
        service: TableService,
        *,
        max_edits: int = DEFAULT_MAX_EDITS,
        per_seconds: float = DEFAULT_PER_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        budget: GlobalBudget | None = None,
        pens: TablePens | None = None,
    ) -> None:
        self._client = client
        # The tokens that may edit table messages off the global budget
        # (bot/ui/table/table_pens.py).
        self.pens = pens if pens is not None else TablePens(time.time)
        # False: every table edit on the channel route and the budget, no renewal by clicks
        # (a test of that route; the benchmark's "before").
        self.use_tokens = True
        # Every request here is on a global-bound route: each takes from the token's budget.
        self.budget = budget if budget is not None else GlobalBudget()
        self._service = service
        # Public so a test can scale the window together with the emulator's.
        self.max_edits = max_edits
        self.per_seconds = per_seconds
        self._clock = clock
        self._channels: dict[int, ChannelQueue] = {}
        self._shown: dict[int, ShownKey] = {}
        self._pinged: dict[int, Any] = {}  # table id -> the ping_key its ping shows
        self._attempts: dict[int, int] = {}
        # Retries, renewals and ping syncs: what `idle` waits for and `close` cancels.
        self._background: set[asyncio.Task[None]] = set()
        self._pinging: dict[int, asyncio.Task[None]] = {}  # table id -> its ping's sync
        self._ping_again: set[int] = set()
        self.edits = 0  # edits sent, for tests and benchmarks
        self.renewals = 0  # table messages posted again as a click's follow-up
        self.pictures = TablePictures()
        self._closed = False

    # --- scheduling ---------------------------------------------------------------------------

    def schedule(self, table: Table) -> None:
        if self._closed:
            return  # shutting down: the restart shows every table again
        channel = self._channels.setdefault(table.channel_id, ChannelQueue())
        channel.pending[table.id] = table
        if channel.task is None or channel.task.done():
            task = channel.task = asyncio.create_task(
                self._drain(table.channel_id, channel), name=f"table-edits-{table.channel_id}"
            )
            task.add_done_callback(lambda done: _let_go(channel, done))

    def can_attach(self, table: Table) -> bool:
        """Whether the bot may upload the picture in the table's channel (Attach Files). Not
        known (no cache yet): try, an edit refused for it is sent again without."""
        guild = self._client.get_guild(table.guild_id)
        channel = guild.get_channel(table.channel_id) if guild is not None else None
        if guild is None or channel is None or guild.me is None:
            return True
        return channel.permissions_for(guild.me).attach_files

    async def draw(self, table: Table, *, picture: bool = True) -> tuple[ShownKey, MessageParts]:
        """The table message for the table's current state, with its picture (if the table
        wants one, the bot may attach it and `picture`). The state is read under the table's
        lock (never a state whose write is still on its way); the picture is drawn after, in a
        worker, from what was read. When the table moves on before the worker begins that
        picture, it is not drawn and the newer state is read instead (issue 31), up to
        SUPERSEDED_AT_MOST times."""
        picture = picture and wants_picture(table) and self.can_attach(table)
        locale = self.locale_of(table)
        superseded = 0
        while True:
            async with table.lock:
                key = shown_key(table)
                # One public view of this state for the message and its picture (issue 31:
                # each of their parts built its own, six a table message).
                game = table.game
                in_game = game is not None and not table.closed and table.status != "lobby"
                view = game.view(None) if in_game and game is not None else None
                parts = render.table_message(table, locale, picture=picture, view=view)
                scene = self.pictures.scene(table, locale, view) if picture else None
            try:
                parts.files = await self.pictures.files(
                    scene, supersedable=superseded < SUPERSEDED_AT_MOST
                )
            except Superseded:
                detach(parts.view)
                superseded += 1
                continue
            except BaseException:
                detach(parts.view)
                raise
            return key, parts

    def mark_shown(self, table: Table, key: ShownKey) -> None:
        """A message was just sent showing `key` (a new table message, a repost)."""
        self._shown[table.id] = key

    def is_current(self, table: Table) -> bool:
        return self._shown.get(table.id) == shown_key(table)

    async def idle(self) -> None:
        """Until every scheduled edit is done (tests, shutdown)."""
        while True:
            tasks = [c.task for c in self._channels.values() if c.task and not c.task.done()]
            tasks += [t for t in self._background if not t.done()]
            if not tasks:
                return
            await asyncio.wait(tasks)

    async def close(self) -> None:
        self._closed = True
        tasks = [c.task for c in self._channels.values() if c.task is not None]
        tasks += list(self._background)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # --- the worker -----------------------------------------------------------------------------

    async def _drain(self, channel_id: int, channel: ChannelQueue) -> None:
        while channel.pending:
            await self._wait_for_slot(channel)
            table_id = next(iter(channel.pending))
            table = channel.pending.pop(table_id)
            if table.message_id is None:
                continue
            if not self.is_current(table):
                try:
                    await self._edit(table)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("edit of table %s's message failed", table.id)
                finally:
                    # Counted from the answer: Discord's window opened when the request
                    # arrived, before this, so pacing from here never runs ahead of it.
                    channel.sent.append(self._clock())
            if table.id in self._pinging or self._pinged.get(table.id, NO_PING_YET) != (
                render.ping_key(table)
            ):
                self._schedule_ping(table, channel)
        # The channel's entry stays: its recent edit times pace the next burst.

    async def _edit(self, table: Table, *, picture: bool = True) -> None:
        # Under the message lock: a `/table show` moving the message meanwhile must not have
        # its retired message edited back to life (issue 13 item 2).
        async with table.message_lock:
            await self._edit_locked(table, picture=picture)

    async def _edit_locked(self, table: Table, *, picture: bool = True) -> None:
        key, parts = await self.draw(table, picture=picture)
        if table.message_id is None:
            detach(parts.view)
            return
        message_id = table.message_id
        assert message_id is not None
        try:
            if await self._edit_with_pen(table, message_id, parts):
                self._edited(table, key)
                return
            # The budget's token is taken just before the request (not before drawing the
            # picture, which can take a while): requests go out at the budget's pace, not in
            # bunches. A state newer than this drawing queues the table again (coalesced).
            await self.budget.take(Priority.WATCHED)
            await rest.edit_channel_message(self._client, table.channel_id, message_id, parts)
        except discord.NotFound:
            if table.message_id == message_id and not table.closed:
                await self._repost_locked(table)
            return
        except discord.Forbidden:
            if parts.files:  # Attach Files was taken away: the text alone still goes
                await self._edit_locked(table, picture=False)
                return
            log.warning(
                "no permission to edit table %s's message in channel %s", table.id, table.channel_id
            )
            return
        except discord.HTTPException as error:
            if error.code == OLD_MESSAGE_EDITS_EXHAUSTED and not table.closed:
                # Messages older than an hour get few edits: a fresh message gets the table.
                await self._repost_locked(table, retire=message_id)
            else:
                self._retry_later(table, error)
            return
        finally:
            detach(parts.view)
        self._edited(table, key)

    def _edited(self, table: Table, key: ShownKey) -> None:
        self._attempts.pop(table.id, None)
        self._shown[table.id] = key
        self.edits += 1
        if table.closed:
            self._forget(table)

    async def _edit_with_pen(self, table: Table, message_id: int, parts: MessageParts) -> bool:
        """Edit through the token that posted the message, if it lives; False: it does not,
        or Discord refused it (the token died, the message is gone): the channel route then
        edits, or finds the message gone and posts it again."""
        token = self.pens.usable(table.id, message_id) if self.use_tokens else None
        if token is None:
            return False
        try:
            await rest.edit_by_token(self._client, token, message_id, parts)
        except discord.HTTPException as error:
            log.info("table %s's edit through its token refused (%s)", table.id, error)
            self.pens.forget(table.id)
            return False
        return True

    def _retry_later(self, table: Table, error: discord.HTTPException) -> None:
        attempts = self._attempts.get(table.id, 0) + 1
        self._attempts[table.id] = attempts
        if attempts >= MAX_ATTEMPTS:
            log.error("giving up editing table %s's message: %s", table.id, error)
            self._attempts.pop(table.id, None)
            return
        log.warning("edit of table %s's message failed (%s); retrying", table.id, error)

        async def later() -> None:
            await asyncio.sleep(RETRY_DELAY)
            self.schedule(table)

        self._spawn(later())

    async def repost(self, table: Table, *, retire: int | None = None) -> None:
        """Post the table again at the bottom of the channel (its message is gone, or may not
        be edited any more: then `retire` is deleted once the new one is up)."""
        async with table.message_lock:
            await self._repost_locked(table, retire=retire)

    async def _repost_locked(self, table: Table, *, retire: int | None = None) -> None:
        channel = self._client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        key, parts = await self.draw(table)
        try:
            await self.budget.take(Priority.WATCHED)
            message = await channel.send(**send_kwargs(parts))
        except discord.HTTPException as error:
            log.warning(
                "could not repost table %s in channel %s: %s", table.id, table.channel_id, error
            )
            return
        finally:
            detach(parts.view)
        self.pens.forget(table.id)  # posted by the channel route: no token may edit it
        try:
            await self._service.set_message(table.id, message.id)
        except TableError:
            return  # closed meanwhile
        self._shown[table.id] = key
        if retire is not None:
            old = channel.get_partial_message(retire)
            await self.budget.take(Priority.REST)
            try:
                await old.delete()
            except discord.HTTPException:
                log.info("could not delete table %s's old message %s", table.id, retire)

    # --- fresh tokens from clicks ------------------------------------------------------------

    def offer(self, table: Table, token: str, acquired: float) -> None:
        """A click at `table` was answered: if its message is old enough, post it again as the
        click's follow-up, so a fresh token edits it for the next 14 minutes."""
        message_id = table.message_id
        if self._closed or table.closed or message_id is None or not self.use_tokens:
            return
        if not self.pens.wants_fresh(table.id, message_id):
            return
        self._spawn(self._renew(table, token, acquired))

    async def _renew(self, table: Table, token: str, acquired: float) -> None:
        async with table.message_lock:
            old = table.message_id
            if table.closed or old is None or not self.pens.wants_fresh(table.id, old):
                return  # another click renewed it meanwhile
            key, parts = await self.draw(table)
            try:
                new_id = await rest.send_followup(self._client, token, send_kwargs(parts))
            except discord.HTTPException as error:
                log.info("could not post table %s again as a follow-up: %s", table.id, error)
                return
            finally:
                detach(parts.view)
            try:
                await self._service.set_message(table.id, new_id)
            except TableError:
                return  # closed meanwhile
            self.pens.remember(table.id, token, new_id, acquired)
            self._shown[table.id] = key
            self.renewals += 1
        self.schedule(table)  # in case it changed while the new message was on its way
        # The old message goes once the new one is up, on the budget (outside the lock: the
        # table's edits, through the new token, need not wait for it).
        await self.budget.take(Priority.REST)
        messages = self._client.get_partial_messageable(table.channel_id)
        try:
            await messages.get_partial_message(old).delete()
        except discord.HTTPException as error:
            log.info("could not delete table %s's old message %s: %s", table.id, old, error)

    def _forget(self, table: Table) -> None:
        self.pens.forget(table.id)
        self.pictures.forget(table.id)
        self._shown.pop(table.id, None)

        self._attempts.pop(table.id, None)


def _let_go(channel: ChannelQueue, done: asyncio.Task[None]) -> None:
    """A finished drain is not kept (it held its coroutine); a newer one stays."""
    if channel.task is done:
        channel.task = None
