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
chance to win the game from the score it leaves (`win_chance`, W): with q the share of samples
in which our pair takes the hand when the cards are played out (the rule player's card play for
all four seats, with no more raising), q * W(ours + stake) + (1 - q) * W(theirs + stake). Our
pair's nodes take the best child and the other pair's the worst, on those averages: the other
pair cannot see which sample is the real deal, and its ask tells nothing sure about its cards (a
bluffer asks with anything), so an ask is answered by the equity of our cards against every hand
they may hold at the stake offered, against the points a run gives away; and our own raise is
worth what the worst answer to it leaves us (no fold is counted on: a raise must pay when called
and when raised back). Where a leaf leaves a raise open for later in the hand, the samples are
split by what the next round shows everyone (which pair takes it, or a tie): in each part the
pair holding the raise uses it when that part's equity makes it pay (our raise at its worst
answer, theirs at our best answer), so accepting now and raising once the next round is seen is
weighed against raising at once. The score enters through W, so a point near 12, a hand of ten
or an iron hand weigh what they are worth.

Coberta (T15): another seat's covered card is `cover:?` in the history and face down in the
view; each sample draws it from the unseen cards like the cards still held. The play-outs never
cover (a card covered below the round's best changes nothing), but our own covers are weighed.

Inference (inference.py): the partner's signal (sinais) shapes the partner's drawn cards, and
the other pair's accepts and raises weigh the deals seat by seat, on the cards each seat held
when it spoke, as much as that pair's betting this game (the view's public "betting" record,
inference.Bettor) says they mean: a pair that raises every hand and never runs tells nothing by
raising or accepting. The same record shapes the other pair's nodes of the betting tree
(`_Stakes.their`): a pair that never runs is not counted on to run from our raise, one that
raises whatever it holds is counted on to raise, and against it a later hand is worth more than
a coin to us (EDGE: our answers pick which of its raises to play), so the hand in play is not
staked on a small edge. A pair that has run from our asks is modelled as answering on its
cards (`follows`): each deal's play-outs are also counted by the answer its answering seat
would give there (run, accept or raise back, as the rule player's power says), and our ask is
worth those answers deal by deal, so it wins the points where the other pair is weak. The other
pair's cards played face up weigh the deals too: a deal where a seat's card is not the one the
rule player's card choice takes from the cards it gives that seat counts MISPLAY as much (the
rule player leads its strongest card, so a low lead says the rest is lower).

Bluffs: a raise the cards do not call for is made at the rate of `bluff_rate` when the search
values it within BLUFF_MARGIN of the best.

`iterations` is the number of sampled deals; each is played out once per card we may play now
(once if we play none now), with quick play-outs that settle rounds as the engine does.

Deterministic: the samples come from `Rng(seed)` and `iterations` alone (never the clock).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

from bot.engine.common import Rng
from bot.engine.fair_deal import SEEDED
from bot.engine.truco.bot_player import ACCEPT_POWER, RAISE_POWER, card_power, round_standing
from bot.engine.truco.cards import DECK, FACE_DOWN, STRENGTH
from bot.engine.truco.events import HAND_WON
from bot.engine.truco.game import (
    ACCEPT,
    COVER_PREFIX,
    HIDDEN_COVER,
    NEXT_SEAT,
    PHASE_PLAY,
    PLAY_PREFIX,
    RAISE,
    RAISES,
    RUN,
    Game,
    decide_hand,
)
from bot.engine.truco.inference import SIGNAL_TRIES, Bettor, Reading, played_since
from bot.engine.truco.options import Options

_HAND_POINTS = 2  # an ordinary hand: the unit of the win-chance table
# The rule player's order of a hand: weakest first (bot_player._card_to_play).
_SORT_KEY: dict[str, tuple[int, str]] = {card: (STRENGTH[card], card) for card in DECK}
# A card face down in the round (T15) beats and ties nothing.
_STRENGTH: dict[str, int] = {**STRENGTH, FACE_DOWN: -1}

# A betting-tree node: ("max" | "min", [(action, child), ...]); ("leaf", key, stake): the hand
# played out at `stake` after our seat plays `key` (None: from the player on turn);
# ("end", (ours, theirs), hand): the hand ended by a run, the score it left (the target for the
# winner of a game it ended) and hand: 1.0 if our pair took it.
Node = tuple[Any, ...]


