"""Property tests over thousands of seeded random Truco games (T1-T14 as invariants).

Each game is fixed by its seed: the deal comes from the engine's PRNG and the players' choices
from `Rng(seed, CHOOSER)`, some games with uniformly random players, some with the rule-based
bot, some mixed. Hypothesis only picks seeds, policies and targets (derandomized, no database).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.common import (
    SEATS,
    BadSeat,
    EngineError,
    GameOver,
    IllegalAction,
    InvalidOptions,
    NotYourTurn,
    Rng,
    team_of,
)
from bot.engine.truco import AlreadyAnswered, Game, Options, new_game
from bot.engine.truco.bot_player import choose_action
from bot.engine.truco.cards import DECK
from bot.engine.truco.events import ALL_KINDS

CHOOSER = 0x7E57
CARD_SET = frozenset(DECK)
EVERY_ACTION = [f"play:{card}" for card in DECK] + ["raise", "accept", "run"]
JUNK = ["", "play:", "play:8C", "play:10H", "Raise", "pass", "accept "]
REASONS = {"two_rounds", "tie_rule", "run", "hand_of_ten_refused"}

seeds = st.integers(min_value=0, max_value=2**63 - 1)
policies = st.sampled_from(["random", "bot", "mixed"])


def props(examples: int) -> settings:
    return settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


Step = Callable[[Game, int, str], None]


def play(
    seed: int,
    policy: str = "random",
    *,
    target: int = 12,
    match: int = 1,
    before: Step | None = None,
    after: Callable[[Game, list[Any], list[list[str]]], None] | None = None,
    max_actions: int = 5000,
) -> Game:
    """One whole game. `before(game, seat, action)` runs before each action is applied;
    `after(game, new_events, hands_before)` after it."""
    game = new_game(Options(target=target, match=match), seed)
    chooser = Rng(seed, CHOOSER)
    for _ in range(max_actions):
        if game.is_over:
            return game
        to_act = game.to_act
        seat = to_act[chooser.below(len(to_act))]
        if policy == "bot" or (policy == "mixed" and seat % 2 == 0):
            action = choose_action(game, seat)
        else:
            legal = game.legal_actions(seat)
            action = legal[chooser.below(len(legal))]
        if before is not None:
            before(game, seat, action)
        hands_before = [game.view(s)["hand"] for s in range(SEATS)] if after else []
        events = game.apply(seat, action)
        if after is not None:
            after(game, events, hands_before)
    raise AssertionError(f"game {seed} did not end in {max_actions} actions")


def cards_in(value: Any) -> set[str]:
    """Every card code anywhere in a JSON-able value (`play:XX` actions included)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            code = item[5:] if item.startswith("play:") else item
            if code in CARD_SET:
                found.add(code)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def played_this_hand(view: dict[str, Any]) -> list[str]:
    cards = [entry["card"] for r in view["rounds"] for entry in r["cards"]]
    return cards + [entry["card"] for entry in view["trick"]]


# --- conservation and the end of every game --------------------------------------------------


def check_cards_conserved(game: Game, seat: int, action: str) -> None:
    hands = [game.view(s)["hand"] for s in range(SEATS)]
    public = game.view(None)
    played = played_this_hand(public)
    held = [card for hand in hands for card in hand]
    assert len(held) + len(played) == 12, (hands, played)  # 12 dealt, none lost or made
    assert len(set(held + played)) == 12 and set(held + played) <= CARD_SET
    assert public["hand_sizes"] == [len(hand) for hand in hands]
    done = len(public["rounds"])
    for s in range(SEATS):
        in_trick = any(entry["seat"] == s for entry in public["trick"])
        assert len(hands[s]) == 3 - done - in_trick
    assert game.scores[0] % 2 == 0 and game.scores[1] % 2 == 0
    assert max(game.scores) < game.options.target


