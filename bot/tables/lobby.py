"""The lobby verbs: every change of a table's seats, settings and games that is not a game action.

Each takes the table's lock, checks, changes the table and stores it before the lock is
released, then tells the listeners (`TableHost.changed`). A lobby change (join, leave, add a
bot, a setting, start) bumps the version (`store.save_lobby` / `store.start_game`). Seat changes
while a game runs or is over (a player is back, leaves mid-game, is ready for the next game) are
stored in one transaction but do not bump the version: the version numbers the game's actions
(start + i), which stale-click answers and replays rely on; those changes are idempotent and
change no game button's meaning. A failed write leaves the table as the store has it.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from bot.tables import bot_moves, restore
from bot.tables.errors import (
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
    TableFull,
    UnknownBotLevel,
)
from bot.tables.lobby_writes import new_record, save_lobby, save_seats, start_game
from bot.tables.records import ChannelTaken, SeatRecord
from bot.tables.settings import BY_NAME, setting_of
from bot.tables.table import (
    CHANGE_CLOSED,
    CHANGE_LOBBY,
    CHANGE_SEATS,
    CHANGE_STARTED,
    POSITIONS,
    Table,
    TableHost,
)
from bot.tables.turn_timers import TAKEOVER_LEVEL

# Game rules (on/off options) the host may switch in the lobby, per game.
LOBBY_RULES: dict[str, tuple[str, ...]] = {"truco": ("coberta", "signals")}
# A lobby rule's value when the options leave it out (sinais are on by default).
RULE_DEFAULTS: dict[str, bool] = {"signals": True}


def check_open(table: Table) -> None:
    if table.closed:
        raise NoSuchTable(table)


def check_lobby(table: Table) -> None:
    if table.status != "lobby":
        raise NotInLobby(table)


class Lobby:
    """The lobby verbs of one table service (`TableService` offers them under the same names)."""

    def __init__(self, host: TableHost) -> None:
        self._host = host
        # Creating a table checks then claims its channel: one creation at a time.
        self._create_lock = asyncio.Lock()

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
        # Checked before the channel is looked at: bad options are refused as such, busy or not.
        record, rules = new_record(
            self._host,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            game=game,
            seats=[SeatRecord(host_id, host_name), None, None, None],
            options=options,
            settings=settings,
        )
        replaced = None
        async with self._create_lock:
            current = self._host.in_channel(channel_id)
            if current is not None:
                async with current.lock:
                    if current.status != "finished":
                        raise ChannelBusy(current)
                    await self._host.close_table(current)
                replaced = current
            # Drawn now so that the lobby shows hand 1's commitment before Start (fair deals).
            record.seed = self._host.new_seed() if self._host.fair_deals else None
            try:
                record.id = await self._host.store.create_table(record)
            except ChannelTaken:
                # The store's one-open-table-per-channel index: another process (an old
                # instance of this shard) holds an open table here that this one does not
                # know. Taken in from the store, it is the table the answer links to.
                raise ChannelBusy(await self._host.stored_table_in(guild_id, channel_id)) from None
            table = Table(record=record, rules=rules)
            self._host.register(table)
        if replaced is not None:
            self._host.changed(replaced, CHANGE_CLOSED)
        self._host.changed(table, CHANGE_LOBBY)
        return table

    @asynccontextmanager
    async def _verb(self, table_id: int, change: str) -> AsyncIterator[_Verb]:
        """The shape of every verb: the table, under its lock, checked open; once the body has
        stored its change (and the lock is released), the listeners hear `verb.change`. A body
        that raises stores nothing and tells nobody."""
        table = self._host.get(table_id)
        verb = _Verb(table, change)
        async with table.lock:
            check_open(table)
            yield verb
        self._host.changed(table, verb.change)

    async def join(
        self, table_id: int, user_id: int, name: str, position: int | None = None
    ) -> Table:
        """Sit down: at `position`, or the first free one. A bot's seat may be taken over."""
        async with self._verb(table_id, CHANGE_LOBBY) as verb:
            table = verb.table
            check_lobby(table)
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
            await save_lobby(self._host, table, seats)
        return table

    async def leave(self, table_id: int, user_id: int) -> Table:
        """Get up. In the lobby the seat is free again; mid-game a bot takes the seat (it
        remembers who left) and the game goes on — when nobody is left the table closes; after
        a game the seat is free for the next one."""
        async with self._verb(table_id, CHANGE_LOBBY) as verb:
            table = verb.table
            position = table.position_of(user_id)
            if position is None:
                raise NotSeated(table)
            seats = list(table.record.seats)
            if table.status == "lobby":
                seats[position] = None
                await save_lobby(self._host, table, seats)
                verb.change = CHANGE_LOBBY
            elif table.status == "playing":
                seats[position] = bot_seat(position, level=TAKEOVER_LEVEL, left_user_id=user_id)
                if not any(s is not None and not s.is_bot for s in seats):
                    await self._host.close_table(table)
                    verb.change = CHANGE_CLOSED
                else:
                    await save_seats(self._host, table, seats)
                    verb.change = CHANGE_SEATS
            else:
                seats[position] = None
                ready = [u for u in table.record.ready if u != user_id]
                await save_seats(self._host, table, seats, ready=ready)
                verb.change = CHANGE_SEATS
        return table

    async def change_setting(
        self, table_id: int, user_id: int, name: str, value: str | None = None
    ) -> Table:
        """The host sets a table setting to `value` (as its text, from the lobby's menu) or, with
        no value (a button), moves it to its next value (in the lobby)."""
        setting = BY_NAME.get(name)
        async with self._verb(table_id, CHANGE_LOBBY) as verb:
            table = verb.table
            check_lobby(table)
            if user_id != table.host_id:
                raise NotHost(table)
            record = table.record
            if setting is None:
                # A game rule the lobby switches (truco's coberta, T15): stored as an option,
                # so the game replays with it.
                if name not in LOBBY_RULES.get(table.game_name, ()):
                    raise BadOptions(table, reason=name)
                options = record.options
                on = options.get(name, RULE_DEFAULTS.get(name, False))
                record.options = {**options, name: not on}
                try:
                    await save_lobby(self._host, table, list(record.seats))
                except BaseException:
                    record.options = options
                    raise
                return table
            previous = record.settings
            if value is None:
                chosen = setting.next_value(setting_of(previous, name))
            else:
                chosen = next((v for v in setting.values if str(v) == value), None)
                if chosen is None:
                    raise BadOptions(table, reason=f"{name}={value}")
            record.settings = {**previous, name: chosen}
            try:
                await save_lobby(self._host, table, list(record.seats))
            except BaseException:
                record.settings = previous
                raise
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
        table = self._host.get(table_id)
        if level not in bot_moves.LEVELS:
            raise UnknownBotLevel(table)
        async with self._verb(table_id, CHANGE_LOBBY):
            check_lobby(table)
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
            seats[position] = bot_seat(position, level=level)
            await save_lobby(self._host, table, seats)
        return table

    async def start(self, table_id: int, user_id: int) -> Table:
        """The host starts the game once four seats are filled."""
        async with self._verb(table_id, CHANGE_STARTED) as verb:
            table = verb.table
            check_lobby(table)
            if user_id != table.host_id:
                raise NotHost(table)
            if not table.is_full:
                raise SeatsNotFilled(table)
            await start_game(self._host, table)
        return table

    async def play_again(self, table_id: int, user_id: int) -> Table:
        """The ready check of a finished table: a seated player is ready for the next game,
        which starts once every seated human is (bots always are) and the four seats are
        filled."""
        async with self._verb(table_id, CHANGE_STARTED) as verb:
            table = verb.table
            if table.status != "finished":
                raise NotFinished(table)
            if table.position_of(user_id) is None:
                raise NotSeated(table)
            if user_id in table.record.ready:
                raise AlreadyReady(table)
            ready = [*table.record.ready, user_id]
            if table.is_full and set(table.humans()) <= set(ready):
                await start_game(self._host, table)
                verb.change = CHANGE_STARTED
            else:
                await save_seats(self._host, table, list(table.seats), ready=ready)
                verb.change = CHANGE_SEATS
        return table

    async def start_now(self, table_id: int, user_id: int) -> Table:
        """The host starts the next game with the ready players; bots sit in the other seats."""
        async with self._verb(table_id, CHANGE_STARTED) as verb:
            table = verb.table
            if table.status != "finished":
                raise NotFinished(table)
            if user_id != table.host_id:
                raise NotHost(table)
            ready = {*table.record.ready, user_id}
            seats: list[SeatRecord | None] = [
                seat
                if seat is not None and (seat.is_bot or seat.user_id in ready)
                else bot_seat(position)
                for position, seat in enumerate(table.seats)
            ]
            await start_game(self._host, table, seats)
        return table

    async def seat_player(self, table_id: int, host_id: int, user_id: int, name: str) -> int:
        """The host gives a bot's seat in the running game to a person who joins: the seat a
        player left (theirs first), else any bot seat. Returns the lobby position."""
        async with self._verb(table_id, CHANGE_SEATS) as verb:
            table = verb.table
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
            await save_seats(self._host, table, seats)
        await restore.answer_pending(self._host, table)  # the seat may be asked to go alone
        return position

    async def back(self, table_id: int, user_id: int) -> Table:
        """A player whose turns a bot has been playing takes the seat back ("I'm back")."""
        async with self._verb(table_id, CHANGE_SEATS) as verb:
            table = verb.table
            position = table.position_of(user_id)
            if position is None:
                raise NotSeated(table)
            seat = table.seats[position]
            if table.status != "playing" or seat is None or not seat.covered:
                raise NotAway(table)
            seats = list(table.seats)
            seats[position] = dataclasses.replace(seat, missed=0, away=False)
            await save_seats(self._host, table, seats)
        # A person is answered the going-alone question at once (bot/tables/alone.py), also one
        # who takes back a seat that has it now: a restart would answer it, so must the table.
        await restore.answer_pending(self._host, table)
        return table

    async def cancel(self, table_id: int, user_id: int) -> Table:
        """The host closes a table still in its lobby."""
        async with self._verb(table_id, CHANGE_CLOSED) as verb:
            table = verb.table
            check_lobby(table)
            if user_id != table.host_id:
                raise NotHost(table)
            await self._host.close_table(table)
        return table

    async def end(self, table_id: int, user_id: int, *, can_manage: bool = False) -> Table:
        """`/table end`: the host, or a member allowed to manage the server, closes the table in
        any state. An unfinished game is not recorded."""
        async with self._verb(table_id, CHANGE_CLOSED) as verb:
            table = verb.table
            if user_id != table.host_id and not can_manage:
                raise NotAllowedToEnd(table)
            await self._host.close_table(table)
        return table


@dataclass
class _Verb:
    table: Table
    change: str  # what the listeners hear (a verb whose outcome varies sets it)


def bot_seat(position: int, **more: Any) -> SeatRecord:
    return SeatRecord(None, f"Bot {position + 1}", is_bot=True, **more)