# A pair's chance to take its hand of ten, spread over the deals it may see (its six cards): it
# plays the ones that pay (T13). Centred on the edge of an ordinary hand.
_TEN_SPREAD = (-0.3, -0.1, 0.1, 0.3)


@cache
def win_chance(ours: int, theirs: int, target: int, edge: float = 0.5) -> float:
    """Our chance of reaching `target` first if every ordinary hand from here is worth 2 and
    ours with chance `edge` (0.5: a fair coin). A pair at ten (`target` - 2) plays a hand of
    ten (T13) when its cards make it pay -- worth 4, or 2 to the others when refused -- and at
    ten each the iron hand decides the game (T14)."""
    if ours >= target:
        return 1.0
    if theirs >= target:
        return 0.0
    ten = target - 2
    if ours == ten and theirs == ten:
        return edge
    if theirs == ten:
        return 1.0 - win_chance(theirs, ours, target, 1.0 - edge)
    if ours == ten:
        refuse = win_chance(ours, theirs + _HAND_POINTS, target, edge)
        lose = win_chance(ours, theirs + 2 * _HAND_POINTS, target, edge)
        total = 0.0
        for step in _TEN_SPREAD:
            p = min(1.0, max(0.0, edge + step))
            total += max(refuse, p + (1.0 - p) * lose)
        return total / len(_TEN_SPREAD)
    return edge * win_chance(ours + _HAND_POINTS, theirs, target, edge) + (1.0 - edge) * win_chance(
        ours, theirs + _HAND_POINTS, target, edge
    )


def _score_left(game: Game, team: int) -> tuple[int, int]:
    """The score a hand ended by a run leaves (ours, theirs); a game it ended: the target to
    its winner."""
    target = game.options.target
    if game.is_over:
        return (target, 0) if game.winner == team else (0, target)
    scores = game.scores
    return (scores[team], scores[1 - team])


def _card(hand: list[str], trick: list[tuple[int, str]], tie_helps: bool, team: int) -> str:
    """The rule player's card (bot_player._card_to_play), `hand` sorted weakest first: lead the
    strongest; let the partner's winning card stand with the weakest; else the cheapest card
    that takes the round, a tie when a tie helps (T8), or the weakest."""
    if not trick:
        return hand[-1]
    best = -1
    on_top = 0
    for s, c in trick:
        value = _STRENGTH[c]
        if value > best:
            best, on_top = value, 1 << (s & 1)
        elif value == best:
            on_top |= 1 << (s & 1)
    if on_top == 1 << team:
        return hand[0]
    tying = None
    for card in hand:
        value = STRENGTH[card]
        if value > best:
            return card
        if value == best and tying is None:
            tying = card
    if tying is not None and tie_helps:
        return tying
    return hand[0]


# How much a deal counts per card the other pair played that the rule player's card choice
# would not have played from the cards the deal gave that seat (policy inference: the rule
# player and the always-raise bluffer play by it; people mostly play alike).
MISPLAY = 0.1

# (seat, the card it played, the round before it, whether a tie helped its pair then, the cards
# that seat has played since)
Play = tuple[int, str, list[tuple[int, str]], bool, list[str]]


def card_plays(history: list[tuple[int, str]], rounds: list[int | None], team: int) -> list[Play]:
    """The other pair's cards played face up this hand, each with what the rule player's card
    choice reads (`rounds`: the winners of the finished rounds, None for a tie)."""
    out: list[Play] = []
    trick: list[tuple[int, str]] = []
    done = 0
    for i, (seat, action) in enumerate(history):
        if action.startswith(COVER_PREFIX):
            trick.append((seat, FACE_DOWN))
        elif action.startswith(PLAY_PREFIX):
            card = action[len(PLAY_PREFIX) :]
            # A seat that covered a card since (T15) held a face we cannot see: not read.
            covered = (seat, HIDDEN_COVER) in history[i + 1 :]
            if seat & 1 != team and not covered:
                helps = not done or rounds[0] == seat & 1
                out.append((seat, card, list(trick), helps, played_since(history, i, seat)))
            trick.append((seat, card))
        else:
            continue
        if len(trick) == 4:
            trick = []
            done += 1
    return out


def plays_weight(plays: list[Play], hands: list[list[str]]) -> float:
    """How much a deal counts by the other pair's card plays: MISPLAY per card that the rule
    player's choice would not have played from the seat's cards in this deal."""
    weight = 1.0
    for seat, card, trick, helps, since in plays:
        held = sorted([*hands[seat], *since, card], key=_SORT_KEY.__getitem__)
        if _card(held, trick, helps, seat & 1) != card:
            weight *= MISPLAY
    return weight


