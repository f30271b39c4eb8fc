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
`bot_move_delay` seconds, one table task at a time; they resume after `restore()`. A failed
write (a full disk) is retried with backoff: a bot seat never stops for good.

Turn timers are table state, not a sleeping coroutine per click: each action stores the deadline
of the human whose turn it is (`turn_deadline`, so a restart keeps it), and ONE scheduler task
wakes at the earliest warning or deadline of all tables, on the service's clock. At half time
listeners hear CHANGE_WARNING; at the deadline a bot plays that turn for the human through the
same apply path (their seat counts a missed turn; after 3 in a row the bot keeps the seat until
they are back). Seat changes that are not game actions (a player is back, leaves mid-game, is
ready for the next game) are stored in one transaction under the lock but do not bump the
version: the version numbers the game's actions (start + i), which stale-click answers and
replays rely on; those changes are idempotent and change no game button's meaning.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.engine.common import EngineError, team_of
from bot.storage.errors import StaleVersion as StoredVersionConflict
from bot.storage.errors import TableNotFound as StoredTableGone
from bot.storage.errors import TableNotPlaying as StoredTableNotPlaying
from bot.tables import bot_moves
from bot.tables.errors import (
    ActionRefused,
    AlreadyReady,
    AlreadySeated,
    BadOptions,
    ChannelBusy,
    NoBotSeat,
    NoSuchTable,
    NotAllowedToEnd,
    NotAway,
    NotFinished,
    NotHost,
    NotInLobby,
    NotPlaying,
    NotSeated,
    SeatsNotFilled,
    SeatTaken,
    StaleVersion,
    TableFull,
    UnknownBotLevel,
)
from bot.tables.games import (
    ACTION_PAIRS,
    EngineGame,
    GameRules,
    forget_old_events,
    rules_for,
    shared_pair,
)
from bot.tables.records import ChannelTaken, GameResult, SeatRecord, TableRecord, TableStore
from bot.tables.results import build_result
from bot.tables.settings import BY_NAME, normalise_settings, setting_of

log = logging.getLogger(__name__)

POSITIONS = range(4)
ANSWERS = frozenset({"accept", "run", "raise"})

# What listeners are told, besides the table: why it changed.
CHANGE_LOBBY = "lobby"
CHANGE_STARTED = "started"
CHANGE_ACTION = "action"
CHANGE_CLOSED = "closed"
CHANGE_RESTORED = "restored"
CHANGE_SEATS = "seats"  # a player is back, left mid-game, or is ready for the next game
CHANGE_WARNING = "warning"  # half of the turn timer has run out

