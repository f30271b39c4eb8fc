"""One adapter so the table service treats Euchre and Truco alike.

Both engines satisfy one protocol (bot/engine/protocol.py) and are listed, with their options,
bot players and look-aheads, in bot/engine/registry.py. What differs is gathered here: how lobby
positions map to game seats (Euchre's draw for partners may reorder the players, E2) and which
options a table may carry; and how much of a game a table keeps in memory (the engine does the
trimming, this module decides when and how much).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine.common import ActionPairs, InvalidOptions
from bot.engine.fair_deal import CUT_PREFIX
from bot.engine.protocol import GameProtocol, OptionsProtocol
from bot.engine.registry import ENGINES, Engine, engine_for

GAME_NAMES: tuple[str, ...] = tuple(ENGINES)

# A game of either engine, as the service holds it.
EngineGame = GameProtocol


@dataclass(frozen=True)
class GameRules:
    """The engine of one game kind, seen through the surface both engines share."""

    name: str

    @property
    def engine(self) -> Engine:
        return engine_for(self.name)

    def options(self, data: dict[str, Any] | None) -> OptionsProtocol:
        """Validated engine options; unknown keys or bad values raise InvalidOptions."""
        return self.engine.options.from_dict(dict(data or {}))

    def normalise_options(self, data: dict[str, Any] | None) -> dict[str, Any]:
        """The full option dict (defaults filled in), as stored with the table."""
        return dict(self.options(data).to_dict())

    def new_game(self, options: dict[str, Any], seed: int) -> EngineGame:
        return self.engine.new_game(self.options(options), seed)

    def replay(
        self,
        options: dict[str, Any],
        seed: int,
        first_dealer: int | None,
        actions: list[tuple[int, str]],
    ) -> EngineGame:
        game = self.engine.game.replay(self.options(options), seed, first_dealer, list(actions))
        share_actions(game)
        return game

    def bot_action(self, game: EngineGame, seat: int) -> str:
        return self.engine.bot_action(game, seat)

    def bot_decision(self, view: dict[str, Any]) -> str:
        """`bot_action` from the seat's view (`game.view(seat)`) when the caller has it."""
        return self.engine.decide(view)

    def bot_signal(self, view: dict[str, Any]) -> str | None:
        """The honest signal a bot sends its partner before it acts (truco's sinais), or None,
        from the bot's view (`game.view(seat)`)."""
        return self.engine.bot_signal(view)

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
# holds hundreds of pairs, twice (the engine's and the table record's). Not the cuts: each is
# played once (a drand round's randomness, a message id), and would be held for good.
ACTION_PAIRS = ActionPairs(unshared=(CUT_PREFIX,))


def shared_pair(seat: int, action: str) -> tuple[int, str]:
    return ACTION_PAIRS.share(seat, action)


def share_actions(game: EngineGame) -> None:
    """Put the shared pairs in the game's log in place of its own tuples (same values)."""
    game.share_actions(ACTION_PAIRS)


# Enough trailing events for the table message's log (six sentences) whatever the hands were:
# a thrown-in hand or a refused mão de dez is only a handful of events. The previous hand and
# this one are always kept besides (forget_events), so this only bounds short hands. Kept
# events are most of a busy table's memory: 64 held about 69 euchre events at 100 actions
# (22 KB of the engine's 25 KB), 24 about 30 (11 KB); issue 31's target is 30 KB a table.
KEEP_EVENTS = 24


def forget_old_events(game: EngineGame) -> None:
    """Drop the events of old hands (the engine's `forget_events`). A table in memory shows only
    the previous hand's events and this hand's (the last hand's picture) and the latest few
    sentences (the table message's log); without this a long game grows by every event.
    `replay` brings all of them back (the result's statistics, the game log)."""
    game.forget_events(KEEP_EVENTS)
