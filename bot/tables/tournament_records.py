"""What the tournament service stores and the store's interface (no SQL here: bot/storage
implements it on both back-ends). A tournament is its config and its action log."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from bot.tables.records import StoreConflict


@dataclass
class TournamentRecord:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    config: dict[str, object]
    status: str  # lobby, playing, finished
    version: int  # the number of actions appended
    created_at: float
    message_id: int | None = None
    actions: list[str] = field(default_factory=list)


class TournamentTaken(StoreConflict):
    """The channel already holds a tournament that is not finished."""


class TournamentStale(StoreConflict):
    """An append that is not the next action (someone else appended it): nothing written."""


class TournamentStore(Protocol):
    async def create_tournament(self, record: TournamentRecord) -> int:
        """Insert (its id is ignored) and return the new id; TournamentTaken if the channel
        holds an open one."""

    async def append_tournament_action(
        self, tournament_id: int, version: int, action: str, status: str
    ) -> None:
        """Append `action` as number `version` (the stored version must be `version`), bump the
        version and store `status`, in one transaction; TournamentStale otherwise."""

    async def set_tournament_message(self, tournament_id: int, message_id: int | None) -> None:
        """Remember the channel message that shows the tournament."""

    async def load_tournaments(self) -> list[TournamentRecord]:
        """Every tournament that is not finished, with its actions (start-up)."""

    async def get_tournament(self, tournament_id: int) -> TournamentRecord | None:
        """One tournament, finished or not, with its actions (None: no such id)."""

    async def latest_tournament(self, channel_id: int) -> int | None:
        """The id of the channel's latest tournament, finished or not (None: never one)."""

    async def table_scores(self, table_id: int) -> tuple[int, int] | None:
        """The final score of the table's recorded game (None: none recorded)."""
