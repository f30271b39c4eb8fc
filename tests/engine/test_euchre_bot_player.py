"""The rule-based Euchre player: legal, deterministic, view-only, and better than random."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from bot.engine.common import NotYourTurn
from bot.engine.euchre import Game, Options, new_game
from bot.engine.euchre.bot_player import choose_action, decide
from bot.engine.euchre.cards import CODES, deck_for

ALL_OPTIONS = [
    Options(),
    Options(alone="maker", lead="left_of_dealer"),
    Options(deck=32, joker=True, stick_the_dealer=True),
    Options(deck=28, joker=True, target=5, match="rubber", seating="draw"),
    Options(target=7, alone="maker", stick_the_dealer=True),
]


class ViewOnly:
    """Exposes nothing of a game but `view`: a player that needed more would fail here."""

    def __init__(self, game: Game) -> None:
        self._view = game.view

    def view(self, seat: int | None) -> dict[str, Any]:
        return self._view(seat)


def bot_game(options: Options, seed: int) -> Game:
    game = new_game(options, seed)
    while not game.is_over:
        seat = game.to_act[0]
        action = choose_action(ViewOnly(game), seat)
        assert action in game.legal_actions(seat)
        assert action == decide(game.view(seat))
        game.apply(seat, action)
    return game


@pytest.mark.parametrize("options", ALL_OPTIONS, ids=lambda o: repr(o)[8:60])
def test_bots_play_whole_games_legally_and_deterministically(options: Options) -> None:
    for seed in range(15):
        game = bot_game(options, seed)
        assert game.is_over and game.winner in (0, 1)
        assert bot_game(options, seed).actions == game.actions  # no randomness


def _fixed(hands: list[list[str]], kitty: list[str]) -> Callable[[int, int], Any]:
    def deal(hand_number: int, dealer: int) -> tuple[list[list[str]], list[str]]:
        return hands, kitty

    return deal


def test_decisions_do_not_depend_on_hidden_cards() -> None:
    """Two deals that agree on seat 1's hand and the turned card but not on the other hands:
    seat 1's first decision, made from the same view, is the same."""
    deck = [CODES[c] for c in deck_for(24, False)]
    rng = random.Random(3)
    for _ in range(50):
        rng.shuffle(deck)
        hands = [deck[5 * s : 5 * s + 5] for s in range(4)]
        kitty = deck[20:]
        others = hands[0] + hands[2] + hands[3]
        rng.shuffle(others)
        swapped = [others[0:5], hands[1], others[5:10], others[10:15]]
        a = new_game(Options(), 1, first_dealer=0, deals=_fixed(hands, kitty))
        b = new_game(Options(), 1, first_dealer=0, deals=_fixed(swapped, kitty))
        assert a.view(1) == b.view(1)
        assert choose_action(a, 1) == choose_action(b, 1)


def test_bots_beat_random_players() -> None:
    wins = 0
    games = 60
    for seed in range(games):
        rng = random.Random(seed)
        game = new_game(Options(), seed)
        while not game.is_over:
            seat = game.to_act[0]
            if seat % 2 == seed % 2:
                action = choose_action(game, seat)
            else:
                action = rng.choice(game.legal_actions(seat))
            game.apply(seat, action)
        wins += game.winner == seed % 2
    assert wins >= 0.9 * games


def _deal(hands: list[str], turned: str) -> Any:
    split = [h.split() for h in hands]
    used = {c for h in split for c in h} | {turned}
    rest = [CODES[c] for c in deck_for(24, False) if CODES[c] not in used]
    return lambda n, d: (split, [turned, *rest])


def test_rules_of_thumb() -> None:
    # seat 1 holds both red bowers and the ace of hearts: orders hearts up
    deal = _deal(["9S TS JS QS KS", "JH JD AH 9C TC", "9D TD QD KD AD", "JC QC KC AC AS"], "9H")
    game = new_game(Options(), 1, first_dealer=0, deals=deal)
    assert choose_action(game, 1) == "order"
    game.apply(1, "order")
    # the dealer throws his lowest plain card, never a trump
    assert choose_action(game, 0) == "discard:9S"
    game.apply(0, "discard:9S")
    for seat in (1, 2, 3, 0):
        assert choose_action(game, seat) == "stay"
        game.apply(seat, "stay")
    # a maker with trumps leads his best trump
    assert choose_action(game, 1) == "play:JH"
    game.apply(1, "play:JH")
    # seat 2 (no heart) cannot win: throws his lowest card
    assert choose_action(game, 2) == "play:9D"
    game.apply(2, "play:9D")
    # seat 3's partner (seat 1) wins with the right bower: seat 3 throws low
    assert choose_action(game, 3) == "play:JC"
    # a weak dealer passes in round 2, unless he is stuck: then he calls his best suit
    weak = _deal(["9S QS 9C TC 9D", "JH JD AH AC KC", "TD QD KD AD JC", "QC TS JS KS AS"], "9H")
    for stick, expected in ((False, "pass"), (True, "call:S")):
        game = new_game(Options(stick_the_dealer=stick), 1, first_dealer=0, deals=weak)
        for _ in range(7):
            game.apply(game.to_act[0], "pass")
        assert choose_action(game, 0) == expected
    with pytest.raises(NotYourTurn):
        choose_action(game, 1)
