"""The surface of a game engine, as the tables layer sees it: both engines satisfy these
protocols, and mypy checks that they do where bot/engine/registry.py lists them.

A game is a pure function of (options, seed, first dealer, actions): the tables layer moves it
with `apply`, reads it through the members below and never writes its attributes; to hold a
long game in less memory it asks the game itself (`share_actions`, `forget_events`), whose
view, legal actions and record stay as they were.

Members are read-only properties here so that a plain attribute (Euchre's `to_act`) and a
property (Truco's) both satisfy them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Protocol, Self, runtime_checkable

from bot.engine.common import ActionPairs, Event


class OptionsProtocol(Protocol):
    """A game's table options, stored as a plain dict: `from_dict` validates (InvalidOptions on
    an unknown key or a bad value), `to_dict` gives them back with the defaults filled in."""

    def to_dict(self) -> dict[str, Any]: ...

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self: ...


@runtime_checkable
class GameProtocol(Protocol):
    """One game (or rubber) of either engine."""

    GAME_NAME: ClassVar[str]

    @property
    def options(self) -> OptionsProtocol: ...
    @property
    def seed(self) -> int: ...
    @property
    def first_dealer(self) -> int: ...
    @property
    def actions(self) -> list[tuple[int, str]]:
        """Every (seat, action) applied so far, in order: with options and seed, the game."""

    @property
    def events(self) -> list[Event]:
        """What happened, in order; old hands' events may have been forgotten (forget_events)."""

    @property
    def hand_number(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def to_act(self) -> list[int]: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def phase(self) -> str:
        """The phase's name ("cut" while a fair-v1 hand waits for its cut)."""

    @property
    def winner(self) -> int | None:
        """The winning team (0 or 1) once the game is over."""

    @property
    def scores(self) -> tuple[int, int]: ...

    def apply(self, seat: int, action: str) -> list[Event]:
        """One step; an EngineError leaves the state exactly as it was."""
        ...

    def legal_actions(self, seat: int) -> list[str]: ...

    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (None: the table, no hidden card)."""
        ...

    def hand_history(self, seat: int) -> list[tuple[int, str]]:
        """This hand's actions as `seat` saw them (a look-ahead's input, with the view)."""
        ...

    def fair_records(self) -> list[dict[str, Any]]:
        """The revealed hand records of a fair-v1 game (docs/fair-deals.md); [] otherwise."""

    def fair_view(self) -> dict[str, Any] | None:
        """`view(None)["fair"]` alone: the public fair-deal object, None for a seeded game."""
        ...

    @property
    def cards_down(self) -> bool:
        """A card of the trick in progress is on the table (`view(None)["trick"]` not empty)."""

    def to_json(self) -> dict[str, Any]: ...

    def share_actions(self, pairs: ActionPairs, start: int = 0) -> None: ...

    def forget_events(self, keep: int) -> None: ...

    @classmethod
    def replay(
        cls,
        options: Any,
        seed: int,
        first_dealer: int | None,
        actions: Sequence[Sequence[Any]],
        *,
        deals: Any = None,
    ) -> Self: ...

    @classmethod
    def from_json(cls, data: dict[str, Any], *, deals: Any = None) -> Self: ...
