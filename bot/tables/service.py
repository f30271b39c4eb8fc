"""The table service: lobby, seats, turns, bot moves, one lock and one version per table.

Discord-free. Every change of a table passes here, under that table's `asyncio.Lock`:

- a lobby change (join, leave, add a bot, start) bumps the table's version and is saved
  (`store.save_lobby` / `store.start_game`) before the lock is released;
- a game action passes ONE function, `act(table_id, user_id, action, version)`: the version the
  button was drawn for must be the table's version (double clicks, racing partners and old hands
  resolve deterministically: exactly one applies), the user must hold a seat, the engine applies
  it (its precise errors leave the state unchanged) and `store.append_action` records it with the
  new version — and, when the action ends the game, its result — in one transaction;
- only then are the listeners told (the UI schedules a coalesced edit of the table message) and
  the bot seats get their turn.

Bot seats are played by the engine's `bot_player` through the same apply path, after
`bot_move_delay` seconds, one table task at a time; they resume after `restore()`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.engine.common import EngineError, team_of
from bot.tables.errors import (
    ActionRefused,
    AlreadySeated,
    BadOptions,
    ChannelBusy,
    NoSuchTable,
    NotAllowedToEnd,
    NotFinished,
    NotHost,
    NotInLobby,
    NotPlaying,
    NotSeated,
    SeatsNotFilled,
    SeatTaken,
    StaleVersion,
    TableFull,
)
from bot.tables.games import EngineGame, GameRules, rules_for
from bot.tables.records import GameResult, SeatRecord, TableRecord, TableStore
from bot.tables.results import build_result

log = logging.getLogger(__name__)

POSITIONS = range(4)
ANSWERS = frozenset({"accept", "run", "raise"})

# What listeners are told, besides the table: why it changed.
CHANGE_LOBBY = "lobby"
CHANGE_STARTED = "started"
CHANGE_ACTION = "action"
CHANGE_CLOSED = "closed"
CHANGE_RESTORED = "restored"

Listener = Callable[["Table", str], None]


@dataclass(eq=False)
class Table:
    """A table in memory: its stored record, its game (once started) and its lock."""

    record: TableRecord
    rules: GameRules
    game: EngineGame | None = None
    # The game seat of each lobby position (identity until a game reorders them, E2).
    seat_of_position: list[int] = field(default_factory=lambda: [0, 1, 2, 3])
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    closed: bool = False
    # A catalog key shown on the table message while the version is still `notice_version`
    # (e.g. "table restored" after a restart, until the next change).
    notice: str | None = None
    notice_version: int | None = None
    result: GameResult | None = None
    bot_task: asyncio.Task[None] | None = None

    # --- identity -------------------------------------------------------------------------------

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def version(self) -> int:
        return self.record.version

    @property
    def status(self) -> str:
        return self.record.status

    @property
    def game_name(self) -> str:
        return self.record.game

    @property
    def guild_id(self) -> int:
        return self.record.guild_id

    @property
    def channel_id(self) -> int:
        return self.record.channel_id

    @property
    def host_id(self) -> int:
        return self.record.host_id

    @property
    def message_id(self) -> int | None:
        return self.record.message_id

    @property
    def options(self) -> dict[str, Any]:
        return self.record.options

    @property
    def seats(self) -> list[SeatRecord | None]:
        """By lobby position."""
        return self.record.seats

    @property
    def start_version(self) -> int:
        """The version at which the current game began: action i brings it to start + i + 1."""
        return self.record.version - len(self.record.actions)

    # --- who sits where ------------------------------------------------------------------------

    def position_of(self, user_id: int) -> int | None:
        for position, seat in enumerate(self.record.seats):
            if seat is not None and not seat.is_bot and seat.user_id == user_id:
                return position
        return None

    def seat_of(self, user_id: int) -> int | None:
        """The game seat of a user, once a game exists."""
        position = self.position_of(user_id)
        if position is None or self.game is None:
            return None
        return self.seat_of_position[position]

    def position_of_seat(self, seat: int) -> int:
        return self.seat_of_position.index(seat)

    def player_at(self, seat: int) -> SeatRecord:
        """Who plays a game seat."""
        player = self.record.seats[self.position_of_seat(seat)]
        assert player is not None, "a game only starts with four seats filled"
        return player

    def is_bot_seat(self, seat: int) -> bool:
        return self.player_at(seat).is_bot

    def free_positions(self) -> list[int]:
        return [p for p in POSITIONS if self.record.seats[p] is None]

    @property
    def is_full(self) -> bool:
        return not self.free_positions()


@dataclass(frozen=True)
class ActResult:
    table: Table
    seat: int
    action: str
    events: list[Any]
    version: int


class TableService:
    """Owns every active table. One instance per bot; `restore()` once at start-up."""

    def __init__(
        self,
        store: TableStore,
        *,
        bot_move_delay: float = 1.0,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] = lambda: secrets.randbits(64),
    ) -> None:
        self.store = store
        self.bot_move_delay = bot_move_delay
        self._clock = clock
        self._seed_source = seed_source
        self._tables: dict[int, Table] = {}
        self._by_channel: dict[int, int] = {}
        self._listeners: list[Listener] = []
        # Creating a table checks then claims its channel: one creation at a time.
        self._create_lock = asyncio.Lock()
        self._closing = False

    # --- lookup ---------------------------------------------------------------------------------

    def add_listener(self, listener: Listener) -> None:
        """`listener(table, change)` runs after each change, outside the lock; it must not block
        (schedule work instead)."""
        self._listeners.append(listener)

    def get(self, table_id: int) -> Table:
        table = self._tables.get(table_id)
        if table is None or table.closed:
            raise NoSuchTable()
        return table

    def find(self, table_id: int) -> Table | None:
        table = self._tables.get(table_id)
        return None if table is None or table.closed else table

    def in_channel(self, channel_id: int) -> Table | None:
        table_id = self._by_channel.get(channel_id)
        return None if table_id is None else self.find(table_id)

    @property
    def tables(self) -> list[Table]:
        return [t for t in self._tables.values() if not t.closed]

    # --- lobby ----------------------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        game: str,
        options: dict[str, Any] | None = None,
        settings: dict[str, Any] | None = None,
    ) -> Table:
        """A new table in its lobby, the host seated at position 0. One active table per channel:
        a finished one is closed to make room, any other refuses with ChannelBusy. `settings`
        are not game rules (e.g. "pictures": False for a table shown as text only)."""
        try:
            rules = rules_for(game)
            normalised = rules.normalise_options(options)
        except (EngineError, TypeError) as error:
            raise BadOptions(reason=str(error)) from None
        replaced = None
        async with self._create_lock:
            current = self.in_channel(channel_id)
            if current is not None:
                async with current.lock:
                    if current.status != "finished":
                        raise ChannelBusy(current)
                    await self._close(current)
                replaced = current
            record = TableRecord(
                id=0,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                game=game,
                options=normalised,
                status="lobby",
                version=1,
                seats=[SeatRecord(host_id, host_name), None, None, None],
                created_at=self._clock(),
                settings=dict(settings or {}),
            )
            record.id = await self.store.create_table(record)
            table = Table(record=record, rules=rules)
            self._register(table)
        if replaced is not None:
            self._changed(replaced, CHANGE_CLOSED)
        self._changed(table, CHANGE_LOBBY)
        return table

    async def join(
        self, table_id: int, user_id: int, name: str, position: int | None = None
    ) -> Table:
        """Sit down: at `position`, or the first free one. A bot's seat may be taken over."""
        table = self.get(table_id)
        async with table.lock:
            self._check_open(table)
            self._check_lobby(table)
            current = table.position_of(user_id)
            seats = list(table.record.seats)
            if position is None:
                if current is not None:
                    raise AlreadySeated(table)
                free = table.free_positions()
                if not free:
                    raise TableFull(table)
                position = free[0]
            else:
                if position not in POSITIONS:
                    raise SeatTaken(table)
                if current == position:
                    raise AlreadySeated(table)
                occupant = seats[position]
                if occupant is not None and not occupant.is_bot:
                    raise SeatTaken(table)
            if current is not None:
                seats[current] = None  # moving to another seat
            seats[position] = SeatRecord(user_id, name)
            await self._save_lobby(table, seats)
        self._changed(table, CHANGE_LOBBY)
        return table

    async def leave(self, table_id: int, user_id: int) -> Table:
        table = self.get(table_id)
        async with table.lock:
            self._check_open(table)
            self._check_lobby(table)
            position = table.position_of(user_id)
            if position is None:
                raise NotSeated(table)
            seats = list(table.record.seats)
            seats[position] = None
            await self._save_lobby(table, seats)
        self._changed(table, CHANGE_LOBBY)
        return table

    async def add_bot(self, table_id: int, user_id: int, position: int | None = None) -> Table:
        """A bot takes `position` or the first free one. The host or a seated player may ask."""
        table = self.get(table_id)
        async with table.lock:
            self._check_open(table)
            self._check_lobby(table)
            if user_id != table.host_id and table.position_of(user_id) is None:
                raise NotSeated(table)
            free = table.free_positions()
            if position is None:
                if not free:
                    raise TableFull(table)
                position = free[0]
            elif position not in free:
                raise SeatTaken(table)
            seats = list(table.record.seats)
            seats[position] = SeatRecord(None, f"Bot {position + 1}", is_bot=True)
            await self._save_lobby(table, seats)
        self._changed(table, CHANGE_LOBBY)
        return table

    async def start(self, table_id: int, user_id: int) -> Table:
        """The host starts the game once four seats are filled."""
        table = self.get(table_id)
        async with table.lock:
            self._check_open(table)
            self._check_lobby(table)
            if user_id != table.host_id:
                raise NotHost(table)
            if not table.is_full:
                raise SeatsNotFilled(table)
            await self._start_game(table)
        self._changed(table, CHANGE_STARTED)
        return table

    async def play_again(self, table_id: int, user_id: int) -> Table:
        """A finished table starts a new game with the same seats (any seated player asks)."""
        table = self.get(table_id)
        async with table.lock:
            self._check_open(table)
            if table.status != "finished":
                raise NotFinished(table)
            if user_id != table.host_id and table.position_of(user_id) is None:
                raise NotSeated(table)
            await self._start_game(table)
        self._changed(table, CHANGE_STARTED)
        return table

    async def cancel(self, table_id: int, user_id: int) -> Table:
        """The host closes a table still in its lobby."""
        table = self.get(table_id)
        async with table.lock:
            self._check_open(table)
            self._check_lobby(table)
            if user_id != table.host_id:
                raise NotHost(table)
            await self._close(table)
        self._changed(table, CHANGE_CLOSED)
        return table

    async def end(self, table_id: int, user_id: int, *, can_manage: bool = False) -> Table:
        """`/table end`: the host, or a member allowed to manage the server, closes the table in
        any state. An unfinished game is not recorded."""
        table = self.get(table_id)
        async with table.lock:
            self._check_open(table)
            if user_id != table.host_id and not can_manage:
                raise NotAllowedToEnd(table)
            await self._close(table)
        self._changed(table, CHANGE_CLOSED)
        return table

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        """Remember the channel message that shows the table (not a state change: no version)."""
        table = self.get(table_id)
        table.record.message_id = message_id
        await self.store.set_message(table_id, message_id)

    # --- play -----------------------------------------------------------------------------------

    async def act(self, table_id: int, user_id: int, action: str, version: int) -> ActResult:
        """The one way a player acts. Refusals (TableError) leave everything unchanged."""
        table = self.get(table_id)
        async with table.lock:
            self._check_open(table)
            if table.game is None:
                raise NotPlaying(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotSeated(table)
            if version != table.version:
                raise StaleVersion(
                    table, seat, partner_answered=self._partner_answered(table, seat, version)
                )
            events = await self._apply_locked(table, seat, action)
            new_version = table.version
        self._changed(table, CHANGE_ACTION)
        return ActResult(table, seat, action, events, new_version)

    def _partner_answered(self, table: Table, seat: int, version: int) -> bool:
        """Did the state the button was drawn for end with the partner's answer? (Truco: either
        player of a pair may answer; the second gets 'already answered'.)"""
        index = version - table.start_version  # the first action taken after that version
        actions = table.record.actions
        if not 0 <= index < len(actions):
            return False
        other, action = actions[index]
        return other != seat and team_of(other) == team_of(seat) and action in ANSWERS

    async def _apply_locked(self, table: Table, seat: int, action: str) -> list[Any]:
        """Apply, persist, bump the version — the caller holds the lock.

        The game, the action log and the version change together, with no await in between,
        so whatever renders the table (a hand message, the coalesced public edit) always sees a
        consistent state and the version that goes with it. If the write fails, all three are
        put back as the store has them before the error goes on."""
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
            result = build_result(record, table.seat_of_position, game, self._clock())
        previous_status = record.status
        record.actions.append((seat, action))
        record.version = new_version
        if result is not None:
            record.status = "finished"
            table.result = result
        write = asyncio.ensure_future(
            self.store.append_action(table.id, seat, action, new_version, result)
        )
        try:
            # Shielded: a cancelled caller must not abandon the write halfway; it completes.
            await asyncio.shield(write)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await write
            raise
        except Exception:
            # Not stored: put the table back as the store has it, then report the failure.
            record.actions.pop()
            record.version = new_version - 1
            record.status = previous_status
            if result is not None:
                table.result = None
            assert record.seed is not None
            table.game = table.rules.replay(
                record.options, record.seed, record.first_dealer, record.actions
            )
            raise
        return events

    # --- bots -----------------------------------------------------------------------------------

    def bot_seat_to_act(self, table: Table) -> int | None:
        """The bot seat that acts next, if any."""
        game = table.game
        if table.closed or game is None or game.is_over:
            return None
        to_act: list[int] = game.to_act
        for seat in to_act:
            if not table.is_bot_seat(seat):
                continue
            # A question either partner may answer (a truco ask, the hand of ten) is left to a
            # human partner: people at the table decide for their pair.
            if any(
                o != seat and team_of(o) == team_of(seat) and not table.is_bot_seat(o)
                for o in to_act
            ):
                continue
            return seat
        return None

    def _schedule_bots(self, table: Table) -> None:
        if self._closing:
            return
        if table.bot_task is not None and not table.bot_task.done():
            return  # the running task re-checks after each move
        if self.bot_seat_to_act(table) is None:
            return
        table.bot_task = asyncio.create_task(self._run_bots(table), name=f"table-{table.id}-bots")

    async def _run_bots(self, table: Table) -> None:
        try:
            while True:
                await asyncio.sleep(self.bot_move_delay)
                async with table.lock:
                    seat = self.bot_seat_to_act(table)
                    if seat is None:
                        return
                    assert table.game is not None
                    action = table.rules.bot_action(table.game, seat)
                    await self._apply_locked(table, seat, action)
                self._notify(table, CHANGE_ACTION)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot move failed at table %s", table.id)

    async def wait_for_bots(self, table_id: int) -> None:
        """Until the bot seats have nothing left to do (tests and the demo)."""
        table = self._tables.get(table_id)
        while table is not None and table.bot_task is not None and not table.bot_task.done():
            await asyncio.wait([table.bot_task])

    # --- restore and shutdown -----------------------------------------------------------------

    async def restore(self) -> list[Table]:
        """Rebuild every active table from the store (lobbies too): each game by replaying its
        action log. Listeners hear CHANGE_RESTORED; bot seats resume."""
        restored: list[Table] = []
        for record in await self.store.load_active():
            if record.message_id is None and record.status != "lobby":
                # A game always starts from a shown lobby; without a message id nothing can
                # reach this table again, and it must not hold the channel.
                await self.store.delete_table(record.id)
                log.info("dropped table %s: it has no message", record.id)
                continue
            # A lobby without a message id may still have been seen (the crash came between
            # posting the message and storing its id): it is kept, and the UI posts it again.
            try:
                table = self._rebuild(record)
            except Exception:
                log.exception("table %s could not be rebuilt; left as it is stored", record.id)
                continue
            table.notice = "table.notice.restored"
            table.notice_version = table.version
            self._register(table)
            restored.append(table)
        for table in restored:
            self._changed(table, CHANGE_RESTORED)
        log.info("restored %d tables", len(restored))
        return restored

    def _rebuild(self, record: TableRecord) -> Table:
        rules = rules_for(record.game)
        table = Table(record=record, rules=rules)
        if record.status in ("playing", "finished"):
            if record.seed is None:
                raise ValueError(f"table {record.id} is {record.status} without a seed")
            game = rules.replay(record.options, record.seed, record.first_dealer, record.actions)
            table.game = game
            table.seat_of_position = rules.seat_of_position(game)
            if game.is_over:
                table.result = build_result(record, table.seat_of_position, game, self._clock())
        return table

    async def close(self) -> None:
        """Stop the bot tasks (the bot is shutting down; nothing is lost: all is stored)."""
        self._closing = True
        tasks = [t.bot_task for t in self._tables.values() if t.bot_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # --- internals ------------------------------------------------------------------------------

    def _register(self, table: Table) -> None:
        self._tables[table.id] = table
        self._by_channel[table.channel_id] = table.id

    @staticmethod
    def _check_open(table: Table) -> None:
        if table.closed:
            raise NoSuchTable(table)

    @staticmethod
    def _check_lobby(table: Table) -> None:
        if table.status != "lobby":
            raise NotInLobby(table)

    async def _save_lobby(self, table: Table, seats: list[SeatRecord | None]) -> None:
        """Seat the table as `seats` says, with a new version, and store it; if the write fails
        the table keeps its seats and version."""
        record = table.record
        previous = (record.seats, record.version)
        record.seats = seats
        record.version += 1
        try:
            await self.store.save_lobby(record)
        except BaseException:
            record.seats, record.version = previous
            raise

    async def _start_game(self, table: Table) -> None:
        """A new game at a full table. Like an action, the state and the version change
        together before the write (renders stay consistent) and go back if it fails."""
        record = table.record
        seed = self._seed_source()
        game = table.rules.new_game(record.options, seed)
        seat_of_position = table.rules.seat_of_position(game)
        previous = (
            record.status,
            record.seed,
            record.first_dealer,
            record.actions,
            record.started_at,
            record.version,
            table.game,
            table.seat_of_position,
            table.result,
        )
        record.status = "playing"
        record.seed = seed
        record.first_dealer = game.first_dealer
        record.actions = []
        record.started_at = self._clock()
        record.version += 1
        table.game = game
        table.seat_of_position = seat_of_position
        table.result = None
        try:
            await self.store.start_game(record)
        except BaseException:
            (
                record.status,
                record.seed,
                record.first_dealer,
                record.actions,
                record.started_at,
                record.version,
                table.game,
                table.seat_of_position,
                table.result,
            ) = previous
            raise

    async def _close(self, table: Table) -> None:
        await self.store.delete_table(table.id)
        table.closed = True
        if self._by_channel.get(table.channel_id) == table.id:
            del self._by_channel[table.channel_id]
        self._tables.pop(table.id, None)
        if table.bot_task is not None and table.bot_task is not asyncio.current_task():
            table.bot_task.cancel()

    def _changed(self, table: Table, change: str) -> None:
        self._notify(table, change)
        if change != CHANGE_CLOSED:
            self._schedule_bots(table)

    def _notify(self, table: Table, change: str) -> None:
        for listener in self._listeners:
            try:
                listener(table, change)
            except Exception:
                log.exception("table listener failed for table %s (%s)", table.id, change)