def play_out(
    hands: list[list[str]],
    trick: list[tuple[int, str]],
    results: list[int | None],
    turn: int,
    dealer: int,
    first: str | None = None,
) -> int:
    """The pair that takes the hand when its cards are played out by the rule player's card
    choice (nobody raises): `hands` the cards left by seat (changed), `trick` the round in play
    (FACE_DOWN for a covered card), `results` the rounds finished (winning pair, None for a
    tie), `turn` the seat to play, which plays `first` if given (`cover:<card>`: face down).
    Rounds are settled as the engine settles them (T6-T8 with the engine's `decide_hand`;
    tests/engine/test_ai_search.py checks that the two agree)."""
    return _play_out(hands, trick, results, turn, dealer, first)[0]


def _play_out(
    hands: list[list[str]],
    trick: list[tuple[int, str]],
    results: list[int | None],
    turn: int,
    dealer: int,
    first: str | None,
) -> tuple[int, int]:
    """`play_out`, and what the next round to end shows everyone: 0 or 1, the pair that took
    it, 2 a tie."""
    trick = list(trick)
    results = list(results)
    start = len(results)
    for hand in hands:
        hand.sort(key=_SORT_KEY.__getitem__)
    card = first
    while True:
        hand = hands[turn]
        if card is None:
            team = turn & 1
            # T8: a tie in the first round leaves the hand to the next; later it helps only
            # the pair that won the first round.
            card = _card(hand, trick, not results or results[0] == team, team)
        if card.startswith(COVER_PREFIX):
            hand.remove(card[len(COVER_PREFIX) :])
            trick.append((turn, FACE_DOWN))
        else:
            hand.remove(card)
            trick.append((turn, card))
        card = None
        if len(trick) < 4:
            turn = NEXT_SEAT[turn]
            continue
        best = -1
        best_seat = -1
        on_top = 0
        for s, c in trick:
            value = _STRENGTH[c]
            if value > best:
                best, best_seat, on_top = value, s, 1 << (s & 1)
            elif value == best:
                on_top |= 1 << (s & 1)
        if on_top == 3:  # T6: a tie; the round's leader leads again
            results.append(None)
            turn = trick[0][0]
        else:  # the first of the top cards takes the round, its player leads
            results.append(best_seat & 1)
            turn = best_seat
        trick = []
        if len(results) >= 2:
            decided = decide_hand(results, dealer & 1)
            if decided is not None:
                shown = results[start]
                return decided[0], 2 if shown is None else shown


def _expand(game: Game, seat: int, team: int, hand_number: int, keys: set[str | None]) -> Node:
    """The betting tree from `game` (a sample: only the public state and our own cards shape it)."""
    if game.is_over or game.hand_number != hand_number:
        return ("end", _score_left(game, team), _hand_taken(game, team))
    if game.phase == PHASE_PLAY:
        turn = game.to_act[0]
        if turn != seat:
            keys.add(None)
            return ("leaf", None, game.hand_value, _later(game, team))
        return ("max", _children(game, seat, game.legal_actions(seat), seat, team, keys))
    actor = game.to_act[0]
    kind = "max" if actor & 1 == team else "min"
    return (kind, _children(game, actor, game.legal_actions(actor), seat, team, keys))


def _hand_taken(game: Game, team: int) -> float:
    """1.0 if our pair took the hand that just ended (by a run), else 0.0."""
    for event in reversed(game.events):
        if event.kind == HAND_WON:
            return 1.0 if event.data["team"] == team else 0.0
    return 0.0


def _children(
    game: Game, actor: int, actions: list[str], seat: int, team: int, keys: set[str | None]
) -> list[tuple[str, Node]]:
    out: list[tuple[str, Node]] = []
    for action in actions:
        if game.phase == PHASE_PLAY and action != RAISE:
            keys.add(action)
            out.append((action, ("leaf", action, game.hand_value, _later(game, team))))
            continue
        child = game.copy()
        child.apply(actor, action)
        out.append((action, _expand(child, seat, team, game.hand_number, keys)))
    return out


