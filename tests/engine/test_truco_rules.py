"""One or more tests per rule of shared/rules/truco.md (T1-T14), on hand-built deals.

Most tests use first_dealer=1, so seat 0 leads and the first round goes 0, 3, 2, 1 (T1, T3).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import Any

import pytest

from bot.engine.common import (
    BadSeat,
    EngineError,
    Event,
    GameOver,
    IllegalAction,
    InvalidOptions,
    NotYourTurn,
    partner_of,
    team_of,
)
from bot.engine.truco import GAME_NAME, TURN_STEP, AlreadyAnswered, Game, Options, new_game
from bot.engine.truco.cards import DECK, MANILHAS, RANKS, SUITS, strength

Hands = list[list[str]]

# A deal for hands a test does not look at (used while scoring points by runs).
FILLER: Hands = [["4H", "5H", "6H"], ["4S", "5S", "6S"], ["QH", "JH", "KH"], ["QS", "JS", "KS"]]


def deals_of(*hands: Hands, default: Hands = FILLER) -> Callable[[int, int], Hands]:
    """`deals` for new_game: hand n gets hands[n], later hands get `default`."""

    def deals(hand_number: int, dealer: int) -> Hands:
        return hands[hand_number] if hand_number < len(hands) else default

    return deals


def game_with(*hands: Hands, first_dealer: int = 1, default: Hands = FILLER) -> Game:
    return new_game(
        Options(), 7, first_dealer=first_dealer, deals=deals_of(*hands, default=default)
    )


def complete(partial: dict[int, list[str]]) -> Hands:
    """Fill each seat's hand up to three cards with the lowest unused commons (4s, 5s, 6s...),
    so the cards a test names are the ones that matter in the first round."""
    used = {card for cards in partial.values() for card in cards}
    spare = [c for c in sorted(DECK, key=strength) if c not in used and c not in MANILHAS]
    hands: Hands = []
    for seat in range(4):
        hand = list(partial.get(seat, []))
        while len(hand) < 3:
            hand.append(spare.pop(0))
        hands.append(hand)
    return hands


def play_round(game: Game, cards: dict[int, str]) -> list[Event]:
    """Each seat plays its card when its turn comes; returns the events of the round."""
    events: list[Event] = []
    for _ in range(4):
        seat = game.to_act[0]
        events += game.apply(seat, "play:" + cards[seat])
    return events


def kinds(events: list[Event]) -> list[str]:
    return [event.kind for event in events]


def one(events: list[Event], kind: str) -> Event:
    found = [event for event in events if event.kind == kind]
    assert len(found) == 1, kinds(events)
    return found[0]


def give_two(game: Game, team: int) -> None:
    """`team` scores 2 in a normal hand: its player on turn asks truco and the other pair runs."""
    assert game.phase == "play" and game.view(None)["rounds"] == []
    seat = game.to_act[0]
    if team_of(seat) != team:
        game.apply(seat, game.legal_actions(seat)[0])
        seat = game.to_act[0]
    game.apply(seat, "raise")
    game.apply(game.to_act[0], "run")


def refuse_hand_of_ten(game: Game) -> None:
    assert game.phase == "hand_of_ten"
    game.apply(game.to_act[0], "run")


def bring_to(game: Game, score0: int, score1: int) -> None:
    """Reach the scores by the rules themselves, one hand per 2 points: team 1 scores first by
    runs from truco (up to 8), then team 0 (up to 10), then team 0 refuses hands of ten."""
    assert score0 <= 10 and (score1 <= 8 or score0 == 10)
    while game.scores[1] < min(score1, 8):
        give_two(game, 1)
    while game.scores[0] < score0:
        give_two(game, 0)
    while game.scores[1] < score1:
        refuse_hand_of_ten(game)
    assert game.scores == (score0, score1)


def game_at(score0: int, score1: int, *hands: Hands, first_dealer: int = 1) -> Game:
    """A game at (score0, score1) whose next hands are `hands`."""
    filler = [FILLER] * ((score0 + score1) // 2)
    game = game_with(*filler, *hands, first_dealer=first_dealer)
    bring_to(game, score0, score1)
    assert game.hand_number == len(filler)
    return game


def snapshot(game: Game) -> str:
    """Everything observable, as one value (independent of Game.copy and Game.__eq__)."""
    views = [game.view(seat) for seat in (None, 0, 1, 2, 3)]
    events = [event.to_dict() for event in game.events]
    return json.dumps([game.to_json(), views, events, game.scores, game.phase], sort_keys=True)


# --- T1 players and turn order -------------------------------------------------------------------


def test_T1_partners_sit_opposite_in_two_pairs() -> None:
    assert [team_of(seat) for seat in range(4)] == [0, 1, 0, 1]
    assert [partner_of(seat) for seat in range(4)] == [2, 3, 0, 1]


def test_T1_turns_go_counter_clockwise() -> None:
    assert TURN_STEP == -1  # one constant holds the direction
    hands = complete({0: ["4D"], 3: ["5D"], 2: ["6D"], 1: ["3D"]})
    game = game_with(hands, first_dealer=1)
    order = []
    for _ in range(4):
        seat = game.to_act[0]
        order.append(seat)
        game.apply(seat, game.legal_actions(seat)[0])
    assert order == [0, 3, 2, 1]  # seat s is followed by seat (s - 1) mod 4


def test_T1_answers_come_from_the_other_pair_in_turn_order() -> None:
    game = game_with(complete({}), first_dealer=1)
    game.apply(0, "raise")
    assert game.to_act == [3, 1]


# --- T2 the deck ---------------------------------------------------------------------------------


def test_T2_deck_has_forty_cards_without_eights_nines_tens() -> None:
    assert len(DECK) == 40 == len(set(DECK))
    assert RANKS == "A234567JQK" and SUITS == "CDHS"
    assert not any(card[0] in "89T" or card.startswith("10") for card in DECK)
    assert {card[1] for card in DECK} == set(SUITS)


def test_T2_a_seeded_deal_gives_twelve_distinct_cards_of_the_deck() -> None:
    game = new_game(Options(), 12345)
    hands = [game.view(seat)["hand"] for seat in range(4)]
    cards = [card for hand in hands for card in hand]
    assert [len(hand) for hand in hands] == [3, 3, 3, 3]
    assert len(set(cards)) == 12 and set(cards) <= set(DECK)


@pytest.mark.parametrize(
    "bad",
    [
        complete({0: ["8C"]}),
        [["10H", "4H", "5H"], *complete({})[1:]],
        complete({0: ["3C", "3C"]}),
        complete({})[:3],
        [["3C", "2C"], *complete({})[1:]],
    ],
)
def test_T2_a_hand_built_deal_outside_the_deck_is_refused(bad: Hands) -> None:
    with pytest.raises(InvalidOptions):
        game_with(bad)


# --- T3 hands, rounds, deal ----------------------------------------------------------------------


def test_T3_each_player_gets_three_cards_and_a_hand_has_at_most_three_rounds() -> None:
    hands = [["3C", "2C", "AC"], ["4H", "5H", "6H"], ["4S", "5S", "6S"], ["3H", "2H", "AH"]]
    game = game_with(hands)  # every round tied: all three are played (T8)
    assert game.view(None)["hand_sizes"] == [3, 3, 3, 3]
    play_round(game, {0: "3C", 3: "3H", 2: "4S", 1: "4H"})
    play_round(game, {0: "2C", 3: "2H", 2: "5S", 1: "5H"})
    assert game.hand_number == 0
    events = play_round(game, {0: "AC", 3: "AH", 2: "6S", 1: "6H"})
    assert one(events, "hand_won").data["hand_number"] == 0
    assert game.hand_number == 1 and game.view(None)["hand_sizes"] == [3, 3, 3, 3]


def test_T3_the_first_dealer_is_random_from_the_seed() -> None:
    dealers = {new_game(Options(), seed).first_dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert new_game(Options(), 99).first_dealer == new_game(Options(), 99).first_dealer
    assert new_game(Options(), 99, first_dealer=2).dealer == 2


def test_T3_the_deal_passes_on_and_the_player_after_the_dealer_leads() -> None:
    game = game_with(first_dealer=1)
    seen = []
    for _ in range(5):
        seen.append((game.dealer, game.to_act[0]))
        give_two(game, 0)
    assert seen == [(1, 0), (0, 3), (3, 2), (2, 1), (1, 0)]
    assert game.hand_number == 5


@pytest.mark.parametrize("seat", [-1, 4, True, None, "0"])
def test_T3_seats_are_zero_to_three(seat: Any) -> None:
    game = game_with(complete({}))
    with pytest.raises(BadSeat):
        game.legal_actions(seat)
    before = snapshot(game)
    with pytest.raises(BadSeat):
        game.apply(seat, "play:4H")
    assert snapshot(game) == before


# --- T4, T5 card ranks -------------------------------------------------------------------------

# High to low, one card per step: manilhas, then every common face (T4, T5).
LADDER = ["4C", "7H", "AS", "7D", "3S", "2S", "AH", "KS", "JS", "QS", "7S", "6S", "5S", "4S"]


@pytest.mark.parametrize("high,low", list(itertools.pairwise(LADDER)))
@pytest.mark.parametrize("high_seat", [0, 3])
def test_T4_T5_each_card_beats_the_next_one_down(high: str, low: str, high_seat: int) -> None:
    low_seat = 3 if high_seat == 0 else 0
    lowest = [c for c in ("4D", "4H", "5D", "5H") if c not in (high, low)]
    game = game_with(complete({high_seat: [high], low_seat: [low], 2: [lowest[0]], 1: [lowest[1]]}))
    event = one(
        play_round(game, {high_seat: high, low_seat: low, 2: lowest[0], 1: lowest[1]}), "round_won"
    )
    assert event.data["team"] == team_of(high_seat)
    assert event.data["seat"] == high_seat and event.data["card"] == high


def test_T4_manilhas_in_order_zap_copas_espadilha_ouros_above_every_common() -> None:
    order = sorted(DECK, key=strength, reverse=True)
    assert order[:4] == ["4C", "7H", "AS", "7D"]
    assert min(strength(m) for m in MANILHAS) > max(strength(c) for c in DECK if c not in MANILHAS)


def test_T4_ouros_beats_a_three_in_play() -> None:
    game = game_with(complete({0: ["3S"], 3: ["7D"], 2: ["3H"], 1: ["3C"]}))
    event = one(play_round(game, {0: "3S", 3: "7D", 2: "3H", 1: "3C"}), "round_won")
    assert event.data["seat"] == 3 and event.data["card"] == "7D"


def test_T5_commons_rank_by_face_alone() -> None:
    faces = "32AKJQ7654"
    for card in DECK:
        if card in MANILHAS:
            continue
        assert strength(card) == 9 - faces.index(card[0])
    # The non-manilha sevens, aces and fours are plain commons.
    assert strength("7C") == strength("7S") < strength("QC")
    assert strength("AC") == strength("AD") == strength("AH") < strength("2C")
    assert strength("4D") == strength("4H") == strength("4S") == 0


@pytest.mark.parametrize("a,b", [("3C", "3H"), ("KH", "KS"), ("7C", "7S"), ("AC", "AD")])
def test_T5_equal_faces_of_different_suits_are_equal(a: str, b: str) -> None:
    game = game_with(complete({0: [a], 3: [b]}))
    events = play_round(game, {0: a, 3: b, **{s: game.view(s)["hand"][-1] for s in (1, 2)}})
    tied = one(events, "round_tied")
    assert tied.data["card"] == a and tied.data["cards"][1] == {"seat": 3, "card": b}


# --- T6 rounds -----------------------------------------------------------------------------------


def test_T6_highest_card_wins_the_round_and_its_player_leads_next() -> None:
    game = game_with(complete({0: ["KC"], 3: ["JH"], 2: ["2S"], 1: ["3H"]}))
    event = one(play_round(game, {0: "KC", 3: "JH", 2: "2S", 1: "3H"}), "round_won")
    assert event.data == {
        "round": 0,
        "team": 1,
        "seat": 1,
        "card": "3H",
        "leader": 0,
        "cards": [
            {"seat": 0, "card": "KC"},
            {"seat": 3, "card": "JH"},
            {"seat": 2, "card": "2S"},
            {"seat": 1, "card": "3H"},
        ],
    }
    assert game.to_act == [1]
    assert game.view(None)["rounds"][0]["winner_team"] == 1
    assert game.view(None)["last_trick"]["winner"] == 1
    assert game.view(None)["tricks_won"] == [0, 1]


def test_T6_equal_top_cards_of_both_pairs_tie_and_the_leader_leads_again() -> None:
    game = game_with(complete({0: ["5C"], 3: ["2H"], 2: ["2S"], 1: ["4H"]}))
    events = play_round(game, {0: "5C", 3: "2H", 2: "2S", 1: "4H"})
    assert kinds(events) == ["round_tied"]
    assert events[0].data["round"] == 0 and events[0].data["card"] == "2H"
    assert game.to_act == [0]  # seat 0 led the tied round
    assert game.view(None)["rounds"][0]["winner_team"] is None
    assert game.view(None)["last_trick"]["winner"] is None


def test_T6_three_equal_top_cards_across_pairs_tie() -> None:
    game = game_with(complete({0: ["AC"], 3: ["AH"], 2: ["AD"], 1: ["KS"]}))
    assert kinds(play_round(game, {0: "AC", 3: "AH", 2: "AD", 1: "KS"})) == ["round_tied"]


def test_T6_equal_top_cards_of_one_pair_win_for_it_and_the_first_of_them_leads() -> None:
    # Dealer 0: the round goes 3, 2, 1, 0; seat 3 plays the first of team 1's two threes.
    game = game_with(complete({3: ["3C"], 1: ["3H"], 2: ["KS"], 0: ["2D"]}), first_dealer=0)
    event = one(play_round(game, {3: "3C", 2: "KS", 1: "3H", 0: "2D"}), "round_won")
    assert event.data["team"] == 1 and event.data["seat"] == 3
    assert game.to_act == [3]

    # Dealer 2: the round goes 1, 0, 3, 2; now seat 1 plays the first three.
    game = game_with(complete({1: ["3C"], 3: ["3H"], 2: ["KS"], 0: ["2D"]}), first_dealer=2)
    event = one(play_round(game, {1: "3C", 0: "2D", 3: "3H", 2: "KS"}), "round_won")
    assert event.data["seat"] == 1 and game.to_act == [1]


# --- T7 the hand ---------------------------------------------------------------------------------


def test_T7_two_rounds_win_the_hand_and_it_ends_at_once() -> None:
    hands = [["3C", "2C", "4H"], ["5S", "6S", "7S"], ["4S", "5H", "6H"], ["KH", "QH", "JH"]]
    game = game_with(hands)
    play_round(game, {0: "3C", 3: "KH", 2: "4S", 1: "5S"})
    events = play_round(game, {0: "2C", 3: "QH", 2: "5H", 1: "6S"})
    won = one(events, "hand_won")
    assert won.data["team"] == 0 and won.data["points"] == 2
    assert won.data["reason"] == "two_rounds"
    # The third round is never played: the next hand is dealt, the next dealer deals.
    assert game.scores == (2, 0)
    assert game.hand_number == 1 and game.dealer == 0
    assert game.view(None)["hand_sizes"] == [3, 3, 3, 3]
    assert game.view(None)["rounds"] == []
    assert kinds(events)[-1] == "hand_dealt"


def test_T7_one_round_each_then_the_third_decides() -> None:
    hands = [["3C", "QC", "KC"], ["4H", "5H", "6H"], ["4S", "5S", "6S"], ["JH", "2H", "AH"]]
    game = game_with(hands)
    play_round(game, {0: "3C", 3: "JH", 2: "4S", 1: "4H"})
    play_round(game, {0: "QC", 3: "2H", 2: "5S", 1: "5H"})
    events = play_round(game, {3: "AH", 2: "6S", 1: "6H", 0: "KC"})
    won = one(events, "hand_won")
    assert (won.data["team"], won.data["reason"]) == (1, "two_rounds")


# --- T8 ties -------------------------------------------------------------------------------------


def test_T8_first_round_tied_the_second_round_decides() -> None:
    hands = [["3C", "KC", "QC"], ["4H", "5H", "6H"], ["4S", "5S", "6S"], ["3H", "2H", "QH"]]
    game = game_with(hands)
    play_round(game, {0: "3C", 3: "3H", 2: "4S", 1: "4H"})
    events = play_round(game, {0: "KC", 3: "2H", 2: "5S", 1: "5H"})
    won = one(events, "hand_won")
    assert (won.data["team"], won.data["reason"], won.data["points"]) == (1, "tie_rule", 2)
    assert game.hand_number == 1


def test_T8_first_two_rounds_tied_the_third_decides() -> None:
    hands = [["3C", "2C", "KC"], ["4H", "5H", "6H"], ["4S", "5S", "6S"], ["3H", "2H", "AH"]]
    game = game_with(hands)
    play_round(game, {0: "3C", 3: "3H", 2: "4S", 1: "4H"})
    events = play_round(game, {0: "2C", 3: "2H", 2: "5S", 1: "5H"})
    assert "hand_won" not in kinds(events)
    events = play_round(game, {0: "KC", 3: "AH", 2: "6S", 1: "6H"})
    won = one(events, "hand_won")
    assert (won.data["team"], won.data["reason"]) == (1, "tie_rule")


def test_T8_second_round_tied_the_first_rounds_winner_wins() -> None:
    hands = [["3C", "KC", "QC"], ["4H", "5H", "6H"], ["4S", "5S", "6S"], ["JH", "KH", "QH"]]
    game = game_with(hands)
    play_round(game, {0: "3C", 3: "JH", 2: "4S", 1: "4H"})
    events = play_round(game, {0: "KC", 3: "KH", 2: "5S", 1: "5H"})
    won = one(events, "hand_won")
    assert (won.data["team"], won.data["reason"]) == (0, "tie_rule")
    assert game.hand_number == 1  # decided: no third round


def test_T8_third_round_tied_the_first_rounds_winner_wins() -> None:
    hands = [["3C", "QC", "KC"], ["4H", "5H", "6H"], ["4S", "5S", "6S"], ["JH", "2H", "KH"]]
    game = game_with(hands)
    play_round(game, {0: "3C", 3: "JH", 2: "4S", 1: "4H"})  # team 0
    play_round(game, {0: "QC", 3: "2H", 2: "5S", 1: "5H"})  # team 1, seat 3 leads
    events = play_round(game, {3: "KH", 2: "6S", 1: "6H", 0: "KC"})  # tied
    assert kinds(events)[:2] == ["round_tied", "hand_won"]
    won = one(events, "hand_won")
    assert (won.data["team"], won.data["reason"]) == (0, "tie_rule")


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_T8_all_three_rounds_tied_the_dealers_pair_wins(dealer: int) -> None:
    hands = [["3C", "2C", "AC"], ["4H", "5H", "6H"], ["4S", "5S", "6S"], ["3H", "2H", "AH"]]
    game = game_with(hands, first_dealer=dealer)
    play_round(game, {0: "3C", 3: "3H", 2: "4S", 1: "4H"})
    play_round(game, {0: "2C", 3: "2H", 2: "5S", 1: "5H"})
    events = play_round(game, {0: "AC", 3: "AH", 2: "6S", 1: "6H"})
    won = one(events, "hand_won")
    assert (won.data["team"], won.data["reason"]) == (team_of(dealer), "tie_rule")
    assert game.scores[team_of(dealer)] == 2


# --- T9 raising ----------------------------------------------------------------------------------

STRONG0: Hands = [["4C", "7H", "AS"], ["4H", "5H", "6H"], ["7D", "3C", "3H"], ["4S", "5S", "6S"]]


def test_T9_a_hand_is_worth_two_and_the_view_says_so() -> None:
    game = game_with(STRONG0)
    view = game.view(None)
    assert view["hand_value"] == 2 and view["run_value"] is None
    assert view["can_raise"] == 0 and view["raise_name"] == "truco"
    assert view["pending_ask"] is None
    assert game.legal_actions(0) == ["play:4C", "play:7H", "play:AS", "raise"]


def test_T9_only_the_player_on_turn_may_ask_before_playing() -> None:
    game = game_with(STRONG0)
    for seat in (1, 2, 3):
        assert game.legal_actions(seat) == []
        with pytest.raises(NotYourTurn):
            game.apply(seat, "raise")
    events = game.apply(0, "raise")
    assert kinds(events) == ["truco_asked"]
    assert events[0].seat == 0
    assert events[0].data == {"team": 0, "value": 4, "run_value": 2, "counter": False}
    view = game.view(None)
    assert game.phase == "answer" and view["turn"] == 0
    assert view["pending_ask"] == {
        "by_team": 0,
        "by_seat": 0,
        "value": 4,
        "name": "truco",
        "run_value": 2,
    }
    assert view["run_value"] == 2 and view["can_raise"] == 1 and view["raise_name"] == "six"


@pytest.mark.parametrize("answerer", [3, 1])
def test_T9_truco_accepted_makes_the_hand_worth_four_and_the_asker_plays(answerer: int) -> None:
    game = game_with(STRONG0)
    game.apply(0, "raise")
    assert game.legal_actions(answerer) == ["accept", "run", "raise"]
    events = game.apply(answerer, "accept")
    assert kinds(events) == ["accepted"]
    assert events[0].seat == answerer
    assert events[0].data == {"team": 1, "name": "truco", "value": 4}
    assert game.phase == "play" and game.to_act == [0]
    assert game.view(None)["hand_value"] == 4
    play_round(game, {0: "4C", 3: "4S", 2: "7D", 1: "4H"})
    won = one(play_round(game, {0: "7H", 3: "5S", 2: "3C", 1: "5H"}), "hand_won")
    assert (won.data["team"], won.data["points"]) == (0, 4)
    assert game.scores == (4, 0)


def test_T9_the_first_answer_counts_and_the_partner_then_gets_a_clear_error() -> None:
    game = game_with(STRONG0)
    game.apply(0, "raise")
    game.apply(1, "accept")
    assert game.legal_actions(3) == []
    before = snapshot(game)
    for action in ("accept", "run", "raise"):
        with pytest.raises(AlreadyAnswered):
            game.apply(3, action)
    assert snapshot(game) == before
    assert issubclass(AlreadyAnswered, NotYourTurn)


def test_T9_truco_run_gives_the_askers_two_and_ends_the_hand() -> None:
    game = game_with(STRONG0)
    game.apply(0, "raise")
    events = game.apply(3, "run")
    assert kinds(events)[:2] == ["ran", "hand_won"]
    assert events[0].seat == 3
    assert events[0].data == {"team": 1, "name": "truco", "points": 2, "to_team": 0}
    assert events[1].data["reason"] == "run" and events[1].data["points"] == 2
    assert game.scores == (2, 0) and game.hand_number == 1


# (asks in a row, each answered by a counter-raise, then the final answer): worth / askers score.
LADDER_CASES = [
    (1, "accept", "truco", 4, None),
    (1, "run", "truco", None, 2),
    (2, "accept", "six", 6, None),
    (2, "run", "six", None, 4),
    (3, "accept", "ten", 10, None),
    (3, "run", "ten", None, 6),
    (4, "accept", "twelve", 12, None),
    (4, "run", "twelve", None, 10),
]


@pytest.mark.parametrize("asks,answer,name,worth,run_points", LADDER_CASES)
def test_T9_the_whole_ladder_by_counter_raises(
    asks: int, answer: str, name: str, worth: int | None, run_points: int | None
) -> None:
    game = game_with(STRONG0)
    asker = 0
    for step in range(asks):
        events = game.apply(asker, "raise")
        expected = ["truco", "six", "ten", "twelve"][step]
        assert kinds(events) == [f"{expected}_asked"]
        assert events[0].data["counter"] == (step > 0)
        assert events[0].data["value"] == [4, 6, 10, 12][step]
        assert events[0].data["run_value"] == [2, 4, 6, 10][step]
        asker = game.to_act[0]  # the next answerer counter-raises
    assert game.view(None)["pending_ask"]["name"] == name
    asking_team = 1 - team_of(asker)
    if asks == 4:
        assert game.legal_actions(asker) == ["accept", "run"]  # nothing beyond twelve
        assert game.view(None)["can_raise"] is None and game.view(None)["raise_name"] is None
    events = game.apply(asker, answer)
    if answer == "accept":
        assert events[0].data["value"] == worth
        assert game.view(None)["hand_value"] == worth
        assert game.phase == "play" and game.to_act == [0]  # the player on turn plays
    else:
        won = one(events, "hand_won")
        assert (won.data["team"], won.data["points"]) == (asking_team, run_points)
        assert game.scores[asking_team] == run_points


def test_T9_each_ask_accepted_in_turn_climbs_the_ladder() -> None:
    # Not counter-raises: each pair asks on its own turn after the other pair's ask is accepted.
    game = game_with(STRONG0)
    game.apply(0, "raise")  # truco by team 0
    game.apply(3, "accept")
    game.apply(0, "play:4C")
    assert game.legal_actions(3) == ["play:6S", "play:5S", "play:4S", "raise"]  # strongest first
    events = game.apply(3, "raise")  # six by team 1
    assert kinds(events) == ["six_asked"] and events[0].data["counter"] is False
    game.apply(2, "accept")
    assert game.view(None)["hand_value"] == 6
    game.apply(3, "play:4S")
    game.apply(2, "raise")  # ten by team 0
    game.apply(1, "accept")
    assert game.view(None)["hand_value"] == 10
    game.apply(2, "play:7D")
    game.apply(1, "raise")  # twelve by team 1
    game.apply(0, "accept")
    view = game.view(None)
    assert view["hand_value"] == 12 and view["can_raise"] is None
    assert "raise" not in game.legal_actions(1)
    game.apply(1, "play:4H")
    won = one(play_round(game, {0: "7H", 3: "5S", 2: "3C", 1: "5H"}), "hand_won")
    assert (won.data["team"], won.data["points"]) == (0, 12)
    assert game.is_over and game.winner == 0


def test_T9_answers_other_than_accept_run_raise_are_illegal() -> None:
    game = game_with(STRONG0)
    game.apply(0, "raise")
    before = snapshot(game)
    for action in ("play:4H", "play:4C", "fold", ""):
        with pytest.raises(IllegalAction):
            game.apply(3, action)
    with pytest.raises(NotYourTurn):
        game.apply(0, "play:4C")  # the asker waits for the answer
    assert snapshot(game) == before


# --- T10 no raising twice in a row ---------------------------------------------------------------


def test_T10_a_pair_cannot_ask_twice_in_a_row() -> None:
    game = game_with(STRONG0)
    game.apply(0, "raise")
    game.apply(3, "accept")
    assert "raise" not in game.legal_actions(0)
    before = snapshot(game)
    with pytest.raises(IllegalAction):
        game.apply(0, "raise")
    assert snapshot(game) == before
    assert game.view(None)["can_raise"] == 1 and game.view(None)["raise_name"] == "six"
    game.apply(0, "play:4C")
    assert "raise" in game.legal_actions(3)  # the other pair may, on its own turn
    game.apply(3, "play:4S")
    assert "raise" not in game.legal_actions(2)  # seat 0's partner may not either


def test_T10_after_a_counter_raise_is_accepted_the_first_pair_may_ask_at_once() -> None:
    game = game_with(STRONG0)
    game.apply(0, "raise")  # truco
    game.apply(1, "raise")  # six
    assert game.to_act == [0, 2]  # the original asker may answer too
    game.apply(0, "accept")
    assert game.to_act == [0]
    assert "raise" in game.legal_actions(0)
    assert game.view(None)["raise_name"] == "ten"
    events = game.apply(0, "raise")
    assert kinds(events) == ["ten_asked"] and events[0].data["counter"] is False


def test_T10_a_refused_counter_raise_gives_the_counter_raisers_the_value_before_it() -> None:
    game = game_with(STRONG0)
    game.apply(0, "raise")  # truco
    game.apply(3, "raise")  # six: accepts truco (4)
    events = game.apply(2, "run")
    ran = one(events, "ran")
    assert ran.seat == 2 and ran.data == {"team": 0, "name": "six", "points": 4, "to_team": 1}
    assert game.scores == (0, 4)


# --- T11 running ---------------------------------------------------------------------------------


def test_T11_a_run_ends_the_hand_at_once_even_mid_round() -> None:
    game = game_with(STRONG0)
    play_round(game, {0: "4C", 3: "4S", 2: "7D", 1: "4H"})
    game.apply(0, "play:7H")
    game.apply(3, "raise")
    events = game.apply(0, "run")
    assert kinds(events) == ["ran", "hand_won", "hand_dealt"]
    assert game.scores == (0, 2)
    view = game.view(None)
    assert view["trick"] == [] and view["rounds"] == [] and view["hand_sizes"] == [3, 3, 3, 3]
    assert game.hand_number == 1 and game.dealer == 0 and game.to_act == [3]


# --- T12 winning ---------------------------------------------------------------------------------


def test_T12_twelve_or_more_wins_and_scores_are_not_capped() -> None:
    game = game_at(6, 0, STRONG0)
    assert game.scores == (6, 0) and game.to_act == [1]  # three hands on: dealer 2
    game.apply(1, "raise")  # truco
    game.apply(0, "raise")  # six
    game.apply(3, "raise")  # ten
    game.apply(2, "accept")
    assert game.view(None)["hand_value"] == 10
    play_round(game, {1: "4H", 0: "4C", 3: "4S", 2: "7D"})
    events = play_round(game, {0: "7H", 3: "5S", 2: "3C", 1: "5H"})
    assert kinds(events)[-2:] == ["hand_won", "game_won"]
    assert game.scores == (16, 0)
    assert one(events, "game_won").data == {"team": 0, "scores": [16, 0]}
    assert game.is_over and game.winner == 0 and game.phase == "over"
    assert game.to_act == [] and all(game.legal_actions(s) == [] for s in range(4))
    before = snapshot(game)
    with pytest.raises(GameOver):
        game.apply(0, "play:AS")
    assert snapshot(game) == before
    assert game.view(None)["target"] == 12


def test_T12_reaching_exactly_twelve_wins() -> None:
    game = game_with(STRONG0)
    play = ["raise", "raise", "raise", "raise", "accept"]
    for action in play:
        game.apply(game.to_act[0], action)
    play_round(game, {0: "4C", 3: "4S", 2: "7D", 1: "4H"})
    events = play_round(game, {0: "7H", 3: "5S", 2: "3C", 1: "5H"})
    assert game.scores == (12, 0) and game.winner == 0
    assert kinds(events)[-1] == "game_won"


def test_T12_options_target_must_be_even() -> None:
    assert Options().target == 12 and Options().to_dict() == {"target": 12}
    assert Options.from_dict({"target": 20}).target == 20
    for bad in (11, 0, 2, 100, "12", True, 12.0):
        with pytest.raises(InvalidOptions):
            Options(target=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptions):
        Options.from_dict({"targt": 12})
    assert issubclass(InvalidOptions, ValueError)


# --- T13 the hand of ten -------------------------------------------------------------------------

TEN_HANDS: Hands = [["4C", "7H", "KC"], ["4H", "5H", "6H"], ["AS", "3C", "QC"], ["4S", "5S", "6S"]]


def test_T13_the_pair_at_ten_sees_both_hands_and_decides() -> None:
    game = game_at(10, 4, TEN_HANDS)
    assert game.phase == "hand_of_ten"
    assert set(game.to_act) == {0, 2}
    assert game.events[-1].kind == "hand_of_ten" and game.events[-1].data == {"team": 0}
    view0, view2 = game.view(0), game.view(2)
    assert view0["partner_hand"] == view2["hand"] == ["AS", "3C", "QC"]
    assert view2["partner_hand"] == view0["hand"] == ["4C", "7H", "KC"]
    assert view0["hand_of_ten"] == 0 and view0["run_value"] == 2 and view0["hand_value"] == 4
    assert view0["legal_actions"] == ["accept", "run"]
    for seat in (1, 3, None):
        assert game.view(seat)["partner_hand"] is None
    assert game.legal_actions(1) == [] and game.legal_actions(3) == []
    with pytest.raises(NotYourTurn):
        game.apply(1, "accept")


def test_T13_refused_the_other_pair_scores_two_and_the_next_hand_is_dealt() -> None:
    game = game_at(10, 4, TEN_HANDS)
    number = game.hand_number
    events = game.apply(2, "run")
    assert kinds(events)[:2] == ["hand_of_ten_refused", "hand_won"]
    assert events[0].seat == 2 and events[0].data == {"team": 0, "points": 2, "to_team": 1}
    won = events[1].data
    assert (won["team"], won["points"], won["reason"]) == (1, 2, "hand_of_ten_refused")
    assert won["hand_of_ten"] == 0
    assert game.scores == (10, 6) and game.hand_number == number + 1
    assert game.phase == "hand_of_ten"  # still exactly one pair at ten
    assert game.view(0)["partner_hand"] == game.view(2)["hand"]  # the new hand's cards


def test_T13_accepted_the_hand_is_worth_four_and_nobody_may_raise() -> None:
    game = game_at(10, 4, TEN_HANDS)
    events = game.apply(2, "accept")  # either partner decides
    assert kinds(events) == ["hand_of_ten_played"]
    assert events[0].seat == 2 and events[0].data == {"team": 0, "value": 4}
    with pytest.raises(AlreadyAnswered):
        game.apply(0, "run")  # the first answer counted
    assert game.view(None)["can_raise"] is None and game.view(None)["raise_name"] is None
    cards = {0: "4C", 1: "4H", 2: "AS", 3: "4S"}
    for _ in range(4):
        seat = game.to_act[0]
        assert "raise" not in game.legal_actions(seat)
        with pytest.raises(IllegalAction):
            game.apply(seat, "raise")
        game.apply(seat, "play:" + cards[seat])
    # The partner's cards stay visible to the pair, as they now are, through the hand.
    assert game.view(0)["partner_hand"] == ["3C", "QC"]
    assert game.view(1)["partner_hand"] is None
    events = play_round(game, {0: "7H", 1: "5H", 2: "3C", 3: "5S"})
    won = one(events, "hand_won")
    assert (won.data["team"], won.data["points"]) == (0, 4)
    assert game.scores == (14, 4) and game.winner == 0
    assert game.view(0)["partner_hand"] is None  # the hand is over


def test_T13_accepted_and_lost_the_other_pair_scores_four() -> None:
    lose = [["4H", "5H", "6H"], ["4C", "7H", "KC"], ["4S", "5S", "6S"], ["AS", "3C", "QC"]]
    game = game_at(10, 4, lose)
    game.apply(game.to_act[0], "accept")
    play_round(game, {0: "4H", 1: "4C", 2: "4S", 3: "AS"})
    events = play_round(game, {0: "5H", 1: "7H", 2: "5S", 3: "3C"})
    assert one(events, "hand_won").data["points"] == 4
    assert game.scores == (10, 8)
    assert game.phase == "hand_of_ten"
    assert game.view(1)["partner_hand"] is None and game.view(0)["partner_hand"] is not None


def test_T13_refusing_brings_the_other_pair_to_ten_and_an_iron_hand() -> None:
    game = game_at(10, 8)
    assert game.phase == "hand_of_ten"
    events = game.apply(0, "run")
    assert game.scores == (10, 10)
    assert "iron_hand" in kinds(events)
    assert game.phase == "play" and game.view(None)["iron_hand"] is True


# --- T14 the iron hand ---------------------------------------------------------------------------

IRON_HANDS: Hands = [["4C", "2C", "KC"], ["4H", "5H", "6H"], ["AS", "3C", "QC"], ["4S", "5S", "6S"]]


def test_T14_iron_hand_has_no_decision_no_raise_and_decides_the_game() -> None:
    game = game_at(10, 10, IRON_HANDS)
    number = game.hand_number
    assert game.phase == "play"  # no decision step
    assert game.events[-1].kind == "iron_hand"
    assert game.events[-1].data == {"hand_number": number}
    view = game.view(None)
    assert view["iron_hand"] is True and view["hand_value"] == 2
    assert view["can_raise"] is None and view["raise_name"] is None and view["hand_of_ten"] is None
    assert all(game.view(s)["partner_hand"] is None for s in range(4))
    while not game.is_over:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        assert "raise" not in legal
        with pytest.raises(IllegalAction):
            game.apply(seat, "raise")
        game.apply(seat, legal[0])
    assert game.hand_number == number  # the iron hand was the last
    won = [e for e in game.events if e.kind == "hand_won"][-1]
    assert won.data["iron_hand"] is True and won.data["points"] == 2
    assert game.winner is not None and game.winner == won.data["team"]
    assert game.scores[game.winner] == 12


@pytest.mark.parametrize("dealer", [0, 1])
def test_T14_iron_hand_all_tied_goes_to_the_dealers_pair_and_ends_the_game(dealer: int) -> None:
    tied = [["3C", "2C", "AC"], ["4H", "5H", "6H"], ["4S", "5S", "6S"], ["3H", "2H", "AH"]]
    game = game_at(10, 10, tied, first_dealer=dealer)
    assert game.view(None)["iron_hand"] is True
    play_round(game, {0: "3C", 3: "3H", 2: "4S", 1: "4H"})
    play_round(game, {0: "2C", 3: "2H", 2: "5S", 1: "5H"})
    events = play_round(game, {0: "AC", 3: "AH", 2: "6S", 1: "6H"})
    assert kinds(events)[-1] == "game_won"
    assert game.winner == team_of(game.dealer)
    assert game.scores[game.winner] == 12


# --- shape shared with the euchre engine ----------------------------------------------------------


def test_view_has_the_common_keys_and_game_name() -> None:
    game = game_with(STRONG0)
    view = game.view(0)
    assert GAME_NAME == "truco" and view["game"] == "truco"
    common = {
        "seat", "phase", "dealer", "hand_number", "to_act", "legal_actions", "hand", "hand_sizes",
        "trick", "last_trick", "tricks_won", "scores", "is_over", "winner", "target",
    }  # fmt: skip
    truco = {
        "hand_value", "run_value", "can_raise", "raise_name", "pending_ask", "rounds",
        "hand_of_ten", "iron_hand", "partner_hand",
    }  # fmt: skip
    assert common | truco <= set(view)
    assert game.view(None)["hand"] is None and game.view(None)["legal_actions"] == []


def test_an_illegal_card_changes_nothing() -> None:
    game = game_with(STRONG0)
    before = snapshot(game)
    for action in ("play:4H", "play:8C", "play:", "play", 7, None):
        with pytest.raises(EngineError):
            game.apply(0, action)  # type: ignore[arg-type]
    assert snapshot(game) == before and game.actions == []


def test_a_late_answer_after_a_run_gets_the_clear_error_in_the_next_hand() -> None:
    game = game_with(STRONG0)
    game.apply(0, "raise")
    game.apply(3, "run")  # hand over, next hand dealt
    before = snapshot(game)
    with pytest.raises(AlreadyAnswered):
        game.apply(1, "accept")
    assert snapshot(game) == before
    game.apply(game.to_act[0], game.legal_actions(game.to_act[0])[0])
    with pytest.raises(NotYourTurn) as caught:
        game.apply(1, "accept")  # a new action since: no longer a late answer
    assert not isinstance(caught.value, AlreadyAnswered)


def test_a_bad_hand_built_deal_for_the_next_hand_changes_nothing() -> None:
    def deals(hand_number: int, dealer: int) -> Hands:
        if hand_number == 0:
            return STRONG0
        raise KeyError("no deal prepared")

    game = new_game(Options(), 1, first_dealer=1, deals=deals)
    game.apply(0, "raise")
    before = snapshot(game)
    with pytest.raises(InvalidOptions):
        game.apply(3, "run")  # would end the hand and need hand 1's cards
    assert snapshot(game) == before
    game.apply(3, "accept")
    play_round(game, {0: "4C", 3: "4S", 2: "7D", 1: "4H"})
    for seat, card in ((0, "7H"), (3, "5S"), (2, "3C")):
        game.apply(seat, "play:" + card)
    before = snapshot(game)
    with pytest.raises(InvalidOptions):
        game.apply(1, "play:5H")  # the round that decides the hand
    assert snapshot(game) == before
