"""Truco Mineiro (shared/rules/truco.md, T1-T14): a pure, seeded, replayable state machine."""

from bot.engine.truco.errors import AlreadyAnswered
from bot.engine.truco.game import GAME_NAME, TURN_STEP, Game, new_game
from bot.engine.truco.options import Options

__all__ = ["GAME_NAME", "TURN_STEP", "AlreadyAnswered", "Game", "Options", "new_game"]
