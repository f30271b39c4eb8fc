"""What the table service hands to storage and gets back: plain records, the store's interface
and the errors a store raises on purpose.

The service depends on `TableStore` only; `bot.storage.SqliteTableStore` and
`bot.storage.postgres.PgTableStore` implement it. Keeping the interface and its errors here
(discord-free, SQL-free) lets storage plug in without the service knowing SQL or importing storage.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


class StorageError(Exception):
    """Base of every error a store raises on purpose."""


class StoreConflict(StorageError):
    """The stored table is not the one the caller holds: another writer (a second process) moved
    it on, finished it or closed it. Nothing was written; the caller reloads the table."""


class StaleAppend(StoreConflict):
    """An append carried a version that is not exactly the stored version + 1: someone else (a
    double click, a racing partner, a second process) already moved the table on. Nothing was
    written."""

    def __init__(self, table_id: int, stored: int, given: int) -> None:
        super().__init__(f"table {table_id}: stored version {stored}, append carried {given}")
        self.table_id = table_id
        self.stored = stored
        self.given = given


class TableNotFound(StoreConflict):
    """No table with this id (never created, or already deleted)."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id} does not exist")
        self.table_id = table_id


class TableNotPlaying(StoreConflict):
    """An action was appended to a table that is in its lobby or already finished."""

    def __init__(self, table_id: int, status: str) -> None:
        super().__init__(f"table {table_id} is {status!r}, not 'playing'")
        self.table_id = table_id
        self.status = status


class ChannelTaken(Exception):
    """`TableStore.create_table` (or `start_game`): the store already holds an open (lobby or
    playing) table in this channel, perhaps made by another process. Nothing was written."""

    def __init__(self, channel_id: int) -> None:
        super().__init__(f"channel {channel_id} already has an open table")
        self.channel_id = channel_id


_BOT_NAME = re.compile(r"Bot (\d{1,3})")


def bot_number(name: str, position: int) -> int:
    """The number a bot seat is shown by: the one in its stored name ("Bot 6": a lobby names
    its bots by their seat, a tournament by their place in the night's field, so the same bot
    reads the same at its tables and in the standings); else its seat's."""
    match = _BOT_NAME.fullmatch(name)
    return int(match[1]) if match else position + 1


@dataclass(frozen=True)
class SeatRecord:
    """Who sits at one lobby position. A bot seat has no user id."""

    user_id: int | None
    name: str
    is_bot: bool = False
    level: str | None = None  # a bot's strength: "easy" | "normal" | "hard"; None for a human
    # A human's turns a bot played in a row when their turn timer ran out; `away` (3 or more):
    # the bot keeps playing for them at once until they are back.
    missed: int = 0
    away: bool = False
    left_user_id: int | None = None  # a bot seat left by this player mid-game

    @property
    def covered(self) -> bool:
        """A bot plays this human's turns (shown as "🤖 playing for @name")."""
        return not self.is_bot and (self.missed > 0 or self.away)


@dataclass
class TableRecord:
    """Everything needed to rebuild a table after a restart.

    `seats` is indexed by lobby position (0..3); the game's seat of each position is decided by
    the engine (the euchre draw may reorder them) and is a pure function of options and seed.
    """

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    game: str  # "euchre" | "truco"
    options: dict[str, Any]
    status: str = "lobby"  # "lobby" | "playing" | "finished"
    version: int = 0
    seats: list[SeatRecord | None] = field(default_factory=lambda: [None, None, None, None])
    message_id: int | None = None
    seed: int | None = None
    first_dealer: int | None = None
    actions: list[tuple[int, str]] = field(default_factory=list)
    created_at: float = 0.0
    started_at: float | None = None
    # Table settings that are not game rules (turn timer, pings, pictures): the engine never sees
    # them, so they may change while a game runs.
    settings: dict[str, Any] = field(default_factory=dict)
    # When a bot plays for the human to act (None: no timer running), and whether the
    # half-time warning went out. Stored with each action: a restart keeps the deadline.
    turn_deadline: float | None = None
    turn_warned: bool = False
    # When the turn reached the human(s) to act now (None: nobody to wait for): the idle ping
    # is due `ping_after` seconds later. Stored with each action, like the deadline.
    turn_since: float | None = None
    ping_message_id: int | None = None  # the table's one turn ping in its channel
    ready: list[int] = field(default_factory=list)  # who clicked "Play again" (finished table)
    # (hand number, game seat): who goes alone when euchre's question comes (bot/tables/alone.py).
    # Stored: the maker's with the bid, a private switch on its own; cleared by a new game.
    alone_intents: set[tuple[int, int]] = field(default_factory=set)


