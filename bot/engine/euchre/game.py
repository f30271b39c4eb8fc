"""The Euchre state machine (rules E1–E22 of shared/rules/euchre.md).

A game is (options, seed, first dealer, actions): `apply(seat, action)` moves it one step and
returns the events of that step. Every check happens before anything changes, so an illegal
action, a wrong seat or a finished game raises and leaves the state exactly as it was.

Hot path (see scripts/bench_euchre.py): cards are ints and hands bit masks (cards.py); the
legal plays of a hand come from precomputed tables, a play is checked with two mask tests, and
a trick's winner is tracked card by card from a precomputed power table (the trick's first card
picks its row, its suit and its follow mask in one lookup, cards.LEAD). The trick in progress is
a list of shared {seat, card} dicts, which becomes trick_won's `cards` as it is. The bidding
phases cache their (short) legal lists until the next action. Playing a card that does not end
a trick emits no event, and events are made with `new_event` (no dataclass __init__). `to_act`
and `is_over` are plain attributes for the same reason: read them, never assign them (the
engine itself never reads them back).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NoReturn

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
    hand_state,
    new_event,
    partner_of,
)
from bot.engine.euchre import events as ev
from bot.engine.euchre.actions import (
    ALONE_ANSWERS,
    BID1,
    BID2,
    CARD_OF_DISCARD,
    CARD_OF_PLAY,
    DISCARD_ACTION,
    DISCARDS_HIGH,
    DISCARDS_LOW,
    DISCARDS_MID,
    GO_ALONE,
    NAME_ACTIONS,
    ORDER_ALONE,
    PASS,
    PLAY_ACTION,
    PLAYS_HIGH,
    PLAYS_LOW,
    PLAYS_MID,
    SUIT_ACTION,
)
from bot.engine.euchre.cards import (
    BIT,
    CARD_OF_CODE,
    CODES,
    JOKER,
    LEAD,
    NO_SUIT,
    SUITS,
    DealPlan,
    cards_in,
    deal_plan,
    deck_for,
    display_sorted,
    mask_of,
    same_colour,
)
from bot.engine.euchre.options import Options
from bot.engine.euchre.scoring import bridge, rubber_margin, rubber_points, score_hand
from bot.engine.euchre.seating import draw_for_seats
from bot.engine.fair_deal import (
    SEEDED,
    FairDealer,
    deal_packets,
    euchre_deck,
)

GAME_NAME = "euchre"

# (hand_number, dealer) -> (four hands by seat, kitty with the turned-up card first)
DealFn = Callable[[int, int], tuple[Sequence[Sequence[str]], Sequence[str]]]

# hand_rng purposes: the deal of a hand, the draw for seats (E2), the random first dealer.
PURPOSE_DEAL = 0
PURPOSE_SEATING = 1
PURPOSE_FIRST_DEALER = 2

HIDDEN_DISCARD = "discard:?"  # another seat's discard, in hand_history


# _SEAT_CARD[seat][card]: a played card as trick_won lists it, {seat, card}. The trick in
# progress is a list of these, so the finished trick is trick_won's `cards` as it stands (no
# copy). Shared by every trick and event of every game, and read-only like all event data.
_SEAT_CARD = tuple(tuple({"seat": s, "card": code} for code in CODES) for s in range(4))


# Shared read-only tuples, so the play path allocates none: _PLAYED[seat][card] is the action
# log's (seat, "play:<card>") (the record holds the canonical string, equal to the one given).
# Every game's logs point at the same few hundred.
_PLAYED = tuple(tuple((s, action) for action in PLAY_ACTION) for s in range(4))
# to_act while one seat acts: one shared list per seat (to_act is read-only to every reader,
# and the engine replaces it, never changes it).
_ACTS = ([0], [1], [2], [3])
_PASSES = tuple((s, PASS) for s in range(4))
# _PLAY_OF[seat][action]: all a play needs in one lookup, (card, its bit, _PLAYED's pair,
# _SEAT_CARD's dict), for apply's hot path (one dict read instead of five table reads).
_PLAY_OF = tuple(
    {
        action: (card, BIT[card], _PLAYED[s][card], _SEAT_CARD[s][card])
        for action, card in CARD_OF_PLAY.items()
    }
    for s in range(4)
)
# The events that carry nothing but their seat (and a constant), made once: events are read-only
# (every reader only reads them), so a shared one is equal to a fresh one in every way that counts.
_PASSED = {r: tuple(Event(ev.PASSED, s, {"round": r}) for s in range(4)) for r in (1, 2)}
# trick_won's and hand_scored's tricks [team 0, team 1]: one shared list per count (read-only).
_TRICK_COUNTS = tuple(tuple([t0, t1] for t1 in range(6)) for t0 in range(6))
_DISCARDED = tuple(Event(ev.DEALER_DISCARDED, s, {}) for s in range(4))
_STAYED = tuple(Event(ev.STAYED, s, {}) for s in range(4))
# E9: accepting the turned card, by the bidder's place to the left of the dealer: the dealer
# picks it up, his partner (two to the left) assists, an opponent orders it up.
_ACCEPTED_BY = (ev.PICKED_UP, ev.ORDERED_UP, ev.ASSISTED, ev.ORDERED_UP)


class InvalidDeal(EngineError):
    """A `deals` callable returned something that is not a deal of this game's deck."""


