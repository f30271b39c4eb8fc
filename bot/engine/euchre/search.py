"""Look-ahead for a Euchre seat: determinized sampling (PIMC) over the engine itself.

`choose(view, history, iterations, seed)` reads only what the seat may know: its view and this
hand's actions as it saw them (`Game.hand_history(seat)`: another seat's discard is hidden). For
each sample it deals the unseen cards at random, consistent with what was seen: the cards
played, the voids a seat showed by not following suit, the turned card (held by the dealer who
picked it up, else in the kitty), the dealer's own discard. It replays the hand on a real engine
from that deal, tries every legal action on a copy, plays the hand out with the rule player
(bot_player) for all four seats, and keeps the action with the best total of points (ours minus
theirs). Bidding, going alone and the dealer's discard are chosen the same way as the cards.

Deterministic: the samples come from `Rng(seed)` and `iterations` alone (never the clock).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.engine.common import EngineError, Rng
from bot.engine.euchre import bot_player
from bot.engine.euchre.actions import CARD_OF_DISCARD, CARD_OF_PLAY, DISCARD_ACTION
from bot.engine.euchre.cards import (
    CARD_OF_CODE,
    CODES,
    EFFECTIVE_SUIT,
    SUIT_OF_CODE,
    TRICK_POWER,
    deck_for,
)
from bot.engine.euchre.events import HAND_SCORED, TRICK_WON
from bot.engine.euchre.game import HIDDEN_DISCARD, Game, new_game
from bot.engine.euchre.inference import bid_weight, win_chance
from bot.engine.euchre.options import Options
from bot.engine.fair_deal import SEEDED

# Samples are drawn until one fits the voids seen; past this many misses a sample is skipped.
_SHUFFLE_TRIES = 30


class _Knowledge:
    """What the seat knows of the hidden cards, worked out once per decision."""

    def __init__(self, view: dict[str, Any], history: list[tuple[int, str]]) -> None:
        self.seat: int = view["seat"]
        self.dealer: int = view["dealer"]
        self.options = replace(
            Options.from_dict(view["options"]),
            seating="random",
            match="game",
            deal=SEEDED,  # a look-ahead deals its samples itself (fair-v1 needs a cut)
            players=None,
        )
        self.turned = CARD_OF_CODE[view["turned_card"]]
        self.turned_suit = SUIT_OF_CODE.get(view["named_suit"] or view["turned_card"][1], -1)
        self.history = history
        self.bids = [(s, a) for s, a in history if a == "pass" or a[:5] in ("order", "call:")]
        hand = [CARD_OF_CODE[c] for c in view["hand"]]
        self.hand = hand
        trump = SUIT_OF_CODE[view["trump"]] if view["trump"] else -1
        played: list[list[int]] = [[], [], [], []]
        voids: list[set[int]] = [set(), set(), set(), set()]
        led = -1
        in_trick = 0
        active = 4 - len(view["sitting_out"])
        picked_up = False
        for s, action in history:
            card = CARD_OF_PLAY.get(action)
            if card is None:
                picked_up = picked_up or action == HIDDEN_DISCARD or action in CARD_OF_DISCARD
                continue
            played[s].append(card)
            suit = EFFECTIVE_SUIT[trump][card]
            if in_trick == 0:
                led = suit
            elif suit != led:
                voids[s].add(led)
            in_trick = (in_trick + 1) % active
        self.played = played
        self.voids = voids
        own_discard = view["discard"]
        self.discard = CARD_OF_CODE[own_discard] if own_discard else -1
        # Another dealer who picked up holds the turned card until he plays it, unless he showed
        # he has no trump left (or no card): then he left it (E10). That he left it while
        # holding trump is not modelled (it is a trump, rarely let go).
        sizes: list[int] = view["hand_sizes"]
        self.hidden_discard = picked_up and self.dealer != self.seat
        self.dealer_holds = self.hidden_discard and self.turned not in played[self.dealer]
        if self.dealer_holds and (trump in voids[self.dealer] or not sizes[self.dealer]):
            self.dealer_holds = self.hidden_discard = False
            self.discard = self.turned
        seen = set(hand) | {c for p in played for c in p} | {self.turned}
        if self.discard >= 0:
            seen.add(self.discard)
        self.pool = [c for c in deck_for(self.options.deck, self.options.joker) if c not in seen]
        self.need = [0 if s == self.seat else sizes[s] for s in range(4)]
        if self.dealer_holds:
            self.need[self.dealer] -= 1
        self.effective = EFFECTIVE_SUIT[trump] if trump >= 0 else None
        # The most constrained seats are dealt first (fewer reshuffles).
        self.order = sorted((s for s in range(4) if self.need[s]), key=lambda s: -len(voids[s]))

    def sample(self, rng: Rng) -> Game | None:
        """A game at the seat's current position, its hidden cards drawn at random."""
        sampled = self.weighted_sample(rng)
        return None if sampled is None else sampled[0]

    def weighted_sample(self, rng: Rng) -> tuple[Game, float] | None:
        """`sample`, and how much it counts by the other seats' bids (inference.py)."""
        for _ in range(_SHUFFLE_TRIES):
            hands = self._deal(rng.shuffled(self.pool))
            if hands is not None:
                return self._replayed(*hands)
        return None

    def _deal(self, cards: list[int]) -> tuple[list[list[int]], list[int]] | None:
        hands: list[list[int]] = [[], [], [], []]
        hands[self.seat] = list(self.hand)
        effective = self.effective
        for s in self.order:
            need = self.need[s]
            voids = self.voids[s]
            taken = hands[s]
            rest = []
            for c in cards:
                if len(taken) < need and (effective is None or effective[c] not in voids):
                    taken.append(c)
                else:
                    rest.append(c)
            if len(taken) < need:
                return None
            cards = rest
        return hands, cards

    def _replayed(self, hands: list[list[int]], rest: list[int]) -> tuple[Game, float] | None:
        dealer = self.dealer
        discard = self.discard
        if self.dealer_holds:
            hands[dealer].append(self.turned)
        if self.hidden_discard:
            discard = rest.pop()
        start = [h + p for h, p in zip(hands, self.played, strict=True)]
        if discard >= 0:  # the dealer's hand before he took the turned card
            start[dealer] = [c for c in start[dealer] if c != self.turned]
            if discard != self.turned:
                start[dealer].append(discard)
        deal = ([[CODES[c] for c in h] for h in start], [CODES[c] for c in [self.turned, *rest]])
        game = new_game(self.options, 0, first_dealer=dealer, deals=lambda _n, _d: deal)
        try:
            for s, action in self.history:
                if action == HIDDEN_DISCARD:
                    action = DISCARD_ACTION[discard]
                game.apply(s, action)
        except EngineError:  # a deal the seen play rules out after all (e.g. a forced lead)
            return None
        weight = 1.0
        if self.bids and self.turned_suit >= 0:
            weight = bid_weight(self.bids, start, self.seat, dealer, self.turned, self.turned_suit)
        return game, weight


