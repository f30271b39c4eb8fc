"""Euchre rules engine (shared/rules/euchre.md, E1–E22): standard library only.

    game = new_game(Options(target=10), seed=1234)
    seat = game.to_act[0]
    events = game.apply(seat, game.legal_actions(seat)[0])

See game.py for the state machine, events.py for every event kind, cards.py for card codes.
"""

from bot.engine.euchre.events import ALL_KINDS as EVENT_KINDS
from bot.engine.euchre.game import GAME_NAME, Game, InvalidDeal, new_game
from bot.engine.euchre.options import Options

__all__ = ["EVENT_KINDS", "GAME_NAME", "Game", "InvalidDeal", "Options", "new_game"]
