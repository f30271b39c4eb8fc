"""One test (or a few) per rule of shared/rules/euchre.md, on hand-built deals with known outcomes.

Deals are given through `new_game(..., deals=...)`: `(hand_number, dealer) -> (hands by seat,
kitty with the turned card first)`. Seats 0 & 2 are team 0, seats 1 & 3 team 1.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from bot.engine.common import BadSeat, Event, GameOver, IllegalAction, InvalidOptions, NotYourTurn
from bot.engine.euchre import GAME_NAME, Game, InvalidDeal, Options, new_game
from bot.engine.euchre.cards import CODES, deck_for
from bot.engine.euchre.scoring import bridge, rubber_margin, rubber_points, score_hand

Deal = tuple[list[list[str]], list[str]]

# --- helpers --------------------------------------------------------------------------------------


def make_deal(hands: Sequence[str], turned: str, deck: int = 24, joker: bool = False) -> Deal:
    """Four hands as 'JH JD AH KH QH' strings; the kitty is the turned card then the rest."""
    split = [h.split() for h in hands]
    used = {c for h in split for c in h} | {turned}
    rest = [CODES[c] for c in deck_for(deck, joker) if CODES[c] not in used]
    return split, [turned, *rest]


def fixed(*deals: Deal, then: Callable[[int, int], Deal] | None = None) -> Callable[..., Deal]:
    """A `deals` callable: these deals for hands 0, 1, ...; then `then`, or the last again."""

    def deal(hand_number: int, dealer: int) -> Deal:
        if hand_number < len(deals):
            return deals[hand_number]
        return then(hand_number, dealer) if then is not None else deals[-1]

    return deal


TOP_HEARTS = "JH JD AH KH QH"  # hearts trump: right, left, A, K, Q — they win every trick


def strong_deal(strong: int, deck: int = 24, joker: bool = False) -> Deal:
    """`strong` holds the five top hearts, 9H is turned; the rest in a fixed order."""
    rest = [
        CODES[c]
        for c in deck_for(deck, joker)
        if CODES[c] not in TOP_HEARTS.split() and CODES[c] != "9H"
    ]
    hands: list[list[str]] = [[] for _ in range(4)]
    hands[strong] = TOP_HEARTS.split()
    others = [s for s in range(4) if s != strong]
    for i, seat in enumerate(others):
        hands[seat] = rest[5 * i : 5 * i + 5]
    return hands, ["9H", *rest[15:]]


def act(game: Game, action: str) -> list[Event]:
    seat = game.to_act[0]
    return game.apply(seat, action)


def play(game: Game, *cards: str) -> None:
    """Each card played by whoever is to act, in order (the engine checks every one)."""
    for card in cards:
        act(game, "play:" + card)


def first_legal(game: Game) -> None:
    seat = game.to_act[0]
    game.apply(seat, game.legal_actions(seat)[0])


def last_legal(game: Game) -> None:
    """Accepts every bid (so hands are never thrown in), stays, plays the last legal card."""
    seat = game.to_act[0]
    game.apply(seat, game.legal_actions(seat)[-1])


def run_hand(
    game: Game,
    maker: int,
    *,
    alone: Sequence[int] = (),
    discard_turned: bool = False,
) -> dict[str, Any]:
    """Drive one hand: `maker` accepts the turned card in round 1 (alone if in `alone` under
    alone=maker), everybody else passes; the dealer discards his first legal card (or leaves the
    turned card); under alone=anyone the seats in `alone` go alone; cards: first legal. Returns
    the hand_scored event's data."""
    hand = game.hand_number
    start = len(game.events)
    while not game.is_over and game.hand_number == hand:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        if game.phase == "bidding1":
            if seat == maker:
                action = "order:alone" if "order:alone" in legal and seat in alone else "order"
            else:
                action = "pass"
        elif game.phase == "discard":
            action = "discard:" + game.turned_card if discard_turned else legal[0]
        elif game.phase == "alone":
            action = "alone" if seat in alone else "stay"
        else:
            action = legal[0]
        game.apply(seat, action)
    scored = [e for e in game.events[start:] if e.kind == "hand_scored"]
    assert len(scored) == 1
    return scored[0].data


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]


# --- E1: seats, teams, clockwise ------------------------------------------------------------------


