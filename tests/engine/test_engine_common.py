"""The seeded PRNG of bot.engine.common and the deals it makes, pinned to fixed outputs.

A stored game is (options, seed, first dealer, actions): it replays only if the generator and
the deal built on it give the same numbers forever. These values were taken from the code as
first written; a speed-up that changes one of them breaks every stored game.
"""

from __future__ import annotations

import hashlib
import json

from bot.engine.common import Rng, hand_rng, hand_state
from bot.engine.euchre import Options, new_game


def test_hand_rng_streams_are_pinned() -> None:
    rng = hand_rng(1234, 5, 0)
    assert [rng.next64() for _ in range(3)] == [
        15919272122643431626,
        4216147155942831886,
        14185356471984157516,
    ]
    assert Rng().next64() == 16294208416658607535
    assert Rng(-1).next64() == 6755974106381971767
    assert Rng(2**70 + 3, -7).next64() == 13648119424294616468


def test_below_and_shuffled_are_pinned() -> None:
    rng = Rng(42, 7)
    assert [rng.below(n) for n in (1, 2, 3, 5, 24, 1000, 2**63 + 5)] == [
        0,
        0,
        2,
        4,
        20,
        128,
        8682290587923370317,
    ]
    assert hand_rng(9, 0, 1).shuffled(list(range(10))) == [0, 4, 5, 7, 6, 9, 8, 2, 1, 3]


def _play_digest(options: Options, seeds: range) -> str:
    """Whole games from seeded deals, each action picked by its own Rng: every event, the
    record and the final views go into the digest."""
    digest = hashlib.sha256()
    for seed in seeds:
        game = new_game(options, seed)
        chooser = Rng(seed, 99)
        while not game.is_over:
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            game.apply(seat, legal[chooser.below(len(legal))])
        record = {
            "events": [e.to_dict() for e in game.events],
            "json": game.to_json(),
            "views": [game.view(s) for s in (None, 0, 1, 2, 3)],
        }
        digest.update(json.dumps(record, sort_keys=True).encode())
    return digest.hexdigest()


def test_E8_seeded_euchre_deals_and_games_are_pinned() -> None:
    """Euchre's deal (E8) draws its cards from hand_rng: the same seed, the same games."""
    assert _play_digest(Options(), range(12)) == PINNED["default"]
    assert (
        _play_digest(Options(alone="maker", lead="left_of_dealer"), range(12)) == (PINNED["maker"])
    )
    assert (
        _play_digest(
            Options(deck=32, joker=True, target=5, seating="draw", match="rubber"), range(6)
        )
        == (PINNED["joker"])
    )
    assert (
        _play_digest(Options(deck=28, stick_the_dealer=True, target=7), range(6))
        == (PINNED["stick"])
    )


PINNED = {
    "default": "a36a69ef8680c33caaa3b31ebc70f3af0a5068a8628f7d6321297b4e9cb76a37",
    "maker": "bf6f52924dc93f27ca17447a3bdd94403a9db14343663d98fff27dd41c90480d",
    "joker": "69415cb54e4377cb9dfc26ba578682225a49a47fc2528b6ae0553587da19a4c5",
    "stick": "e5c34c5016b7b3cd10ea4a30a5975cfbb7519d0c4db285747775fc399f4fa51b",
}


def test_hand_rng_is_rng_of_its_three_parts_whatever_came_before() -> None:
    """hand_rng keeps the last seed's fold: seeds in any order (0 first, repeats, negatives,
    past 64 bits) must give exactly Rng(seed, hand_number, purpose)."""
    for seed in (0, 0, 1, 0, -1, 2**64, 2**64, 3, 12345678901234567890123):
        for hand_number in (-1, 0, 1, 9):
            for purpose in (0, 1, 2):
                fast, plain = hand_rng(seed, hand_number, purpose), Rng(seed, hand_number, purpose)
                # hand_state: where that stream starts (the deals draw from it directly)
                assert hand_state(seed, hand_number, purpose) == plain._state
                assert [fast.next64() for _ in range(3)] == [plain.next64() for _ in range(3)]


def test_E8_deal_plan_draws_the_cards_of_draw_cards() -> None:
    """The engine deals with `deal_plan(deck)` (bits straight into hands, written out per
    deck); `draw_cards` is the plain statement of the same draw: five each clockwise from the
    dealer's left, then the turned card, the rest in deck order under it. Every deck, and
    enough seeds that the draws' rejection step is taken (17% of draws for 24 cards)."""
    from bot.engine.euchre.cards import BIT, deal_plan, deck_for, draw_cards

    for size in (24, 28, 32):
        for joker in (False, True):
            deck = deck_for(size, joker)
            plan = deal_plan(deck)
            for seed in range(-20, 300):
                dealer = seed % 4
                drawn, rest = draw_cards(hand_rng(seed, 3), deck, 21)
                hands = [0, 0, 0, 0]
                for k, card in enumerate(drawn[:20]):
                    hands[(dealer + 1 + k // 5) % 4] |= BIT[card]
                assert plan(hand_state(seed, 3), dealer) == (hands, [drawn[20], *rest])
