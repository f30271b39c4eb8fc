"""The table service: lookup, the one act path, restore. Discord-free.

Every change of a table passes under that table's `asyncio.Lock`. A game action passes ONE
function, `act(table_id, user_id, action, version)`: the version the button was drawn for must
be the table's version (double clicks, racing partners and old hands resolve deterministically:
exactly one applies), the user must hold a seat, the engine applies it (its precise errors leave
the state unchanged) and `store.append_action` records it with the new version — and, when the
action ends the game, its result — in one transaction; only then are the listeners told.

The rest lives beside it, each part reaching the service through `TableHost` (bot/tables/table.py):
- bot/tables/lobby.py: the lobby verbs (create, join, leave, add a bot, start, play again, …),
  offered here under the same names;
- bot/tables/bot_seats.py and bot/tables/turn_timers.py: listeners of table changes, like the UI,
  that play the bot seats' turns and a timed-out human's turn through `apply_locked`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from bot.engine.common import EngineError
from bot.engine.truco.signals import SIGNAL_PREFIX
from bot.tables import alone, restore
from bot.tables.beacon import Beacon
from bot.tables.bot_seats import BotSeats, bot_alone_answer, bot_seat_to_act, choose_bot_action
from bot.tables.errors import (
    ActionRefused,
    NoSuchTable,
    NotPlaying,
    NotSeated,
    StaleVersion,
)
from bot.tables.fair import CUT_WAIT, FairCuts
from bot.tables.games import ACTION_PAIRS, forget_old_events, shared_pair
from bot.tables.lobby import Lobby, check_open
from bot.tables.records import SeatRecord, StoreConflict, TableStore
from bot.tables.results import build_result
from bot.tables.table import (
    CHANGE_ACTION,
    CHANGE_CLOSED,
    CHANGE_RESTORED,
    CHANGE_WARNING,
    UNDONE_IF_UNSTORED,
    ActResult,
    Listener,
    Table,
)
from bot.tables.turn_timers import TurnTimers

# Callers import these from here, as before the split.
__all__ = [
    "CHANGE_CLOSED",
    "CHANGE_RESTORED",
    "CHANGE_WARNING",
    "ActResult",
    "Table",
    "TableService",
]

log = logging.getLogger(__name__)


class TableService:
    """Owns every active table. One instance per bot; `restore()` once at start-up."""

    def __init__(
        self,
        store: TableStore,
        *,
        bot_move_delay: float = 1.0,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] = lambda: secrets.randbits(256),
        retry_delay: float = 1.0,
        max_retry_delay: float = 60.0,
        shards: list[tuple[int, int]] | None = None,
        fair_deals: bool = True,
        cut_wait: float = CUT_WAIT,
        fair_version: int = 2,
        beacon: Beacon | None = None,
    ) -> None:
        self.store = store
        # New games deal "fair-v2" (docs/fair-deals.md); older tables keep their stored dealing.
        self.fair_deals = fair_deals
        self.fair_version = fair_version
        # The (shard_id, shard_count) pairs whose guilds this process owns (None: every guild,
        # one process). Only their tables are restored, so only they get bot tasks and timers.
        self.shards = shards
        self._clock = clock
        self._seed_source = seed_source
        self._tables: dict[int, Table] = {}
        self._by_channel: dict[int, int] = {}
        self._listeners: list[Listener] = []
        # A failed write of a bot move or a timer step is retried after retry_delay, doubling
        # up to max_retry_delay seconds.
        self.bot_seats = BotSeats(
            self, delay=bot_move_delay, retry_delay=retry_delay, max_retry_delay=max_retry_delay
        )
        self.turn_timers = TurnTimers(
            self, retry_delay=retry_delay, max_retry_delay=max_retry_delay
        )
        self.fair_cuts = FairCuts(self, wait=cut_wait, beacon=beacon)
        # The cut first: a hand waiting for it has nobody to act (the others look after it).
        self._parts: list[Listener] = [self.fair_cuts, self.bot_seats, self.turn_timers]
        # The lobby verbs, under the names callers have always used.
        self.lobby = Lobby(self)
        self.create = self.lobby.create
        self.join = self.lobby.join
        self.leave = self.lobby.leave
        self.change_setting = self.lobby.change_setting
        self.add_bot = self.lobby.add_bot
        self.start = self.lobby.start
        self.play_again = self.lobby.play_again
        self.start_now = self.lobby.start_now
        self.seat_player = self.lobby.seat_player
        self.back = self.lobby.back
        self.cancel = self.lobby.cancel
        self.end = self.lobby.end

    # --- listeners ------------------------------------------------------------------------------

    def add_listener(self, listener: Listener) -> None:
        """`listener(table, change)` runs after each change, outside the lock; it must not block
        (schedule work instead)."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        """No longer tell `listener` (the bot seats and turn timers too: a service without them
        still applies every action; nobody then plays the bots' turns or keeps the time)."""
        for listeners in (self._listeners, self._parts):
            if listener in listeners:
                listeners.remove(listener)

    # --- lookup ---------------------------------------------------------------------------------

    def get(self, table_id: int) -> Table:
        table = self._tables.get(table_id)
        if table is None or table.closed:
            raise NoSuchTable()
        return table

    def find(self, table_id: int) -> Table | None:
        table = self._tables.get(table_id)
        return None if table is None or table.closed else table

    def owns(self, guild_id: int) -> bool:
        """Does this process own the guild's tables (its shard is one of ours)?"""
        if self.shards is None:
            return True
        return any((guild_id >> 22) % count == shard for shard, count in self.shards)

    def in_channel(self, channel_id: int) -> Table | None:
        table_id = self._by_channel.get(channel_id)
        return None if table_id is None else self.find(table_id)

    @property
    def tables(self) -> list[Table]:
        return [t for t in self._tables.values() if not t.closed]

    def register(self, table: Table) -> None:
        self._tables[table.id] = table
        self._by_channel[table.channel_id] = table.id

    def now(self) -> float:
        return self._clock()

    def new_seed(self) -> int:
        return self._seed_source()

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        """Remember the channel message that shows the table (not a state change: no version)."""
        table = self.get(table_id)
        table.record.message_id = message_id
        await self.store.set_message(table_id, message_id)

    async def set_ping(self, table_id: int, message_id: int | None) -> None:
        """Remember the table's turn ping message (not a state change: no version)."""
        table = self.get(table_id)
        table.record.ping_message_id = message_id
        await self.store.set_ping(table_id, message_id)

    # --- bot seats and turn timers ------------------------------------------------------------

    @property
    def bot_move_delay(self) -> float:
        return self.bot_seats.delay

    @bot_move_delay.setter
    def bot_move_delay(self, seconds: float) -> None:
        self.bot_seats.delay = seconds

    bot_seat_to_act = staticmethod(bot_seat_to_act)
    _choose_bot_action = staticmethod(choose_bot_action)

    async def wait_for_bots(self, table_id: int) -> None:
        """Until the bot seats and the fair cut have nothing left to do (tests, the demo)."""
        while (table := self._tables.get(table_id)) is not None:
            await self.bot_seats.wait(table)
            if not await self.fair_cuts.until_cut(table_id):  # a cut may deal a bot a turn
                return

    def time_moved(self) -> None:
        """The clock jumped (tests advance it): look at the deadlines again now."""
        self.turn_timers.wake()

    # --- play -----------------------------------------------------------------------------------

    async def act(
        self, table_id: int, user_id: int, action: str, version: int, click: int | None = None
    ) -> ActResult:
        """The one way a player acts. Refusals (TableError) leave everything unchanged.
        `click`: the id of the interaction (a fair deal's next hand may be cut with it, in the
        same step, when this action ends a hand)."""
        table = self.get(table_id)
        if click is not None:
            self.fair_cuts.seen(table_id, click)
        async with table.lock:
            check_open(table)
            if table.game is None:
                raise NotPlaying(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotSeated(table)
            if version != table.version:
                raise StaleVersion(
                    table, seat, partner_answered=table.partner_answered(seat, version)
                )
            position = table.position_of_seat(seat)
            player = table.seats[position]
            seats = None
            if player is not None and player.covered:  # playing again: back at the seat
                seats = list(table.seats)
                seats[position] = dataclasses.replace(player, missed=0, away=False)
            # Euchre's "Order up · alone": the bid, with the maker's answer stored with it.
            with alone.bid_with_answer(table, seat, action) as (action, intents):
                events = await self.apply_locked(table, seat, action, seats=seats, intents=intents)
            if click is not None:
                try:
                    await self.fair_cuts.cut_locked(table)
                except Exception:
                    # The action is stored; the cut is made by the fair cuts' task instead.
                    log.warning("cut after a click failed at table %s", table.id, exc_info=True)
            new_version = table.version
        self.changed(table, CHANGE_ACTION)
        return ActResult(table, seat, action, events, new_version)

    async def set_alone_intent(self, table_id: int, user_id: int, on: bool) -> Table:
        """A player switches "Go alone" on or off for this hand (euchre, alone=anyone): private,
        stored, no version (bot/tables/alone.py). After the question it does nothing."""
        table = self.get(table_id)
        async with table.lock:
            check_open(table)
            seat = table.seat_of(user_id)
            if seat is None or table.game is None:
                raise NotSeated(table) if table.game is not None else NotPlaying(table)
            try:
                await alone.switch(self, table, seat, on)
            except StoreConflict:  # another process moved it on: reload, answer as stale
                await self._reload_locked(table)
                raise StaleVersion(table, seat) from None
        return table

    async def apply_locked(
        self,
        table: Table,
        seat: int,
        action: str,
        *,
        seats: list[SeatRecord | None] | None = None,
        intents: alone.Intents | None = None,
    ) -> list[Any]:
        """Apply one action (and its `intents`), then the going-alone answers the table gives
        at once, in the rule's order: a person's (bot/tables/alone.py) and a bot's, each stored
        as its seat's own action."""
        events = await self._apply_one(table, seat, action, seats=seats, intents=intents)
        while (due := alone.answer_due(table) or await bot_alone_answer(table)) is not None:
            events += await self._apply_one(table, *due)
        return events

    async def _apply_one(
        self,
        table: Table,
        seat: int,
        action: str,
        *,
        seats: list[SeatRecord | None] | None = None,
        intents: alone.Intents | None = None,
    ) -> list[Any]:
        """Apply, persist, bump the version — the caller holds the lock. `seats`: the seats as
        they are after this action (a bot played for a human, or a human is back), stored in
        the same transaction; the next turn's deadline is too, and `intents` when given.

        The game, the action log, the seats, the deadline and the version change together, with
        no await in between, so whatever renders the table (a hand message, the coalesced
        public edit) always sees a consistent state and the version that goes with it. If the
        write fails, all are put back as the store has them before the error goes on."""
        game = table.game
        assert game is not None
        try:
            events: list[Any] = game.apply(seat, action)
        except EngineError as error:
            raise ActionRefused.from_engine(table, error) from None
        record = table.record
        new_version = record.version + 1
        result = None
        if game.is_over:
            # The statistics count every event of the game: a replay has them all.
            assert record.seed is not None
            whole = table.rules.replay(
                record.options, record.seed, record.first_dealer, game.actions
            )
            result = build_result(record, table.seat_of_position, whole, self.now())
        forget_old_events(game)
        previous = [getattr(record, name) for name in UNDONE_IF_UNSTORED]
        # The engine logged this pair last: both logs hold the one tuple (shared by every
        # table, but for a cut: unique to its hand, never shared).
        game.share_actions(ACTION_PAIRS, start=len(game.actions) - 1)
        last = game.actions[-1] if game.actions else None
        record.actions.append(last if last == (seat, action) else shared_pair(seat, action))
        record.version = new_version
        if seats is not None:
            record.seats = seats
        if result is not None:
            record.status = "finished"
            table.result = result
        if not action.startswith(SIGNAL_PREFIX):  # a signal (truco) leaves the turn's timer be
            record.turn_deadline = table.turn_deadline(self.now())
            record.turn_warned = False
            record.turn_since = table.turn_since(self.now())
        try:
            await self.store.append_action(
                table.id,
                seat,
                action,
                new_version,
                result,
                deadline=record.turn_deadline,
                since=record.turn_since,
                seats=seats,
                alone_intents=intents,
            )
        except StoreConflict:
            # Another process moved this table on (or closed it): take the stored table, then
            # answer the click as a stale one (the player gets the table as it is now).
            await self._reload_locked(table)
            raise StaleVersion(table, seat) from None
        except Exception:
            # Not stored: put the table back as the store has it, then report the failure.
            record.actions.pop()
            record.version = new_version - 1
            for name, value in zip(UNDONE_IF_UNSTORED, previous, strict=True):
                setattr(record, name, value)
            if result is not None:
                table.result = None
            assert record.seed is not None
            table.game = table.rules.replay(
                record.options, record.seed, record.first_dealer, record.actions
            )
            raise
        return events

    # --- restore and shutdown -----------------------------------------------------------------

    async def restore(self) -> list[Table]:
        """Rebuild every active table from the store (lobbies too) of the guilds this process
        owns (`shards`): each game by replaying its action log. Listeners hear CHANGE_RESTORED;
        bot seats resume."""
        restored = await restore.active_tables(self)
        for table in restored:
            self.changed(table, CHANGE_RESTORED)
        log.info("restored %d tables", len(restored))
        return restored

    async def _reload_locked(self, table: Table) -> None:
        """Replace the table in memory by the stored one (the caller holds its lock): another
        process wrote it. Gone from the store: the table is closed here too. Listeners hear of
        it once the lock is released."""
        fresh = await restore.stored_again(self, table)
        log.info("table %s was changed by another process: reloaded from storage", table.id)
        loop = asyncio.get_running_loop()
        if fresh is None:
            self._forget(table)
            loop.call_soon(self.changed, table, CHANGE_CLOSED)
            raise NoSuchTable(table)
        table.take_state_of(fresh)
        loop.call_soon(self.changed, table, CHANGE_ACTION)

    async def stored_table_in(self, guild_id: int, channel_id: int) -> Table | None:
        """The stored open table of a channel that this process does not hold in memory: it
        is taken in (this process owns the guild) and returned."""
        return await restore.stored_table_in(self, guild_id, channel_id)

    async def close(self) -> None:
        """Stop the bot tasks and the timers (the bot is shutting down; nothing is lost: all
        is stored, the deadlines too)."""
        tasks = self.bot_seats.stop() + self.turn_timers.stop() + self.fair_cuts.stop()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.fair_cuts.close()

    # --- closing ----------------------------------------------------------------------------------

    async def close_table(self, table: Table) -> None:
        await self.store.delete_table(table.id)
        self._forget(table)

    def _forget(self, table: Table) -> None:
        """The table is closed: out of memory, its bot task stopped."""
        table.closed = True
        if self._by_channel.get(table.channel_id) == table.id:
            del self._by_channel[table.channel_id]
        self._tables.pop(table.id, None)
        if table.bot_task is not None and table.bot_task is not asyncio.current_task():
            table.bot_task.cancel()

    def changed(self, table: Table, change: str) -> None:
        """Tell every listener, then the service's own bot seats and turn timers: what the UI
        schedules for a change goes first."""
        for listener in (*self._listeners, *self._parts):
            try:
                listener(table, change)
            except Exception:
                log.exception("table listener failed for table %s (%s)", table.id, change)