def test_E1_partners_sit_opposite_and_play_goes_clockwise() -> None:
    from bot.engine.common import partner_of, team_of

    assert [team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert [partner_of(s) for s in range(4)] == [2, 3, 0, 1]
    game = new_game(Options(), 1, first_dealer=2)
    order = []
    while game.phase == "bidding1":  # bidding from the dealer's left, clockwise
        order.append(game.to_act[0])
        act(game, "pass")
    assert order == [3, 0, 1, 2]
    assert game.to_act == [3]  # round 2 starts at the dealer's left again
    act(game, "call:" + next(s for s in "CDHS" if s != game.turned_card[1]))
    for _ in range(4):
        act(game, "stay")
    leader = game.to_act[0]
    seats = []
    for _ in range(4):
        seats.append(game.to_act[0])
        first_legal(game)
    assert seats == [leader, (leader + 1) % 4, (leader + 2) % 4, (leader + 3) % 4]


# --- E2: first dealer, seating by draw ------------------------------------------------------------


def test_E2_random_seating_is_the_lobby_order_and_the_first_dealer_comes_from_the_seed() -> None:
    dealers = {new_game(Options(), seed).first_dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    game = new_game(Options(), 7)
    assert game.seat_of_position == [0, 1, 2, 3] and game.draw is None
    assert new_game(Options(), 7).first_dealer == game.first_dealer  # the seed decides
    assert new_game(Options(), 7, first_dealer=3).dealer == 3


def _draw_rank(card: str) -> int:
    return "A789TJQK".index(card[0])


def test_E2_draw_lowest_deals_first_partners_by_high_and_low() -> None:
    for seed in range(30):
        game = new_game(Options(seating="draw"), seed)
        assert game.draw is not None
        assert game.first_dealer == 0 and game.dealer == 0
        first = {d["position"]: d["card"] for d in game.draw[0]}
        assert sorted(first) == [0, 1, 2, 3]
        seats = game.seat_of_position
        assert sorted(seats) == [0, 1, 2, 3]
        by_seat = {seats[p]: first[p] for p in range(4)}
        ranks = {s: _draw_rank(c) for s, c in by_seat.items()}
        # the two lowest against the two highest; lowest at seat 0, higher card at seat 1
        assert max(ranks[0], ranks[2]) <= min(ranks[1], ranks[3])
        assert ranks[0] <= ranks[2] and ranks[1] >= ranks[3]
        assert game.events[0].kind == "seating_drawn"
        assert game.events[0].data["seat_of_position"] == seats
        json.dumps(game.draw)


def test_E2_draw_ties_draw_again_until_every_place_is_decided() -> None:
    tied = None
    for seed in range(200):
        game = new_game(Options(seating="draw"), seed)
        if game.draw is not None and len(game.draw) > 1:
            tied = game
            break
    assert tied is not None and tied.draw is not None, "some seed draws a tie"
    first = {d["position"]: _draw_rank(d["card"]) for d in tied.draw[0]}
    again = [d["position"] for d in tied.draw[1]]
    # exactly the positions that drew equal cards draw again
    assert sorted(again) == sorted(p for p in first if list(first.values()).count(first[p]) > 1)
    # the re-draw orders them: keys are (first draw, re-draws...)
    keys = {p: [first[p]] for p in range(4)}
    for rnd in tied.draw[1:]:
        for d in rnd:
            keys[d["position"]].append(_draw_rank(d["card"]))
    order = sorted(range(4), key=lambda p: keys[p])
    assert [tied.seat_of_position[p] for p in order] == [0, 2, 3, 1]
    assert _draw_rank("AS") < _draw_rank("7S") < _draw_rank("KS")


def test_E2_draw_fixes_seat_zero_as_first_dealer() -> None:
    with pytest.raises(InvalidOptions):
        new_game(Options(seating="draw"), 1, first_dealer=2)
    assert new_game(Options(seating="draw"), 1, first_dealer=0).dealer == 0


# --- E3: the deal passes to the left --------------------------------------------------------------


def test_E3_deal_passes_left_after_every_hand_including_a_thrown_in_one() -> None:
    game = new_game(Options(), 3, first_dealer=1)
    for _ in range(8):  # everybody passes twice: thrown in
        act(game, "pass")
    assert game.dealer == 2 and game.hand_number == 1
    assert game.events[-2].kind == "redeal"
    run_hand(game, maker=3)
    assert game.dealer == 3 and game.hand_number == 2


# --- E4: the deck ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "joker", "lowest"),
    [(24, False, "9"), (28, False, "8"), (32, False, "7"), (24, True, "9"), (32, True, "7")],
)
def test_E4_deck_sizes_and_the_joker(size: int, joker: bool, lowest: str) -> None:
    deck = [CODES[c] for c in deck_for(size, joker)]
    assert len(deck) == size + joker
    assert ("JO" in deck) == joker
    ranks = "789TJQKA"
    assert {c[0] for c in deck if c != "JO"} == set(ranks[ranks.index(lowest) :])
    game = new_game(Options(deck=size, joker=joker), 5)
    view = game.view(None)
    assert view["hand_sizes"] == [5, 5, 5, 5]
    seen = [c for s in range(4) for c in game.view(s)["hand"]]
    assert len(seen) == 20 and set(seen) <= set(deck)


def test_E4_invalid_options_raise_a_clear_value_error() -> None:
    for bad in (
        {"deck": 36},
        {"target": 11},
        {"joker": 1},
        {"alone": "all"},
        {"lead": "x"},
        {"stick_the_dealer": "yes"},
        {"seating": "table"},
        {"match": "best_of_3"},
        {"target": True},
    ):
        with pytest.raises(ValueError, match=next(iter(bad))):
            Options(**bad)
    with pytest.raises(InvalidOptions, match="unknown"):
        Options.from_dict({"decks": 24})
    assert Options.from_dict(Options(target=5).to_dict()) == Options(target=5)


# --- E5, E7: ranks --------------------------------------------------------------------------------


def test_E5_left_bower_is_trump_and_not_its_printed_suit() -> None:
    # hearts trump; seat 2 holds JD (left bower) and diamonds, no other heart
    deal = make_deal(
        [
            "9S TS JS QS KS",  # 0 dealer
            "JH AH KH 9C TC",  # 1 orders hearts
            "JD 9D TD QD KD",  # 2
            "JC QC KC AC AS",  # 3
        ],
        "9H",
    )
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(deal))
    act(game, "order")  # seat 1
    act(game, "discard:9S")  # dealer 0 takes 9H
    for _ in range(4):
        act(game, "stay")
    assert game.to_act == [1]
    play(game, "AH")  # trump led
    # seat 2 must follow trump with the left bower: it is his only trump
    assert game.legal_actions(2) == ["play:JD"]
    play(game, "JD", "AC", "9H")  # seat 3 has no trump, dealer 0 follows with 9H
    assert game.events[-1].kind == "trick_won" and game.events[-1].seat == 2  # JD beats AH
    # diamonds led: the left bower is not a diamond; seat 2 leads 9D
    play(game, "9D")
    assert sorted(game.legal_actions(3)) == sorted(
        ["play:JC", "play:QC", "play:KC", "play:AS"]
    )  # seat 3 has no diamond: anything
    play(game, "AS")
    # dealer 0 holds no diamond and no... he holds TS JS QS KS 9H minus 9H played
    play(game, "TS")
    # seat 1: JH KH 9C TC — no diamond, may trump with the right bower
    play(game, "JH")
    assert game.events[-1].data["cards"][-1] == {"seat": 1, "card": "JH"}
    assert game.events[-1].seat == 1


