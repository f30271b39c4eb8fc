"""The look-ahead players (bot/engine/<game>/search.py, issue 9): view-only, legal, deterministic.

Budgets are tiny here (a few play-outs): the rules of the search do not depend on its size, and
scripts/bench_ai.py measures strength and time at the real budgets.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine.common import Rng
from bot.engine.euchre import Game as EuchreGame
from bot.engine.euchre import Options as EuchreOptions
from bot.engine.euchre import bot_player as euchre_rules
from bot.engine.euchre import new_game as new_euchre
from bot.engine.euchre import search as euchre_search
from bot.engine.euchre.game import HIDDEN_DISCARD
from bot.engine.truco import Game as TrucoGame
from bot.engine.truco import Options as TrucoOptions
from bot.engine.truco import new_game as new_truco
from bot.engine.truco import search as truco_search
from bot.engine.truco.search import win_chance
from bot.tables.bot_moves import search_seed

EUCHRE_VARIANTS = [
    EuchreOptions(),
    EuchreOptions(alone="maker", lead="left_of_dealer", stick_the_dealer=True),
    EuchreOptions(deck=32, joker=True, seating="draw", match="rubber"),
    EuchreOptions(deck=28, joker=True, alone="maker"),
]


def random_positions(game: Any, rng: random.Random, stops: int) -> Any:
    """Yields (game, seat) at `stops` random decisions of one game played by random moves."""
    while not game.is_over:
        seat = rng.choice(game.to_act)
        if rng.random() < stops / 40:
            yield game, seat
        game.apply(seat, rng.choice(game.legal_actions(seat)))


@pytest.mark.parametrize("options", EUCHRE_VARIANTS)
def test_euchre_play_outs_decide_as_the_rule_player_does_from_the_full_view(
    options: EuchreOptions,
) -> None:
    """The search's play-outs read `policy_view`, the lean part of the view: at every decision
    of random games (every phase, E6 to E17), the rule player decides the same from both, for
    the seat to act and for every seat with something to do."""
    rng = random.Random(f"policy {options}")
    phases = set()
    for number in range(25):
        game = new_euchre(options, number)
        while not game.is_over:
            for seat in game.to_act:
                assert euchre_rules.decide(game.policy_view(seat)) == euchre_rules.decide(
                    game.view(seat)
                )
            phases.add(game.phase)
            seat = rng.choice(game.to_act)
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert {"bidding1", "bidding2", "discard", "play"} <= phases


@pytest.mark.parametrize("options", EUCHRE_VARIANTS)
def test_euchre_search_returns_only_legal_actions(options: EuchreOptions) -> None:
    """E17 and every bidding rule: the search picks among legal_actions at random positions
    of both bidding rounds, the discard, the alone question and the play, at every budget."""
    rng = random.Random(str(options))
    phases = set()
    for number in range(12):
        game = new_euchre(options, number)
        for position, seat in random_positions(game, rng, 8):
            budget = rng.choice((1, 6, 24))
            action = euchre_search.choose_action(position, seat, budget, rng.getrandbits(64))
            assert action in position.legal_actions(seat)
            phases.add(position.phase)
    assert {"bidding1", "play"} <= phases


def test_truco_search_returns_only_legal_actions() -> None:
    """T5-T14: cards, raises, answers and the mão de dez decision are all legal choices."""
    rng = random.Random(9)
    phases = set()
    for number in range(12):
        game = new_truco(TrucoOptions(), number)
        for position, seat in random_positions(game, rng, 8):
            budget = rng.choice((1, 6, 24))
            action = truco_search.choose_action(position, seat, budget, rng.getrandbits(64))
            assert action in position.legal_actions(seat)
            phases.add(position.phase)
    assert {"play", "answer"} <= phases


def euchre_at_play(seed: int) -> tuple[EuchreGame, int]:
    """A game in the play phase after the first trick, with the seat to act."""
    game = new_euchre(EuchreOptions(), seed)
    while game.phase != "play" or len(game.hand_history(0)) < 10:
        seat = game.to_act[0]
        game.apply(seat, euchre_rules.choose_action(game, seat))
        if game.hand_number > 0:
            return euchre_at_play(seed + 1000)
    return game, game.to_act[0]


def swap_hidden_hands(game: EuchreGame, seat: int) -> EuchreGame:
    """The same game as `seat` sees it, but two other seats hold each other's cards."""
    others = [s for s in range(4) if s != seat]
    sizes = [game._hands[s].bit_count() for s in others]
    a, b = next(
        (x, y)
        for i, x in enumerate(others)
        for j, y in enumerate(others)
        if i < j and sizes[i] == sizes[j]
    )
    tampered = game.clone()
    tampered._hands[a], tampered._hands[b] = game._hands[b], game._hands[a]
    return tampered


