"""A table opened already seated and started (issue 23: a tournament's table in its thread): no
lobby, the players (and bots) it is given, the game dealt at once. The one write path of the
lobby verbs is used (create, then start_game), so it is stored, restored and played like any
table."""

from __future__ import annotations

from typing import Any

from bot.tables.errors import BadOptions
from bot.tables.lobby_writes import new_record, save_seats, start_game
from bot.tables.records import SeatRecord
from bot.tables.table import CHANGE_SEATS, CHANGE_STARTED, Table, TableHost


async def open_seated_table(
    host: TableHost,
    *,
    guild_id: int,
    channel_id: int,
    host_id: int,
    game: str,
    seats: list[SeatRecord],
    options: dict[str, Any] | None = None,
    settings: dict[str, Any] | None = None,
) -> Table:
    """The started table of a channel that has none (a new thread), seated as `seats` says."""
    if len(seats) != 4:
        raise BadOptions(reason="a table seats four")
    record, rules = new_record(
        host,
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=host_id,
        game=game,
        seats=list(seats),
        options=options,
        settings=settings,
    )
    record.id = await host.store.create_table(record)
    table = Table(record=record, rules=rules)
    host.register(table)
    async with table.lock:
        await start_game(host, table)
    host.changed(table, CHANGE_STARTED)
    return table


async def set_turn_timer(host: TableHost, table: Table, seconds: int) -> None:
    """A running table's turn timer (a tournament's round timer ran out: turn timers take over).
    Stored with the seats, as a lobby change is; the turn timers listener arms it."""
    async with table.lock:
        if table.closed or table.status != "playing":
            return
        record = table.record
        previous = record.settings
        record.settings = {**previous, "turn_timer": seconds}
        try:
            await save_seats(host, table, list(record.seats))  # arms the turn's deadline
        except BaseException:
            record.settings = previous
            raise
    host.changed(table, CHANGE_SEATS)