def _power(card: str, trump: str, led: str) -> int:
    from bot.engine.euchre.cards import CARD_OF_CODE, SUITS, TRICK_POWER

    return TRICK_POWER[SUITS.index(trump)][SUITS.index(led)][CARD_OF_CODE[card]]


def test_E5_trump_order_right_left_ace_down() -> None:
    trump_order = ["JH", "JD", "AH", "KH", "QH", "TH", "9H", "8H", "7H"]
    powers = [_power(c, "H", "H") for c in trump_order]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == len(powers)
    assert _power("JD", "H", "D") > _power("AD", "H", "D")  # the left bower is no diamond
    assert _power("9H", "H", "C") > _power("AC", "H", "C")  # any trump beats the suit led


def test_E7_plain_suits_ace_high_nine_or_seven_low() -> None:
    plain = ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C"]  # the jack in its place
    powers = [_power(c, "H", "C") for c in plain]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == len(powers)
    assert _power("AS", "H", "C") < _power("7C", "H", "C")  # an off-suit card never wins
    # end to end: clubs led, no trump played, the ace of clubs wins (see DEAL_A below)
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(DEAL_A))
    act(game, "order")
    act(game, "discard:AS")
    for _ in range(4):
        act(game, "stay")
    play(game, "9C", "TC", "QC")
    events = act(game, "play:AC")
    assert events[0].seat == 0


# --- E6: the joker --------------------------------------------------------------------------------


def test_E6_joker_is_the_highest_trump_and_follows_trump() -> None:
    deal = make_deal(
        [
            "9S TS JS QS KS",  # 0 dealer
            "JH JD AH 9C TC",  # 1
            "JO 9D TD QD KD",  # 2: the joker, no heart
            "JC QC KC AC AS",  # 3
        ],
        "9H",
        joker=True,
    )
    game = new_game(Options(joker=True), 1, first_dealer=0, deals=fixed(deal))
    act(game, "order")
    act(game, "discard:9S")
    for _ in range(4):
        act(game, "stay")
    play(game, "JH")  # right bower led: seat 2 must play the joker (his only trump)
    assert game.legal_actions(2) == ["play:JO"]
    play(game, "JO", "AC", "9H")
    assert game.events[-1].seat == 2  # the joker beats the right bower


def test_E6_turned_up_joker_dealer_names_a_suit_first() -> None:
    deal = make_deal(
        [
            "9S TS JS QS KS",
            "JH JD AH 9C TC",
            "9D TD QD KD AD",
            "JC QC KC AC AS",
        ],
        "JO",
        joker=True,
    )
    game = new_game(Options(joker=True), 1, first_dealer=0, deals=fixed(deal, deal))
    assert game.phase == "name_suit" and game.to_act == [0]
    assert game.legal_actions(0) == ["name:C", "name:D", "name:H", "name:S"]
    events = act(game, "name:H")
    assert kinds(events) == ["suit_named"] and events[0].data == {"suit": "H"}
    assert game.phase == "bidding1" and game.to_act == [1]
    assert game.view(None)["named_suit"] == "H"
    # round 1 proceeds as if a heart were turned up
    events = act(game, "order")
    assert events[0].kind == "ordered_up" and events[0].data["suit"] == "H"
    assert game.trump == "H"
    # the dealer may pick up the joker (discard another card) or leave it
    assert "discard:JO" in game.legal_actions(0)
    act(game, "discard:9S")
    assert "JO" in game.view(0)["hand"]


def test_E6_turned_up_joker_all_pass_round_two_excludes_the_named_suit() -> None:
    deal = make_deal(
        ["9S TS JS QS KS", "JH JD AH 9C TC", "9D TD QD KD AD", "JC QC KC AC AS"],
        "JO",
        joker=True,
    )
    game = new_game(Options(joker=True), 1, first_dealer=0, deals=fixed(deal))
    act(game, "name:S")
    for _ in range(4):
        act(game, "pass")
    assert game.phase == "bidding2"
    assert game.legal_actions(1) == ["pass", "call:C", "call:D", "call:H"]
    events = act(game, "call:C")
    assert events[0].data["style"] == "next"  # clubs: same colour as the named spades


# --- E8: the deal ---------------------------------------------------------------------------------


def test_E8_five_cards_each_and_a_kitty_with_the_turned_card_on_top() -> None:
    for deck, joker in ((24, False), (28, True), (32, False)):
        game = new_game(Options(deck=deck, joker=joker), 11, first_dealer=0)
        hands = [set(game.view(s)["hand"]) for s in range(4)]
        assert all(len(h) == 5 for h in hands)
        assert len(set().union(*hands)) == 20
        turned = game.view(None)["turned_card"]
        assert turned not in set().union(*hands)
        assert game.events[-1].kind == "hand_dealt"
        assert game.events[-1].data["turned_card"] == turned
    # same seed, same deal; another seed, another deal
    a = new_game(Options(), 99, first_dealer=0)
    b = new_game(Options(), 99, first_dealer=0)
    c = new_game(Options(), 100, first_dealer=0)
    assert a.view(1)["hand"] == b.view(1)["hand"]
    assert [a.view(s)["hand"] for s in range(4)] != [c.view(s)["hand"] for s in range(4)]


def test_E8_a_deals_callable_must_deal_this_deck() -> None:
    bad = make_deal(["9S TS JS QS KS", "JH JD AH 9C TC", "9D TD QD KD AD", "JC QC KC AC AS"], "9H")
    with pytest.raises(InvalidDeal):
        new_game(Options(deck=28), 1, deals=fixed(bad))  # the 8s are missing
    dup = ([["9S", "9S", "JS", "QS", "KS"], *bad[0][1:]], bad[1])
    with pytest.raises(InvalidDeal):
        new_game(Options(), 1, deals=fixed(dup))
    with pytest.raises(InvalidDeal):
        new_game(Options(), 1, deals=lambda n, d: ([["XX"]], []))