@dataclass(frozen=True)
class PlayerResult:
    seat: int  # game seat
    team: int  # 0 = seats 0 & 2, 1 = seats 1 & 3
    user_id: int | None  # None for a bot
    name: str
    is_bot: bool
    stats: dict[str, int]  # counters worth showing, e.g. {"marches": 1, "alone_calls": 2}


@dataclass(frozen=True)
class GameResult:
    """A finished game, written in the same transaction as its last action."""

    guild_id: int
    channel_id: int
    table_id: int
    game: str
    options: dict[str, Any]
    seed: int
    first_dealer: int | None
    actions: list[tuple[int, str]]
    started_at: float
    ended_at: float
    hands_played: int
    scores: tuple[int, int]
    winner_team: int
    margin: int | None  # euchre rubber margin (E22), else None
    players: Sequence[PlayerResult]
    # The winning team of each game played, in order: one entry for a single game, two or more
    # for a match (truco best of 3/5, euchre's rubber). Counted per game when the server says.
    game_winners: tuple[int, ...] = ()


class TableStore(Protocol):
    """Persistence of tables in play. Every method is one transaction."""

    async def create_table(self, table: TableRecord) -> int:
        """Insert a new table (its `id` is ignored) and return the new id."""

    async def save_lobby(self, table: TableRecord) -> None:
        """Store seats, options, settings, host, status, version, turn timer and ready list
        (a lobby; also a change of seats, timer or ready list while a game runs or is over)."""

    async def set_turn(self, table_id: int, deadline: float | None, warned: bool) -> None:
        """Store the turn timer alone (the half-time warning went out)."""

    async def set_alone_intents(
        self, table_id: int, version: int, intents: Collection[tuple[int, int]]
    ) -> None:
        """Store the going-alone intents alone (a private switch: no new version). Raises
        StoreConflict (nothing written) unless the table is stored at `version`: another
        process moved it on or closed it."""

    async def set_ping(self, table_id: int, message_id: int | None) -> None:
        """Remember the table's turn ping message."""

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        """Remember the channel message that shows the table."""

    async def start_game(self, table: TableRecord) -> None:
        """A game begins: store seed, first dealer, seats, status, version and started_at,
        and clear the action log and the going-alone intents (play again reuses the table)."""

    async def append_action(
        self,
        table_id: int,
        seat: int,
        action: str,
        version: int,
        result: GameResult | None = None,
        *,
        deadline: float | None = None,
        since: float | None = None,
        seats: list[SeatRecord | None] | None = None,
        alone_intents: Collection[tuple[int, int]] | None = None,
    ) -> None:
        """Append one action and set the table's version, turn deadline and turn start
        (`since`; the warning is reset), with `seats` when they changed (a bot played for a
        human, a human is back) and `alone_intents` when they changed (a euchre maker's
        "Order up · alone": the answer is kept with the bid), in ONE transaction. With
        `result` (the action finished the game) the same transaction records the finished
        game, its players, their statistics and ratings, and marks the table finished.

        Raises StaleAppend (nothing written) unless `version` is the stored version + 1,
        TableNotFound, or TableNotPlaying when the table is in its lobby or finished. Once
        begun the write completes even if the caller is cancelled meanwhile (the caller's state
        already says it is written): the cancellation waits for it. How fast it goes is the
        store's business (SQLite writes at once on the event loop's connection when it can)."""

    async def delete_table(self, table_id: int) -> None:
        """The table is closed (cancelled or ended): forget it."""

    async def load_active(self, shard: tuple[int, int] | None = None) -> list[TableRecord]:
        """Every table in a lobby or in play (and finished ones still showing), with seats and
        action log, for the restore at start-up; with `shard=(shard_id, shard_count)` only the
        tables of guilds where `(guild_id >> 22) % shard_count == shard_id`."""

    async def get_table(self, table_id: int) -> TableRecord | None:
        """One table as `load_active` returns it, or None (another process changed it: the
        table service reloads it)."""


@dataclass(frozen=True)
class HouseRules:
    """A server's house rules for one game (issue 21): the options and table settings its new
    tables start with; only what an admin set (the rest follows the bot's defaults)."""

    options: dict[str, Any] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