def _later(game: Game, team: int) -> tuple[int, bool]:
    """Who may raise later in this hand once the cards are being played: (the ladder step of
    that raise, whether it is our pair), or (-1, False) when nobody may (T10, T13, T14)."""
    if not game._raise_open:
        return (-1, False)
    if game._last_asker < 0:  # nobody has asked: both pairs may, on their turns
        return (game._level, True)
    return (game._level, game._last_asker != team)


class _Stakes:
    """Values of the hand's outcomes at a score: W(ours + stake) if we take it, else
    W(theirs + stake) (W = win_chance)."""

    __slots__ = ("edge", "follows", "ours", "reckless", "runs", "target", "theirs")

    def __init__(
        self,
        scores: tuple[int, int],
        target: int,
        runs: float = 1.0,
        reckless: float = 0.0,
        edge: float = 0.5,
        follows: float = 0.0,
    ) -> None:
        self.ours, self.theirs = scores
        self.target = target
        # Our chance to take a later hand (0.5: a fair coin; more against a pair that raises
        # whatever it holds: our answers choose which of its raises to play).
        self.edge = edge
        # How the other pair bets (inference.Bettor): 1.0 / 0.0 is the pair that answers at
        # its best on the cards and raises only when it pays.
        self.runs = runs
        self.reckless = reckless
        # How far the other pair answers our asks on its cards, deal by deal (`_worth`).
        self.follows = follows

    def their(self, values: list[tuple[str, float]]) -> float:
        """The other pair's choice among `values` (action, our value): its best answer on the
        cards (our worst), as far as it runs when that is best (`runs`), and its raise as far
        as it raises whatever the cards (`reckless`)."""
        worst = min(value for _, value in values)
        if self.runs < 1.0 and len(values) > 1:
            stay = [value for action, value in values if action != RUN]
            if len(stay) < len(values):
                worst = self.runs * worst + (1.0 - self.runs) * min(stay)
        if self.reckless > 0.0:
            for action, value in values:
                if action == RAISE:
                    return self.reckless * value + (1.0 - self.reckless) * worst
        return worst

    def end(self, node: Node) -> float:
        """The value of a hand ended by a run."""
        ours, theirs = node[1]
        return win_chance(ours, theirs, self.target, self.edge)

    def won(self, points: int) -> float:
        return win_chance(self.ours + points, self.theirs, self.target, self.edge)

    def lost(self, points: int) -> float:
        return win_chance(self.ours, self.theirs + points, self.target, self.edge)

    def hold(self, q: float, stake: int) -> float:
        """The hand played out at `stake`, won with chance q."""
        return q * self.won(stake) + (1 - q) * self.lost(stake)

    def ask(self, q: float, level: int, run_value: int, ours: bool) -> float:
        """An ask of ladder step `level` (T9) by our pair (`ours`) or theirs, answered by the
        other pair's best answer to us -- run, accept or raise back -- on equity q alone."""
        worth = RAISES[level][1]
        options = [
            (RUN, self.won(run_value) if ours else self.lost(run_value)),
            ("accept", self.hold(q, worth)),
        ]
        if level + 1 < len(RAISES):
            options.append((RAISE, self.ask(q, level + 1, worth, not ours)))
        return self.their(options) if ours else max(value for _, value in options)


class _HandStakes(_Stakes):
    """The same tree valued by the chance to take this hand, whatever the score: a hand won
    is worth 1 and a hand lost 0, at any stake."""

    __slots__ = ()

    def end(self, node: Node) -> float:
        return float(node[2])

    def won(self, points: int) -> float:
        return 1.0

    def lost(self, points: int) -> float:
        return 0.0


Stats = dict[str | None, list[list[float]]]  # per continuation: deals, hands won (`_sampled`)
# How a pair that answers on its cards answers our ask: by the answering seat's power (its cards
# and its pair's rounds, as the rule player counts it), run below ACCEPT_POWER, raise back from
# RAISE_POWER + 1, else accept (bot_player._answer).
ANSWERS = (RUN, ACCEPT, RAISE)


def _answer_on(cards: list[str], rounds: int, forced: bool) -> int:
    """The index in ANSWERS of the answer to our ask of a seat holding `cards`, its pair at
    `rounds` (2 a round won, -2 a round lost); `forced`: a run would give us the game."""
    held = card_power(cards) + rounds
    if held > RAISE_POWER:
        return 2
    return 1 if forced or held >= ACCEPT_POWER else 0