def _rollout_value(game: Game, team: int, scores: tuple[int, int], target: int) -> float:
    """The hand played out: our chance to win the game from the score it leaves (inference.py
    win_chance), so the points count for what they are worth at this score."""
    points = _rollout_points(game, team)
    if points >= 0:
        return win_chance(scores[0] + points, scores[1], target)
    return win_chance(scores[0], scores[1] - points, target)


def _rollout_points(game: Game, team: int) -> int:
    """Plays the hand out with the rule player: our points minus theirs (0 if thrown in)."""
    hand_number = game.hand_number
    while not game.is_over and game.hand_number == hand_number:
        seat = game.to_act[0]
        game.apply(seat, bot_player.decide(game.policy_view(seat)))
    for event in reversed(game.events):
        if event.kind == HAND_SCORED:
            points: int = event.data["points"]
            return points if event.data["scoring_team"] == team else -points
    return 0


def evaluate(
    view: dict[str, Any],
    history: list[tuple[int, str]],
    iterations: int,
    seed: int,
    *,
    score_aware: bool = False,
) -> list[tuple[str, float]]:
    """Each legal action with its sampled expected points for the hand (ours minus theirs),
    from about `iterations` play-outs in all; empty when no deal fits what the seat saw. With
    `score_aware`, the sampled chance to win the game instead (what the bot plays by)."""
    legal: list[str] = view["legal_actions"]
    knowledge = _Knowledge(view, history)
    seat = knowledge.seat
    team = seat % 2
    scores = (view["scores"][team], view["scores"][1 - team])
    target: int = view["target"]
    rng = Rng(seed)
    totals = [0.0] * len(legal)
    samples = 0.0
    for _ in range(max(1, iterations // len(legal))):
        sampled = knowledge.weighted_sample(rng)
        if sampled is None:
            continue
        base, weight = sampled
        samples += weight
        for i, action in enumerate(legal):
            game = base.clone()
            game.apply(seat, action)
            if score_aware:
                totals[i] += weight * _rollout_value(game, team, scores, target)
            else:
                totals[i] += weight * _rollout_points(game, team)
    if not samples:
        return []
    return [(action, total / samples) for action, total in zip(legal, totals, strict=True)]


def choose(view: dict[str, Any], history: list[tuple[int, str]], iterations: int, seed: int) -> str:
    """The legal action with the best sampled outcome; about `iterations` play-outs in all."""
    legal: list[str] = view["legal_actions"]
    if len(legal) == 1:
        return legal[0]
    spared = _spare_partner(view, history)
    if spared != legal:
        view = {**view, "legal_actions": spared}
        if len(spared) == 1:
            return spared[0]
    values = evaluate(view, history, iterations, seed, score_aware=True)
    if not values:
        return bot_player.decide(view)
    # The first of the best, in legal order (max keeps the first of equals).
    return max(values, key=lambda pair: pair[1])[0]


def _spare_partner(view: dict[str, Any], history: list[tuple[int, str]]) -> list[str]:
    """Etiquette: the legal actions less those that overtake the partner's sure winner (he
    takes the trick whatever the seats after us hold: we play last, or no unseen card beats
    it). Overtaking it only spends a card; the play-outs' noise must not choose it."""
    legal: list[str] = view["legal_actions"]
    trick = view["trick"]
    if view["phase"] != "play" or not trick or not view["trump"]:
        return legal
    trump = SUIT_OF_CODE[view["trump"]]
    led = EFFECTIVE_SUIT[trump][CARD_OF_CODE[trick[0]["card"]]]
    power = TRICK_POWER[trump][led]
    winning = max(trick, key=lambda t: power[CARD_OF_CODE[t["card"]]])
    if winning["seat"] != (view["seat"] + 2) % 4:
        return legal
    best = power[CARD_OF_CODE[winning["card"]]]
    last = len(trick) == 3 - len(view["sitting_out"])
    if not last and any(power[c] > best for c in _Knowledge(view, history).pool):
        return legal
    keep = [a for a in legal if a not in CARD_OF_PLAY or power[CARD_OF_PLAY[a]] <= best]
    return keep or legal


def choose_action(game: Game, seat: int, iterations: int, seed: int) -> str:
    """`choose` on what `seat` may see of `game` (its view and its hand history)."""
    return choose(game.view(seat), game.hand_history(seat), iterations, seed)


# --- the review's figures (issue 34) -------------------------------------------------------
# The review explains a mark by the search's own figures: beside `evaluate`'s points (the same
# samples, so the same values), how often the seat's side took the trick in play, and the
# chance to win the game after the hand, the unit the truco review uses too.


def game_chance(ours: int, theirs: int, target: int) -> float:
    """Our chance of reaching `target` first if every hand from here is a fair coin worth 1
    (truco's search uses the same model with hands worth 2)."""
    return _chance(max(0, target - ours), max(0, target - theirs))


_CHANCES: dict[tuple[int, int], float] = {}


def _chance(we_need: int, they_need: int) -> float:
    if we_need == 0:
        return 1.0
    if they_need == 0:
        return 0.0
    key = (we_need, they_need)
    if key not in _CHANCES:
        _CHANCES[key] = 0.5 * (_chance(we_need - 1, they_need) + _chance(we_need, they_need - 1))
    return _CHANCES[key]


def evaluate_for_review(
    view: dict[str, Any], history: list[tuple[int, str]], iterations: int, seed: int
) -> list[tuple[str, float, float | None, float]]:
    """Each legal action with `evaluate`'s expected points, the share of play-outs in which
    the seat's side took the trick in play (None while no card is being played), and the
    chance to win the game after the hand; empty when no deal fits what the seat saw."""
    legal: list[str] = view["legal_actions"]
    knowledge = _Knowledge(view, history)
    seat = knowledge.seat
    team = seat % 2
    playing = any(action.startswith("play:") for action in legal)
    rng = Rng(seed)
    points, tricks, chances = [0] * len(legal), [0] * len(legal), [0.0] * len(legal)
    samples = 0
    for _ in range(max(1, iterations // len(legal))):
        base = knowledge.sample(rng)
        if base is None:
            continue
        samples += 1
        for i, action in enumerate(legal):
            game = base.clone()
            start = len(game.events)
            game.apply(seat, action)
            points[i] += _rollout_points(game, team)
            won = next((e.seat for e in game.events[start:] if e.kind == TRICK_WON), None)
            tricks[i] += won is not None and won % 2 == team
            if game.is_over:
                chances[i] += 1.0 if game.winner == team else 0.0
            else:
                scores, target = game.scores, game.options.target
                chances[i] += game_chance(scores[team], scores[1 - team], target)
    if not samples:
        return []
    return [
        (
            action,
            points[i] / samples,
            tricks[i] / samples if playing else None,
            chances[i] / samples,
        )
        for i, action in enumerate(legal)
    ]