NAME_SUIT, BIDDING1, BIDDING2, DISCARD, ALONE, PLAY, OVER, CUT = range(8)
PHASE_KEYS = ("name_suit", "bidding1", "bidding2", "discard", "alone", "play", "over", "cut")

_NEXT_ALL = (1, 2, 3, 0)
# `_turn` once the game is over: apply and legal_actions test `seat is not self._turn` first,
# so this must be an object no caller holds (not -1: small ints are shared objects).
_NO_TURN = -(1 << 80)
# _NEXT_WITHOUT[p]: the next seat to play when p sits out (his partner went alone, E14).
_NEXT_WITHOUT = tuple(
    tuple((s + 1) % 4 if (s + 1) % 4 != p else (s + 2) % 4 for s in range(4)) for p in range(4)
)
_PLANS: dict[tuple[int, ...], DealPlan] = {}  # deck -> its deal plan (cards.deal_plan)

_STATE_FIELDS = (
    "options",
    "seed",
    "first_dealer",
    "actions",
    "events",
    "draw",
    "seat_of_position",
    "hand_number",
    "dealer",
    "game_number",
    "games_won",
    "rubber_points",
    "game_results",
    "margin",
    "winner",
    "_scores",
    "_phase",
    "_turn",
    "to_act",
    "is_over",
    "_hands",
    "_kitty",
    "_turned",
    "_proposed",
    "_named",
    "_passes",
    "_round",
    "_trump",
    "_maker",
    "_alone",
    "_out",
    "_discard",
    "_ask",
    "_next",
    "_n_active",
    "_trick",
    "_led",
    "_best_power",
    "_best_seat",
    "_tricks",
    "_tricks_played",
    "_last_trick",
    "_fair",
)


