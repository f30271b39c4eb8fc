"""How a lobby verb stores its change: the table changes first (whatever renders it meanwhile sees
one consistent state), then one write; if the write fails, the table is put back as the store
has it and the error goes on.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from typing import Any

from bot.engine.common import EngineError
from bot.tables.errors import BadOptions, ChannelBusy
from bot.tables.fair import fair_options
from bot.tables.games import GameRules, rules_for
from bot.tables.records import ChannelTaken, SeatRecord, TableRecord
from bot.tables.settings import normalise_settings
from bot.tables.table import Table, TableHost


def new_record(
    host: TableHost,
    *,
    guild_id: int,
    channel_id: int,
    host_id: int,
    game: str,
    seats: list[SeatRecord | None],
    options: dict[str, Any] | None,
    settings: dict[str, Any] | None,
) -> tuple[TableRecord, GameRules]:
    """A new table's record, in its lobby, not stored yet: its options and settings checked
    (BadOptions when they do not hold) and normalised."""
    try:
        rules = rules_for(game)
        normalised = rules.normalise_options(options)
    except (EngineError, TypeError) as error:
        raise BadOptions(reason=str(error)) from None
    try:
        table_settings = normalise_settings(settings)
    except ValueError as error:
        raise BadOptions(reason=str(error)) from None
    record = TableRecord(
        id=0,
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=host_id,
        game=game,
        options=normalised,
        status="lobby",
        version=1,
        seats=seats,
        created_at=host.now(),
        settings=table_settings,
    )
    return record, rules


async def save_lobby(host: TableHost, table: Table, seats: list[SeatRecord | None]) -> None:
    """Seat the table as `seats` says, with a new version, and store it; if the write fails
    the table keeps its seats and version."""
    record = table.record
    with put_back_on_error(record, "seats", "version"):
        record.seats = seats
        record.version += 1
        await host.store.save_lobby(record)


async def save_seats(
    host: TableHost,
    table: Table,
    seats: list[SeatRecord | None],
    *,
    ready: list[int] | None = None,
) -> None:
    """A change of seats (or of the ready list) that is not a game action: stored with the
    turn timer it implies in one transaction, without a new version (bot/tables/lobby.py
    says why); if the write fails the table keeps its seats."""
    record = table.record
    with put_back_on_error(record, "seats", "ready", "turn_deadline", "turn_warned", "turn_since"):
        record.seats = seats
        if ready is not None:
            record.ready = ready
        if not table.humans_to_act():
            record.turn_deadline, record.turn_warned = None, False
            record.turn_since = None
        else:
            if record.turn_deadline is None:
                record.turn_deadline = table.turn_deadline(host.now())
                record.turn_warned = False
            if record.turn_since is None:
                record.turn_since = table.turn_since(host.now())
        await host.store.save_lobby(record)


async def start_game(
    host: TableHost, table: Table, seats: list[SeatRecord | None] | None = None
) -> None:
    """A new game at a full table (with `seats`, when they change). Like an action, the
    state and the version change together before the write (renders stay consistent) and
    go back if it fails. Nobody is behind (missed turns) or ready any more."""
    record = table.record
    new_seats = [None if s is None else fresh_seat(s) for s in (seats if seats else record.seats)]
    # A lobby's seed was drawn when it opened (its hand 1 commitment is shown there); a game
    # played again draws its own.
    lobby_seed = record.seed if record.status == "lobby" else None
    seed = lobby_seed if lobby_seed is not None else host.new_seed()
    options = record.options
    if host.fair_deals:
        options = fair_options(record.options, new_seats, host.fair_version)
    game = table.rules.new_game(options, seed)
    seat_of_position = table.rules.seat_of_position(game)
    try:
        with (
            put_back_on_error(record, *GAME_FIELDS),
            put_back_on_error(table, "game", "seat_of_position", "result"),
        ):
            record.seats = new_seats
            record.options = options
            record.ready = []
            record.alone_intents = set()  # the last game's hand numbers come again
            record.turn_warned = False
            record.status = "playing"
            record.seed = seed
            record.first_dealer = game.first_dealer
            record.actions = []
            record.started_at = host.now()
            record.version += 1
            table.game = game
            table.seat_of_position = seat_of_position
            table.result = None
            record.turn_deadline = table.turn_deadline(host.now())
            record.turn_since = table.turn_since(host.now())
            await host.store.start_game(record)
    except ChannelTaken:
        # Another process opened a table in this channel since this one finished.
        stored = await host.stored_table_in(record.guild_id, record.channel_id)
        raise ChannelBusy(stored) from None


# What a new game changes of a table's record (and puts back if its write fails).
GAME_FIELDS = (
    "options",
    "status",
    "seed",
    "first_dealer",
    "actions",
    "started_at",
    "version",
    "seats",
    "ready",
    "alone_intents",
    "turn_deadline",
    "turn_warned",
    "turn_since",
)


@contextlib.contextmanager
def put_back_on_error(thing: object, *names: str) -> Iterator[None]:
    """The attributes `names` of `thing` as they were, if the block raises (a failed write: the
    table stays as the store has it)."""
    previous = [getattr(thing, name) for name in names]
    try:
        yield
    except BaseException:
        for name, value in zip(names, previous, strict=True):
            setattr(thing, name, value)
        raise


def fresh_seat(seat: SeatRecord) -> SeatRecord:
    """The seat at the start of a game: nobody behind; a bot that replaced a leaver is a bot."""
    if seat.is_bot:
        return dataclasses.replace(seat, left_user_id=None)
    return dataclasses.replace(seat, missed=0, away=False)
