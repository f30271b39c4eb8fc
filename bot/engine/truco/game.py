"""The Truco Mineiro state machine (rules T1-T14 of shared/rules/truco.md).

A game is options + seed + first dealer + the list of actions; `apply` moves it one step and
returns the events. Every action is validated completely before anything changes, so an illegal
action (or a bad hand-built deal for the next hand) leaves the state exactly as it was.

Actions: `play:<card>` (e.g. `play:7H`), `cover:<card>` (T15, the `coberta` option: the card
played face down, from the second round on), `raise` (ask truco, or six / ten / twelve: the engine
knows the next step of the ladder; while answering an ask it is the counter-raise of T9),
`accept`, `run`. In the hand-of-ten decision (T13) the pair at 10 answers `accept` (play the hand)
or `run` (refuse it).

Phases: "hand_of_ten" (T13 decision), "play", "answer" (an ask is pending: `to_act` lists both
players of the answering pair, the first answer counts), "over"; under the option
deal="fair-v1" (docs/fair-deals.md) each hand starts in "cut": nobody is to act, and the seat
before the dealer in turn order (the cutter) gives the cut, `cut:<text>`, which deals the hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, NoReturn

from bot.engine.common import (
    BadSeat,
    EngineError,
    Event,
    GameOver,
    GameRecord,
    IllegalAction,
    InvalidOptions,
    NotYourTurn,
    hand_rng,
    new_event,
    team_of,
)
from bot.engine.fair_deal import SEEDED, TRUCO_DECK, FairDealer, deal_packets
from bot.engine.truco import events as ev
from bot.engine.truco.cards import (
    DECK,
    DISPLAY_DECK,
    FACE_DOWN,
    HAND_SIZE,
    STRENGTH,
    checked_hands,
    seeded_deal,
    sort_for_display,
)
from bot.engine.truco.errors import AlreadyAnswered
from bot.engine.truco.options import Options
from bot.engine.truco.signals import SIGNAL_ACTIONS, SIGNAL_PREFIX, SIGNALS, kind_of

# T15: a covered card sits in the round as COVER_MARK + its code. It ranks below every card, so it
# beats and ties nothing; only a round of four covered cards has it on top, and that round is tied
# (both pairs hold the top). Views and events show it as FACE_DOWN until its hand ends.
COVER_MARK: Final = "_"
_RANK: Final[dict[str, int]] = {**STRENGTH, **{COVER_MARK + code: -1 for code in DECK}}

# _SEAT_CARD[seat][card]: a round event's {seat, card}. Shared by every event of every game, and
# read-only like all event data: a table holds a hand or two of events.
_SEAT_CARD: Final = tuple(
    {
        **{code: {"seat": s, "card": code} for code in DECK},
        **{COVER_MARK + code: {"seat": s, "card": FACE_DOWN} for code in DECK},
    }
    for s in range(4)
)

GAME_NAME: Final = "truco"

# T1: turns go counter-clockwise (seat s is followed by seat s-1). The one place to change it.
TURN_STEP: Final = -1
NEXT_SEAT: Final[tuple[int, ...]] = tuple((s + TURN_STEP) % 4 for s in range(4))
PREV_SEAT: Final[tuple[int, ...]] = tuple((s - TURN_STEP) % 4 for s in range(4))
# T3: the players take their cards from the player after the dealer, in turn order.
DEAL_SEATS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple((dealer + TURN_STEP * (1 + k)) % 4 for k in range(4)) for dealer in range(4)
)

PHASE_HAND_OF_TEN: Final = "hand_of_ten"
PHASE_PLAY: Final = "play"
PHASE_ANSWER: Final = "answer"
PHASE_OVER: Final = "over"
PHASE_CUT: Final = "cut"  # fair-v1: the hand waits for its cut

BASE_VALUE: Final = 2  # T9: a hand is worth 2
HAND_OF_TEN_VALUE: Final = 4  # T13: played, it is worth 4
HAND_OF_TEN_REFUSED_POINTS: Final = 2  # T13: refused, the other pair scores 2
IRON_HAND_VALUE: Final = 2  # T14

# T9: the ladder, (name, worth when accepted). Running from an ask gives the askers the worth
# before it (2, 4, 6, 10), which is always the hand's current value when the ask is made.
RAISES: Final[tuple[tuple[str, int], ...]] = (("truco", 4), ("six", 6), ("ten", 10), ("twelve", 12))
ASK_KIND: Final[tuple[str, ...]] = tuple(ev.ASK_KINDS[name] for name, _ in RAISES)
TOP_LEVEL: Final = len(RAISES)

ACCEPT: Final = "accept"
RUN: Final = "run"
RAISE: Final = "raise"
PLAY_PREFIX: Final = "play:"
COVER_PREFIX: Final = "cover:"
HIDDEN_COVER: Final = "cover:?"  # another seat's covered card, in hand_history (T15)
# Precomputed both ways so the hot path never builds or parses an action string.
PLAY_ACTION: Final[dict[str, str]] = {card: PLAY_PREFIX + card for card in DECK}
# `cover:<card>` -> the `play:<card>` the hand holds, and back.
COVER_PLAY: Final[dict[str, str]] = {COVER_PREFIX + card: PLAY_ACTION[card] for card in DECK}
PLAY_COVER: Final[dict[str, str]] = {play: cover for cover, play in COVER_PLAY.items()}
_PREFIX_LEN: Final = len(PLAY_PREFIX)
# "play:7H" -> "7H", the deck's own strings: a play looks its card up (no new string a card).
CARD_OF_PLAY: Final[dict[str, str]] = {play: card for card, play in PLAY_ACTION.items()}
# Hands hold `play:` action strings, so legal_actions is a list copy and apply a membership test.
PLAY_DISPLAY_DECK: Final[tuple[str, ...]] = tuple(PLAY_ACTION[card] for card in DISPLAY_DECK)
ANSWER_ACTIONS: Final[frozenset[str]] = frozenset({ACCEPT, RUN, RAISE})
_RAISE_ONLY: Final = [RAISE]
_ACCEPT_RUN: Final = (ACCEPT, RUN)
_ACCEPT_RUN_RAISE: Final = (ACCEPT, RUN, RAISE)

# The stream of the seeded PRNG that draws the first dealer (hand streams use purpose 0).
FIRST_DEALER_PURPOSE: Final = 1

# to_act, one shared list per case (read-only to every reader, and the engine replaces it, never
# changes it): _ACTS[seat] while one seat acts, _ANSWERERS[asker] while an ask waits (either
# player of the other pair may answer, T9; the next in turn order is listed first).
_ACTS: Final = ([0], [1], [2], [3])
_ANSWERERS: Final = tuple([NEXT_SEAT[s], PREV_SEAT[s]] for s in range(4))


def _worth_before(level: int) -> int:
    """T9: the hand's worth when the ask of `level` is made (what running from it gives)."""
    return BASE_VALUE if level == 0 else RAISES[level - 1][1]