class Game(GameRecord):
    """One game (or rubber, E22) of four-handed Euchre. Build it with `new_game`.

    Public attributes are read-only: options, seed, first_dealer, actions, events, draw,
    seat_of_position, hand_number, dealer, game_number, games_won, rubber_points, game_results
    (one dict per finished game), margin (E22, once a rubber is over), winner (team), to_act,
    is_over. Properties: phase, scores, target, trump, maker, alone, sitting_out, turned_card.
    """

    GAME_NAME = GAME_NAME
    OPTIONS = Options
    HAND_DEALT = ev.HAND_DEALT

    __slots__ = (
        *_STATE_FIELDS,
        "_deals",
        "_deck",
        "_plan",
        "_target",
        "_maker_alone",
        "_lead_loner",
        "_stick",
        "_rubber",
        "_hand_limit",
        "_prow",
        "_lead",
        "_follow",
        "_last_count",
        "_legal",
        "_hand_start",
    )

    options: Options
    seed: int
    first_dealer: int
    actions: list[tuple[int, str]]
    events: list[Event]
    draw: list[list[dict[str, Any]]] | None
    seat_of_position: list[int]
    hand_number: int
    dealer: int
    game_number: int
    games_won: list[int]
    rubber_points: list[int]
    game_results: list[dict[str, Any]]
    margin: int | None
    winner: int | None
    _scores: list[int]
    _phase: int
    _turn: int
    to_act: list[int]
    is_over: bool
    _hands: list[int]
    _kitty: list[int]
    _turned: int
    _proposed: int
    _named: int
    _passes: int
    _round: int
    _trump: int
    _maker: int
    _alone: list[int]
    _out: list[int]
    _discard: int
    _ask: list[int]
    _next: Sequence[int]
    _n_active: int
    _trick: list[dict[str, Any]]  # _SEAT_CARD entries in play order
    _led: int
    _best_power: int
    _best_seat: int
    _tricks: list[int]
    _tricks_played: int
    _last_trick: tuple[list[dict[str, Any]], int] | None  # (its cards, the winner)
    _fair: FairDealer | None  # deal="fair-v1" (docs/fair-deals.md), else None
    _deals: DealFn | None
    _deck: tuple[int, ...]
    _plan: DealPlan
    _target: int
    _maker_alone: bool
    _lead_loner: bool
    _stick: bool
    _rubber: bool
    _hand_limit: int  # options.hands: the game ends after that many hands (0: no limit)
    _prow: tuple[int, ...]  # the trick's TRICK_POWER row (set by its first card)
    _lead: tuple[tuple[int, int, tuple[int, ...]], ...]  # LEAD[trump]
    _follow: int
    _last_count: int
    _legal: Sequence[str] | None
    _hand_start: int

    def __init__(
        self,
        options: Options,
        seed: int,
        first_dealer: int | None = None,
        deals: DealFn | None = None,
    ) -> None:
        if not isinstance(options, Options):
            raise InvalidOptions("options must be a bot.engine.euchre.Options")
        if type(seed) is not int:
            raise InvalidOptions(f"seed must be an int, not {seed!r}")
        if first_dealer is not None and (
            type(first_dealer) is not int or not 0 <= first_dealer < 4
        ):
            raise BadSeat(f"first_dealer must be a seat 0..3, not {first_dealer!r}")
        self.options = options
        self.seed = seed
        self.actions = []
        self._deals = deals
        self._deck = deck = deck_for(options.deck, options.joker)
        plan = _PLANS.get(deck)
        if plan is None:
            plan = _PLANS[deck] = deal_plan(deck)
        self._plan = plan
        self._target = options.target
        self._maker_alone = options.alone == "maker"
        self._lead_loner = options.lead == "left_of_loner"
        self._stick = options.stick_the_dealer
        self._rubber = options.match == "rubber"
        self._hand_limit = options.hands
        self._scores = [0, 0]
        self.game_number = 0
        self.games_won = [0, 0]
        self.rubber_points = [0, 0]
        self.game_results = []
        self.margin = None
        self.winner = None
        self._last_trick = None
        self.is_over = False
        evs: list[Event] = []
        if options.seating == "draw":
            if first_dealer not in (None, 0):
                raise InvalidOptions(
                    "under seating=draw the lowest card deals first: first_dealer is seat 0"
                )
            rounds, seat_of_position = draw_for_seats(
                hand_rng(seed, -1, PURPOSE_SEATING), self._deck
            )
            self.draw = rounds
            self.seat_of_position = seat_of_position
            dealer = 0
            evs.append(
                new_event(
                    ev.SEATING_DRAWN,
                    None,
                    {
                        "rounds": [[dict(d) for d in r] for r in rounds],
                        "seat_of_position": list(seat_of_position),
                        "first_dealer": 0,
                    },
                )
            )
        else:
            self.draw = None
            self.seat_of_position = [0, 1, 2, 3]
            if first_dealer is None:
                dealer = hand_rng(seed, -1, PURPOSE_FIRST_DEALER).below(4)
            else:
                dealer = first_dealer
        self.first_dealer = dealer
        self.dealer = dealer
        self.hand_number = 0
        if options.deal == SEEDED:
            self._fair = None
            deal = self._fetch_deal(0, dealer)
            evs.append(new_event(ev.GAME_STARTED, None, {"game_number": 0, "dealer": dealer}))
            self._start_hand(deal, evs)
        else:
            if deals is not None:
                raise InvalidOptions("a fair-v1 game deals its own hands: no `deals`")
            assert options.players is not None  # Options checks it
            by_seat = [""] * 4  # players are listed by lobby position; the draw may move them
            for position, seat in enumerate(self.seat_of_position):
                by_seat[seat] = options.players[position]
            self._fair = FairDealer(
                GAME_NAME, euchre_deck(options.deck, options.joker), by_seat, seed, options.deal
            )
            evs.append(new_event(ev.GAME_STARTED, None, {"game_number": 0, "dealer": dealer}))
            self._await_cut()
        self.events = evs

    # --- the contract --------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return PHASE_KEYS[self._phase]

    @property
    def scores(self) -> tuple[int, int]:
        """The current game's points by team (under match=rubber, the game in progress)."""
        return self._scores[0], self._scores[1]

    @property
    def target(self) -> int:
        return self._target

    @property
    def trump(self) -> str | None:
        return SUITS[self._trump] if self._trump >= 0 else None

    @property
    def maker(self) -> int | None:
        return self._maker if self._maker >= 0 else None

    @property
    def alone(self) -> list[int]:
        return list(self._alone)

    @property
    def sitting_out(self) -> list[int]:
        return list(self._out)

    @property
    def turned_card(self) -> str:
        return CODES[self._turned]

    def legal_actions(self, seat: int) -> list[str]:
        # `is`: seats are small ints, the same objects as `_turn` (CPython caches them); any
        # other seat, or an equal int that is not the same object, takes the careful path.
        if seat is not self._turn:
            if type(seat) is not int or not 0 <= seat < 4:
                raise BadSeat(f"no seat {seat!r}: seats are 0..3")
            if seat != self._turn:
                return []
        if self._phase == PLAY:
            # E17: follow the suit led if possible (the left bower and the joker are trump)
            hand = self._hands[seat]
            hand = hand & self._follow or hand
            return [*PLAYS_LOW[hand & 2047], *PLAYS_MID[hand >> 11 & 2047], *PLAYS_HIGH[hand >> 22]]
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return [*legal]

    def apply(self, seat: int, action: str) -> list[Event]:
        if seat is not self._turn:  # see legal_actions
            self._check_seat(seat)
        if self._phase != PLAY:
            if self._phase == CUT:
                return self._cut(seat, action)
            legal = self._legal
            if legal is None:
                legal = self._legal = self._compute_legal()
            if action not in legal:
                raise IllegalAction(
                    f"seat {seat} may not {action!r} now ({PHASE_KEYS[self._phase]}); "
                    f"legal: {', '.join(legal)}"
                )
            return self._bid(seat, action)
        # Play: checked directly (the hot path), E17.
        try:
            card, bit, played, seat_card = _PLAY_OF[seat][action]
        except (KeyError, TypeError):
            raise IllegalAction(f"seat {seat} may not {action!r} now: play a card") from None
        hands = self._hands
        hand = hands[seat]
        # One test for both rules: the card is in the hand and follows suit if the hand can
        # (legal_actions' mask; `_follow` is 0 when leading).
        if not bit & (hand & self._follow or hand):
            self._refuse_play(seat, action, hand, bit)
        trick = self._trick
        count = len(trick) + 1
        if count == self._last_count:
            return self._play_last_card(seat, card, bit, played, seat_card)
        self.actions.append(played)
        hands[seat] = hand ^ bit
        trick.append(seat_card)
        if count == 1:
            self._led, self._follow, prow = self._lead[card]
            self._prow = prow
            self._best_power = prow[card]
            self._best_seat = seat
            nxt = self._turn = self._next[seat]
            self.to_act = _ACTS[nxt]
            return []
        power = self._prow[card]
        if power > self._best_power:
            self._best_power = power
            self._best_seat = seat
        if count < self._n_active:
            nxt = self._turn = self._next[seat]
            self.to_act = _ACTS[nxt]
            return []
        # The trick is complete (not the hand's last: _play_last_card ends that one).
        winner = self._best_seat
        tricks = self._tricks
        tricks[winner & 1] += 1
        number = self._tricks_played = self._tricks_played + 1
        if number == 4:  # the next trick is the last: its last card ends the hand
            self._last_count = self._n_active
        self._last_trick = (trick, winner)  # never changed again: a new list starts below
        self._trick = []
        self._follow = 0
        self._turn = winner
        self.to_act = _ACTS[winner]
        event = new_event(
            ev.TRICK_WON,
            winner,
            {
                "number": number,
                "leader": trick[0]["seat"],
                "cards": trick,
                "tricks": _TRICK_COUNTS[tricks[0]][tricks[1]],
            },
        )
        self.events.append(event)
        return [event]

    def _refuse_play(self, seat: int, action: str, hand: int, bit: int) -> NoReturn:
        if not hand & bit:
            raise IllegalAction(f"seat {seat} may not {action!r}: not a card in that hand")
        raise IllegalAction(f"seat {seat} must follow suit {SUITS[self._led]}")

    def hand_history(self, seat: int) -> list[tuple[int, str]]:
        """This hand's actions as `seat` saw them: the dealer's discard is `discard:?` to the
        others (E10). With the view, all a look-ahead may know (engine/euchre/search.py)."""
        return [
            (s, HIDDEN_DISCARD if s != seat and a in CARD_OF_DISCARD else a)
            for s, a in self.actions[self._hand_start :]
        ]

    def _check_seat(self, seat: object) -> None:
        """Raises unless `seat` is the int whose turn it is (then `apply` goes on)."""
        if type(seat) is not int or not 0 <= seat < 4:
            raise BadSeat(f"no seat {seat!r}: seats are 0..3")
        if self._phase == OVER:
            raise GameOver("the game is over")
        if seat != self._turn:
            raise NotYourTurn(f"seat {seat} may not act now; to act: {self._turn}")

    # --- serialisation -------------------------------------------------------------------------

    def clone(self) -> Game:
        """An independent copy (no deepcopy: only the containers that change are copied)."""
        twin = Game.__new__(Game)
        for name in Game.__slots__:
            setattr(twin, name, getattr(self, name))
        twin.actions = list(self.actions)
        twin.events = list(self.events)
        twin.games_won = list(self.games_won)
        twin.rubber_points = list(self.rubber_points)
        twin.game_results = list(self.game_results)
        twin._scores = list(self._scores)
        twin._hands = list(self._hands)
        twin._kitty = list(self._kitty)
        twin._alone = list(self._alone)
        twin._out = list(self._out)
        twin._ask = list(self._ask)
        twin._trick = list(self._trick)
        twin._tricks = list(self._tricks)
        twin.to_act = list(self.to_act)
        if self._fair is not None:
            twin._fair = self._fair.copy()
        return twin

    def _state(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in _STATE_FIELDS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._state() == other._state()

    __hash__ = None  # type: ignore[assignment]  # mutable: equal by state, never hashed

    # --- the deal (E3, E8) ---------------------------------------------------------------------

    def _fetch_deal(self, hand_number: int, dealer: int) -> tuple[list[int], list[int]]:
        """(hand masks by seat, kitty with the turned card first) of a hand."""
        if self._deals is None:
            # E8: a uniform deal; the order of the cards left face down under the turned card
            # plays no part, so only the 20 dealt and the turned card are drawn.
            return self._plan(hand_state(self.seed, hand_number, PURPOSE_DEAL), dealer)
        hand_lists, kitty = self._checked_deal(self._deals(hand_number, dealer))
        return [mask_of(hand) for hand in hand_lists], kitty

    def _checked_deal(self, deal: Any) -> tuple[list[list[int]], list[int]]:
        try:
            raw_hands, raw_kitty = deal
            hands = [[CARD_OF_CODE[c] for c in hand] for hand in raw_hands]
            kitty = [CARD_OF_CODE[c] for c in raw_kitty]
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidDeal(f"a deal is (four hands of card codes, kitty): {exc!r}") from exc
        if len(hands) != 4 or any(len(hand) != 5 for hand in hands):
            raise InvalidDeal("a deal gives five cards to each of four seats")
        if sorted([c for hand in hands for c in hand] + kitty) != sorted(self._deck):
            raise InvalidDeal("a deal uses every card of this game's deck exactly once")
        return hands, kitty

    def _start_hand(self, deal: tuple[list[int], list[int]], evs: list[Event]) -> None:
        self._reset_hand(deal)
        turned = self._turned
        evs.append(
            new_event(
                ev.HAND_DEALT,
                self.dealer,
                {
                    "hand_number": self.hand_number,
                    "game_number": self.game_number,
                    "dealer": self.dealer,
                    "turned_card": CODES[turned],
                },
            )
        )
        if turned == JOKER:  # E6: the dealer names a suit before the first bid
            self._phase = NAME_SUIT
            self._proposed = NO_SUIT
            self._turn = self.dealer
        else:
            self._phase = BIDDING1
            self._proposed = turned // 8
            self._turn = (self.dealer + 1) % 4
        self.to_act = _ACTS[self._turn]

    def _reset_hand(self, deal: tuple[list[int], list[int]]) -> None:
        """Every per-hand field, for a new deal (no cards at all while a hand waits for its
        cut: the turned card is then -1)."""
        self._hand_start = len(self.actions)
        self._hands, self._kitty = deal
        self._turned = self._kitty[0] if self._kitty else -1
        self._named = NO_SUIT
        self._passes = 0
        self._round = 1
        self._trump = NO_SUIT
        self._maker = -1
        self._alone = []
        self._out = []
        self._discard = -1
        self._ask = []
        self._next = _NEXT_ALL
        self._n_active = 4
        self._trick = []
        self._led = NO_SUIT
        self._prow = ()
        self._lead = ()
        self._follow = 0
        self._last_count = 0
        self._best_power = -1
        self._best_seat = -1
        self._tricks = [0, 0]
        self._tricks_played = 0
        self._legal = None
        self._proposed = NO_SUIT

    # --- fair-v1: the cut before each deal (docs/fair-deals.md) -------------------------------

    def _await_cut(self) -> None:
        """The hand waits for its cut; its commitment is public from now on. Nobody is to act
        (to_act is empty: no bot and no turn timer may make the cut), but the seat at the
        dealer's right may: the table submits `cut:<text>` for it, typed by that player or, by
        default, a value Discord made after the commitment was shown."""
        fair = self._fair
        assert fair is not None
        cutter = (self.dealer + 3) % 4
        fair.begin(self.hand_number + 1, self.dealer, cutter)
        self._reset_hand(([0, 0, 0, 0], []))
        self._phase = CUT
        self._turn = cutter
        self.to_act = []

    def _cut(self, seat: int, action: str) -> list[Event]:
        fair = self._fair
        assert fair is not None
        text = fair.check_cut(action)  # raises before anything changes
        dealer = self.dealer
        shuffled = fair.cut(text)
        if shuffled is None:  # fair-v2: the commitment message is recorded; still waiting
            self.actions.append((seat, action))
            return []
        # E8: five cards each from the dealer's left, then the turned card; the rest under it.
        order = ((dealer + 1) % 4, (dealer + 2) % 4, (dealer + 3) % 4, dealer)
        hands, rest = deal_packets(shuffled, order, 5)
        fair.deal = {"hands": hands, "turned": rest[0], "kitty": rest[1:]}
        self.actions.append((seat, action))
        evs: list[Event] = []
        masks = [mask_of([CARD_OF_CODE[c] for c in hand]) for hand in hands]
        self._start_hand((masks, [CARD_OF_CODE[c] for c in rest]), evs)
        self.events += evs
        return evs

    def fair_records(self) -> list[dict[str, Any]]:
        """The records of the hands dealt under fair-v1 and over, server seeds included (what
        scripts/verify_deal.py checks); [] for a seeded game."""
        return [] if self._fair is None else self._fair.records()

    # --- legal actions -------------------------------------------------------------------------

    def _compute_legal(self) -> Sequence[str]:
        """Legal actions of the bidding phases (play is checked directly, see apply)."""
        phase = self._phase
        if phase == BIDDING1:
            return BID1[self._maker_alone]
        if phase == BIDDING2:
            # E12 stick the dealer: the dealer may not pass in the second round.
            may_pass = not (self._stick and self._turn == self.dealer)
            return BID2[(self._proposed, may_pass, self._maker_alone)]
        if phase == DISCARD:
            # E10: ordered up or assisted, the dealer discards one of six, the turned card
            # itself meaning he left it; when he took it himself, one of his own five.
            hand = self._hands[self.dealer]
            discards = [
                *DISCARDS_LOW[hand & 2047],
                *DISCARDS_MID[hand >> 11 & 2047],
                *DISCARDS_HIGH[hand >> 22],
            ]
            if self._maker != self.dealer:
                discards.append(DISCARD_ACTION[self._turned])
            return discards
        if phase == ALONE:
            return ALONE_ANSWERS
        if phase == NAME_SUIT:
            return NAME_ACTIONS
        return ()

    # --- making trump (E6, E9–E15) -------------------------------------------------------------

    def _bid(self, seat: int, action: str) -> list[Event]:
        phase = self._phase
        if phase == BIDDING1 and action == PASS and self._passes < 3:
            # The common bid: the next seat bids with the same legal actions (kept cached).
            self.actions.append(_PASSES[seat])
            self._passes += 1
            nxt = self._turn = _NEXT_ALL[seat]
            self.to_act = _ACTS[nxt]
            event = _PASSED[1][seat]
            self.events.append(event)
            return [event]
        deal = None
        if phase == BIDDING2 and action == PASS and self._passes == 3 and self._fair is None:
            # The hand is thrown in: fetch the next deal before anything changes.
            deal = self._fetch_deal(self.hand_number + 1, (self.dealer + 1) % 4)
        self.actions.append((seat, action))
        self._legal = None
        evs: list[Event] = []
        if phase == BIDDING1:
            self._bid_round1(seat, action, evs)
        elif phase == BIDDING2:
            self._bid_round2(seat, action, evs, deal)
        elif phase == DISCARD:
            self._dealer_discards(CARD_OF_DISCARD[action], evs)
        elif phase == ALONE:
            self._answer_alone(seat, action, evs)
        else:  # NAME_SUIT
            suit = SUIT_ACTION[action][0]
            self._named = self._proposed = suit
            evs.append(new_event(ev.SUIT_NAMED, seat, {"suit": SUITS[suit]}))
            self._phase = BIDDING1
            self._turn = (self.dealer + 1) % 4
        # A hand thrown in under fair-v1 leaves the next one waiting for its cut: nobody acts.
        self.to_act = [] if self._phase == CUT else _ACTS[self._turn]
        self.events += evs
        return evs

    def _bid_round1(self, seat: int, action: str, evs: list[Event]) -> None:
        dealer = self.dealer
        if action == PASS:
            evs.append(_PASSED[1][seat])
            self._passes += 1
            if self._passes < 4:
                self._turn = (seat + 1) % 4
                return
            evs.append(
                new_event(
                    ev.TURNED_DOWN,
                    None,
                    {"card": CODES[self._turned], "suit": SUITS[self._proposed]},
                )
            )
            self._phase = BIDDING2
            self._round = 2
            self._passes = 0
            self._turn = (dealer + 1) % 4
            return
        alone = action == ORDER_ALONE
        kind = _ACCEPTED_BY[(seat - dealer) % 4]
        self._make_trump(seat, self._proposed)
        evs.append(
            new_event(
                kind,
                seat,
                {"suit": SUITS[self._trump], "card": CODES[self._turned], "alone": alone},
            )
        )
        if alone:
            self._go_alone(seat, evs)
            if partner_of(seat) == dealer:
                # E15: the dealer sits out, the turned card stays on the kitty, no discard.
                self._start_play()
                return
        self._phase = DISCARD
        self._turn = dealer

    def _bid_round2(
        self,
        seat: int,
        action: str,
        evs: list[Event],
        deal: tuple[list[int], list[int]] | None,
    ) -> None:
        if action == PASS:
            evs.append(_PASSED[2][seat])
            self._passes += 1
            if self._passes < 4:
                self._turn = (seat + 1) % 4
                return
            # E12: thrown in; E3: the deal passes to the left.
            next_dealer = (self.dealer + 1) % 4
            evs.append(
                new_event(
                    ev.REDEAL,
                    self.dealer,
                    {"hand_number": self.hand_number, "next_dealer": next_dealer},
                )
            )
            self._next_hand(deal, evs)
            return
        suit, alone = SUIT_ACTION[action]
        self._make_trump(seat, suit)
        style = "next" if suit == same_colour(self._proposed) else "cross"
        evs.append(
            new_event(ev.CALLED, seat, {"suit": SUITS[suit], "style": style, "alone": alone})
        )
        if alone:
            self._go_alone(seat, evs)
        if self._maker_alone:
            self._start_play()
        else:
            self._ask_alone()

    def _make_trump(self, seat: int, suit: int) -> None:
        self._trump = suit
        self._lead = LEAD[suit]
        self._maker = seat

    def _dealer_discards(self, card: int, evs: list[Event]) -> None:
        self._discard = card
        if card != self._turned:  # he takes the turned card; his discard goes under the pack
            self._hands[self.dealer] ^= BIT[card] | BIT[self._turned]
            self._kitty[0] = card
        evs.append(_DISCARDED[self.dealer])
        if self._maker_alone:
            self._start_play()
        else:
            self._ask_alone()

    def _ask_alone(self) -> None:
        """E14 alone=anyone: each player in turn from the dealer's left, the dealer last."""
        dealer = self.dealer
        self._phase = ALONE
        self._turn = (dealer + 1) % 4
        self._ask = [(dealer + 2) % 4, (dealer + 3) % 4, dealer]

    def _answer_alone(self, seat: int, action: str, evs: list[Event]) -> None:
        if action == GO_ALONE:
            self._go_alone(seat, evs)
        else:
            evs.append(_STAYED[seat])
        alone = self._alone
        while self._ask:
            nxt = self._ask.pop(0)
            # Once a player declares, his partner is not asked (and sits out, even if he had
            # already answered "stay").
            if partner_of(nxt) not in alone:
                self._turn = nxt
                return
        self._start_play()

    def _go_alone(self, seat: int, evs: list[Event]) -> None:
        partner = partner_of(seat)
        self._alone.append(seat)
        self._out.append(partner)
        side = "makers" if seat % 2 == self._maker % 2 else "defenders"
        evs.append(new_event(ev.WENT_ALONE, seat, {"side": side, "partner": partner}))

    # --- play (E16, E17) -----------------------------------------------------------------------

    def _start_play(self) -> None:
        out = self._out
        if len(out) == 1:
            self._next = _NEXT_WITHOUT[out[0]]
        elif out:
            nxt = []
            for seat in range(4):
                n = (seat + 1) % 4
                while n in out:
                    n = (n + 1) % 4
                nxt.append(n)
            self._next = tuple(nxt)
        self._n_active = 4 - len(out)
        dealer = self.dealer
        alone = self._alone
        if self._lead_loner and alone:
            if len(alone) == 1:  # the player at the lone player's left (an opponent)
                leader = (alone[0] + 1) % 4
            else:  # two loners: the lone defender leads
                leader = alone[0] if alone[0] % 2 != self._maker % 2 else alone[1]
        else:  # the dealer's left, or the next active player if he sits out
            leader = (dealer + 1) % 4
            while leader in out:
                leader = (leader + 1) % 4
        self._phase = PLAY
        self._turn = leader

    def _play_last_card(
        self, seat: int, card: int, bit: int, played: tuple[int, str], seat_card: dict[str, Any]
    ) -> list[Event]:
        """The hand's last card: work out the result, fetch the next deal if the game goes on
        (it may raise for a bad `deals` callable), and only then change the state."""
        power = self._prow[card]
        winner = seat if power > self._best_power else self._best_seat
        tricks = list(self._tricks)
        tricks[winner % 2] += 1
        makers = self._maker % 2
        maker_alone = defender_alone = False
        for loner in self._alone:
            if loner % 2 == makers:
                maker_alone = True
            else:
                defender_alone = True
        points, scoring, reason = score_hand(makers, tricks[makers], maker_alone, defender_alone)
        game_won = self._scores[scoring] + points >= self._target or (
            self._hand_limit and self._last_hand()  # options.hands=0 (the default) costs no call
        )
        rubber_goes_on = self._rubber and self.games_won[scoring] + 1 < 2
        deal = None
        goes_on = not game_won or rubber_goes_on
        if goes_on and self._fair is None:
            if self._deals is None:  # _fetch_deal's seeded case, written out (once a hand)
                deal = self._plan(
                    hand_state(self.seed, self.hand_number + 1, PURPOSE_DEAL),
                    (self.dealer + 1) % 4,
                )
            else:
                deal = self._fetch_deal(self.hand_number + 1, (self.dealer + 1) % 4)
        self.actions.append(played)
        self._legal = None
        self._hands[seat] ^= bit
        trick = self._trick
        trick.append(seat_card)
        if power > self._best_power:
            self._best_power = power
            self._best_seat = seat
        # The trick is over (as in apply; the state of the next hand is set by _start_hand).
        self._tricks = tricks
        number = self._tricks_played = self._tricks_played + 1
        self._last_trick = (trick, winner)
        self._trick = []
        self._follow = 0
        evs = [
            new_event(
                ev.TRICK_WON,
                winner,
                {
                    "number": number,
                    "leader": trick[0]["seat"],
                    "cards": trick,
                    "tricks": _TRICK_COUNTS[tricks[0]][tricks[1]],
                },
            )
        ]
        self._score_hand(evs, points, scoring, reason)
        if not goes_on:
            if self._fair is not None:
                self._fair.reveal()
            self._phase = OVER
            self.is_over = True
            self._turn = _NO_TURN
            self.to_act = []
            self._legal = ()
        else:
            self._next_hand(deal, evs)
        self.events += evs
        return evs

    def _last_hand(self) -> bool:
        """Whether the hand being scored is the last of a fixed number (option `hands`)."""
        return bool(self._hand_limit) and self.hand_number + 1 >= self._hand_limit

    def _next_hand(self, deal: tuple[list[int], list[int]] | None, evs: list[Event]) -> None:
        """E3: the deal passes to the left; `deal` is None under fair-v1, where the hand just
        over is revealed and the next one waits for its cut."""
        self.dealer = (self.dealer + 1) % 4
        self.hand_number += 1
        if deal is not None:
            self._start_hand(deal, evs)
            return
        assert self._fair is not None
        self._fair.reveal()
        self._await_cut()

    # --- scoring (E18–E22) ---------------------------------------------------------------------

    def _score_hand(self, evs: list[Event], points: int, scoring: int, reason: str) -> None:
        scores = self._scores
        scores[scoring] += points
        makers = self._maker % 2
        evs.append(
            new_event(
                ev.HAND_SCORED,
                None,
                {
                    "hand_number": self.hand_number,
                    "trump": SUITS[self._trump],
                    "maker": self._maker,
                    "makers": makers,
                    "alone": list(self._alone),
                    "tricks": _TRICK_COUNTS[self._tricks[0]][self._tricks[1]],
                    "points": points,
                    "scoring_team": scoring,
                    "reason": reason,
                    "euchre": scoring != makers,
                    "scores": list(scores),
                },
            )
        )
        if scores[scoring] < self._target:
            if not (self._hand_limit and self._last_hand()):
                return
            # The fixed number of hands is played: the side ahead wins; level, the side that
            # scored this last hand (a progressive round ranks players by points, not by this).
            if scores[1 - scoring] > scores[scoring]:
                scoring = 1 - scoring
        # E21: the first side to reach the target wins the game (scores are not capped, E20a).
        losers = scores[1 - scoring]
        self.games_won[scoring] += 1
        won = rubber_points(losers) if self._rubber else None
        self.game_results.append(
            {
                "game_number": self.game_number,
                "winner": scoring,
                "scores": list(scores),
                "rubber_points": won,
            }
        )
        evs.append(
            new_event(
                ev.GAME_WON,
                None,
                {
                    "team": scoring,
                    "scores": list(scores),
                    "game_number": self.game_number,
                    "rubber_points": won,
                    "games_won": list(self.games_won),
                },
            )
        )
        if not self._rubber:
            self.winner = scoring
            return
        assert won is not None
        self.rubber_points[scoring] += won
        if self.games_won[scoring] == 2:  # E22: two games win the rubber
            self.winner = scoring
            self.margin = rubber_margin(
                self.rubber_points[scoring], self.rubber_points[1 - scoring]
            )
            evs.append(
                new_event(
                    ev.RUBBER_WON,
                    None,
                    {
                        "team": scoring,
                        "games_won": list(self.games_won),
                        "rubber_points": list(self.rubber_points),
                        "margin": self.margin,
                    },
                )
            )
            return
        # The next game starts at 0-0 right after the winning hand; the deal passes on.
        self._scores = [0, 0]
        self.game_number += 1
        evs.append(
            new_event(
                ev.GAME_STARTED,
                None,
                {"game_number": self.game_number, "dealer": (self.dealer + 1) % 4},
            )
        )

    # --- what a seat may see -------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """Exactly what `seat` may see (None: the public view). JSON-able; a fresh dict."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < 4):
            raise BadSeat(f"no seat {seat!r}: seats are 0..3")
        trump = self._trump
        maker = self._maker
        last = self._last_trick
        out: dict[str, Any] = {
            "game": GAME_NAME,
            "seat": seat,
            "phase": PHASE_KEYS[self._phase],
            "dealer": self.dealer,
            "hand_number": self.hand_number,
            "game_number": self.game_number,
            "to_act": list(self.to_act),
            "legal_actions": [] if seat is None else self.legal_actions(seat),
            "hand": None if seat is None else display_sorted(cards_in(self._hands[seat]), trump),
            "hand_sizes": [hand.bit_count() for hand in self._hands],
            "trick": [dict(played) for played in self._trick],
            "last_trick": None
            if last is None
            else {"cards": [dict(played) for played in last[0]], "winner": last[1]},
            "tricks_won": list(self._tricks),
            "scores": list(self._scores),
            "is_over": self._phase == OVER,
            "winner": self.winner,
            "target": self._target,
            "options": self.options.to_dict(),
            "turned_card": CODES[self._turned] if self._turned >= 0 else None,
            "turned_down": self._round == 2,
            "named_suit": SUITS[self._named] if self._named >= 0 else None,
            "trump": SUITS[trump] if trump >= 0 else None,
            "maker": maker if maker >= 0 else None,
            "makers": maker % 2 if maker >= 0 else None,
            "alone": list(self._alone),
            "sitting_out": list(self._out),
            "bidding_round": (
                (2 if self._phase == BIDDING2 else 1)
                if self._phase in (NAME_SUIT, BIDDING1, BIDDING2)
                else None
            ),
            "bridge": bridge(self._scores, self._target),
            # The dealer alone sees his own discard (E10).
            "discard": CODES[self._discard]
            if seat is not None and seat == self.dealer and self._discard >= 0
            else None,
        }
        if self._fair is not None:
            out["fair"] = self._fair.view()
        if self._rubber:
            out["games_won"] = list(self.games_won)
            out["rubber_points"] = list(self.rubber_points)
            out["margin"] = self.margin
        return out

    def policy_view(self, seat: int) -> dict[str, Any]:
        """The part of `view(seat)` the rule player reads (bot_player.decide), for the search's
        play-outs, which decide tens of thousands of times a second: a full view was half
        their cost. Its hand is unsorted and its trick shares the engine's dicts: read it,
        never keep it."""
        trump = self._trump
        maker = self._maker
        return {
            "seat": seat,
            "phase": PHASE_KEYS[self._phase],
            "dealer": self.dealer,
            "legal_actions": self.legal_actions(seat),
            "hand": [CODES[card] for card in cards_in(self._hands[seat])],
            "trick": self._trick,
            "turned_card": CODES[self._turned] if self._turned >= 0 else None,
            "named_suit": SUITS[self._named] if self._named >= 0 else None,
            "trump": SUITS[trump] if trump >= 0 else None,
            "makers": maker % 2 if maker >= 0 else None,
        }


def new_game(
    options: Options,
    seed: int,
    *,
    first_dealer: int | None = None,
    deals: DealFn | None = None,
) -> Game:
    """A new game. `deals(hand_number, dealer) -> (hands by seat, kitty with the turned card
    first)` replaces the seeded shuffle (tests, replays of hand-built deals)."""
    return Game(options, seed, first_dealer, deals)