@pytest.mark.parametrize("seed", range(6))
def test_euchre_search_reads_only_the_view(seed: int) -> None:
    """The hidden cards are another deal in the tampered game: the seat's view and history are
    the same, and so is the choice (the search never reads the true hands)."""
    game, seat = euchre_at_play(seed)
    tampered = swap_hidden_hands(game, seat)
    assert tampered._hands != game._hands
    assert tampered.view(seat) == game.view(seat)
    assert tampered.hand_history(seat) == game.hand_history(seat)
    for budget in (8, 40):
        assert euchre_search.choose_action(tampered, seat, budget, 5) == (
            euchre_search.choose_action(game, seat, budget, 5)
        )


def test_euchre_hand_history_hides_another_seats_discard() -> None:
    """E10: only the dealer sees his discard; the others see that he discarded."""
    game = new_euchre(EuchreOptions(), 3, first_dealer=0)
    game.apply(1, "order")
    discard = game.legal_actions(0)[0]
    game.apply(0, discard)
    assert game.hand_history(0)[-1] == (0, discard)
    for seat in (1, 2, 3):
        assert game.hand_history(seat) == [(1, "order"), (0, HIDDEN_DISCARD)]
        euchre_search.choose_action(game, game.to_act[0], 4, 1)  # samples a discard


def test_euchre_search_samples_respect_shown_voids() -> None:
    """A seat that did not follow suit is dealt no card of that suit in any sample: every
    sample replays the hand legally on the engine (which would refuse a revoke)."""
    rng = random.Random(4)
    checked = 0
    for number in range(40):
        game = new_euchre(EuchreOptions(), number)
        for position, seat in random_positions(game, rng, 20):
            if position.phase != "play":
                continue
            knowledge = euchre_search._Knowledge(position.view(seat), position.hand_history(seat))
            if not any(knowledge.voids):
                continue
            sample = knowledge.sample(Rng(number))
            assert sample is not None
            # The sample is this very position, but for the hidden cards.
            shown, real = sample.view(seat), position.view(seat)
            for key in ("hand", "trick", "tricks_won", "hand_sizes", "to_act", "legal_actions"):
                assert shown[key] == real[key], key
            assert (shown["trump"], shown["maker"], shown["alone"]) == (
                real["trump"],
                real["maker"],
                real["alone"],
            )
            checked += 1
    assert checked > 20


def truco_position(seed: int) -> tuple[TrucoGame, int]:
    """A truco game at a decision with more than one choice, the seat to act, where its two
    opponents hold as many cards each."""
    rng = random.Random(seed)
    game = new_truco(TrucoOptions(), seed)
    while True:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        sizes = game.view(None)["hand_sizes"]
        even = sizes[(seat + 1) % 4] == sizes[(seat + 3) % 4] > 0
        if len(legal) > 1 and even and rng.random() < 0.3:
            return game, seat
        game.apply(seat, rng.choice(legal))
        if game.is_over:
            game = new_truco(TrucoOptions(), seed + 100)


@pytest.mark.parametrize("seed", range(6))
def test_truco_search_reads_only_the_view(seed: int) -> None:
    """Two opponents swap their hidden cards in the tampered game: same view, same choice."""
    game, seat = truco_position(seed)
    tampered = game.copy()
    a, b = (seat + 1) % 4, (seat + 3) % 4
    tampered._hands[a], tampered._hands[b] = game._hands[b], game._hands[a]
    assert tampered._hands != game._hands
    assert tampered.view(seat) == game.view(seat)
    for budget in (8, 40):
        assert truco_search.choose_action(tampered, seat, budget, 11) == (
            truco_search.choose_action(game, seat, budget, 11)
        )