# The events whose data follows from their seat and the ask's level, made once and shared (events
# are read-only, as in euchre): _ASKED[seat][level][counter], _ACCEPTED[seat][level].
_ASKED: Final = tuple(
    tuple(
        tuple(
            Event(
                ASK_KIND[level],
                s,
                {
                    "team": s & 1,
                    "value": value,
                    "run_value": _worth_before(level),
                    "counter": counter,
                },
            )
            for counter in (False, True)
        )
        for level, (_, value) in enumerate(RAISES)
    )
    for s in range(4)
)
_ACCEPTED: Final = tuple(
    tuple(
        Event(ev.ACCEPTED, s, {"team": s & 1, "name": name, "value": value})
        for name, value in RAISES
    )
    for s in range(4)
)
_HAND_OF_TEN_PLAYED: Final = tuple(
    Event(ev.HAND_OF_TEN_PLAYED, s, {"team": s & 1, "value": HAND_OF_TEN_VALUE}) for s in range(4)
)

Deals = Callable[[int, int], Sequence[Sequence[str]]]
"""A hand-built deal: `deals(hand_number, dealer)` -> four lists of three cards, by seat."""

# A completed round: (winning team or None for a tie, winning seat or None, cards in play order).
Round = tuple[int | None, int | None, tuple[tuple[int, str], ...]]


_NO_SCORES: Final = (0, 0)  # a game's default start (its own object: the check is skipped)


def _scores_below(scores: tuple[int, int], target: int) -> bool:
    """Whether `scores` is two points below the target: a game may start from it."""
    return len(scores) == 2 and all(type(p) is int and 0 <= p < target for p in scores)


def _check_seat(seat: object) -> int:
    # `__class__ is int` also turns bools away, which isinstance would accept.
    if seat.__class__ is not int or not 0 <= seat < 4:
        raise BadSeat(f"no such seat: {seat!r}")
    return seat


def decide_hand(results: Sequence[int | None], dealer_team: int) -> tuple[int, str] | None:
    """T7, T8: the winning team and the reason once the rounds played decide the hand, else None.
    `results` holds each round's winning team, None for a tie."""
    n = len(results)
    if n < 2:
        return None
    first, second = results[0], results[1]
    if n == 2:
        if first is not None:
            if second == first:
                return first, ev.REASON_TWO_ROUNDS
            if second is None:  # second round tied: the first round's winner takes it
                return first, ev.REASON_TIE_RULE
            return None
        if second is not None:  # first round tied: the second round decides
            return second, ev.REASON_TIE_RULE
        return None  # both tied: the third decides
    third = results[2]
    if third is None:
        if first is not None:  # third round tied: the first round's winner takes it
            return first, ev.REASON_TIE_RULE
        return dealer_team, ev.REASON_TIE_RULE  # all three tied: the dealer's pair
    if first is None:  # two ties, then the third round decided
        return third, ev.REASON_TIE_RULE
    return third, ev.REASON_TWO_ROUNDS  # one round each before: the third's winner has two