# --- E9, E10: first round, the dealer's discard ---------------------------------------------------

DEAL_A = make_deal(
    [
        "KH QH TH AC AS",  # 0 dealer
        "JH JD AH 9C 9S",  # 1
        "AD KD TD TC TS",  # 2
        "QC QS QD KC KS",  # 3
    ],
    "9H",
)


@pytest.mark.parametrize(
    ("passes", "kind", "seat"), [(0, "ordered_up", 1), (1, "assisted", 2), (3, "picked_up", 0)]
)
def test_E9_first_acceptance_names_trump_in_the_games_words(
    passes: int, kind: str, seat: int
) -> None:
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(DEAL_A))
    for _ in range(passes):
        act(game, "pass")
    assert game.legal_actions(seat) == ["pass", "order"]
    events = act(game, "order")
    assert events[0].kind == kind and events[0].seat == seat
    assert events[0].data == {"suit": "H", "card": "9H", "alone": False}
    assert game.phase == "discard" and game.to_act == [0]  # bidding is over
    assert game.trump == "H" and game.maker == seat


def test_E10_dealer_takes_the_turned_card_and_discards_face_down() -> None:
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(DEAL_A))
    act(game, "order")
    legal = game.legal_actions(0)
    assert sorted(legal) == sorted(
        "discard:" + c for c in ["KH", "QH", "TH", "AC", "AS", "9H"]
    )  # one of six: his five and the turned card
    events = act(game, "discard:AS")
    assert kinds(events) == ["dealer_discarded"] and events[0].data == {}
    assert sorted(game.view(0)["hand"]) == sorted(["KH", "QH", "TH", "AC", "9H"])
    assert game.view(0)["discard"] == "AS"
    for seat in (1, 2, 3, None):
        view = game.view(seat)
        assert view["discard"] is None
        assert "AS" not in json.dumps(view)
    assert "AS" not in json.dumps([e.to_dict() for e in game.events])
    assert game.view(1)["turned_card"] == "9H"  # the turned card stays public knowledge


def test_E10_dealer_may_leave_the_turned_card() -> None:
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(DEAL_A))
    act(game, "order")
    act(game, "discard:9H")  # discarding the turned card = leaving it
    assert sorted(game.view(0)["hand"]) == sorted(["KH", "QH", "TH", "AC", "AS"])
    assert game.trump == "H"  # the turned card's suit is trump either way
    assert game.view(2)["discard"] is None and game.view(0)["discard"] == "9H"
    # nothing tells the others whether he left it
    assert game.events[-1].data == {}
    data = run_hand(game, maker=1)
    played = [c["card"] for e in game.events if e.kind == "trick_won" for c in e.data["cards"]]
    assert "9H" not in played and data["tricks"][0] + data["tricks"][1] == 5


def test_E10_dealer_who_takes_it_himself_discards_one_of_his_own() -> None:
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(DEAL_A))
    for _ in range(3):
        act(game, "pass")
    assert kinds(act(game, "order")) == ["picked_up"]
    # he took it: he may not leave it, he discards one of his own five
    assert sorted(game.legal_actions(0)) == sorted(
        "discard:" + c for c in ["KH", "QH", "TH", "AC", "AS"]
    )
    with pytest.raises(IllegalAction):
        game.apply(0, "discard:9H")
    act(game, "discard:TH")
    assert sorted(game.view(0)["hand"]) == sorted(["KH", "QH", "9H", "AC", "AS"])


# --- E11, E12: second round, thrown in, stick the dealer ------------------------------------------


def test_E11_second_round_names_any_suit_but_the_turned_down_one() -> None:
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(DEAL_A))
    events = []
    for _ in range(4):
        events += act(game, "pass")
    assert events[-1].kind == "turned_down" and events[-1].data == {"card": "9H", "suit": "H"}
    assert game.phase == "bidding2" and game.view(None)["turned_down"] is True
    assert game.view(None)["bidding_round"] == 2
    assert game.legal_actions(1) == ["pass", "call:C", "call:D", "call:S"]
    with pytest.raises(IllegalAction):
        game.apply(1, "call:H")
    events = act(game, "call:D")
    assert events[0].kind == "called" and events[0].data == {
        "suit": "D",
        "style": "next",
        "alone": False,
    }
    assert game.trump == "D" and game.maker == 1 and game.view(3)["makers"] == 1


def test_E11_crossing() -> None:
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(DEAL_A))
    for _ in range(5):
        act(game, "pass")
    events = act(game, "call:S")  # seat 2
    assert events[0].data["style"] == "cross" and game.view(None)["makers"] == 0


def test_E12_all_pass_twice_throws_the_hand_in() -> None:
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(DEAL_A, DEAL_A))
    events = []
    for _ in range(8):
        events += act(game, "pass")
    assert kinds(events[-3:]) == ["passed", "redeal", "hand_dealt"]
    assert events[-2].data == {"hand_number": 0, "next_dealer": 1}
    assert game.hand_number == 1 and game.dealer == 1 and game.scores == (0, 0)
    assert game.phase == "bidding1" and game.to_act == [2]


def test_E12_stick_the_dealer_may_not_pass_in_round_two() -> None:
    game = new_game(Options(stick_the_dealer=True), 1, first_dealer=0, deals=fixed(DEAL_A))
    for _ in range(3):
        act(game, "pass")
    assert "pass" in game.legal_actions(0)  # round 1: he may pass
    act(game, "pass")
    for _ in range(3):
        act(game, "pass")
    assert game.legal_actions(0) == ["call:C", "call:D", "call:S"]
    with pytest.raises(IllegalAction):
        game.apply(0, "pass")
    act(game, "call:C")
    assert game.trump == "C" and game.maker == 0


# --- E13: makers and defenders --------------------------------------------------------------------


def test_E13_makers_are_the_partnership_that_made_trump() -> None:
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(DEAL_A))
    act(game, "pass")
    act(game, "order")  # seat 2, the dealer's partner, assists
    assert game.view(None)["maker"] == 2 and game.view(None)["makers"] == 0