def test_search_is_deterministic_and_survives_a_restore() -> None:
    """The same (table seed, actions so far, seat) gives the same move, on the game and on the
    game rebuilt from its stored record (as after a restart)."""
    for seed in range(4):
        game, seat = euchre_at_play(seed)
        restored = EuchreGame.from_json(game.to_json())
        move_seed = search_seed(seed, len(game.actions), seat)
        assert euchre_search.choose_action(game, seat, 30, move_seed) == (
            euchre_search.choose_action(restored, seat, 30, move_seed)
        )
        truco, tseat = truco_position(seed)
        truco_restored = TrucoGame.from_json(truco.to_json())
        move_seed = search_seed(seed, len(truco.actions), tseat)
        assert truco_search.choose_action(truco, tseat, 30, move_seed) == (
            truco_search.choose_action(truco_restored, tseat, 30, move_seed)
        )
    assert search_seed(1, 2, 3) == search_seed(1, 2, 3)
    assert len({search_seed(1, n, s) for n in range(5) for s in range(4)}) == 20


def test_truco_win_chance_weighs_the_score() -> None:
    """T12: the search values points by the chance to reach 12 they leave."""
    assert win_chance(12, 0, 12) == 1.0 and win_chance(0, 12, 12) == 0.0
    assert win_chance(0, 0, 12) == pytest.approx(0.5)
    assert win_chance(10, 0, 12) > win_chance(6, 0, 12) > win_chance(0, 0, 12)


def test_truco_win_chance_knows_the_hand_of_ten() -> None:
    """T13, T14: a pair at ten plays its hand of ten (worth 4) when it pays, else gives 2; at
    ten each the iron hand decides the game. So ten is no sure game: the other pair still has
    hands of ten to win or see refused, and one refused costs less than one lost."""
    assert win_chance(10, 10, 12) == pytest.approx(0.5)
    assert win_chance(10, 10, 12, 0.6) == pytest.approx(0.6)
    assert win_chance(10, 0, 12) < 0.95  # counted in 2-point hands alone it was 0.98
    assert win_chance(10, 2, 12) > win_chance(10, 4, 12)
    assert win_chance(2, 10, 12) < win_chance(4, 10, 12)
    # The two pairs' chances add up to 1, at ten or not.
    for ours, theirs in ((10, 4), (4, 10), (10, 8), (0, 0), (6, 2), (8, 10)):
        both = win_chance(ours, theirs, 12, 0.6) + win_chance(theirs, ours, 12, 0.4)
        assert both == pytest.approx(1.0)


def test_truco_search_runs_from_a_hand_of_ten() -> None:
    """T13: at 10 points the pair sees both hands; the search decides play or run from them
    (and the starting score reaches the look-ahead engine)."""
    game = TrucoGame(TrucoOptions(), 0, 0, scores=(10, 4))
    assert game.phase == "hand_of_ten"
    seat = game.to_act[0]
    assert game.view(seat)["partner_hand"] is not None
    assert truco_search.choose_action(game, seat, 20, 1) in ("accept", "run")


def test_truco_scores_must_be_below_the_target() -> None:
    with pytest.raises(ValueError):
        TrucoGame(TrucoOptions(), 0, 0, scores=(12, 0))


