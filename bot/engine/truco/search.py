"""Look-ahead for a Truco seat: determinized sampling (PIMC) over the engine itself.

`choose(view, history, iterations, seed)` reads only what the seat may know: its view (its own
cards, the partner's in a hand of ten, T13) and this hand's actions (all public). For each
sample it deals the unseen cards at random, replays the hand on a real engine from that deal and
the current score, tries every legal action on a copy and plays the hand out with the rule
player (bot_player) for all four seats. An outcome is worth our chance of winning the game from
the score it leaves (`win_chance`), so the search knows the score: a point near 12, a hand of
ten or an iron hand weigh what they are worth, and a raise is only as good as the answers it
meets across the sampled hands, so an always-raising bluffer meets a called bluff.

Deterministic: the samples come from `Rng(seed)` and `iterations` alone (never the clock).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from bot.engine.common import Rng
from bot.engine.truco import bot_player
from bot.engine.truco.cards import DECK
from bot.engine.truco.game import Game
from bot.engine.truco.options import Options

_HAND_POINTS = 2  # an ordinary hand: the unit of the win-chance table


@cache
def win_chance(ours: int, theirs: int, target: int) -> float:
    """Our chance of reaching `target` first if every hand from here is a fair coin worth 2."""
    if ours >= target:
        return 1.0
    if theirs >= target:
        return 0.0
    return 0.5 * (
        win_chance(ours + _HAND_POINTS, theirs, target)
        + win_chance(ours, theirs + _HAND_POINTS, target)
    )


def _value(game: Game, team: int) -> float:
    if game.is_over:
        return 1.0 if game.winner == team else 0.0
    scores = game.scores
    return win_chance(scores[team], scores[1 - team], game.options.target)


def _rollout(game: Game, team: int) -> float:
    hand_number = game.hand_number
    while not game.is_over and game.hand_number == hand_number:
        seat = game.to_act[0]
        game.apply(seat, bot_player.choose_from_view(game.view(seat)))
    return _value(game, team)


def _sample(
    view: dict[str, Any],
    history: list[tuple[int, str]],
    options: Options,
    rng: Rng,
) -> Game:
    seat: int = view["seat"]
    played: list[list[str]] = [[], [], [], []]
    for s, action in history:
        if action.startswith("play:"):
            played[s].append(action[5:])
    known: list[list[str] | None] = [None, None, None, None]
    known[seat] = list(view["hand"])
    if view["partner_hand"] is not None:
        known[(seat + 2) % 4] = list(view["partner_hand"])
    seen = {c for hand in known if hand for c in hand} | {c for p in played for c in p}
    pool = rng.shuffled([c for c in DECK if c not in seen])
    hands: list[list[str]] = []
    for s in range(4):
        hand = known[s]
        if hand is None:
            size = view["hand_sizes"][s]
            hand, pool = pool[:size], pool[size:]
        hands.append(hand + played[s])
    scores = (view["scores"][0], view["scores"][1])
    # The hand in play is hand 0 of the look-ahead game; the deal of any later hand is the same
    # (a look-ahead stops when its hand ends).
    game = Game(options, 0, view["dealer"], lambda _n, _d: hands, scores=scores)
    for s, action in history:
        game.apply(s, action)
    return game


def choose(view: dict[str, Any], history: list[tuple[int, str]], iterations: int, seed: int) -> str:
    """The legal action with the best sampled chance to win the game; about `iterations`
    play-outs in all."""
    legal: list[str] = view["legal_actions"]
    if len(legal) == 1:
        return legal[0]
    seat: int = view["seat"]
    options = Options.from_dict(view["options"])
    rng = Rng(seed)
    totals = [0.0] * len(legal)
    for _ in range(max(1, iterations // len(legal))):
        base = _sample(view, history, options, rng)
        for i, action in enumerate(legal):
            game = base.copy()
            game.apply(seat, action)
            totals[i] += _rollout(game, seat % 2)
    return legal[max(range(len(legal)), key=totals.__getitem__)]


def choose_action(game: Game, seat: int, iterations: int, seed: int) -> str:
    """`choose` on what `seat` may see of `game` (its view and the hand's public actions)."""
    return choose(game.view(seat), game.hand_history(seat), iterations, seed)