# --- E14, E15: going alone ------------------------------------------------------------------------


def test_E14_anyone_is_asked_in_turn_from_the_dealers_left_dealer_last() -> None:
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(DEAL_A))
    act(game, "order")
    act(game, "discard:AS")
    asked = []
    while game.phase == "alone":
        asked.append(game.to_act[0])
        assert game.legal_actions(game.to_act[0]) == ["alone", "stay"]
        act(game, "stay")
    assert asked == [1, 2, 3, 0]
    assert game.phase == "play" and game.alone == [] and game.sitting_out == []


def test_E14_anyone_partner_of_a_loner_is_not_asked_and_sits_out_even_after_stay() -> None:
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(DEAL_A))
    act(game, "order")  # seat 1 makes hearts
    act(game, "discard:AS")
    assert game.to_act == [1]
    act(game, "stay")  # the maker himself stays...
    assert game.to_act == [2]
    act(game, "stay")
    events = act(game, "alone")  # ...and his partner (seat 3) goes alone
    assert events[0].kind == "went_alone"
    assert events[0].data == {"side": "makers", "partner": 1}
    # seat 0 is still asked; seat 1, who answered "stay", sits out
    assert game.to_act == [0]
    events = act(game, "alone")  # a defender goes alone too: seat 2 sits out
    assert events[0].data == {"side": "defenders", "partner": 2}
    assert game.alone == [3, 0] and sorted(game.sitting_out) == [1, 2]
    assert game.phase == "play"
    view = game.view(None)
    assert view["alone"] == [3, 0] and sorted(view["sitting_out"]) == [1, 2]


def test_E14_anyone_no_alone_inside_a_bid() -> None:
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(DEAL_A))
    assert game.legal_actions(1) == ["pass", "order"]
    with pytest.raises(IllegalAction):
        game.apply(1, "order:alone")


def test_E14_maker_only_the_player_who_fixes_trump_when_he_does() -> None:
    options = Options(alone="maker")
    game = new_game(options, 1, first_dealer=0, deals=fixed(DEAL_A))
    assert game.legal_actions(1) == ["pass", "order", "order:alone"]
    events = act(game, "order:alone")
    assert kinds(events) == ["ordered_up", "went_alone"]
    assert events[0].data["alone"] is True and events[1].data == {"side": "makers", "partner": 3}
    act(game, "discard:AS")
    assert game.phase == "play"  # no going-alone question under alone=maker
    game = new_game(options, 1, first_dealer=0, deals=fixed(DEAL_A))
    for _ in range(4):
        act(game, "pass")
    assert "call:S:alone" in game.legal_actions(1)
    events = act(game, "call:S:alone")
    assert kinds(events) == ["called", "went_alone"] and game.phase == "play"
    game = new_game(options, 1, first_dealer=0, deals=fixed(DEAL_A))
    act(game, "order")
    act(game, "discard:AS")
    assert game.phase == "play" and game.alone == []  # too late to go alone


def test_E15_maker_dealer_sits_out_when_partner_orders_alone_no_discard() -> None:
    game = new_game(Options(alone="maker"), 1, first_dealer=0, deals=fixed(DEAL_A))
    act(game, "pass")
    events = act(game, "order:alone")  # seat 2, the dealer's partner, assists alone
    assert kinds(events) == ["assisted", "went_alone"]
    assert game.phase == "play" and game.sitting_out == [0]
    assert "9H" not in game.view(0)["hand"]  # the turned card stays on the kitty
    assert game.view(0)["discard"] is None
    assert not any(e.kind == "dealer_discarded" for e in game.events)


def test_E15_anyone_discard_comes_first_then_the_question() -> None:
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(DEAL_A))
    act(game, "pass")
    act(game, "order")  # seat 2 assists
    assert game.phase == "discard"
    act(game, "discard:AS")
    assert game.phase == "alone"
    act(game, "stay")  # seat 1
    act(game, "alone")  # seat 2 goes alone: the dealer, who already discarded, sits out
    assert game.sitting_out == [0] and "9H" in game.view(0)["hand"]


# --- E16: the opening lead ------------------------------------------------------------------------


def _lead_after(options: Options, bids: Sequence[str], answers: Sequence[str] = ()) -> int:
    game = new_game(options, 1, first_dealer=0, deals=fixed(DEAL_A))
    for action in bids:
        act(game, action)
    if game.phase == "discard":
        act(game, "discard:AS")
    for action in answers:
        act(game, action)
    assert game.phase == "play"
    return game.to_act[0]


def test_E16_left_of_loner() -> None:
    loner = Options(alone="maker")
    assert _lead_after(loner, ["order"]) == 1  # nobody alone: the dealer's left
    assert _lead_after(loner, ["order:alone"]) == 2  # seat 1 alone: his left
    assert _lead_after(loner, ["pass", "pass", "order:alone"]) == 0  # seat 3 alone: seat 0
    assert _lead_after(loner, ["pass", "order:alone"]) == 3  # seat 2 alone, dealer out
    anyone = Options()
    # two loners: seat 3 (maker side) and seat 0 (defender) — the lone defender leads
    assert _lead_after(anyone, ["order"], ["stay", "stay", "alone", "alone"]) == 0
    # two loners: seat 1 (maker) and seat 2 (defender)
    assert _lead_after(anyone, ["order"], ["alone", "alone"]) == 2


def test_E16_left_of_dealer() -> None:
    dealer_left = Options(alone="maker", lead="left_of_dealer")
    assert _lead_after(dealer_left, ["order"]) == 1
    assert _lead_after(dealer_left, ["order:alone"]) == 1  # seat 1 alone leads himself
    # seat 3 alone: seat 1 (the dealer's left) sits out, the player opposite the dealer leads
    assert _lead_after(dealer_left, ["pass", "pass", "order:alone"]) == 2
    assert _lead_after(dealer_left, ["pass", "order:alone"]) == 1
    anyone = Options(lead="left_of_dealer")
    # seats 3 and 0 alone: seats 1 and 2 out, the next active from the dealer's left is 3
    assert _lead_after(anyone, ["order"], ["stay", "stay", "alone", "alone"]) == 3


