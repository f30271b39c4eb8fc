"""What the other seats' choices this hand say about their cards, for the look-ahead's samples
(search.py): the partner's signal (sinais) narrows the partner's cards, and the other pair's
accepts and raises make strong hands for them likelier.

Uniform deals weigh every hand of the other pair alike. Policy inference: each raise or accept
of the other pair is weighed seat by seat, against the cards that seat held when it spoke (its
cards left in the deal and those it played since) and the rounds its pair had won or lost then,
counted as the rule player counts its power (bot_player: it asks at 4, raises back at 5,
accepts at 2). A deal where the seat fell short counts less the further it fell short (a
weight, not a rule: people bluff), and the least it counts is how far that pair's betting this
game says its raises and accepts are bluffs (`Bettor`: a pair that raises in every hand tells
nothing by raising).
The partner's signal is a rule for the deals drawn (an honest bot's signal is the truth): a
signalled manilha still unseen is put in the partner's hand (swapped with a card of it), a three
or "nothing good" is drawn again a few times; a signal no deal fits (a person's bluff) is let go.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from bot.engine.common import Rng
from bot.engine.truco.bot_player import ACCEPT_POWER, RAISE_POWER, card_power, round_standing
from bot.engine.truco.cards import STRENGTH
from bot.engine.truco.game import ACCEPT, COVER_PREFIX, PLAY_PREFIX, RAISE, RUN
from bot.engine.truco.signals import SIGNAL_ACTIONS, SIGNAL_CARD, fits, kind_of

# How far a raise or an accept is a bluff before the game shows how that pair bets (`Bettor`).
# A first raise is mostly believed (issue 35: hard accepted the rule player's trucos and lost
# them all), but not wholly: people bluff, and an always-raise bluffer's first trucos were read
# as strength, so hard ran from nearly half of its first hands. Measured with
# scripts/bench_ai.py (500 games, paired by seed) against 0.03: 0.25 wins +3.0 +- 2.8 points
# more games against the bluffer and +0.0 +- 1.1 against the rule player; 0.45 and 0.6 no
# better against the bluffer (+3.4, +3.2) and 0.45 -1.0 +- 1.3 against the rule player.
_WEAK_ACCEPT: Final = 0.5
_WEAK_RAISE: Final = 0.25
# The least a weak deal counts per raise or accept, however honest the pair looks.
_WEAK_FLOOR: Final = 0.005
# Raises per hand of a pair that raises only on strong cards, and the prior rate.
_HONEST_RATE: Final = 0.35
_PRIOR_RATE: Final = _HONEST_RATE + _WEAK_RAISE * (1 - _HONEST_RATE)
# How likely an honest seat's raise or accept is, by how far its power falls short of it.
_SHORT: Final = (1.0, 0.15, 0.03, 0.005)
# Deals redrawn to fit the partner's signal before one that does not is taken.
SIGNAL_TRIES: Final = 12


class Bettor:
    """How the other pair bets, read from the game's public betting record (the view's
    "betting"), as numbers the look-ahead uses:

    - `weak_raise` / `weak_accept`: how much a deal where the pair holds little counts per raise /
      accept this hand. A pair that raises in every hand (an always-raise bluffer) tells nothing
      by raising: its raises per hand above an honest pair's third, over the rest, capped at 1,
      is the weight (floored at 0.2: people bluff too). Accepts alike: 2 * (its share of
      answers that were not runs) - 1, so a pair that never runs tells nothing by accepting.
    - `runs`: how far the pair's answers to our asks follow its best answer on the cards, run
      included (1.0), or leave running out (0.0: a pair that never runs is not counted on to run
      from our raise): its runs per answer against a quarter, capped at 1.
    - `reckless`: how far the pair raises whatever its cards (1.0: every chance): its raises per
      hand above one half, over one half, capped at 1.
    - `follows`: how far its answers to our asks follow its cards (run on weak ones, accept on
      fair ones, raise back on strong ones), which only running shows: its runs per answer
      over one half, capped at 1; 0 before it has answered (a pair that never ran may accept
      anything, as an always-raise bluffer does).

    Small samples lean on a prior (0.25 a raise, 0.5 an accept, runs 1.0, reckless 0.0, follows
    0.0) before the game has shown anything."""

    __slots__ = ("follows", "reckless", "runs", "weak_accept", "weak_raise")

    def __init__(self, betting: dict[str, Any] | None, team: int, this_hand: int = 0) -> None:
        if betting is None:  # a view without the record (an old one): the prior
            self.weak_raise, self.weak_accept, self.runs, self.reckless = (
                _WEAK_RAISE,
                _WEAK_ACCEPT,
                1.0,
                0.0,
            )
            self.follows = 0.0
            return
        hands = betting["hands"]
        answers = betting["answers"][team]
        runs = betting["runs"][team]
        raises = betting["raises"][team]
        # Half a hand of prior only: games against a pair that re-raises every ask last one or
        # two hands, so its first hand must already count (one ask in hand 1: 0.33).
        per_hand = raises / (hands + 0.5)
        kept = (answers - runs + 1.5) / (answers + 2)
        # Raises per hand before this one (`this_hand`: the pair's raises in the hand in play,
        # which are what is being weighed), the prior two hands at the rate of the prior weight;
        # an honest pair raises in about a third of its hands (its strong ones): weight 0 there,
        # 1 at a raise every hand.
        rate = (raises - this_hand + 2 * _PRIOR_RATE) / (max(0, hands - 1) + 2)
        self.weak_raise = _clip((rate - _HONEST_RATE) / (1 - _HONEST_RATE), _WEAK_FLOOR, 1.0)
        self.weak_accept = _clip(2 * kept - 1, _WEAK_FLOOR, 1.0)
        self.runs = _clip((runs + 0.5) / (answers + 1) / 0.25, 0.0, 1.0)
        self.reckless = _clip((per_hand - 0.5) / 0.5, 0.0, 1.0)
        self.follows = _clip(runs / answers / 0.5, 0.0, 1.0) if answers else 0.0


def _clip(value: float, low: float, high: float) -> float:
    return low if value < low else high if value > high else value


class Reading:
    """The seat's reading of this hand's history (its own view of it)."""

    __slots__ = ("after_signal", "bettor", "evidence", "partner", "signal", "team")

    def __init__(self, view: dict[str, Any], history: list[tuple[int, str]]) -> None:
        seat: int = view["seat"]
        self.team = seat & 1
        self.partner = (seat + 2) % 4
        self.signal: str | None = None
        self.after_signal: list[str] = []  # the partner's cards played since its signal
        their_raises = sum(1 for s, a in history if a == RAISE and s & 1 != self.team)
        self.bettor = Bettor(view.get("betting"), 1 - self.team, their_raises)
        for s, action in history:
            if s == self.partner and action in SIGNAL_ACTIONS:
                self.signal = kind_of(action)
                self.after_signal = []
            elif s == self.partner and self.signal is not None and ":" in action:
                card = action.split(":", 1)[1]
                if card in STRENGTH:  # a played card (a covered one of ours is seen too)
                    self.after_signal.append(card)
        if view.get("partner_hand") is not None:
            self.signal = None  # a hand of ten: the partner's cards are seen (T13)
        self.evidence = _evidence(history, view.get("rounds") or (), self.team, self.bettor)

    def fits_partner(self, hands: list[list[str]]) -> bool:
        """Whether the partner's drawn cards agree with its signal (True without one)."""
        if self.signal is None:
            return True
        return fits(self.signal, hands[self.partner] + self.after_signal)

    def place_signalled(
        self, hands: list[list[str]], faces: list[list[str]], unseen: set[str], rng: Rng
    ) -> None:
        """A signalled manilha the seat has not seen goes to the partner's drawn cards, swapped
        with one of them wherever the deal put it (another hand, a covered card, the rest)."""
        card = SIGNAL_CARD.get(self.signal or "")
        partner = hands[self.partner]
        if card is None or card not in unseen or card in partner or not partner:
            return
        i = rng.below(len(partner))
        out = partner[i]
        for held in [*hands, *faces]:
            if card in held:
                held[held.index(card)] = out
                break
        partner[i] = card

    def weight(self, hands: list[list[str]], played: list[list[str]]) -> float:
        """How much a deal (`hands`: the cards left) counts, by the other pair's raises and
        accepts this hand: each is weighed on the cards its seat held then."""
        weight = 1.0
        for seat, need, floor, rounds, played_since in self.evidence:
            short = need - card_power(hands[seat]) - card_power(played_since) - rounds
            if short > 0:
                weight *= floor + (1.0 - floor) * _SHORT[min(short, len(_SHORT) - 1)]
        return weight