@props(2000)
@given(seed=seeds, policy=policies, target=st.sampled_from([12, 12, 12, 6, 20]))
def test_every_game_conserves_cards_and_ends_with_one_pair_at_the_target(
    seed: int, policy: str, target: int
) -> None:
    game = play(seed, policy, target=target, before=check_cards_conserved)
    assert len(DECK) == 40
    winner = game.winner
    assert winner in (0, 1) and game.is_over and game.phase == "over"
    assert game.scores[winner] >= target > game.scores[1 - winner]
    assert game.to_act == [] and all(game.legal_actions(s) == [] for s in range(SEATS))
    # Points come from hands only, in even amounts, and add up to the scores.
    won = [e for e in game.events if e.kind == "hand_won"]
    assert len(won) == game.hand_number + 1
    totals = [0, 0]
    for event in won:
        assert event.data["reason"] in REASONS and event.data["points"] % 2 == 0
        totals[event.data["team"]] += event.data["points"]
        assert event.data["scores"] == totals
    assert tuple(totals) == game.scores
    assert game.events[-1].kind == "game_won" and game.events[-1].data["team"] == winner
    assert {e.kind for e in game.events} <= ALL_KINDS
    if won[-1].data["iron_hand"]:
        assert won[-1].data["team"] == winner  # T14
    try:
        game.apply(game.actions[-1][0], "accept")
    except GameOver:
        pass
    else:
        raise AssertionError("an over game took an action")


# --- legal and illegal actions ------------------------------------------------------------------


def check_actions(game: Game, seat: int, action: str) -> None:
    before = game.copy()
    before_json = json.dumps([game.to_json(), game.view(None)])
    for s in range(SEATS):
        legal = game.legal_actions(s)
        assert (s in game.to_act) == bool(legal)
        for candidate in legal:
            trial = game.copy()
            trial.apply(s, candidate)
            assert trial.actions[-1] == (s, candidate)
        for candidate in EVERY_ACTION + JUNK:
            if candidate in legal:
                continue
            try:
                game.apply(s, candidate)
            except AlreadyAnswered:
                pass  # a late answer from a pair that just answered, on turn or not
            except NotYourTurn:
                assert s not in game.to_act
            except IllegalAction:
                assert s in game.to_act
            else:
                raise AssertionError(f"{s} {candidate!r} was applied though not listed")
        assert game == before
    for bad_seat in (-1, 4, None, True):
        try:
            game.apply(bad_seat, action)  # type: ignore[arg-type]
        except BadSeat:
            pass
        else:
            raise AssertionError("a bad seat acted")
    assert game == before and json.dumps([game.to_json(), game.view(None)]) == before_json
    assert action in game.legal_actions(seat)


@props(200)
@given(seed=seeds, policy=policies)
def test_every_listed_action_applies_and_every_other_raises_and_changes_nothing(
    seed: int, policy: str
) -> None:
    play(seed, policy, before=check_actions)


# --- hidden information -------------------------------------------------------------------------


def this_hands_part(game: Game, view: dict[str, Any]) -> dict[str, Any]:
    """The view less `last_trick` when that round belongs to an earlier hand: its cards were
    public when played and may be dealt again in this hand."""
    if view["rounds"] or view["last_trick"] is None:
        return view
    last_round = [e for e in game.events if e.kind in ("round_won", "round_tied")][-1]
    assert view["last_trick"]["cards"] == last_round.data["cards"]
    return {key: value for key, value in view.items() if key != "last_trick"}


def check_views(game: Game, events: list[Any], hands_before: list[list[str]]) -> None:
    hands = [game.view(s)["hand"] for s in range(SEATS)]
    public = game.view(None)
    assert public["hand"] is None and public["partner_hand"] is None
    held = {card for hand in hands for card in hand}
    assert not cards_in(this_hands_part(game, public)) & held
    for seat in range(SEATS):
        view = game.view(seat)
        partner = (seat + 2) % 4
        sees_partner = public["hand_of_ten"] == team_of(seat) and not game.is_over  # T13
        if sees_partner:
            assert view["partner_hand"] == hands[partner]
        else:
            assert view["partner_hand"] is None
        hidden = {
            card
            for s in range(SEATS)
            if s != seat and not (s == partner and sees_partner)
            for card in hands[s]
        }
        seen = cards_in(this_hands_part(game, view))
        assert not seen & hidden, (seat, seen & hidden)
    # Events are public: they never name a card still held (before this action, but for the
    # card this action played).
    last_action = game.actions[-1][1]
    acted_card = last_action[5:] if last_action.startswith("play:") else None
    held_before = {card for hand in hands_before for card in hand} - {acted_card}
    for event in events:
        assert not cards_in(event.to_dict()) & held_before, event