# --- E17: play ------------------------------------------------------------------------------------


def test_E17_follow_suit_highest_trump_or_highest_of_suit_led_wins() -> None:
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(DEAL_A))
    act(game, "order")
    act(game, "discard:AS")  # dealer 0: KH QH TH AC 9H
    for _ in range(4):
        act(game, "stay")
    play(game, "9C")  # seat 1 leads clubs
    assert game.legal_actions(2) == ["play:TC"]  # must follow
    with pytest.raises(IllegalAction):
        game.apply(2, "play:AD")
    play(game, "TC")
    assert sorted(game.legal_actions(3)) == ["play:KC", "play:QC"]
    play(game, "KC")
    assert game.legal_actions(0) == ["play:AC"]
    events = act(game, "play:AC")
    assert events[0].kind == "trick_won" and events[0].seat == 0  # highest club
    assert events[0].data["leader"] == 1 and events[0].data["number"] == 1
    assert game.to_act == [0]  # the winner leads
    play(game, "TH")  # dealer leads trump
    assert sorted(game.legal_actions(1)) == ["play:AH", "play:JD", "play:JH"]
    play(game, "AH", "TS", "QS")  # seat 2, 3: no trump, anything
    assert game.events[-1].seat == 1
    play(game, "9S")  # seat 1 leads spades
    play(game, "AD")  # seat 2 has no spade left
    play(game, "KS")
    play(game, "9H")  # dealer trumps
    assert game.events[-1].seat == 0 and game.events[-1].data["tricks"] == [2, 1]


def test_E17_a_player_sitting_out_plays_no_card() -> None:
    game = new_game(Options(alone="maker"), 1, first_dealer=0, deals=fixed(DEAL_A))
    act(game, "order:alone")  # seat 1 alone, seat 3 sits out
    act(game, "discard:AS")
    assert game.to_act == [2]
    assert game.legal_actions(3) == []
    play(game, "AD")  # seat 2
    assert game.to_act == [0]  # seat 3 is skipped
    play(game, "KH")  # dealer has no diamond: trumps
    events = act(game, "play:JH")
    assert len(events[0].data["cards"]) == 3 and events[0].seat == 1


def test_E17_two_loners_two_card_tricks() -> None:
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(DEAL_A))
    act(game, "order")
    act(game, "discard:AS")
    act(game, "alone")  # seat 1
    act(game, "alone")  # seat 2; seat 3 and seat 0 are not asked
    assert game.phase == "play" and sorted(game.sitting_out) == [0, 3]
    assert game.to_act == [2]  # the lone defender leads
    play(game, "AD", "JH")
    assert len(game.events[-1].data["cards"]) == 2 and game.events[-1].seat == 1


# --- E18-E20: scoring -----------------------------------------------------------------------------


def test_E18_makers_three_tricks_score_one() -> None:
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(DEAL_A, then=strong_deal_fn))
    act(game, "order")
    act(game, "discard:AS")  # dealer 0: KH QH TH AC 9H
    for _ in range(4):
        act(game, "stay")
    play(game, "JH", "TC", "QC", "9H")  # seat 1 wins
    play(game, "JD", "TS", "QS", "TH")  # seat 1 wins
    play(game, "AH", "TD", "QD", "QH")  # seat 1 wins
    play(game, "9C", "KD", "KC", "AC")  # dealer's ace of clubs wins
    events = []
    for card in ("KH", "9S", "AD", "KS"):
        events += act(game, "play:" + card)
    scored = next(e for e in events if e.kind == "hand_scored")
    assert scored.data == {
        "hand_number": 0,
        "trump": "H",
        "maker": 1,
        "makers": 1,
        "alone": [],
        "tricks": [2, 3],
        "points": 1,
        "scoring_team": 1,
        "reason": "made",
        "euchre": False,
        "scores": [0, 1],
    }
    assert game.scores == (0, 1) and game.hand_number == 1 and game.dealer == 1


def strong_deal_fn(hand_number: int, dealer: int) -> Deal:
    return strong_deal((dealer + 1) % 4)


def test_E18_four_tricks_score_one_march_scores_two_euchre_scores_two() -> None:
    # march: seat 1 holds the five top trumps
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(strong_deal(1)))
    data = run_hand(game, maker=1)
    assert (data["tricks"], data["points"], data["reason"]) == ([0, 5], 2, "march")
    # euchre: seat 1 orders, seat 0 (a defender) holds the five top trumps
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(strong_deal(0)))
    data = run_hand(game, maker=1, discard_turned=True)
    assert (data["tricks"], data["scoring_team"], data["points"]) == ([5, 0], 0, 2)
    assert data["reason"] == "euchred" and data["euchre"] is True
    assert game.scores == (2, 0)
    # four tricks: seat 1 holds the right, left, ace and king of trump and a losing nine
    deal = make_deal(["QH TH AC AS AD", "JH JD AH KH 9S", "TC TS TD KD QD", "QC QS KC KS 9D"], "9H")
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(deal))
    act(game, "order")
    act(game, "discard:AD")  # dealer 0: QH TH AC AS 9H
    for _ in range(4):
        act(game, "stay")
    play(game, "JH", "TC", "QC", "9H")
    play(game, "JD", "TS", "QS", "TH")
    play(game, "AH", "TD", "9D", "QH")
    play(game, "9S", "KD", "KS", "AS")  # dealer wins the spade
    events = []
    for card in ("AC", "KH", "QD", "KC"):
        events += act(game, "play:" + card)
    scored = next(e for e in events if e.kind == "hand_scored").data
    assert (scored["tricks"], scored["points"], scored["reason"]) == ([1, 4], 1, "made")


