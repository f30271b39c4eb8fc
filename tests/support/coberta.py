"""A truco game with coberta (T15) at a known point: the first round played, covers legal."""

from __future__ import annotations

from bot.engine.truco import Game, Options, new_game

FIRST_ROUND = {0: "play:3C", 3: "play:4S", 2: "play:4H", 1: "play:4D"}


def coberta_game(*, coberta: bool = True) -> Game:
    return new_game(Options(coberta=coberta), 3, first_dealer=1, deals=lambda _n, _d: DEAL)


def play(game: Game, actions: dict[int, str]) -> list:
    """Each seat's action when its turn comes (one round); the round's events."""
    events = []
    for _ in range(len(actions)):
        seat = game.to_act[0]
        events += game.apply(seat, actions[seat])
    return events


DEAL: list[list[str]] = [
    ["4C", "3C", "6H"],
    ["7H", "4D", "5D"],
    ["AS", "4H", "5H"],
    ["7D", "4S", "6D"],
]
