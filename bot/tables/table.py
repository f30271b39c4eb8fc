"""A table in memory, what its listeners hear, and the seam its parts work through.

`Table` is the stored record, the game rebuilt from it, and the table's locks. Listeners hear
`(table, change)` after each change, outside the lock: the UI, and the table service's own bot
seats (bot/tables/bot_seats.py) and turn timers (bot/tables/turn_timers.py). Those parts and the
lobby verbs (bot/tables/lobby.py) reach the service only through `TableHost`, so none of them
imports the service (which composes them): bot/tables has no import circle.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.engine.common import team_of
from bot.tables.games import EngineGame, GameRules, forget_old_events, rules_for
from bot.tables.records import GameResult, SeatRecord, TableRecord, TableStore
from bot.tables.results import build_result
from bot.tables.settings import setting_of

POSITIONS = range(4)

# What listeners are told, besides the table: why it changed.
CHANGE_LOBBY = "lobby"
CHANGE_STARTED = "started"
CHANGE_ACTION = "action"
CHANGE_CLOSED = "closed"
CHANGE_RESTORED = "restored"
CHANGE_SEATS = "seats"  # a player is back, left mid-game, or is ready for the next game
CHANGE_WARNING = "warning"  # half of the turn timer has run out
# What an action changes of the record besides its log and version (put back if not stored).
UNDONE_IF_UNSTORED = ("status", "seats", "turn_deadline", "turn_warned", "turn_since")
CHANGE_PING = "ping"  # the human(s) to act have been idle `ping_after` seconds: ping them

Listener = Callable[["Table", str], None]

ANSWERS = frozenset({"accept", "run", "raise"})  # answers to a truco ask (either partner)


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
    # The `turn_since` whose idle ping is due (the turn timers set it when the time comes).
    # In memory only: after a restart the stored `turn_since` makes it due again, at once if
    # the time has passed.
    ping_due_for: float | None = None

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
    def alone_intents(self) -> set[tuple[int, int]]:
        """(hand number, seat): who goes alone when the euchre question comes
        (bot/tables/alone.py). Part of the record: stored, so a restart keeps them."""
        return self.record.alone_intents

    @alone_intents.setter
    def alone_intents(self, intents: set[tuple[int, int]]) -> None:
        self.record.alone_intents = intents

    @property
    def start_version(self) -> int:
        """The version at which the current game began: action i brings it to start + i + 1."""
        return self.record.version - len(self.record.actions)

    # --- who sits where ------------------------------------------------------------------------

    def take_state_of(self, fresh: Table) -> None:
        """Become `fresh` (the same table rebuilt from the store), keeping this object, its
        lock and its tasks."""
        self.record = fresh.record
        self.game = fresh.game
        self.seat_of_position = fresh.seat_of_position
        self.result = fresh.result
        self.notice = None

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

    def turn_deadline(self, now: float) -> float | None:
        """When a bot plays for the human(s) to act now; None: no human to wait for, or no
        timer at this table."""
        timer = self.turn_timer
        if not timer or not self.humans_to_act():
            return None
        return now + timer

    def turn_since(self, now: float) -> float | None:
        """When the turn reached the human(s) to act (`now` for a new turn); None: nobody."""
        return now if self.humans_to_act() else None

    @property
    def ping_after(self) -> int:
        return int(setting_of(self.record.settings, "ping_after"))

    def ping_due(self) -> float | None:
        """When the turn's idle ping goes out (None: not pending, sent at once, or no pings).
        The turn timers ask it of every table at every change (issue 31): the cheapest
        questions first, each setting read once."""
        record = self.record
        since = record.turn_since
        if since is None or self.ping_due_for == since:
            return None
        after = self.ping_after
        if not after or not setting_of(record.settings, "pings") or not self.humans_to_act():
            return None
        return since + after

    def wants_ping(self) -> bool:
        """Whether the human(s) to act should have a ping now: at once (`ping_after` 0, or a
        turn stored before turn starts were), once idle `ping_after` s, or at half time."""
        record = self.record
        if record.turn_warned or not self.ping_after or record.turn_since is None:
            return True
        return self.ping_due_for == record.turn_since

    def humans(self) -> list[int]:
        return [s.user_id for s in self.seats if s is not None and s.user_id is not None]

    def free_positions(self) -> list[int]:
        return [p for p in POSITIONS if self.record.seats[p] is None]

    @property
    def is_full(self) -> bool:
        return not self.free_positions()

    def partner_answered(self, seat: int, version: int) -> bool:
        """Did the state the button was drawn for end with the partner's answer? (Truco: either
        player of a pair may answer; the second gets 'already answered'.)"""
        index = version - self.start_version  # the first action taken after that version
        actions = self.record.actions
        if not 0 <= index < len(actions):
            return False
        other, action = actions[index]
        return other != seat and team_of(other) == team_of(seat) and action in ANSWERS


@dataclass(frozen=True)
class ActResult:
    table: Table
    seat: int
    action: str
    events: list[Any]
    version: int


def rebuilt(record: TableRecord, now: float) -> Table:
    """The table a stored record describes: its game replayed from the action log."""
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
            # After a game, seats of players who left are empty (bot/tables/lobby.py): the
            # table must still come back (issue 33); its result was stored when the game ended.
            table.result = build_result(record, table.seat_of_position, game, now, since_left=True)
        forget_old_events(game)
    return table


class TableHost(Protocol):
    """What the lobby verbs, the bot seats and the turn timers use of the table service."""

    store: TableStore
    # The (shard_id, shard_count) pairs whose guilds this process owns; None: every guild.
    shards: list[tuple[int, int]] | None
    # New games deal fair (bot/tables/fair.py); False keeps the old seeded dealing.
    fair_deals: bool
    fair_version: int  # 2: the drand beacon cuts (docs/fair-deals.md); 1: the old cuts

    def now(self) -> float:
        """The service's clock (tests and the emulator move it)."""

    def new_seed(self) -> int:
        """The seed of a new game's deal."""

    @property
    def tables(self) -> list[Table]:
        """Every open table in memory."""

    def get(self, table_id: int) -> Table:
        """An open table, or NoSuchTable."""

    def find(self, table_id: int) -> Table | None:
        """An open table, or None."""

    def in_channel(self, channel_id: int) -> Table | None:
        """The open table of a channel."""

    def register(self, table: Table) -> None:
        """Hold a new (or taken in) table in memory."""

    async def close_table(self, table: Table) -> None:
        """Delete the table from the store and forget it (the caller holds its lock)."""

    async def stored_table_in(self, guild_id: int, channel_id: int) -> Table | None:
        """A channel's open table that another process stored, taken in."""

    def changed(self, table: Table, change: str) -> None:
        """Tell every listener (call it outside the table's lock)."""

    async def apply_locked(
        self,
        table: Table,
        seat: int,
        action: str,
        *,
        seats: list[SeatRecord | None] | None = None,
    ) -> list[Any]:
        """The one apply path (the caller holds the table's lock)."""