def test_truco_play_out_settles_hands_as_the_engine_does() -> None:
    """T6-T8: the search's quick play-out (the rule player's cards, nobody raising) gives the
    hand to the pair the engine gives it to, from random positions of random games."""
    rng = random.Random(5)
    checked = 0
    for number in range(60):
        game = new_truco(TrucoOptions(), number)
        while not game.is_over and game.phase != "play":
            game.apply(game.to_act[0], "accept")
        # Play a few random cards (never raising), then let the rule player's cards finish.
        for _ in range(rng.randrange(0, 9)):
            seat = game.to_act[0]
            cards = [a for a in game.legal_actions(seat) if a.startswith("play:")]
            hand_number = game.hand_number
            game.apply(seat, rng.choice(cards))
            if game.hand_number != hand_number or game.is_over:
                break
        if game.is_over or game.phase != "play":
            continue
        public = game.view(None)
        hands = [list(h[5:] for h in game._hands[s]) for s in range(4)]
        trick = [(e["seat"], e["card"]) for e in public["trick"]]
        results = [r["winner_team"] for r in public["rounds"]]
        predicted = truco_search.play_out(hands, trick, results, public["turn"], public["dealer"])
        before = game.scores
        hand_number = game.hand_number
        while not game.is_over and game.hand_number == hand_number:
            seat = game.to_act[0]
            view = game.view(seat)
            cards = [a for a in view["legal_actions"] if a.startswith("play:")]
            move = "play:" + truco_search._card(
                sorted(view["hand"], key=truco_search._SORT_KEY.__getitem__),
                [(e["seat"], e["card"]) for e in view["trick"]],
                not view["rounds"] or view["rounds"][0]["winner_team"] == seat % 2,
                seat % 2,
            )
            assert move in cards
            game.apply(seat, move)
        after = game.scores
        assert predicted == (0 if after[0] > before[0] else 1)
        checked += 1
    assert checked > 30


def test_truco_card_choice_is_the_rule_players() -> None:
    """The play-outs' card choice is bot_player's (T5, T6, T8), read from the seat's view."""
    from bot.engine.truco import bot_player

    rng = random.Random(8)
    checked = 0
    for number in range(40):
        game = new_truco(TrucoOptions(), number)
        while not game.is_over:
            seat = game.to_act[0]
            view = game.view(seat)
            legal = view["legal_actions"]
            if view["phase"] == "play":
                mine = "play:" + truco_search._card(
                    sorted(view["hand"], key=truco_search._SORT_KEY.__getitem__),
                    [(e["seat"], e["card"]) for e in view["trick"]],
                    not view["rounds"] or view["rounds"][0]["winner_team"] == seat % 2,
                    seat % 2,
                )
                assert mine == "play:" + bot_player._card_to_play(view)
                checked += 1
            game.apply(seat, rng.choice(legal) if view["phase"] != "play" else mine)
    assert checked > 200


def _asked_truco(hand: list[str], scores: tuple[int, int] = (0, 0)) -> tuple[TrucoGame, int]:
    """Seat 1 (team 1) asks truco before its first card; seat 0 holds `hand` and answers."""
    low = ("4D", "5D", "6D", "4S", "5S", "6S", "4H", "5H", "6H", "5C", "6C", "QD")
    others = [c for c in low if c not in hand]
    deal = [hand, others[0:3], others[3:6], others[6:9]]
    game = TrucoGame(TrucoOptions(), 0, 2, lambda _n, _d: deal, scores=scores)
    assert game.to_act == [1]
    game.apply(1, "raise")
    return game, 0


def test_truco_answers_an_ask_by_the_equity_of_its_cards() -> None:
    """T9, T11 (issue 9): an ask tells nothing sure (a bluffer asks with anything), so the answer
    weighs our cards against every hand the askers may hold: run with nothing, accept or raise
    back with the top manilhas, never run with the zap, copas and espadilha."""
    weak, _ = _asked_truco(["4S", "5H", "6C"])
    assert truco_search.choose_action(weak, 0, 300, 1) == "run"
    strong, _ = _asked_truco(["4C", "7H", "AS"])
    assert truco_search.choose_action(strong, 0, 300, 1) in ("accept", "raise")


def test_truco_raise_is_worth_the_worst_answer() -> None:
    """T9, T10: the value of our raise is the worst of the answers it may meet (run, accept,
    raise back), so a raise never beats the best card by hoping the other pair runs."""
    game = TrucoGame(
        TrucoOptions(),
        0,
        3,
        lambda _n, _d: [
            ["4S", "5H", "6C"],
            ["4D", "5D", "6D"],
            ["7S", "QH", "JC"],
            ["KD", "KS", "2H"],
        ],
    )
    seat = game.to_act[0]
    assert seat == 2 and "raise" in game.legal_actions(seat)
    values = dict(truco_search.evaluate(game.view(seat), game.hand_history(seat), 300, 3))
    best_card = max(v for a, v in values.items() if a.startswith("play:"))
    assert values["raise"] < best_card


