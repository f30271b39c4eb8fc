"""What the table service refuses, each with the catalog key of the one sentence the user gets.

The service never produces text: `key` names a sentence of bot/texts and `values` fills it in.
Every refusal leaves the table exactly as it was.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.engine.common import EngineError, GameOver, IllegalAction, NotYourTurn

if TYPE_CHECKING:
    from bot.tables.table import Table


class TableError(Exception):
    """A refusal the user caused (not a bug): answered with one short sentence."""

    key = "table.error.refused"

    def __init__(self, table: Table | None = None, **values: Any) -> None:
        super().__init__(self.key)
        self.table = table
        self.values = values


class NoSuchTable(TableError):
    key = "table.error.no_table"


class ChannelBusy(TableError):
    """A table is already active in this channel; `table` is that table."""

    key = "table.error.channel_busy"


class BadOptions(TableError):
    key = "table.error.bad_options"


class NotInLobby(TableError):
    key = "table.error.not_in_lobby"


class NotPlaying(TableError):
    key = "table.error.not_playing"


class NotFinished(TableError):
    key = "table.error.not_finished"


class NotSeated(TableError):
    key = "table.error.not_seated"


class AlreadySeated(TableError):
    key = "table.error.already_seated"


class SeatTaken(TableError):
    key = "table.error.seat_taken"


class TableFull(TableError):
    key = "table.error.table_full"


class UnknownBotLevel(TableError):
    key = "table.error.bad_bot_level"


class NotHost(TableError):
    key = "table.error.not_host"


class NotAllowedToEnd(TableError):
    key = "table.error.not_allowed_to_end"


class SeatsNotFilled(TableError):
    key = "table.error.seats_not_filled"


class StaleVersion(TableError):
    """The button was drawn for an older state of the table. `partner_answered` says the newer
    state began with the clicker's partner answering the same question (Truco asks, T9)."""

    key = "table.error.stale"

    def __init__(self, table: Table, seat: int, *, partner_answered: bool = False) -> None:
        super().__init__(table)
        self.seat = seat
        self.partner_answered = partner_answered


class ActionRefused(TableError):
    """The engine refused the action (the state is unchanged)."""

    key = "table.error.illegal"

    def __init__(self, table: Table, key: str) -> None:
        super().__init__(table)
        self.key = key

    @classmethod
    def from_engine(cls, table: Table, error: EngineError) -> ActionRefused:
        # AlreadyAnswered (truco) is a NotYourTurn: test it first, by name, so this module does
        # not depend on one engine.
        if type(error).__name__ == "AlreadyAnswered":
            return cls(table, "table.error.already_answered")
        if isinstance(error, NotYourTurn):
            return cls(table, "table.error.not_your_turn")
        if isinstance(error, GameOver):
            return cls(table, "table.error.game_over")
        if isinstance(error, IllegalAction):
            return cls(table, "table.error.illegal")
        return cls(table, "table.error.illegal")


class NotAway(TableError):
    """ "I'm back" from a player whose seat no bot is playing."""

    key = "table.error.not_away"


class AlreadyReady(TableError):
    key = "table.error.already_ready"


class NoBotSeat(TableError):
    key = "table.error.no_bot_seat"