# (seat, power its answer needed, the least a deal that falls short counts, its pair's rounds
# then (2 a round won, -2 a round lost), the cards that seat has played since)
Evidence = tuple[int, int, float, int, list[str]]


def _evidence(
    history: list[tuple[int, str]], rounds: Sequence[dict[str, Any]], team: int, bettor: Bettor
) -> list[Evidence]:
    """The other pair's raises and accepts in this hand's `history`, to weigh deals by."""
    winners = [r["winner_team"] for r in rounds]
    out: list[Evidence] = []
    cards = 0  # the cards played so far (four a round)
    pending = False  # an ask waits for its answer
    for i, (seat, action) in enumerate(history):
        if action.startswith((PLAY_PREFIX, COVER_PREFIX)):
            cards += 1
            continue
        if action not in (RAISE, ACCEPT, RUN):
            continue
        answering, pending = pending, action == RAISE
        # Ours tell nothing new; a run ends the hand; an accept with no ask pending is a hand
        # of ten played (T13), decided on six cards.
        if seat & 1 == team or action == RUN or (action == ACCEPT and not answering):
            continue
        standing = round_standing(winners[: cards // 4], 1 - team)
        since = played_since(history, i, seat)
        if action == RAISE:
            out.append(
                (seat, RAISE_POWER + (1 if answering else 0), bettor.weak_raise, standing, since)
            )
        else:
            out.append((seat, ACCEPT_POWER, bettor.weak_accept, standing, since))
    return out


def played_since(history: list[tuple[int, str]], index: int, seat: int) -> list[str]:
    """The cards `seat` played face up after `history[index]`."""
    return [
        a[len(PLAY_PREFIX) :]
        for s, a in history[index + 1 :]
        if s == seat and a.startswith(PLAY_PREFIX)
    ]
