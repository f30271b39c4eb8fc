"""Property tests: thousands of seeded random games under random options (hypothesis).

Each example is one whole game (or rubber) played by random legal moves. The heavy test checks
everything at every step; the light one plays many more games and checks how they end.
Derandomized with no example database, so CI runs exactly the same games every time.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.common import BadSeat, Event, GameOver, IllegalAction, NotYourTurn
from bot.engine.euchre import Game, Options, new_game
from bot.engine.euchre.cards import CODES, SUITS, cards_in, deck_for
from bot.engine.euchre.scoring import rubber_margin, rubber_points, score_hand

pytestmark = pytest.mark.slow  # thousands of random games / several gateway sessions

OPTIONS = st.builds(
    Options,
    target=st.sampled_from((5, 7, 10)),
    deck=st.sampled_from((24, 28, 32)),
    joker=st.booleans(),
    alone=st.sampled_from(("anyone", "maker")),
    lead=st.sampled_from(("left_of_loner", "left_of_dealer")),
    stick_the_dealer=st.booleans(),
    seating=st.sampled_from(("random", "draw")),
    match=st.sampled_from(("game", "rubber")),
)
SEEDS = st.integers(min_value=-(2**63), max_value=2**64)
REPRODUCIBLE = {
    "derandomize": True,
    "database": None,
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow],
}

# Every action code the engine knows, and some it does not.
UNIVERSE: list[Any] = [
    "pass",
    "order",
    "order:alone",
    "alone",
    "stay",
    *(f"call:{s}" for s in SUITS),
    *(f"call:{s}:alone" for s in SUITS),
    *(f"name:{s}" for s in SUITS),
    *("play:" + c for c in CODES),
    *("discard:" + c for c in CODES),
    "",
    "play:",
    "play:XX",
    "call:H:alone:now",
    "PASS",
    None,
    ["pass"],
    7,
]
CODE_SET = set(CODES)


def policy(rng: random.Random) -> Any:
    """Random legal moves, biased towards accepting bids so that few hands are thrown in."""

    def choose(legal: list[str]) -> str:
        if legal[0] == "pass" and len(legal) > 1 and rng.random() < 0.5:
            return rng.choice(legal[1:])
        return rng.choice(legal)

    return choose


_CARD_IN_JSON = re.compile(r'"(?:play:|discard:)?([789TJQKA][CDHS]|JO)"')


def cards_of(value: Any) -> set[str]:
    """Every card code inside a JSON-able value (also inside 'play:JH' / 'discard:JH')."""
    return set(_CARD_IN_JSON.findall(json.dumps(value)))


def hidden_from(game: Game, seat: int | None) -> set[str]:
    """The cards `seat` may not see now: other hands, the kitty under the turned card, the
    discard (unless he is the dealer). The turned card is public even in the dealer's hand."""
    hidden = set()
    for other in range(4):
        if other != seat:
            hidden |= {CODES[c] for c in cards_in(game._hands[other])}
    hidden |= {CODES[c] for c in game._kitty}
    if seat == game.dealer and game._discard >= 0:
        hidden.discard(CODES[game._discard])
    hidden.discard(game.turned_card)
    return hidden


def check_conservation(game: Game, played: list[str]) -> None:
    deck = sorted(CODES[c] for c in deck_for(game.options.deck, game.options.joker))
    held = [CODES[c] for hand in game._hands for c in cards_in(hand)]
    kitty = [CODES[c] for c in game._kitty]
    everything = held + kitty + played
    assert sorted(everything) == deck, "every card is in one place exactly"
    view_sizes = game.view(None)["hand_sizes"]
    assert view_sizes == [len(cards_in(h)) for h in game._hands]


def check_views(game: Game) -> None:
    for seat in (0, 1, 2, 3, None):
        view = game.view(seat)
        hidden = hidden_from(game, seat)
        visible = dict(view)
        last = visible.pop("last_trick")  # may show the previous hand's last trick
        leaked = cards_of(visible) & hidden
        assert not leaked, f"view({seat}) leaks {leaked}"
        if seat is not None:
            assert view["legal_actions"] == game.legal_actions(seat)
            assert sorted(view["hand"]) == sorted(CODES[c] for c in cards_in(game._hands[seat]))
        if last is not None:
            trick = next(e for e in reversed(game.events) if e.kind == "trick_won")
            assert last == {"cards": trick.data["cards"], "winner": trick.seat}


def check_events_public(
    game: Game, before_hidden: set[str], discard: str | None, events: list[Event]
) -> None:
    for event in events:
        if event.kind == "hand_dealt":
            break  # a new hand: its turned card may come from the old kitty
        cards = cards_of(event.to_dict())
        assert not cards & before_hidden, f"{event.kind} leaks {cards & before_hidden}"
        if discard is not None:
            assert discard not in cards
        if event.kind == "dealer_discarded":
            assert event.data == {}


def check_refusals(game: Game, rng: random.Random, seat: int, legal: list[str]) -> None:
    """Unlisted actions, wrong seats and bad seats raise and change nothing."""
    before = game.clone()
    json_before = game.to_json()
    for action in rng.sample(UNIVERSE, 4):
        if action in legal:
            continue
        try:
            game.apply(seat, action)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"{action!r} applied but was not listed")
    for other in range(4):
        if other != seat:
            assert game.legal_actions(other) == []
            try:
                game.apply(other, legal[0])
            except NotYourTurn:
                pass
            else:
                raise AssertionError("a seat not to act acted")
    for bad in (4, -1, "1", True, None):
        try:
            game.apply(bad, legal[0])  # type: ignore[arg-type]
        except BadSeat:
            pass
        else:
            raise AssertionError(f"bad seat {bad!r} accepted")
    assert game == before and game.to_json() == json_before