def _worth(node: Node, stats: Stats, stakes: _Stakes, answers: list[Stats] | None = None) -> float:
    """The value of `node` on the play-out counts `stats`. `answers`: the same counts split by
    how the other pair would answer our ask in each deal on its cards (ANSWERS), where that
    answer is still to come."""
    kind = node[0]
    if kind == "end":
        return stakes.end(node)
    if kind == "leaf":
        _, key, stake, (level, ours) = node
        counts, wins = stats[key]
        total = sum(counts)
        if not total:  # no deal of this answer (`answers`)
            return stakes.hold(0.5, stake)
        if level < 0:
            return stakes.hold(sum(wins) / total, stake)
        # A raise still open later in the hand: after the next round, which everyone sees,
        # the pair that may raise does so when the round leaves it better off (at the other
        # pair's best answer): our raise when it helps us, theirs when it hurts us.
        value = 0.0
        for count, won in zip(counts, wins, strict=True):
            if count:
                q = won / count
                now = stakes.hold(q, stake)
                later = stakes.ask(q, level, stake, ours)
                if ours:
                    value += count * max(now, later)
                else:  # theirs: at its best on the cards, or raising whatever they are
                    mixed = best = min(now, later)
                    if stakes.reckless > 0.0:
                        mixed = stakes.reckless * later + (1.0 - stakes.reckless) * best
                    value += count * mixed
        return value / total
    children: list[tuple[str, Node]] = node[1]
    if kind == "max":
        return max(_worth(child, stats, stakes, answers) for _, child in children)
    chosen = stakes.their(
        [(action, _worth(child, stats, stakes, answers)) for action, child in children]
    )
    if answers is None or not stakes.follows or all(action != RUN for action, _ in children):
        return chosen
    # The other pair answers our ask. Policy inference: deal by deal, as a pair that answers
    # on its cards would (it runs where it is weak, so our ask wins the points where our cards
    # are not needed and is played where theirs are strong), as far as its answers this game
    # showed it does (`follows`); the rest at its best answer on the averages (`their`).
    by_action = dict(children)
    deals = [sum(sum(counts) for counts, _ in part.values()) for part in answers]
    total = sum(deals)
    if not total:
        return chosen
    modelled = 0.0
    for answer, part, count in zip(ANSWERS, answers, deals, strict=True):
        if count:
            child = by_action.get(answer, by_action[ACCEPT])  # no raise above twelve
            modelled += count / total * _worth(child, part, stakes)
    return stakes.follows * modelled + (1.0 - stakes.follows) * chosen


def _unseen(
    view: dict[str, Any], history: list[tuple[int, str]]
) -> tuple[list[list[str] | None], list[list[str]], list[str], list[int]]:
    """The hands the seat knows (its own; the partner's in a hand of ten), the cards each seat
    has played this hand where seen, the cards it has not seen (in deck order), and how many
    cards each seat has covered unseen (T15)."""
    seat: int = view["seat"]
    played: list[list[str]] = [[], [], [], []]
    hidden = [0, 0, 0, 0]
    for s, action in history:
        if action == HIDDEN_COVER:
            hidden[s] += 1
        elif action.startswith(PLAY_PREFIX):
            played[s].append(action[len(PLAY_PREFIX) :])
        elif action.startswith(COVER_PREFIX):  # our own covered card
            played[s].append(action[len(COVER_PREFIX) :])
    known: list[list[str] | None] = [None, None, None, None]
    known[seat] = list(view["hand"])
    if view["partner_hand"] is not None:
        known[(seat + 2) % 4] = list(view["partner_hand"])
    seen = {c for hand in known if hand for c in hand} | {c for p in played for c in p}
    return known, played, [c for c in DECK if c not in seen], hidden


def _deal(
    known: list[list[str] | None],
    sizes: list[int],
    pool: list[str],
    rng: Rng,
    hidden: list[int],
) -> tuple[list[list[str]], list[list[str]]]:
    """The cards left in every hand: the known ones, the others drawn uniformly from `pool`
    (a partial Fisher-Yates shuffle of a copy); then each seat's unseen covered cards (T15),
    drawn from the same pool."""
    pool = list(pool)
    left = len(pool)
    i = 0

    def draw(count: int) -> list[str]:
        nonlocal i
        drawn = []
        for _ in range(count):
            j = i + rng.below(left - i)
            pool[i], pool[j] = pool[j], pool[i]
            drawn.append(pool[i])
            i += 1
        return drawn

    hands: list[list[str]] = []
    for s in range(4):
        hand = known[s]
        hands.append(list(hand) if hand is not None else draw(sizes[s]))
    return hands, [draw(hidden[s]) for s in range(4)]


