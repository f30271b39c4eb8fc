"""Every engine by its game name, listed here once (no dynamic import): the game class, its
options class, the rule player and the look-ahead. Listing the classes as `type[GameProtocol]`
is where mypy checks that both engines satisfy the protocol (bot/engine/protocol.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.engine import euchre, truco
from bot.engine.common import InvalidOptions
from bot.engine.euchre import bot_player as euchre_bot
from bot.engine.euchre import search as euchre_search
from bot.engine.protocol import GameProtocol, OptionsProtocol
from bot.engine.truco import bot_player as truco_bot
from bot.engine.truco import search as truco_search

# search(view, hand history, iterations, seed) -> action: the look-ahead works from what one
# seat may know, so it runs in a worker process on picklable inputs.
Search = Callable[[dict[str, Any], list[tuple[int, str]], int, int], str]


@dataclass(frozen=True, slots=True)
class Engine:
    """One game's engine."""

    name: str
    game: type[GameProtocol]
    options: type[OptionsProtocol]
    # The rule player ("easy" bots): one of game.legal_actions(seat), from game.view(seat).
    bot_action: Callable[[GameProtocol, int], str]
    # The same rule player from the seat's view (bot_action(game, seat) is decide(game.view(
    # seat))): the table's bot seats read one view for the signal and the move (issue 31).
    decide: Callable[[dict[str, Any]], str]
    search: Search
    # The signal a bot sends its partner now (truco's sinais), from its view; None: none.
    bot_signal: Callable[[dict[str, Any]], str | None] = lambda _view: None

    def new_game(self, options: OptionsProtocol, seed: int) -> GameProtocol:
        """A new game, its first hand dealt (the first dealer drawn from the seed)."""
        return self.game.replay(options, seed, None, [])


ENGINES: Mapping[str, Engine] = {
    euchre.GAME_NAME: Engine(
        name=euchre.GAME_NAME,
        game=euchre.Game,
        options=euchre.Options,
        bot_action=euchre_bot.choose_action,
        decide=euchre_bot.decide,
        search=euchre_search.choose,
    ),
    truco.GAME_NAME: Engine(
        name=truco.GAME_NAME,
        game=truco.Game,
        options=truco.Options,
        bot_action=truco_bot.choose_action,
        decide=truco_bot.choose_from_view,
        search=truco_search.choose,
        bot_signal=truco_bot.signal_to_send,
    ),
}


def engine_for(name: str) -> Engine:
    try:
        return ENGINES[name]
    except KeyError:
        raise InvalidOptions(f"no such game: {name!r}") from None