def test_E18_score_table() -> None:
    for tricks, points, reason in ((3, 1, "made"), (4, 1, "made"), (5, 2, "march")):
        assert score_hand(0, tricks, False, False) == (points, 0, reason)
    for tricks in (0, 1, 2):
        assert score_hand(0, tricks, False, False) == (2, 1, "euchred")


def test_E19_maker_alone_scores() -> None:
    assert score_hand(1, 5, True, False) == (4, 1, "lone_march")
    assert score_hand(1, 4, True, False) == (1, 1, "made")
    assert score_hand(1, 3, True, False) == (1, 1, "made")
    assert score_hand(1, 2, True, False) == (2, 0, "euchred")
    # end to end: a lone march
    game = new_game(Options(alone="maker"), 1, first_dealer=0, deals=fixed(strong_deal(1)))
    data = run_hand(game, maker=1, alone=[1])
    assert data["alone"] == [1] and data["points"] == 4 and data["reason"] == "lone_march"
    assert game.scores == (0, 4)


def test_E19_the_makers_partner_alone_counts_as_a_maker_alone() -> None:
    # seat 1 orders; under alone=anyone his partner seat 3 goes alone and marches
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(strong_deal(3)))
    data = run_hand(game, maker=1, alone=[3])
    assert data["maker"] == 1 and data["alone"] == [3]
    assert (data["points"], data["scoring_team"], data["reason"]) == (4, 1, "lone_march")


def test_E19_maker_alone_euchred_and_made() -> None:
    # seat 1 goes alone on the weak hand of DEAL_A's dealer side: ordered by seat 1 holding
    # KH QH TH AC AS against the dealer's JH JD AH
    deal = make_deal(["JH JD AH 9C 9S", "KH QH TH AC AS", "AD KD TD TC TS", "QC QS QD KC KS"], "9H")
    game = new_game(Options(alone="maker"), 1, first_dealer=0, deals=fixed(deal))
    act(game, "order:alone")
    act(game, "discard:9C")  # dealer 0: JH JD AH 9S 9H
    assert game.to_act == [2]  # left of the loner; seat 3 sits out
    play(game, "TC", "JH", "AC")
    play(game, "JD", "KH", "TS")
    play(game, "AH", "QH", "TD")
    play(game, "9H", "TH", "KD")  # seat 1's ten of trump beats the nine
    events = []
    for card in ("AS", "AD", "9S"):
        events += act(game, "play:" + card)
    scored = next(e for e in events if e.kind == "hand_scored").data
    assert (scored["tricks"], scored["scoring_team"], scored["points"]) == ([3, 2], 0, 2)
    assert scored["alone"] == [1] and scored["reason"] == "euchred"


def test_E20_lone_defender_three_or_four_tricks_scores_two() -> None:
    # seat 1 orders hearts; the dealer (seat 0) holds the right, left and ace and goes alone
    deal = make_deal(["JH JD AH 9C 9S", "KH QH TH AC AS", "AD KD TD TC TS", "QC QS QD KC KS"], "9H")
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(deal))
    act(game, "order")
    act(game, "discard:9C")  # dealer 0: JH JD AH 9S 9H
    act(game, "stay")  # 1
    act(game, "stay")  # 2
    act(game, "stay")  # 3
    act(game, "alone")  # 0: a lone defender; seat 2 sits out
    assert game.to_act == [1]  # left of the loner
    play(game, "AC", "QC", "JH")  # seat 0 trumps the ace of clubs
    play(game, "JD", "KH", "QS")
    play(game, "AH", "QH", "QD")
    play(game, "9S", "AS", "KS")  # seat 1 wins the spade
    events = []
    for card in ("TH", "KC", "9H"):
        events += act(game, "play:" + card)
    scored = next(e for e in events if e.kind == "hand_scored").data
    assert scored["tricks"] == [3, 2] and scored["alone"] == [0]
    assert (scored["points"], scored["scoring_team"], scored["reason"]) == (
        2,
        0,
        "defended_alone",
    )


def test_E20_lone_defender_all_five_scores_four() -> None:
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(strong_deal(0)))
    data = run_hand(game, maker=1, alone=[0], discard_turned=True)
    assert data["tricks"] == [5, 0]
    assert (data["points"], data["scoring_team"], data["reason"]) == (
        4,
        0,
        "defended_alone_march",
    )


def test_E20_two_loners_both_rules_apply() -> None:
    # a lone maker marches against a lone defender: 4
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(strong_deal(1)))
    data = run_hand(game, maker=1, alone=[1, 0])
    assert sorted(data["alone"]) == [0, 1] and data["tricks"] == [0, 5]
    assert (data["points"], data["reason"]) == (4, "lone_march")
    # a lone defender takes all five against a lone maker: 4
    game = new_game(Options(), 1, first_dealer=0, deals=fixed(strong_deal(0)))
    data = run_hand(game, maker=1, alone=[1, 0], discard_turned=True)
    assert data["tricks"] == [5, 0]
    assert (data["points"], data["scoring_team"], data["reason"]) == (
        4,
        0,
        "defended_alone_march",
    )
    assert score_hand(1, 1, True, True) == (2, 0, "defended_alone")


def test_E20a_scores_are_not_capped() -> None:
    plan = [1, 1, 1, 1, 3]  # seat 1 marches four times (8), then seat 3 marches alone
    deals = fixed(*(strong_deal(s) for s in plan))
    game = new_game(Options(alone="maker"), 1, first_dealer=0, deals=deals)
    for seat in plan[:4]:
        run_hand(game, maker=seat)
    assert game.scores == (0, 8)
    data = run_hand(game, maker=3, alone=[3])
    assert data["points"] == 4 and game.scores == (0, 12)
    assert game.is_over and game.winner == 1


# --- E21: winning, the bridge ---------------------------------------------------------------------