def _replay(
    view: dict[str, Any],
    history: list[tuple[int, str]],
    options: Options,
    hands: list[list[str]],
    played: list[list[str]],
    covered: list[list[str]],
) -> Game:
    """A real engine at this position for the deal `hands` (cards left) + `played` + the
    sampled faces of the cards covered unseen (`covered`, in the order they were played)."""
    deal = [hands[s] + played[s] + covered[s] for s in range(4)]
    faces = [iter(cards) for cards in covered]
    history = [
        (s, COVER_PREFIX + next(faces[s]) if action == HIDDEN_COVER else action)
        for s, action in history
    ]
    scores = (view["scores"][0], view["scores"][1])
    # The hand in play is hand 0 of the look-ahead game; the deal of any later hand is the same
    # (a look-ahead stops when its hand ends).
    game = Game(options, 0, view["dealer"], lambda _n, _d: deal, scores=scores)
    for s, action in history:
        game.apply(s, action)
    return game


def evaluate(
    view: dict[str, Any], history: list[tuple[int, str]], iterations: int, seed: int
) -> list[tuple[str, float]]:
    """Each legal action with its sampled chance to win the game, from `iterations` sampled
    deals (each played out once per card we may play now, or once if we play none now)."""
    root, stats, stakes, answers = _sampled(view, history, iterations, seed)
    return [(action, _worth(node, stats, stakes, answers)) for action, node in root]


def evaluate_both(
    view: dict[str, Any], history: list[tuple[int, str]], iterations: int, seed: int
) -> list[tuple[str, float, float]]:
    """`evaluate`, and beside each action's chance to win the game its chance to take this
    hand (the same samples and betting tree, each pair playing for the hand alone)."""
    root, stats, stakes, answers = _sampled(view, history, iterations, seed)
    hand = _HandStakes(
        (stakes.ours, stakes.theirs),
        stakes.target,
        stakes.runs,
        stakes.reckless,
        stakes.edge,
        stakes.follows,
    )
    return [
        (action, _worth(node, stats, stakes, answers), _worth(node, stats, hand, answers))
        for action, node in root
    ]


def _sampled(
    view: dict[str, Any], history: list[tuple[int, str]], iterations: int, seed: int
) -> tuple[list[tuple[str, Node]], Stats, _Stakes, list[Stats]]:
    """The betting tree below each legal action, the play-out counts of its leaves, the
    score's stakes, and the same counts split by the other pair's answer to our ask now on its
    cards (ANSWERS)."""
    legal: list[str] = view["legal_actions"]
    seat: int = view["seat"]
    team = seat & 1
    # A look-ahead deals its samples itself (a fair-v1 game would wait for a cut).
    # The look-ahead plays the current game alone: under a match, winning this game is its end.
    options = replace(Options.from_dict(view["options"]), deal=SEEDED, players=None, match=1)
    rng = Rng(seed)
    known, played, pool, hidden = _unseen(view, history)
    sizes: list[int] = view["hand_sizes"]
    reading = Reading(view, history)

    unseen = set(pool)

    def deal() -> tuple[list[list[str]], list[list[str]]]:
        # The partner's signal (inference.py): its manilha placed, else redrawn until its
        # cards agree (a few tries: a bluff is let go).
        for _ in range(SIGNAL_TRIES):
            hands, faces = _deal(known, sizes, pool, rng, hidden)
            reading.place_signalled(hands, faces, unseen, rng)
            if reading.fits_partner(hands):
                break
        return hands, faces

    first, covered = deal()
    # The betting tree, on a real engine at this position (any deal gives the same tree).
    skeleton = _replay(view, history, options, first, played, covered)
    keys: set[str | None] = set()
    root = _children(skeleton, seat, legal, seat, team, keys)
    order = sorted(keys, key=lambda k: "" if k is None else k)
    trick = [(entry["seat"], entry["card"]) for entry in view["trick"]]
    results = [r["winner_team"] for r in view["rounds"]]
    turn: int = view["turn"]
    dealer: int = view["dealer"]
    samples = max(1, iterations)
    # Per continuation, by what the next round shows (it, then 0 / 1 / tie): deals, hands won.
    # Weighted by what the other pair's answers say (inference.py).
    stats = {key: [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]] for key in order}
    answers = [{key: [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]] for key in order} for _ in ANSWERS]
    # Our ask now is answered first by the next seat (T9), on its cards and its pair's rounds;
    # a run that would give us the game is never the answer (it gives the hand's worth now, or
    # the ask we raise back from).
    answerer = NEXT_SEAT[seat]
    rounds = round_standing(results, 1 - team)
    asked = view["pending_ask"]
    forced = view["scores"][team] + (asked["value"] if asked else view["hand_value"]) >= (
        options.target
    )
    plays = card_plays(history, results, team)
    for n in range(samples):
        hands = first if n == 0 else deal()[0]
        weight = reading.weight(hands, played) * plays_weight(plays, hands)
        split = answers[_answer_on(hands[answerer], rounds, forced)]
        for key in order:
            # A card to play now: its code, or `cover:<code>` to play it face down (T15).
            card = key
            if key is not None and key.startswith(PLAY_PREFIX):
                card = key[len(PLAY_PREFIX) :]
            winner, shown = _play_out([list(h) for h in hands], trick, results, turn, dealer, card)
            if shown < 2:
                shown = 0 if shown == team else 1  # 0: our pair took it, 1: theirs
            counts, wins = stats[key]
            part_counts, part_wins = split[key]
            counts[shown] += weight
            part_counts[shown] += weight
            if winner == team:
                wins[shown] += weight
                part_wins[shown] += weight
    bettor = reading.bettor
    stakes = _Stakes(
        (view["scores"][team], view["scores"][1 - team]),
        options.target,
        bettor.runs,
        bettor.reckless,
        0.5 + BASE_EDGE + EDGE * bettor.reckless,
        bettor.follows * (1.0 - bettor.reckless),
    )
    return root, stats, stakes, answers


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
    if best != RAISE and _bluffs(view, dict(values), best_value, seed):
        return RAISE
    return best