class Game(GameRecord):
    """One game of Truco Mineiro between seats 0 & 2 (team 0) and 1 & 3 (team 1)."""

    GAME_NAME = GAME_NAME
    OPTIONS = Options
    HAND_DEALT = ev.HAND_DEALT

    __slots__ = (
        "_answered",
        "_coberta",
        "_deals",
        "_fair",
        "_hand_of_ten",
        "_hand_start",
        "_hand_value",
        "_hands",
        "_iron",
        "_last_asker",
        "_last_trick",
        "_level",
        "_pending",
        "_pending_seat",
        "_pending_team",
        "_raise_open",
        "_results",
        "_rounds",
        "_scores",
        "_signals",
        "_special",
        "_target",
        "_trick",
        "_turn",
        "actions",
        "dealer",
        "events",
        "first_dealer",
        "game_number",
        "games_won",
        "hand_number",
        "is_over",
        "options",
        "phase",
        "seed",
        "to_act",
        "winner",
    )

    options: Options
    seed: int
    first_dealer: int
    actions: list[tuple[int, str]]
    events: list[Event]
    hand_number: int
    game_number: int  # 0-based game of the match (always 0 for a single game)
    games_won: list[int]  # games won by each pair in this match
    dealer: int
    phase: str
    is_over: bool  # a plain attribute (not a property): read after every action by drivers
    winner: int | None
    _deals: Deals | None
    _fair: FairDealer | None  # deal="fair-v1" (docs/fair-deals.md), else None
    _scores: list[int]
    _target: int
    _special: int
    _hands: list[list[str]]
    _trick: list[tuple[int, str]]
    _rounds: list[Round]
    _results: list[int | None]  # each finished round's winning team, None for a tie
    _last_trick: Round | None
    _turn: int
    # Who may act: a plain attribute, as euchre's (the hot path reads it at every step). Read
    # it, never change it: the engine replaces the list, never mutates it.
    to_act: list[int]
    _hand_value: int
    _level: int
    _last_asker: int
    _pending: int
    _pending_team: int
    _pending_seat: int
    _hand_of_ten: int
    _iron: bool
    _raise_open: bool
    _answered: int
    _hand_start: int
    _coberta: bool
    _signals: list[str | None]  # this hand's signal by seat (sinais), None: none sent

    def __init__(
        self,
        options: Options,
        seed: int,
        first_dealer: int | None = None,
        deals: Deals | None = None,
        *,
        scores: tuple[int, int] = _NO_SCORES,
    ) -> None:
        """`scores`: the score the game starts from (a look-ahead from a position, search.py)."""
        if not isinstance(options, Options):
            raise InvalidOptions("options must be a truco Options")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidOptions(f"seed must be an integer, not {seed!r}")
        if first_dealer is None:
            # T3 (not in the seed): the first dealer is random, drawn from the seed (2**64 is a
            # multiple of 4, so the low two bits are exactly uniform).
            first_dealer = hand_rng(seed, 0, FIRST_DEALER_PURPOSE).next64() & 3
        self.options = options
        self.seed = seed
        self.first_dealer = _check_seat(first_dealer)
        self._deals = deals
        self.actions = []
        self.events = []
        if scores is not _NO_SCORES and not _scores_below(scores, options.target):
            raise InvalidOptions(f"scores must be two points below the target, not {scores!r}")
        self._scores = [scores[0], scores[1]]
        self._hand_start = 0
        self._target = options.target
        self._special = options.special_score
        self._coberta = options.coberta
        self.hand_number = 0
        self.game_number = 0
        self.games_won = [0, 0]
        self.dealer = first_dealer
        self.winner = None
        self.is_over = False
        self._last_trick = None
        self._answered = 0
        self._signals = [None, None, None, None]
        if options.deal == SEEDED:
            self._fair = None
            self._start_hand(self._deal_for(0, first_dealer), self.events)
            return
        if deals is not None:
            raise InvalidOptions("a fair-v1 game deals its own hands: no `deals`")
        assert options.players is not None  # Options checks it
        self._fair = FairDealer(GAME_NAME, TRUCO_DECK, options.players, seed, options.deal)
        self._await_cut()

    # --- the public surface -------------------------------------------------------------------

    @property
    def scores(self) -> tuple[int, int]:
        return self._scores[0], self._scores[1]

    @property
    def hand_value(self) -> int:
        return self._hand_value

    def legal_actions(self, seat: int) -> list[str]:
        # `is`: seats are small ints, the same objects as `_turn` (CPython caches them), and a
        # bool is not one of them; any other seat takes the careful path below.
        if seat is self._turn and self.phase == PHASE_PLAY:
            hand = self._hands[seat]  # already `play:` action strings, in display order
            actions = hand[:]
            if self._coberta and self._results:  # T15: covering, from the second round on
                actions += [PLAY_COVER[play] for play in hand]
            if self._raise_open and (seat & 1) != self._last_asker:
                actions += _RAISE_ONLY
            return actions
        if self.phase == PHASE_ANSWER and seat.__class__ is int and seat in self.to_act:
            # The other common case: a player of the pair the ask waits for.
            return list(_ACCEPT_RUN_RAISE if self._pending + 1 < TOP_LEVEL else _ACCEPT_RUN)
        _check_seat(seat)
        if seat not in self.to_act or self.phase == PHASE_PLAY:
            return []
        if self.phase == PHASE_ANSWER and self._pending + 1 < TOP_LEVEL:
            return list(_ACCEPT_RUN_RAISE)
        return list(_ACCEPT_RUN)  # answering twelve, or the hand-of-ten decision

    def apply(self, seat: int, action: str) -> list[Event]:
        # One membership test covers the common case; a partner's signal (sinais, signals.py),
        # which may come out of turn, is looked for only where the action is no move.
        if seat.__class__ is not int or seat not in self.to_act or action.__class__ is not str:
            if action.__class__ is str and action in SIGNAL_ACTIONS:
                return self._signal(seat, action)
            if self.phase == PHASE_CUT:
                return self._cut(seat, action)
            self._refuse(seat, action)
        phase = self.phase
        if phase == PHASE_PLAY:
            hand = self._hands[seat]
            played: str | None = action
            if action in hand:
                code = CARD_OF_PLAY[action]
            else:  # T15: `cover:<card>` plays a card of the hand face down
                played = COVER_PLAY.get(action)
                if played not in hand or not (self._coberta and self._results):
                    played = None
                else:
                    code = COVER_MARK + action[len(COVER_PREFIX) :]
            if played is not None:
                trick = self._trick
                if len(trick) < 3:  # the common case, inline: not the round's last card
                    self._answered = 0
                    hand.remove(played)
                    trick.append((seat, code))
                    turn = NEXT_SEAT[seat]
                    self._turn = turn
                    self.to_act = _ACTS[turn]
                    self.actions.append((seat, action))
                    # No event for a single card: the view shows the round in progress, the
                    # action log has every play, and the round's event lists its four cards.
                    return []
                out = self._end_round(seat, played, code)
            elif action == RAISE and self._raise_open and (seat & 1) != self._last_asker:
                self._answered = 0
                out = self._ask(seat, self._level, False)
            elif action in _ACCEPT_RUN and self._answered >> (seat & 1) & 1:
                raise AlreadyAnswered(f"seat {seat}'s pair has already answered")
            else:
                return self._signal_or_refuse(seat, action, f"{action!r} is not allowed now")
        elif phase == PHASE_ANSWER:
            if action == ACCEPT:
                out = self._accept(seat)
            elif action == RUN:
                out = self._run(seat)
            elif action == RAISE and self._pending + 1 < TOP_LEVEL:
                out = self._counter_raise(seat)
            else:
                return self._signal_or_refuse(
                    seat, action, f"{action!r} is not an answer to this ask"
                )
        elif action == ACCEPT:
            out = self._play_hand_of_ten(seat)
        elif action == RUN:
            out = self._refuse_hand_of_ten(seat)
        else:
            return self._signal_or_refuse(
                seat, action, f"{action!r}: the pair at ten must accept or run"
            )
        self.actions.append((seat, action))
        self.events.extend(out)
        return out

    def hand_history(self, seat: int) -> list[tuple[int, str]]:
        """This hand's actions as `seat` saw them: another seat's covered card is `cover:?`
        (T15), the other pair's signals are left out, the rest is public. With the view, all a
        look-ahead may know (search.py)."""
        _check_seat(seat)
        team = seat & 1
        return [
            (s, HIDDEN_COVER if s != seat and a in COVER_PLAY else a)
            for s, a in self.actions[self._hand_start :]
            if (s & 1) == team or a not in SIGNAL_ACTIONS
        ]

    def signal_actions(self, seat: int) -> list[str]:
        """The signals `seat` may send its partner now (sinais, signals.py): once a hand, while
        the cards are played, if the table plays with signals; a pair in its hand of ten sees
        the partner's cards and needs none."""
        _check_seat(seat)
        if (
            not self.options.signals
            or self.phase not in (PHASE_PLAY, PHASE_ANSWER)
            or self._signals[seat] is not None
            or self._hand_of_ten == (seat & 1)
        ):
            return []
        return sorted(SIGNAL_ACTIONS, key=_SIGNAL_ORDER.__getitem__)

    def _signal_or_refuse(self, seat: int, action: str, why: str) -> list[Event]:
        """An action of the seat to act that is no move now: a signal to its partner, which it
        may send at any time (once a hand), or else an illegal action."""
        if action in SIGNAL_ACTIONS:
            return self._signal(seat, action)
        raise IllegalAction(why)

    def _signal(self, seat: int, action: str) -> list[Event]:
        if action not in self.signal_actions(_check_seat(seat)):
            if self.phase == PHASE_OVER:
                raise GameOver("the game is over")
            raise IllegalAction(f"{action!r} is not allowed now")
        self._signals[seat] = kind_of(action)
        self.actions.append((seat, action))
        return []  # no event: events are public, a signal is for the partner only

    def _refuse(self, seat: object, action: object) -> NoReturn:
        if self.phase == PHASE_OVER:
            raise GameOver("the game is over")
        seat = _check_seat(seat)
        if action.__class__ is not str:
            raise IllegalAction(f"an action is a string, not {action!r}")
        if action in ANSWER_ACTIONS and self._answered >> (seat & 1) & 1:
            raise AlreadyAnswered(f"seat {seat}'s pair has already answered")
        raise NotYourTurn(f"seat {seat} may not act now")

    # --- rules ----------------------------------------------------------------------------------

    # Raising (T9) is open to the player on turn while `_raise_open` holds and his pair did not
    # make the last accepted ask (T10); `_raise_open` is False in the hands of ten and iron hands
    # (T13, T14) and once twelve is reached.

    def _deal_for(self, hand_number: int, dealer: int) -> list[list[str]]:
        if self._deals is None:
            return seeded_deal(self.seed, hand_number, DEAL_SEATS[dealer], PLAY_DISPLAY_DECK)
        try:
            hands = self._deals(hand_number, dealer)
        except EngineError:
            raise
        except Exception as exc:  # a broken test fixture must not leave a half-moved game
            raise InvalidOptions(f"the deal for hand {hand_number} failed: {exc!r}") from exc
        return [[PLAY_ACTION[card] for card in hand] for hand in checked_hands(hands)]

    def _next_hands(self, team: int, points: int) -> list[list[str]] | None:
        """The next hand's cards, fetched BEFORE the state moves (a custom deal may fail);
        None when these points end the game and with it the match."""
        if (
            self._scores[team] + points >= self._target
            and self.games_won[team] + 1 >= self.options.games_to_win
        ):
            return None
        if self._fair is not None:
            return []  # fair-v1: dealt at the cut
        return self._deal_for(self.hand_number + 1, NEXT_SEAT[self.dealer])

    def _start_hand(self, hands: list[list[str]], out: list[Event]) -> None:
        self._hands = hands
        self._signals = [None, None, None, None]
        self._trick = []
        self._rounds = []
        self._results = []
        self._level = 0
        self._last_asker = -1
        self._pending = -1
        self._pending_team = -1
        self._pending_seat = -1
        leader = NEXT_SEAT[self.dealer]  # T3: the player after the dealer leads
        self._turn = leader
        out.append(
            new_event(
                ev.HAND_DEALT,
                self.dealer,
                {"hand_number": self.hand_number, "dealer": self.dealer, "leader": leader},
            )
        )
        special = self._special
        ten0 = self._scores[0] == special
        ten1 = self._scores[1] == special
        if not (ten0 or ten1):
            self._hand_of_ten = -1
            self._iron = False
            self._raise_open = True
            self._hand_value = BASE_VALUE
            self.phase = PHASE_PLAY
            self.to_act = _ACTS[leader]
        elif ten0 and ten1:  # T14
            self._hand_of_ten = -1
            self._iron = True
            self._raise_open = False
            self._hand_value = IRON_HAND_VALUE
            self.phase = PHASE_PLAY
            self.to_act = _ACTS[leader]
            out.append(new_event(ev.IRON_HAND, None, {"hand_number": self.hand_number}))
        else:  # T13
            team = 0 if ten0 else 1
            self._hand_of_ten = team
            self._iron = False
            self._raise_open = False
            self._hand_value = HAND_OF_TEN_VALUE
            self.phase = PHASE_HAND_OF_TEN
            self.to_act = [seat for seat in _turn_order(leader) if team_of(seat) == team]
            out.append(new_event(ev.HAND_OF_TEN, None, {"team": team}))

    def _end_round(self, seat: int, action: str, card: str) -> list[Event]:
        """The round's fourth card (`action` the hand's `play:` string, `card` its code in the
        round, covered or not): settle the round and, if that decides it, the hand -- all
        worked out before any change, because fetching the next deal may fail."""
        cards = (*self._trick, (seat, card))
        best = -1
        best_seat = -1
        best_card = card
        teams_on_top = 0  # bit per team holding a card of the top strength
        shown = []  # the cards as the round's event lists them
        for s, c in cards:
            shown.append(_SEAT_CARD[s][c])
            value = _RANK[c]
            if value > best:
                best = value
                best_seat = s
                best_card = c
                teams_on_top = 1 << (s & 1)
            elif value == best:
                teams_on_top |= 1 << (s & 1)
        round_index = len(self._results)
        leader = cards[0][0]
        if teams_on_top == 3:  # T6: top faces from both pairs tie; the round's leader leads again
            winner_team: int | None = None
            winner_seat: int | None = None
            next_leader = leader
            result = new_event(
                ev.ROUND_TIED,
                None,
                {
                    "round": round_index,
                    "card": _public(best_card),
                    "leader": leader,
                    "cards": shown,
                },
            )
        else:  # the first of the top cards wins (T6: a same-pair tie goes to that pair)
            winner_team = best_seat & 1
            winner_seat = best_seat
            next_leader = best_seat
            result = new_event(
                ev.ROUND_WON,
                None,
                {
                    "round": round_index,
                    "team": winner_team,
                    "seat": best_seat,
                    "card": best_card,
                    "leader": leader,
                    "cards": shown,
                },
            )
        results = [*self._results, winner_team]
        decided = decide_hand(results, self.dealer & 1) if round_index else None
        next_hands = None
        if decided is not None:
            next_hands = self._next_hands(decided[0], self._hand_value)

        self._answered = 0
        self._hands[seat].remove(action)
        finished: Round = (winner_team, winner_seat, cards)
        self._results = results
        self._rounds.append(finished)
        self._last_trick = finished
        self._trick = []
        out = [result]
        if decided is None:
            self._turn = next_leader
            self.to_act = _ACTS[next_leader]
        else:
            self._finish_hand(decided[0], self._hand_value, decided[1], next_hands, out)
        return out

    def _ask(self, seat: int, level: int, counter: bool) -> list[Event]:
        self._pending = level
        self._pending_team = seat & 1
        self._pending_seat = seat
        self.phase = PHASE_ANSWER
        self.to_act = _ANSWERERS[seat]
        return [_ASKED[seat][level][counter]]  # its run_value is the hand's worth now (T9)

    def _take_pending(self) -> None:
        """The pending ask is accepted: the hand is worth it, and its pair may not raise next."""
        level = self._pending
        self._hand_value = RAISES[level][1]
        self._level = level + 1
        if level + 1 == TOP_LEVEL:
            self._raise_open = False
        self._last_asker = self._pending_team
        self._pending = -1
        self._pending_team = -1
        self._pending_seat = -1

    def _accept(self, seat: int) -> list[Event]:
        level = self._pending
        self._take_pending()
        self._answered |= 1 << (seat & 1)
        self.phase = PHASE_PLAY
        self.to_act = _ACTS[self._turn]  # T9: after the answers, the player on turn plays
        return [_ACCEPTED[seat][level]]

    def _counter_raise(self, seat: int) -> list[Event]:
        # T9: a raise in answer accepts the ask and is itself an ask.
        self._take_pending()
        self._answered |= 1 << (seat & 1)
        return self._ask(seat, self._level, True)

    def _run(self, seat: int) -> list[Event]:
        # T11: the hand ends at once; the askers score the worth before their ask (T9, T10).
        askers = self._pending_team
        points = self._hand_value
        next_hands = self._next_hands(askers, points)
        name = RAISES[self._pending][0]
        self._answered |= 1 << (seat & 1)
        self._pending = -1
        self._pending_team = -1
        self._pending_seat = -1
        out = [
            new_event(
                ev.RAN,
                seat,
                {"team": seat & 1, "name": name, "points": points, "to_team": askers},
            )
        ]
        self._finish_hand(askers, points, ev.REASON_RUN, next_hands, out)
        return out

    def _play_hand_of_ten(self, seat: int) -> list[Event]:
        self._answered |= 1 << (seat & 1)
        self.phase = PHASE_PLAY
        self.to_act = _ACTS[self._turn]
        return [_HAND_OF_TEN_PLAYED[seat]]

    def _refuse_hand_of_ten(self, seat: int) -> list[Event]:
        other = 1 - (seat & 1)
        points = HAND_OF_TEN_REFUSED_POINTS
        next_hands = self._next_hands(other, points)
        self._answered |= 1 << (seat & 1)
        out = [
            new_event(
                ev.HAND_OF_TEN_REFUSED,
                seat,
                {"team": seat & 1, "points": points, "to_team": other},
            )
        ]
        self._finish_hand(other, points, ev.REASON_HAND_OF_TEN_REFUSED, next_hands, out)
        return out

    def _finish_hand(
        self,
        team: int,
        points: int,
        reason: str,
        next_hands: list[list[str]] | None,
        out: list[Event],
    ) -> None:
        scores = self._scores
        scores[team] += points
        if self._fair is not None:
            self._fair.reveal()
        data: dict[str, Any] = {
            "team": team,
            "points": points,
            "reason": reason,
            "scores": [scores[0], scores[1]],
            "hand_number": self.hand_number,
            "hand_of_ten": None if self._hand_of_ten < 0 else self._hand_of_ten,
            "iron_hand": self._iron,
        }
        if self._coberta:  # T15: the hand is over, its covered cards are shown
            played = [*(pair for r in self._rounds for pair in r[2]), *self._trick]
            data["covered"] = [{"seat": s, "card": c[1:]} for s, c in played if c[0] == COVER_MARK]
        out.append(new_event(ev.HAND_WON, None, data))
        if scores[team] >= self._target:  # T12 (and T14: the iron hand's winner reaches it)
            self._win_game(team, out)
        if next_hands is None:
            self.phase = PHASE_OVER
            self.is_over = True
            self.winner = team
            self.to_act = []
            return
        self.hand_number += 1
        self._hand_start = len(self.actions) + 1  # the action that ended the hand is logged next
        self.dealer = NEXT_SEAT[self.dealer]  # T3: the deal passes to the next player
        if self._fair is None:
            self._start_hand(next_hands, out)
        else:
            self._await_cut()

    def _win_game(self, team: int, out: list[Event]) -> None:
        """A game is won; under a match that goes on, the next game starts at 0-0."""
        scores = self._scores
        data: dict[str, Any] = {"team": team, "scores": [scores[0], scores[1]]}
        self.games_won[team] += 1
        match = self.options.match
        if match == 1:
            out.append(Event(ev.GAME_WON, None, data))
            return
        data["game_number"] = self.game_number
        data["games_won"] = list(self.games_won)
        out.append(Event(ev.GAME_WON, None, data))
        if self.games_won[team] >= self.options.games_to_win:
            out.append(
                Event(
                    ev.MATCH_WON,
                    None,
                    {"team": team, "games_won": list(self.games_won), "match": match},
                )
            )
            return
        self._scores = [0, 0]
        self.game_number += 1
        out.append(Event(ev.GAME_STARTED, None, {"game_number": self.game_number}))

    # --- fair-v1: the cut before each deal (docs/fair-deals.md) ---------------------------------

    def _await_cut(self) -> None:
        """The hand waits for its cut; its commitment is public from now on. Nobody is to act (no
        bot and no turn timer may make the cut), but the cutter may: the seat before the dealer
        in turn order (the last dealt before him). The table submits `cut:<text>` for it, typed
        by that player or, by default, a value Discord made after the commitment was shown."""
        fair = self._fair
        assert fair is not None
        cutter = PREV_SEAT[self.dealer]
        fair.begin(self.hand_number + 1, self.dealer, cutter)
        self._hands = [[], [], [], []]
        self._trick = []
        self._rounds = []
        self._results = []
        self._level = 0
        self._last_asker = -1
        self._pending = -1
        self._pending_team = -1
        self._pending_seat = -1
        self._hand_of_ten = -1
        self._iron = False
        self._raise_open = False
        self._hand_value = BASE_VALUE
        self._answered = 0
        self._turn = cutter
        self.to_act = []
        self.phase = PHASE_CUT

    def _cut(self, seat: object, action: object) -> list[Event]:
        fair = self._fair
        assert fair is not None
        seat = _check_seat(seat)
        if seat != fair.cutter:
            raise NotYourTurn(f"seat {seat} may not act now: seat {fair.cutter} cuts")
        if action.__class__ is not str:
            raise IllegalAction(f"an action is a string, not {action!r}")
        assert isinstance(action, str)
        text = fair.check_cut(action)  # raises before anything changes
        shuffled = fair.cut(text)
        if shuffled is None:  # fair-v2: the commitment message is recorded; still waiting
            self.actions.append((seat, action))
            return []
        # T3: three cards each, from the player after the dealer, in turn order.
        hands, _ = deal_packets(shuffled, DEAL_SEATS[self.dealer], HAND_SIZE)
        fair.deal = {"hands": hands}
        self.actions.append((seat, action))
        self._hand_start = len(self.actions)
        out: list[Event] = []
        self._start_hand([[PLAY_ACTION[c] for c in sort_for_display(h)] for h in hands], out)
        self.events.extend(out)
        return out

    def fair_records(self) -> list[dict[str, Any]]:
        """The records of the hands dealt under fair-v1 and over, server seeds included (what
        scripts/verify_deal.py checks); [] for a seeded game."""
        return [] if self._fair is None else self._fair.records()

    # --- what a seat may see ----------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (None: the public view). JSON-able. Other seats' cards never appear,
        except the partner's for both players of the pair at 10 during a hand of ten (T13).

        Besides the keys common to both games: "turn" (the seat due to play a card; during an
        ask, the asker), "hand_value" (current worth), "run_value" (what a run would give now:
        the pending ask's run points, 2 in the hand-of-ten decision, else None), "can_raise"
        (the pair that may make the next raise, None if none may; before any ask, the pair on
        turn), "raise_name" (the next raise: truco, six, ten, twelve or None), "pending_ask"
        ({"by_team", "by_seat", "value", "name", "run_value"} or None), "rounds" (this hand's
        finished rounds: {"winner_team" (None: tied), "winner_seat", "cards"}), "hand_of_ten"
        (the pair at 10 or None), "iron_hand", "partner_hand" (T13, else None). "tricks_won"
        counts this hand's rounds won per pair; "last_trick" (with "winner": a seat, None for
        a tie) stays until the next round ends, across hands."""
        if seat is not None:
            _check_seat(seat)
        over = self.phase == PHASE_OVER
        last = self._last_trick
        fair = self._fair
        partner_hand = None
        if seat is not None and not over and self._hand_of_ten == team_of(seat):
            partner_hand = _cards(self._hands[(seat + 2) % 4])
        out = {
            "game": GAME_NAME,
            "seat": seat,
            "phase": self.phase,
            "dealer": self.dealer,
            "hand_number": self.hand_number,
            "to_act": list(self.to_act),
            "legal_actions": [] if seat is None else self.legal_actions(seat),
            "hand": None if seat is None else _cards(self._hands[seat]),
            "hand_sizes": [len(hand) for hand in self._hands],
            "trick": _cards_view(self._trick),
            # The last finished round, kept after its hand ends so the table can show it.
            "last_trick": None if last is None else {"winner": last[1], **_round_view(last)},
            "tricks_won": [sum(1 for r in self._rounds if r[0] == t) for t in (0, 1)],
            "scores": [self._scores[0], self._scores[1]],
            "is_over": over,
            "winner": self.winner,
            "target": self._target,
            "options": self.options.to_dict(),
            "turn": None if over or self.phase == PHASE_CUT else self._turn,
            "hand_value": self._hand_value,
            "run_value": self._run_value(),
            "can_raise": self._can_raise(),
            "raise_name": self._raise_name(),
            "pending_ask": self._pending_view(),
            "rounds": [_round_view(r) for r in self._rounds],
            "hand_of_ten": None if self._hand_of_ten < 0 else self._hand_of_ten,
            "iron_hand": self._iron,
            "partner_hand": partner_hand,
            # Sinais: only the seat's own and its partner's, never the other pair's.
            "signals": None if seat is None else self._signals_view(seat),
            # How each pair has bet this game (public): the look-ahead reads a pair that raises
            # every hand, or never runs, as one whose raises and accepts tell little (search.py).
            "betting": betting_record(self.actions, self.hand_number + 1),
        }
        if self.options.match != 1:
            out["games_won"] = list(self.games_won)
            out["game_number"] = self.game_number
            out["match"] = self.options.match
        if fair is not None:
            out["fair"] = fair.view()
        return out

    def _signals_view(self, seat: int) -> dict[str, Any]:
        """The seat's own signal this hand, its partner's, and the signals it may send now."""
        return {
            "mine": self._signals[seat],
            "partner": self._signals[(seat + 2) % 4],
            "can_send": self.signal_actions(seat),
        }

    def _run_value(self) -> int | None:
        if self.phase == PHASE_ANSWER:
            return self._hand_value
        if self.phase == PHASE_HAND_OF_TEN:
            return HAND_OF_TEN_REFUSED_POINTS
        return None

    def _can_raise(self) -> int | None:
        """The pair that may make the next raise. Before any ask both may, on their own turns: then
        it is the pair on turn, the only one that can ask right now."""
        if self._hand_of_ten >= 0 or self._iron or self.phase == PHASE_OVER:
            return None
        if self.phase == PHASE_ANSWER:
            return 1 - self._pending_team if self._pending + 1 < TOP_LEVEL else None
        if not self._raise_open:
            return None
        if self._last_asker < 0:
            return self._turn & 1
        return 1 - self._last_asker

    def _raise_name(self) -> str | None:
        if self._can_raise() is None:
            return None
        level = self._pending + 1 if self.phase == PHASE_ANSWER else self._level
        return RAISES[level][0]

    def _pending_view(self) -> dict[str, Any] | None:
        if self._pending < 0:
            return None
        name, value = RAISES[self._pending]
        return {
            "by_team": self._pending_team,
            "by_seat": self._pending_seat,
            "value": value,
            "name": name,
            "run_value": self._hand_value,
        }

    # --- persistence --------------------------------------------------------------------------

    def copy(self) -> Game:
        """An independent copy (for look-ahead and tests): cheap, no deepcopy."""
        new = Game.__new__(Game)
        for name in Game.__slots__:
            setattr(new, name, getattr(self, name))
        new.actions = list(self.actions)
        new.events = list(self.events)
        new._scores = list(self._scores)
        new.games_won = list(self.games_won)
        new._hands = [list(hand) for hand in self._hands]
        new._trick = list(self._trick)
        new._rounds = list(self._rounds)
        new._results = list(self._results)
        new.to_act = list(self.to_act)
        new._signals = list(self._signals)
        if self._fair is not None:
            new._fair = self._fair.copy()
        return new

    def _state(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in Game.__slots__ if name != "_deals")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._state() == other._state()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<truco Game hand={self.hand_number} phase={self.phase} scores={self.scores} "
            f"to_act={self.to_act}>"
        )


_SIGNAL_ORDER: Final[dict[str, int]] = {SIGNAL_PREFIX + kind: i for i, kind in enumerate(SIGNALS)}


def _public(card: str) -> str:
    """A card as every view shows it: a covered card face down (T15)."""
    return FACE_DOWN if card[0] == COVER_MARK else card


def _cards_view(cards: Sequence[tuple[int, str]]) -> list[dict[str, Any]]:
    return [{"seat": s, "card": _public(c)} for s, c in cards]


def _cards(hand: list[str]) -> list[str]:
    return [action[_PREFIX_LEN:] for action in hand]


def _turn_order(leader: int) -> list[int]:
    order = [leader]
    for _ in range(3):
        order.append(NEXT_SEAT[order[-1]])
    return order


def _round_view(r: Round) -> dict[str, Any]:
    return {
        "winner_team": r[0],
        "winner_seat": r[1],
        "cards": _cards_view(r[2]),
    }


def new_game(
    options: Options | None,
    seed: int,
    *,
    first_dealer: int | None = None,
    deals: Deals | None = None,
) -> Game:
    """A new game, its first hand dealt. `deals(hand_number, dealer)` replaces the seeded shuffle
    with hand-built hands (tests): four lists of three card codes indexed by seat."""
    return Game(Options() if options is None else options, seed, first_dealer, deals)


def betting_record(actions: list[tuple[int, str]], hands: int) -> dict[str, Any]:
    """Each pair's betting in a game's (public) action log: "raises" (asks and raises back),
    "accepts" and "runs" answering an ask (a raise back is an answer too: "answers" counts the
    three), and "hands" dealt so far. A pair's accept or run with no ask pending is its hand-of-ten
    decision (T13) and is not counted."""
    raises = [0, 0]
    accepts = [0, 0]
    runs = [0, 0]
    answers = [0, 0]
    pending = -1  # the pair whose ask waits for an answer
    for seat, action in actions:
        if action == RAISE:
            team = seat & 1
            raises[team] += 1
            if pending >= 0 and pending != team:
                answers[team] += 1
            pending = team
        elif pending >= 0 and action in _ACCEPT_RUN:
            team = seat & 1
            answers[team] += 1
            if action == RUN:
                runs[team] += 1
            else:
                accepts[team] += 1
            pending = -1
    return {"raises": raises, "accepts": accepts, "runs": runs, "answers": answers, "hands": hands}
