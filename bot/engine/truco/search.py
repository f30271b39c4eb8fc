"""Look-ahead for a Truco seat: determinized sampling (PIMC) over the engine itself.

`choose(view, history, iterations, seed)` reads only what the seat may know: its view (its own
cards, the partner's in a hand of ten, T13) and this hand's actions (all public). Each sample
deals the unseen cards uniformly at random, consistent with the view (the cards played, the
seat's own hand, the partner's in a hand of ten), and replays the hand on a real engine from
that deal and the current score.

Raises and answers are decided on the betting tree, not by the samples one by one. What can be
said from here on (raise, accept, run, T9-T11) does not depend on the hidden cards, so the tree
is the same in every sample; its leaves are either a run (the points are known) or the hand
played out at the stake reached. A played-out leaf is worth, averaged over the samples, the
chance to win the game from the score it leaves (`win_chance`): with q the share of samples in
which our pair takes the hand when the cards are played out (by the rule player's card play,
with no more raising), q * W(ours + stake) + (1 - q) * W(theirs + stake). Our pair's nodes take
the best child and the other pair's the worst, on those averages: the other pair cannot see
which sample is the real deal, and its ask tells nothing sure about its cards (a bluffer asks
with anything), so an ask is answered by the equity of our cards against every hand they may
hold at the stake offered, against the points a run gives away; and our own raise is worth what
the worst answer to it leaves us (no fold is counted on: a raise must pay when called and when
raised back). The score enters through W, so a point near 12, a hand of ten or an iron hand
weigh what they are worth.

Deterministic: the samples come from `Rng(seed)` and `iterations` alone (never the clock).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from bot.engine.common import Rng
from bot.engine.truco.cards import DECK, STRENGTH
from bot.engine.truco.game import PHASE_PLAY, PLAY_ACTION, RAISE, Game
from bot.engine.truco.options import Options

_HAND_POINTS = 2  # an ordinary hand: the unit of the win-chance table
# The strength of a `play:<card>` action, for the play-outs' card choice.
_ACTION_STRENGTH: dict[str, int] = {PLAY_ACTION[card]: STRENGTH[card] for card in DECK}
_SORT_KEY: dict[str, tuple[int, str]] = {
    PLAY_ACTION[card]: (STRENGTH[card], card) for card in DECK
}

# A betting-tree node: ("max" | "min", [(action, child), ...]); ("leaf", key, stake): the hand
# played out at `stake` after our seat plays `key` (None: from the player on turn);
# ("end", value): the hand ended by a run, its value known.
Node = tuple[Any, ...]


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


def _card(game: Game, seat: int) -> str:
    """The rule player's card (bot_player._card_to_play) read straight off a sampled game:
    lead the strongest; let the partner's winning card stand with the weakest; else the cheapest
    card that takes the round, a tie when a tie helps, or the weakest."""
    hand = sorted(game._hands[seat], key=_SORT_KEY.__getitem__)
    trick = game._trick
    if not trick:
        return hand[-1]
    team = seat & 1
    best = -1
    on_top = 0
    for s, c in trick:
        value = STRENGTH[c]
        if value > best:
            best, on_top = value, 1 << (s & 1)
        elif value == best:
            on_top |= 1 << (s & 1)
    if on_top == 1 << team:
        return hand[0]
    tying = None
    for action in hand:
        value = _ACTION_STRENGTH[action]
        if value > best:
            return action
        if value == best and tying is None:
            tying = action
    if tying is not None:
        results = game._results
        if not results or results[0] == team:  # T8: a tie helps here
            return tying
    return hand[0]


def _hand_winner(game: Game, key: str | None, seat: int) -> int:
    """Plays the hand out on `game` (changed) with cards only: every ask pending or to come is
    accepted, nobody raises; `key`, if given, is our seat's card. The pair that takes the hand."""
    before = game.scores
    hand_number = game.hand_number
    while game.phase != PHASE_PLAY:
        game.apply(game.to_act[0], "accept")
    if key is not None:
        game.apply(seat, key)
    while not game.is_over and game.hand_number == hand_number:
        turn = game._turn
        game.apply(turn, _card(game, turn))
    after = game.scores
    return 0 if after[0] > before[0] else 1


def _expand(game: Game, seat: int, team: int, hand_number: int, keys: set[str | None]) -> Node:
    """The betting tree from `game` (a sample: only the public state and our own cards shape it)."""
    if game.is_over or game.hand_number != hand_number:
        return ("end", _value(game, team))
    if game.phase == PHASE_PLAY:
        turn = game.to_act[0]
        if turn != seat:
            keys.add(None)
            return ("leaf", None, game.hand_value)
        return ("max", _children(game, seat, game.legal_actions(seat), seat, team, keys))
    actor = game.to_act[0]
    kind = "max" if actor & 1 == team else "min"
    return (kind, _children(game, actor, game.legal_actions(actor), seat, team, keys))


def _children(
    game: Game, actor: int, actions: list[str], seat: int, team: int, keys: set[str | None]
) -> list[tuple[str, Node]]:
    out: list[tuple[str, Node]] = []
    for action in actions:
        if game.phase == PHASE_PLAY and action != RAISE:
            keys.add(action)
            out.append((action, ("leaf", action, game.hand_value)))
            continue
        child = game.copy()
        child.apply(actor, action)
        out.append((action, _expand(child, seat, team, game.hand_number, keys)))
    return out


def _worth(node: Node, wins: dict[str | None, float], scores: tuple[int, int], target: int) -> float:
    kind = node[0]
    if kind == "end":
        return float(node[1])
    if kind == "leaf":
        q = wins[node[1]]
        stake = node[2]
        ours, theirs = scores
        return q * win_chance(ours + stake, theirs, target) + (1 - q) * win_chance(
            ours, theirs + stake, target
        )
    values = [_worth(child, wins, scores, target) for _, child in node[1]]
    return max(values) if kind == "max" else min(values)


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


def evaluate(
    view: dict[str, Any], history: list[tuple[int, str]], iterations: int, seed: int
) -> list[tuple[str, float]]:
    """Each legal action with its sampled chance to win the game (about `iterations` play-outs
    in all)."""
    legal: list[str] = view["legal_actions"]
    seat: int = view["seat"]
    team = seat & 1
    options = Options.from_dict(view["options"])
    rng = Rng(seed)
    first = _sample(view, history, options, rng)
    keys: set[str | None] = set()
    root = _children(first, seat, legal, seat, team, keys)
    order = sorted(keys, key=lambda k: "" if k is None else k)
    samples = max(1, iterations // max(1, len(order)))
    wins = dict.fromkeys(order, 0.0)
    for n in range(samples):
        base = first if n == 0 else _sample(view, history, options, rng)
        for key in order:
            if _hand_winner(base.copy(), key, seat) == team:
                wins[key] += 1
    for key in order:
        wins[key] /= samples
    scores = (view["scores"][team], view["scores"][1 - team])
    return [(action, _worth(node, wins, scores, options.target)) for action, node in root]


def choose(view: dict[str, Any], history: list[tuple[int, str]], iterations: int, seed: int) -> str:
    """The legal action with the best sampled chance to win the game."""
    legal: list[str] = view["legal_actions"]
    if len(legal) == 1:
        return legal[0]
    values = evaluate(view, history, iterations, seed)
    best, best_value = values[0]
    for action, value in values[1:]:
        if value > best_value:
            best, best_value = action, value
    return best


def choose_action(game: Game, seat: int, iterations: int, seed: int) -> str:
    """`choose` on what `seat` may see of `game` (its view and the hand's public actions)."""
    return choose(game.view(seat), game.hand_history(seat), iterations, seed)