@pytest.mark.parametrize("target", [5, 7, 10])
def test_E21_first_to_the_target_wins(target: int) -> None:
    marches = -(-target // 2)  # two points a march
    game = new_game(
        Options(target=target), 1, first_dealer=0, deals=fixed(*[strong_deal(0)] * marches)
    )
    for i in range(marches):
        assert not game.is_over
        events_before = len(game.events)
        run_hand(game, maker=0)
        if i < marches - 1:
            assert game.winner is None
    assert game.is_over and game.winner == 0 and game.phase == "over"
    assert game.scores[0] >= target and game.scores == (2 * marches, 0)
    assert game.to_act == [] and game.legal_actions(0) == []
    assert game.events[-1].kind == "game_won"
    assert game.events[-1].data["team"] == 0 and events_before < len(game.events)
    with pytest.raises(GameOver):
        game.apply(0, "pass")
    view = game.view(None)
    assert view["is_over"] and view["winner"] == 0 and view["target"] == target


def test_E21_bridge_in_a_five_point_game() -> None:
    deals = fixed(strong_deal(1), strong_deal(1), strong_deal(0))
    game = new_game(Options(target=5, alone="maker"), 1, first_dealer=0, deals=deals)
    run_hand(game, maker=1)
    assert game.view(None)["bridge"] is None  # 2-0
    run_hand(game, maker=1)
    assert game.scores == (0, 4) and game.view(2)["bridge"] == 1  # 4 against 0
    run_hand(game, maker=0)
    assert game.scores == (2, 4) and game.view(None)["bridge"] == 1  # still 2 or fewer
    assert bridge((4, 3), 5) is None and bridge((1, 4), 5) == 1 and bridge((4, 0), 10) is None


# --- E22: the rubber ------------------------------------------------------------------------------


def test_E22_rubber_points_and_margin() -> None:
    assert [rubber_points(s) for s in (0, 1, 2, 3, 4, 9)] == [3, 2, 2, 1, 1, 1]
    assert rubber_margin(4, 2) == 4
    # target 5. Game 1: team 0 marches three times, 6-0 (3 rubber points). Game 2: team 0
    # marches once, team 1 three times: 2-6 (team 1, 2 rubber points). Game 3: team 1 twice,
    # team 0 three times: 6-4 (team 0, 1 rubber point). Team 0: 2 games, 3+1 against 2.
    plan = [0] * 3 + [0] + [1] * 3 + [1] * 2 + [0] * 3
    game = new_game(
        Options(target=5, match="rubber"),
        1,
        first_dealer=0,
        deals=fixed(*(strong_deal(2 if team == 0 else 1) for team in plan)),
    )
    dealers = []
    for team in plan:
        assert not game.is_over
        dealers.append(game.dealer)
        run_hand(game, maker=2 if team == 0 else 1)
    assert dealers == [i % 4 for i in range(len(plan))]  # the deal keeps passing left
    assert game.is_over and game.winner == 0
    assert game.games_won == [2, 1] and game.rubber_points == [4, 2] and game.margin == 4
    assert [r["rubber_points"] for r in game.game_results] == [3, 2, 1]
    assert [r["scores"] for r in game.game_results] == [[6, 0], [2, 6], [6, 4]]
    won = [e.data for e in game.events if e.kind == "game_won"]
    assert [w["team"] for w in won] == [0, 1, 0]
    assert [w["rubber_points"] for w in won] == [3, 2, 1]
    rubber = [e.data for e in game.events if e.kind == "rubber_won"]
    assert rubber == [{"team": 0, "games_won": [2, 1], "rubber_points": [4, 2], "margin": 4}]
    assert game.events[-1].kind == "rubber_won"
    assert game.scores == (6, 4)  # the last game's score
    view = game.view(None)
    assert view["games_won"] == [2, 1] and view["rubber_points"] == [4, 2]


def test_E22_next_game_starts_at_zero_right_after_the_winning_hand() -> None:
    plan = [0, 0, 0, 1]
    game = new_game(
        Options(target=5, match="rubber"),
        1,
        first_dealer=0,
        deals=fixed(*(strong_deal(2 if t == 0 else 1) for t in plan)),
    )
    for team in plan[:3]:
        run_hand(game, maker=2 if team == 0 else 1)
    assert not game.is_over and game.scores == (0, 0) and game.games_won == [1, 0]
    assert game.game_number == 1 and game.dealer == 3 and game.hand_number == 3
    tail = kinds(game.events[-4:])
    assert tail == ["hand_scored", "game_won", "game_started", "hand_dealt"]
    run_hand(game, maker=1)
    assert game.scores == (0, 2)


# --- the contract: errors leave the state unchanged, serialisation --------------------------------


def test_contract_wrong_seat_bad_seat_illegal_action_change_nothing() -> None:
    game = new_game(Options(), 5, first_dealer=0)
    before = Game.from_json(game.to_json())
    assert before == game
    with pytest.raises(NotYourTurn):
        game.apply(2, "pass")
    with pytest.raises(BadSeat):
        game.apply(4, "pass")
    with pytest.raises(BadSeat):
        game.legal_actions(-1)
    with pytest.raises(IllegalAction):
        game.apply(1, "call:H")
    with pytest.raises(IllegalAction):
        game.apply(1, ["pass"])  # type: ignore[arg-type]
    assert game == before and game.actions == []
    assert issubclass(IllegalAction, ValueError)


def test_contract_replay_and_json_round_trip() -> None:
    game = new_game(Options(match="rubber", target=5, joker=True), 42)
    while not game.is_over:
        last_legal(game)
    data = json.loads(json.dumps(game.to_json()))
    assert data["game"] == GAME_NAME and data["seed"] == 42
    again = Game.from_json(data)
    assert again == game
    assert again.events == game.events
    assert [again.view(s) for s in (0, 1, 2, 3, None)] == [game.view(s) for s in (0, 1, 2, 3, None)]
    replayed = Game.replay(game.options, game.seed, game.first_dealer, game.actions)
    assert replayed == game