def test_truco_ask_values_follow_the_ladder() -> None:
    """T9, T10, T12: an ask is worth the other pair's best answer on our equity alone. A sure
    winner's ask is run from (it scores the value before the ask); a sure loser facing an ask
    runs; at ten-ten (T14) holding the hand is worth its equity."""
    stakes = truco_search._Stakes((0, 0), 12)
    assert stakes.ask(1.0, 0, 2, True) == pytest.approx(stakes.won(2))
    assert stakes.ask(0.0, 0, 2, False) == pytest.approx(stakes.lost(2))
    assert stakes.hold(1.0, 4) == pytest.approx(win_chance(4, 0, 12))
    # At 10 points, any hand won ends the game: the value of holding is the equity itself.
    near = truco_search._Stakes((10, 10), 12)
    assert near.hold(0.7, 2) == pytest.approx(0.7)


def test_truco_ask_pays_against_a_pair_that_runs_on_weak_cards() -> None:
    """T9, T11 (issue 35, policy inference): a pair that has run from our asks answers them on
    its cards, deal by deal: it runs where it is weak (the ask takes the points where our cards
    would not) and plays where it is strong. Against it a middling hand's truco pays; against a
    pair that never ran, the same ask is valued at its worst answer, below the best card."""
    deal = [["4D", "5D", "6D"], ["KD", "QS", "5H"], ["7S", "QH", "JC"], ["KC", "KS", "2H"]]
    game = TrucoGame(TrucoOptions(), 0, 2, lambda _n, _d: deal)
    assert game.to_act == [1] and "raise" in game.legal_actions(1)
    view, history = game.view(1), game.hand_history(1)
    record = {"raises": [0, 2], "accepts": [1, 0], "answers": [2, 0], "hands": 3}
    runner = {**view, "betting": {**record, "runs": [1, 0]}}
    stayer = {**view, "betting": {**record, "accepts": [2, 0], "runs": [0, 0]}}
    against_runner = dict(truco_search.evaluate(runner, history, 300, 3))
    against_stayer = dict(truco_search.evaluate(stayer, history, 300, 3))
    best_card = max(v for a, v in against_runner.items() if a.startswith("play:"))
    assert against_runner["raise"] > best_card > against_stayer["raise"]
    # The cards are valued alike against both: only the answer to the ask is modelled.
    assert {a: v for a, v in against_runner.items() if a != "raise"} == {
        a: v for a, v in against_stayer.items() if a != "raise"
    }


def test_truco_reads_the_other_pairs_cards_from_how_it_plays_them() -> None:
    """T5-T7 (issue 35, policy inference): the rule player leads its strongest card and follows
    with the cheapest card that takes the round. A seat of the other pair that led the 5H
    holds nothing stronger, so a deal that gives it a manilha counts MISPLAY as much; a deal
    that fits its play counts fully, and our own pair's plays are not read."""
    history = [(1, "play:5H"), (2, "play:6C")]
    plays = truco_search.card_plays(history, [], 0)
    assert [(seat, card) for seat, card, *_ in plays] == [(1, "5H")]
    fits = [[], ["4H", "4S"], [], []]
    stronger = [[], ["4C", "4S"], [], []]  # the zap: it would have led it
    assert truco_search.plays_weight(plays, fits) == 1.0
    assert truco_search.plays_weight(plays, stronger) == truco_search.MISPLAY
    # Following a three it cannot take, the rule player throws its weakest card: a seat that
    # threw the KD holds nothing weaker (an ace and a two fit) and no manilha (it would take the
    # round with it).
    history = [(2, "play:3C"), (3, "play:KD")]
    follow = truco_search.card_plays(history, [], 0)
    assert truco_search.plays_weight(follow, [[], [], [], ["AD", "2D"]]) == 1.0
    weaker = truco_search.plays_weight(follow, [[], [], [], ["5D", "AD"]])
    manilha = truco_search.plays_weight(follow, [[], [], [], ["7D", "AD"]])
    assert weaker == manilha == truco_search.MISPLAY
    # T15: a seat that has covered a card since held a face nobody saw: its play is not read.
    covered = [(1, "play:5H"), (2, "play:6C"), (3, "play:4D"), (0, "play:QD"), (1, "cover:?")]
    assert [seat for seat, *_ in truco_search.card_plays(covered, [0], 0)] == [3]
