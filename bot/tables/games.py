"""One adapter so the table service treats Euchre and Truco alike.

Both engines share a shape (notes/engine-shape.md): `Options`, `new_game`, `Game.replay`,
`bot_player.choose_action`. What differs is gathered here: how lobby positions map to game seats
(Euchre's draw for partners may reorder the players, E2) and which options a table may carry.
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from bot.engine.common import InvalidOptions

GAME_NAMES: tuple[str, ...] = ("euchre", "truco")

# Engine games have no common base class (each engine is standalone); the service only uses the
# shared surface of engine-shape.md, so it holds them as `Any`.
EngineGame = Any


@dataclass(frozen=True)
class GameRules:
    """The engine of one game kind, seen through the surface both engines share."""

    name: str

    @property
    def module(self) -> ModuleType:
        # Imported on first use: the service module loads even while one engine is missing.
        return importlib.import_module(f"bot.engine.{self.name}")

    def options(self, data: dict[str, Any] | None) -> Any:
        """Validated engine options; unknown keys or bad values raise InvalidOptions."""
        module = self.module
        return module.Options.from_dict(dict(data or {}))

    def normalise_options(self, data: dict[str, Any] | None) -> dict[str, Any]:
        """The full option dict (defaults filled in), as stored with the table."""
        return dict(self.options(data).to_dict())

    def new_game(self, options: dict[str, Any], seed: int) -> EngineGame:
        return self.module.new_game(self.options(options), seed)

    def replay(
        self,
        options: dict[str, Any],
        seed: int,
        first_dealer: int | None,
        actions: list[tuple[int, str]],
    ) -> EngineGame:
        game = self.module.Game.replay(self.options(options), seed, first_dealer, list(actions))
        share_actions(game)
        return game

    def bot_action(self, game: EngineGame, seat: int) -> str:
        bot_player = importlib.import_module(f"bot.engine.{self.name}.bot_player")
        action: str = bot_player.choose_action(game, seat)
        return action

    def seat_of_position(self, game: EngineGame) -> list[int]:
        """The game seat of each lobby position (0..3).

        Identity unless the engine reordered the players (Euchre's `seating=draw`, E2), which it
        exposes as `game.seat_of_position` (and in its `seating_drawn` event)."""
        seating = getattr(game, "seat_of_position", None)
        if seating is None:
            return [0, 1, 2, 3]
        order = [int(s) for s in seating]
        if sorted(order) != [0, 1, 2, 3]:
            raise InvalidOptions(f"engine seating is not a permutation: {order!r}")
        return order


RULES: dict[str, GameRules] = {name: GameRules(name) for name in GAME_NAMES}


def rules_for(game: str) -> GameRules:
    try:
        return RULES[game]
    except KeyError:
        raise InvalidOptions(f"no such game: {game!r}") from None


# One (seat, action) tuple for each pair ever played, shared by every table's logs: a game's log
# holds hundreds of pairs, twice (the engine's and the table record's). Bounded: only actions an
# engine accepted get here, and the games have a few hundred distinct ones.
_PAIRS: dict[tuple[int, str], tuple[int, str]] = {}


def shared_pair(seat: int, action: str) -> tuple[int, str]:
    pair = _PAIRS.get((seat, action))
    if pair is None:
        pair = _PAIRS[(seat, action)] = (seat, sys.intern(action))
    return pair


def share_actions(game: EngineGame) -> None:
    """Put the shared pairs in the game's log in place of its own tuples (same values)."""
    actions: list[tuple[int, str]] = game.actions
    actions[:] = [shared_pair(seat, action) for seat, action in actions]


HAND_DEALT = "hand_dealt"  # both engines start every hand with this event
# Enough trailing events for the table message's log (six sentences) whatever the hands were:
# a thrown-in hand or a refused mão de dez is only a handful of events.
KEEP_EVENTS = 64


def forget_old_events(game: EngineGame) -> None:
    """Drop the events of old hands. A table in memory shows only the previous hand's events
    and this hand's (the last hand's picture) and the latest few sentences (the table message's
    log); without this a long game grows by every event. The cut is at a hand's start, at least
    one hand back and at least KEEP_EVENTS back. `replay` brings all of them back (the result's
    statistics, the game log)."""
    events = game.events
    if len(events) <= KEEP_EVENTS:
        return
    starts = [index for index, event in enumerate(events) if event.kind == HAND_DEALT]
    cuts = [i for i in starts[:-1] if len(events) - i >= KEEP_EVENTS]
    if cuts and cuts[-1] > 0:
        del events[: cuts[-1]]