@props(700)
@given(seed=seeds, policy=policies)
def test_views_and_events_never_leak_hidden_cards(seed: int, policy: str) -> None:
    play(seed, policy, after=check_views)


# --- replay and JSON round-trip ---------------------------------------------------------------


@props(800)
@given(seed=seeds, policy=policies, cut=st.floats(min_value=0, max_value=1))
def test_replay_and_json_round_trip_rebuild_the_same_state(
    seed: int, policy: str, cut: float
) -> None:
    game = play(seed, policy)
    snapshots = [game]
    # Also a game stopped part way: replay its first actions.
    partial = new_game(Options(), seed)
    for seat, action in game.actions[: int(cut * len(game.actions))]:
        partial.apply(seat, action)
    snapshots.append(partial)
    for original in snapshots:
        saved = json.loads(json.dumps(original.to_json()))
        restored = Game.from_json(saved)
        assert restored == original
        assert restored.to_json() == original.to_json()
        replayed = Game.replay(original.options, original.seed, None, original.actions)
        assert replayed == original  # first_dealer None draws the same dealer from the seed
        for viewer in (None, 0, 1, 2, 3):
            assert json.loads(json.dumps(restored.view(viewer))) == original.view(viewer)
        assert [e.to_dict() for e in restored.events] == json.loads(
            json.dumps([e.to_dict() for e in original.events])
        )


# --- the deal and the options ---------------------------------------------------------------------


def test_seeded_deals_spread_every_card_evenly_over_seats() -> None:
    per_card: Counter[str] = Counter()
    per_seat_card: Counter[tuple[int, str]] = Counter()
    hands_dealt = 4000
    for seed in range(hands_dealt):
        game = new_game(Options(), seed, first_dealer=seed % 4)
        for seat in range(SEATS):
            for card in game.view(seat)["hand"]:
                per_card[card] += 1
                per_seat_card[seat, card] += 1
    assert set(per_card) == CARD_SET
    mean = hands_dealt * 12 / 40  # 1200; sd about 29
    assert all(abs(count - mean) < 150 for count in per_card.values())
    assert all(abs(count - mean / 4) < 90 for count in per_seat_card.values())


@props(300)
@given(data=st.dictionaries(st.sampled_from(["target", "coberta", "x"]), st.integers(-2, 40)))
def test_options_round_trip_or_raise_invalid_options(data: dict[str, int]) -> None:
    try:
        options = Options.from_dict(data)
    except InvalidOptions as exc:
        assert isinstance(exc, ValueError) and isinstance(exc, EngineError)
        target = data.get("target", 12)
        assert set(data) - {"target"} or target % 2 or not 4 <= target <= 30
    else:
        assert Options.from_dict(options.to_dict()) == options
        assert options.target == data.get("target", 12)


def test_random_games_reach_every_event_kind_and_reason() -> None:
    """The games above are worth something only if they reach the rare paths: hands of ten
    played and refused, iron hands, twelve, ties, every reason a hand is won."""
    seen: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    for seed in range(300):
        # Every tenth game is a best of 3 (its game_started and match_won events).
        game = play(seed, ("random", "bot", "mixed")[seed % 3], match=3 if seed % 10 == 0 else 1)
        seen.update(event.kind for event in game.events)
        reasons.update(e.data["reason"] for e in game.events if e.kind == "hand_won")
    assert set(seen) == ALL_KINDS, ALL_KINDS - set(seen)
    assert set(reasons) == REASONS