AWAY_AFTER = 3  # missed turns in a row after which the bot keeps the seat
TAKEOVER_LEVEL = bot_moves.DEFAULT_LEVEL  # the bot that plays for a human whose time ran out

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
    # Serialises moves of the table's channel message (`/table show`, reposts, edits): never
    # two live table messages. Not the state lock: a move waits on Discord, clicks must not.
    message_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
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

    def bot_plays(self, seat: int) -> bool:
        """A bot seat, or a human away from it: a bot plays its turns at once."""
        player = self.player_at(seat)
        return player.is_bot or player.away

    def humans_to_act(self) -> list[int]:
        """The game seats whose human must act now (their turn timer runs)."""
        game = self.game
        if self.closed or game is None or game.is_over:
            return []
        return [s for s in game.to_act if not self.bot_plays(s)]

    @property
    def turn_timer(self) -> int:
        return int(setting_of(self.record.settings, "turn_timer"))

    def humans(self) -> list[int]:
        return [s.user_id for s in self.seats if s is not None and s.user_id is not None]

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
        retry_delay: float = 1.0,
        max_retry_delay: float = 60.0,
        shards: list[tuple[int, int]] | None = None,
    ) -> None:
        self.store = store
        # The (shard_id, shard_count) pairs whose guilds this process owns (None: every guild,
        # one process). Only their tables are restored, so only they get bot tasks and timers.
        self.shards = shards
        self.bot_move_delay = bot_move_delay
        # A failed write of a bot move or a timer step is retried after retry_delay, doubling
        # up to max_retry_delay seconds.
        self.retry_delay = retry_delay
        self.max_retry_delay = max_retry_delay
        self._clock = clock
        self._seed_source = seed_source
        self._tables: dict[int, Table] = {}
        self._by_channel: dict[int, int] = {}
        self._listeners: list[Listener] = []
        # Creating a table checks then claims its channel: one creation at a time.
        self._create_lock = asyncio.Lock()
        self._closing = False
        self._timer_task: asyncio.Task[None] | None = None
        self._timer_wake = asyncio.Event()

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
        table_settings = normalise_settings(settings)
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
                settings=table_settings,
            )
            try:
                record.id = await self.store.create_table(record)
            except ChannelTaken:
                # The store's one-open-table-per-channel index: another process (an old
                # instance of this shard) holds an open table here that this one does not
                # know. Taken in from the store, it is the table the answer links to.
                raise ChannelBusy(await self._stored_table_in(guild_id, channel_id)) from None
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
        """Get up. In the lobby the seat is free again; mid-game a bot takes the seat (it
        remembers who left) and the game goes on — when nobody is left the table closes; after
        a game the seat is free for the next one."""
        table = self.get(table_id)
        async with table.lock:
            self._check_open(table)
            position = table.position_of(user_id)
            if position is None:
                raise NotSeated(table)
            seats = list(table.record.seats)
            if table.status == "lobby":
                seats[position] = None
                await self._save_lobby(table, seats)
                change = CHANGE_LOBBY
            elif table.status == "playing":
                seats[position] = _bot_seat(position, level=TAKEOVER_LEVEL, left_user_id=user_id)
                if not any(s is not None and not s.is_bot for s in seats):
                    await self._close(table)
                    change = CHANGE_CLOSED
                else:
                    await self._save_seats(table, seats)
                    change = CHANGE_SEATS
            else:
                seats[position] = None
                ready = [u for u in table.record.ready if u != user_id]
                await self._save_seats(table, seats, ready=ready)
                change = CHANGE_SEATS
        self._changed(table, change)
        return table

    async def change_setting(self, table_id: int, user_id: int, name: str) -> Table:
        """The host moves a table setting to its next value (in the lobby)."""
        setting = BY_NAME.get(name)
        table = self.get(table_id)
        async with table.lock:
            self._check_open(table)
            self._check_lobby(table)
            if user_id != table.host_id:
                raise NotHost(table)
            if setting is None:
                raise BadOptions(table, reason=name)
            record = table.record
            previous = record.settings
            record.settings = {
                **previous,
                name: setting.next_value(setting_of(previous, name)),
            }
            try:
                await self._save_lobby(table, list(record.seats))
            except BaseException:
                record.settings = previous
                raise
        self._changed(table, CHANGE_LOBBY)
        return table

    async def add_bot(
        self,
        table_id: int,
        user_id: int,
        position: int | None = None,
        level: str = bot_moves.DEFAULT_LEVEL,
    ) -> Table:
        """A bot of `level` (bot_moves.LEVELS) takes `position` or the first free one. The host
        or a seated player may ask."""
        table = self.get(table_id)
        if level not in bot_moves.LEVELS:
            raise UnknownBotLevel(table)
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
            seats[position] = _bot_seat(position, level=level)
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
        """The ready check of a finished table: a seated player is ready for the next game,
        which starts once every seated human is (bots always are) and the four seats are
        filled."""
        table = self.get(table_id)
        async with table.lock:
            self._check_open(table)
            if table.status != "finished":
                raise NotFinished(table)
            if table.position_of(user_id) is None:
                raise NotSeated(table)
            if user_id in table.record.ready:
                raise AlreadyReady(table)
            ready = [*table.record.ready, user_id]
            if table.is_full and set(table.humans()) <= set(ready):
                await self._start_game(table)
                change = CHANGE_STARTED
            else:
                await self._save_seats(table, list(table.seats), ready=ready)
                change = CHANGE_SEATS
        self._changed(table, change)
        return table

    async def start_now(self, table_id: int, user_id: int) -> Table:
        """The host starts the next game with the ready players; bots sit in the other seats."""
        table = self.get(table_id)
        async with table.lock:
            self._check_open(table)
            if table.status != "finished":
                raise NotFinished(table)
            if user_id != table.host_id:
                raise NotHost(table)
            ready = {*table.record.ready, user_id}
            seats: list[SeatRecord | None] = [
                seat
                if seat is not None and (seat.is_bot or seat.user_id in ready)
                else _bot_seat(position)
                for position, seat in enumerate(table.seats)
            ]
            await self._start_game(table, seats)
        self._changed(table, CHANGE_STARTED)
        return table

    async def seat_player(self, table_id: int, host_id: int, user_id: int, name: str) -> int:
        """The host gives a bot's seat in the running game to a person who joins: the seat a
        player left (theirs first), else any bot seat. Returns the lobby position."""
        table = self.get(table_id)
        async with table.lock:
            self._check_open(table)
            if table.status != "playing":
                raise NotPlaying(table)
            if host_id != table.host_id:
                raise NotHost(table)
            if table.position_of(user_id) is not None:
                raise AlreadySeated(table)
            bots = [p for p, s in enumerate(table.seats) if s is not None and s.is_bot]
            if not bots:
                raise NoBotSeat(table)
            left = {s.left_user_id: p for p, s in enumerate(table.seats) if s and s.left_user_id}
            position = left.get(user_id, next(iter(left.values()), bots[0]))
            seats = list(table.seats)
            seats[position] = SeatRecord(user_id, name)
            await self._save_seats(table, seats)
        self._changed(table, CHANGE_SEATS)
        return position

    async def back(self, table_id: int, user_id: int) -> Table:
        """A player whose turns a bot has been playing takes the seat back ("I'm back")."""
        table = self.get(table_id)
        async with table.lock:
            self._check_open(table)
            position = table.position_of(user_id)
            if position is None:
                raise NotSeated(table)
            seat = table.seats[position]
            if table.status != "playing" or seat is None or not seat.covered:
                raise NotAway(table)
            seats = list(table.seats)
            seats[position] = dataclasses.replace(seat, missed=0, away=False)
            await self._save_seats(table, seats)
        self._changed(table, CHANGE_SEATS)
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

    async def set_ping(self, table_id: int, message_id: int | None) -> None:
        """Remember the table's turn ping message (not a state change: no version)."""
        table = self.get(table_id)
        table.record.ping_message_id = message_id
        await self.store.set_ping(table_id, message_id)

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
            position = table.position_of_seat(seat)
            player = table.seats[position]
            seats = None
            if player is not None and player.covered:  # playing again: back at the seat
                seats = list(table.seats)
                seats[position] = dataclasses.replace(player, missed=0, away=False)
            events = await self._apply_locked(table, seat, action, seats=seats)
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

    async def _apply_locked(
        self,
        table: Table,
        seat: int,
        action: str,
        *,
        seats: list[SeatRecord | None] | None = None,
    ) -> list[Any]:
        """Apply, persist, bump the version — the caller holds the lock. `seats`: the seats as
        they are after this action (a bot played for a human, or a human is back), stored in
        the same transaction; the next turn's deadline is too.

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
            result = build_result(record, table.seat_of_position, whole, self._clock())
        forget_old_events(game)
        previous = (record.status, record.seats, record.turn_deadline, record.turn_warned)
        # The engine logged this pair last: both logs hold the one shared tuple instead.
        game.share_actions(ACTION_PAIRS, start=len(game.actions) - 1)
        record.actions.append(shared_pair(seat, action))
        record.version = new_version
        if seats is not None:
            record.seats = seats
        if result is not None:
            record.status = "finished"
            table.result = result
        record.turn_deadline = self._turn_deadline(table)
        record.turn_warned = False
        appended = (table.id, seat, action, new_version, result)
        try:
            # SQLite writes it at once on the loop's connection (no turn of the event loop to
            # wait for, nothing to cancel); otherwise a shielded write: a cancelled caller must
            # not abandon it halfway, it completes.
            if not self.store.append_action_at_once(
                *appended, deadline=record.turn_deadline, seats=seats
            ):
                await _shielded(
                    self.store.append_action(*appended, deadline=record.turn_deadline, seats=seats)
                )
        except (StoredVersionConflict, StoredTableGone, StoredTableNotPlaying):
            # Another process moved this table on (or closed it): take the stored table, then
            # answer the click as a stale one (the player gets the table as it is now).
            await self._reload_locked(table)
            raise StaleVersion(table, seat) from None
        except Exception:
            # Not stored: put the table back as the store has it, then report the failure.
            record.actions.pop()
            record.version = new_version - 1
            record.status, record.seats, record.turn_deadline, record.turn_warned = previous
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
            if not table.bot_plays(seat):
                continue
            # A question either partner may answer (a truco ask, the hand of ten) is left to a
            # human partner: people at the table decide for their pair.
            if any(
                o != seat and team_of(o) == team_of(seat) and not table.bot_plays(o) for o in to_act
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
        """Play the bot seats' turns one after another. A failed move (the write failed: the
        table is as the store has it) is tried again after a growing pause, never given up."""
        failures = 0
        while True:
            await asyncio.sleep(self._retry_pause(failures) if failures else self.bot_move_delay)
            try:
                # Think outside the lock (a hard bot thinks up to ~0.3 s; clicks must not wait
                # for it), then apply only if the table did not move meanwhile.
                seat = self.bot_seat_to_act(table)
                if seat is None:
                    return
                version = table.version
                level = table.player_at(seat).level or bot_moves.DEFAULT_LEVEL
                action = await self._choose_bot_action(table, seat, level)
                async with table.lock:
                    if table.version != version or self.bot_seat_to_act(table) != seat:
                        continue  # a seat changed hands, the table closed: look again
                    await self._apply_locked(table, seat, action)
            except (StaleVersion, NoSuchTable):
                # Another process had moved the table on: it is reloaded; look again.
                if table.closed:
                    return
                failures = 0
                continue
            except Exception:
                failures += 1
                log.warning(
                    "bot move failed at table %s (%d in a row); retrying in %.0f s",
                    table.id,
                    failures,
                    self._retry_pause(failures),
                    exc_info=True,
                )
                continue
            failures = 0
            self._notify(table, CHANGE_ACTION)
            self._wake_timers()

    def _retry_pause(self, failures: int) -> float:
        return float(min(self.retry_delay * 2 ** (failures - 1), self.max_retry_delay))

    # --- turn timers ----------------------------------------------------------------------------

    def _turn_deadline(self, table: Table) -> float | None:
        """When a bot plays for the human(s) to act now; None: no human to wait for, or no
        timer at this table."""
        timer = table.turn_timer
        if not timer or not table.humans_to_act():
            return None
        return self._clock() + timer

    def _timer_due(self, table: Table) -> float | None:
        """When the table's timer next needs the scheduler: the warning, then the deadline."""
        deadline = table.record.turn_deadline
        if deadline is None or table.closed:
            return None
        if table.record.turn_warned:
            return deadline
        return deadline - table.turn_timer / 2

    def time_moved(self) -> None:
        """The clock jumped (tests advance it): look at the deadlines again now."""
        self._wake_timers()

    def _wake_timers(self) -> None:
        if self._closing:
            return
        if self._timer_task is None or self._timer_task.done():
            self._timer_task = asyncio.create_task(self._run_timers(), name="turn-timers")
        self._timer_wake.set()

    async def _run_timers(self) -> None:
        """The one scheduler: sleep until the earliest warning or deadline of any table (or a
        wake-up), handle what is due, repeat."""
        failures = 0
        while not self._closing:
            self._timer_wake.clear()
            now = self._clock()
            dues = [(due, t) for t in self.tables if (due := self._timer_due(t)) is not None]
            pause = None
            for due, table in dues:
                if due > now:
                    continue
                try:
                    await self._on_timer(table)
                    failures = 0
                except (StaleVersion, NoSuchTable):
                    failures = 0  # reloaded from the store (another process wrote): look again
                except Exception:
                    failures += 1
                    pause = self._retry_pause(failures)
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
                await asyncio.wait_for(self._timer_wake.wait(), pause)

    async def _on_timer(self, table: Table) -> None:
        """Half time: the warning. The deadline: a bot plays that turn for the human."""
        async with table.lock:
            due = self._timer_due(table)
            now = self._clock()
            record = table.record
            if table.closed or due is None or due > now or record.turn_deadline is None:
                return
            if now < record.turn_deadline:
                await self.store.set_turn(table.id, record.turn_deadline, True)
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
                action = await self._choose_bot_action(table, seat, TAKEOVER_LEVEL)
                await self._apply_locked(table, seat, action, seats=seats)
                change = CHANGE_ACTION
        self._changed(table, change)

    async def _choose_bot_action(self, table: Table, seat: int, level: str) -> str:
        """The move of the bot at `seat`, as strong as `level` (bot_moves.LEVELS). The search
        runs in a worker process; its seed comes from the table's seed, the number of actions
        so far and the seat, so a restored table replays the same bot moves. The position is
        read before the first await, so a caller may think outside the table's lock (and check
        the version before applying): a hard think holds a held lock up to ~0.3 s."""
        game = table.game
        assert game is not None and table.record.seed is not None
        if level == "easy":
            return table.rules.bot_action(game, seat)
        seed = bot_moves.search_seed(table.record.seed, len(game.actions), seat)
        return await bot_moves.searched_action(table.game_name, game, seat, level, seed)

    async def wait_for_bots(self, table_id: int) -> None:
        """Until the bot seats have nothing left to do (tests and the demo)."""
        table = self._tables.get(table_id)
        while table is not None and table.bot_task is not None and not table.bot_task.done():
            await asyncio.wait([table.bot_task])

    # --- restore and shutdown -----------------------------------------------------------------

    async def restore(self) -> list[Table]:
        """Rebuild every active table from the store (lobbies too) of the guilds this process
        owns (`shards`): each game by replaying its action log. Listeners hear CHANGE_RESTORED;
        bot seats resume."""
        restored: list[Table] = []
        if self.shards is None:
            records = await self.store.load_active()
        else:
            records = [r for shard in self.shards for r in await self.store.load_active(shard)]
        for record in records:
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

    async def _reload_locked(self, table: Table) -> None:
        """Replace the table in memory by the stored one (the caller holds its lock): another
        process wrote it. Gone from the store: the table is closed here too. Listeners hear of
        it once the lock is released."""
        record = await self.store.get_table(table.id)
        log.info("table %s was changed by another process: reloaded from storage", table.id)
        loop = asyncio.get_running_loop()
        try:
            fresh = None if record is None else self._rebuild(record)
        except Exception:
            log.exception("table %s could not be rebuilt; closed here", table.id)
            fresh = None
        if fresh is None:
            self._forget(table)
            loop.call_soon(self._notify, table, CHANGE_CLOSED)
            raise NoSuchTable(table)
        table.record = fresh.record
        table.game = fresh.game
        table.seat_of_position = fresh.seat_of_position
        table.result = fresh.result
        table.notice = None
        loop.call_soon(self._changed, table, CHANGE_ACTION)

    async def _stored_table_in(self, guild_id: int, channel_id: int) -> Table | None:
        """The stored open table of a channel that this process does not hold in memory: it
        is taken in (this process owns the guild) and returned."""
        shard = None
        if self.shards is not None:
            shard = next(
                ((i, n) for i, n in self.shards if (guild_id >> 22) % n == i), self.shards[0]
            )
        try:
            records = await self.store.load_active(shard)
        except Exception:
            log.exception("cannot read the tables of channel %s", channel_id)
            return None
        for record in records:
            if record.channel_id == channel_id and record.status != "finished":
                try:
                    table = self._rebuild(record)
                except Exception:
                    log.exception("table %s could not be rebuilt", record.id)
                    return None
                self._register(table)
                self._changed(table, CHANGE_RESTORED)
                return table
        return None

    def _rebuild(self, record: TableRecord) -> Table:
        rules = rules_for(record.game)
        table = Table(record=record, rules=rules)
        if record.status in ("playing", "finished"):
            if record.seed is None:
                raise ValueError(f"table {record.id} is {record.status} without a seed")
            game = rules.replay(record.options, record.seed, record.first_dealer, record.actions)
            record.actions = list(game.actions)  # the same pairs, shared (games.shared_pair)
            table.game = game
            table.seat_of_position = rules.seat_of_position(game)
            if game.is_over:
                table.result = build_result(record, table.seat_of_position, game, self._clock())
            forget_old_events(game)
        return table

    async def close(self) -> None:
        """Stop the bot tasks and the timers (the bot is shutting down; nothing is lost: all
        is stored, the deadlines too)."""
        self._closing = True
        tasks = [t.bot_task for t in self._tables.values() if t.bot_task is not None]
        if self._timer_task is not None:
            tasks.append(self._timer_task)
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

    async def _save_seats(
        self,
        table: Table,
        seats: list[SeatRecord | None],
        *,
        ready: list[int] | None = None,
    ) -> None:
        """A change of seats (or of the ready list) that is not a game action: stored with the
        turn timer it implies in one transaction, without a new version (see the module
        docstring); if the write fails the table keeps its seats."""
        record = table.record
        previous = (record.seats, record.ready, record.turn_deadline, record.turn_warned)
        record.seats = seats
        if ready is not None:
            record.ready = ready
        if not table.humans_to_act():
            record.turn_deadline, record.turn_warned = None, False
        elif record.turn_deadline is None:
            record.turn_deadline, record.turn_warned = self._turn_deadline(table), False
        try:
            await self.store.save_lobby(record)
        except BaseException:
            record.seats, record.ready, record.turn_deadline, record.turn_warned = previous
            raise

    async def _start_game(self, table: Table, seats: list[SeatRecord | None] | None = None) -> None:
        """A new game at a full table (with `seats`, when they change). Like an action, the
        state and the version change together before the write (renders stay consistent) and
        go back if it fails. Nobody is behind (missed turns) or ready any more."""
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
            record.seats,
            record.ready,
            record.turn_deadline,
            record.turn_warned,
        )
        record.seats = [
            None if s is None else _fresh_seat(s) for s in (seats if seats else record.seats)
        ]
        record.ready = []
        record.turn_warned = False
        record.status = "playing"
        record.seed = seed
        record.first_dealer = game.first_dealer
        record.actions = []
        record.started_at = self._clock()
        record.version += 1
        table.game = game
        table.seat_of_position = seat_of_position
        table.result = None
        record.turn_deadline = self._turn_deadline(table)
        try:
            await self.store.start_game(record)
        except BaseException as error:
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
                record.seats,
                record.ready,
                record.turn_deadline,
                record.turn_warned,
            ) = previous
            if isinstance(error, ChannelTaken):
                # Another process opened a table in this channel since this one finished.
                stored = await self._stored_table_in(record.guild_id, record.channel_id)
                raise ChannelBusy(stored) from None
            raise

    async def _close(self, table: Table) -> None:
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

    def _changed(self, table: Table, change: str) -> None:
        self._notify(table, change)
        if change != CHANGE_CLOSED:
            self._schedule_bots(table)
            self._wake_timers()

    def _notify(self, table: Table, change: str) -> None:
        for listener in self._listeners:
            try:
                listener(table, change)
            except Exception:
                log.exception("table listener failed for table %s (%s)", table.id, change)


def _bot_seat(position: int, **more: Any) -> SeatRecord:
    return SeatRecord(None, f"Bot {position + 1}", is_bot=True, **more)


def _fresh_seat(seat: SeatRecord) -> SeatRecord:
    """The seat at the start of a game: nobody behind; a bot that replaced a leaver is a bot."""
    if seat.is_bot:
        return dataclasses.replace(seat, left_user_id=None)
    return dataclasses.replace(seat, missed=0, away=False)


async def _shielded(write: Awaitable[None]) -> None:
    """Await a store write that must complete even if the caller is cancelled meanwhile (the
    caller's state already says it is written): the cancellation waits for it, then goes on."""
    task = asyncio.ensure_future(write)
    try:
        await asyncio.shield(task)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            await task
        raise