# Our chance to take a later hand against a pair that raises whatever it holds, above a coin.
# Against the bluffer (scripts/bench_ai.py --part bluffer, 1000 games paired by seed): 0.15
# wins +1.7 +- 1.6 points more games than 0.1, and 0.2 -0.9 +- 1.8 fewer than 0.15.
EDGE = 0.15
# The same against any pair (0: none). Measured at 0.05: better against the bluffer, worse
# against the rule player (it runs often; a bot that stakes less harvests fewer of its runs).
BASE_EDGE = 0.0
# A bluff is only weighed when the search's own value of the raise is this close to the best
# (win chance): a raise the look-ahead thinks costly is never made to bluff.
BLUFF_MARGIN = 0.02
_BLUFF_STREAM = 35


def bluff_rate(view: dict[str, Any]) -> float:
    """How often a raise that does not pay on the cards is made anyway: bet / (pot + 2 bet),
    the share of bluffs that leaves the other pair no better off calling than running (the
    classic bluffing ratio), with the pot the points a run gives now and the bet what an
    accept adds: 1/3 for truco (2 to 4), 1/4 for six, 2/7 for ten, 1/7 for twelve."""
    ask = view.get("pending_ask")
    level = view["raise_name"]
    names = [name for name, _ in RAISES]
    if level not in names:
        return 0.0
    worth = RAISES[names.index(level)][1]
    pot = ask["value"] if ask else view["hand_value"]
    bet = worth - pot
    return bet / (pot + 2 * bet) if bet > 0 else 0.0


def _bluffs(view: dict[str, Any], values: dict[str, float], best: float, seed: int) -> bool:
    """Whether to raise as a bluff now: a raise is legal, costs at most BLUFF_MARGIN by the
    search's own values, and the seed's draw falls within `bluff_rate` (deterministic)."""
    raised = values.get(RAISE)
    if raised is None or raised < best - BLUFF_MARGIN:
        return False
    # A pair that never runs cannot be bluffed: the rate falls with its runs (inference.Bettor).
    runs = Bettor(view.get("betting"), 1 - (view["seat"] & 1)).runs
    return Rng(seed, _BLUFF_STREAM).below(1_000_000) < runs * bluff_rate(view) * 1_000_000


def choose_action(game: Game, seat: int, iterations: int, seed: int) -> str:
    """`choose` on what `seat` may see of `game` (its view and the hand's public actions)."""
    return choose(game.view(seat), game.hand_history(seat), iterations, seed)