def check_listed_all_apply(game: Game, seat: int, legal: list[str]) -> None:
    for action in legal:
        twin = game.clone()
        twin.apply(seat, action)
        assert twin.actions[-1] == (seat, action)
    assert game.legal_actions(seat) == legal  # the clones left the game alone


def check_end(game: Game) -> None:
    assert game.is_over and game.to_act == [] and game.phase == "over"
    target = game.options.target
    results = game.game_results
    assert results, "a finished game has a result"
    for result in results:
        winner_score = result["scores"][result["winner"]]
        loser_score = result["scores"][1 - result["winner"]]
        assert winner_score >= target > loser_score
    assert game.winner is not None
    if game.options.match == "game":
        assert len(results) == 1 and game.winner == results[0]["winner"]
        assert game.scores[game.winner] >= target and game.margin is None
    else:
        wins = [r["winner"] for r in results]
        assert wins.count(game.winner) == 2 and len(wins) <= 3 and wins[-1] == game.winner
        points = [0, 0]
        for result in results:
            points[result["winner"]] += rubber_points(result["scores"][1 - result["winner"]])
        assert points == game.rubber_points
        assert game.margin == rubber_margin(points[game.winner], points[1 - game.winner])
    for seat in range(4):
        assert game.legal_actions(seat) == []
    try:
        game.apply(0, "pass")
    except GameOver:
        pass
    else:
        raise AssertionError("a finished game took an action")


def check_hand_scores(game: Game) -> None:
    """Recompute every hand's points from its tricks (E18-E20) and the running scores."""
    scores = [0, 0]
    for event in game.events:
        if event.kind == "game_started":
            scores = [0, 0]
        if event.kind != "hand_scored":
            continue
        data = event.data
        makers = data["makers"]
        assert data["makers"] == data["maker"] % 2 and sum(data["tricks"]) == 5
        maker_alone = any(s % 2 == makers for s in data["alone"])
        defender_alone = any(s % 2 != makers for s in data["alone"])
        expected = score_hand(makers, data["tricks"][makers], maker_alone, defender_alone)
        assert (data["points"], data["scoring_team"], data["reason"]) == expected
        scores[data["scoring_team"]] += data["points"]
        assert data["scores"] == scores
        assert len(data["alone"]) <= 2 and len({s % 2 for s in data["alone"]}) == len(data["alone"])


@settings(max_examples=200, **REPRODUCIBLE)  # type: ignore[arg-type]
@given(options=OPTIONS, seed=SEEDS, moves=st.integers(0, 2**32))
def test_every_step_conserves_cards_refuses_unlisted_hides_cards_and_replays(
    options: Options, seed: int, moves: int
) -> None:
    rng = random.Random(moves)
    choose = policy(rng)
    game = new_game(options, seed)
    twin = Game.from_json(json.loads(json.dumps(game.to_json())))
    played: list[str] = []
    hand = game.hand_number
    step = 0
    while not game.is_over:
        if game.hand_number != hand:
            hand, played = game.hand_number, []
        check_conservation(game, played)
        check_views(game)
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        assert legal and len(set(legal)) == len(legal)
        check_refusals(game, rng, seat, legal)
        if step % 7 == 0:
            check_listed_all_apply(game, seat, legal)
        action = choose(legal)
        hidden = hidden_from(game, None) - {action[5:]}  # a card played becomes public
        discard = CODES[game._discard] if game._discard >= 0 else None
        if discard == game.turned_card:
            discard = None
        events = game.apply(seat, action)
        assert game.events[len(game.events) - len(events) :] == events
        check_events_public(game, hidden, discard, events)
        if action.startswith("play:"):
            played.append(action[5:])
        twin.apply(seat, action)  # the replay, one step behind the game, step by step
        assert twin == game
        if step % 25 == 0:
            again = Game.from_json(json.loads(json.dumps(game.to_json())))
            assert again == game
            assert [again.view(s) for s in (0, 1, 2, 3, None)] == [
                game.view(s) for s in (0, 1, 2, 3, None)
            ]
        step += 1
    check_end(game)
    check_hand_scores(game)
    assert Game.from_json(json.loads(json.dumps(game.to_json()))) == game


@settings(max_examples=3000, **REPRODUCIBLE)  # type: ignore[arg-type]
@given(options=OPTIONS, seed=SEEDS, moves=st.integers(0, 2**32))
def test_random_games_end_at_the_target_with_consistent_scores(
    options: Options, seed: int, moves: int
) -> None:
    rng = random.Random(moves)
    choose = policy(rng)
    game = new_game(options, seed)
    dealer = game.dealer
    hand = 0
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(seat, choose(game.legal_actions(seat)))
        if game.hand_number != hand and not game.is_over:
            assert game.hand_number == hand + 1
            assert game.dealer == (dealer + 1) % 4  # E3, thrown-in hands included
            hand, dealer = game.hand_number, game.dealer
    check_end(game)
    check_hand_scores(game)
    tricks = [e for e in game.events if e.kind == "trick_won"]
    assert all(2 <= len(e.data["cards"]) <= 4 for e in tricks)
    if options.stick_the_dealer:
        assert not any(e.kind == "redeal" for e in game.events)
    assert [e.kind for e in game.events[:2]] in (
        ["game_started", "hand_dealt"],
        ["seating_drawn", "game_started"],
    )
