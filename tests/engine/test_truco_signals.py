"""Truco's sinais (issue 35): a partner's signal is an action in the log that only the sender's
pair ever sees (views, hand histories), on by default, once a hand; bots signal honestly and
their look-ahead deals the partner cards that fit its signal."""

from __future__ import annotations

import random

import pytest

from bot.engine.common import IllegalAction, Rng
from bot.engine.truco import Game, Options, bot_player, new_game, search
from bot.engine.truco.inference import Reading
from bot.engine.truco.signals import SIGNAL_ACTIONS, fits, honest_signal


def _play_some(game: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if game.is_over:
            return
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))


def test_signals_are_on_by_default_and_written_only_when_off() -> None:
    assert Options().signals is True
    assert "signals" not in Options().to_dict()
    assert Options(signals=False).to_dict()["signals"] is False
    assert Options.from_dict({"target": 12}).signals is True


def test_the_opponents_never_see_a_signal() -> None:
    """Every seat's view and hand history, at every step of many games with signals sent: the
    other pair's signal is in no view and no history; the partner's is."""
    rng = random.Random(35)
    checked = 0
    for seed in range(30):
        game = new_game(Options(), seed)
        sent: dict[int, str] = {}
        hand = game.hand_number
        while not game.is_over:
            if game.hand_number != hand:
                hand, sent = game.hand_number, {}
            for seat in range(4):
                if seat not in sent and game.signal_actions(seat) and rng.random() < 0.3:
                    action = rng.choice(game.signal_actions(seat))
                    game.apply(seat, action)
                    sent[seat] = action.split(":")[1]
            for seat in range(4):
                view = game.view(seat)
                history = game.hand_history(seat)
                for other, kind in sent.items():
                    seen = ("signal:" + kind) in {a for s, a in history if s == other}
                    if other % 2 == seat % 2:
                        mine = "mine" if other == seat else "partner"
                        assert view["signals"][mine] == kind
                        assert seen
                    else:
                        assert not seen
                        checked += 1
                # The view's signals are exactly the pair's own.
                assert view["signals"]["mine"] == sent.get(seat)
                assert view["signals"]["partner"] == sent.get((seat + 2) % 4)
            assert game.view(None)["signals"] is None
            seat = game.to_act[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert checked > 100


def test_a_signal_is_once_a_hand_and_not_in_a_table_without_signals() -> None:
    game = new_game(Options(), 3)
    seat = game.to_act[0]
    game.apply(seat, "signal:zap")  # a person may say what he likes
    assert game.signal_actions(seat) == []
    with pytest.raises(IllegalAction):
        game.apply(seat, "signal:copas")
    # Out of turn is fine: another seat signals while `seat` is to play.
    other = (seat + 1) % 4
    game.apply(other, "signal:none")
    assert game.to_act == [seat]
    off = new_game(Options(signals=False), 3)
    assert off.signal_actions(off.to_act[0]) == []
    with pytest.raises(IllegalAction):
        off.apply(off.to_act[0], "signal:zap")


def test_a_restored_game_keeps_its_signals() -> None:
    game = new_game(Options(), 8)
    seat = game.to_act[0]
    game.apply((seat + 2) % 4, "signal:three")
    replayed = Game.replay(game.options, game.seed, game.first_dealer, list(game.actions))
    assert replayed.view(seat)["signals"]["partner"] == "three"
    assert replayed == game


def test_bots_signal_the_truth() -> None:
    assert honest_signal(["4C", "3H", "5D"]) == "zap"
    assert honest_signal(["7D", "3H", "AS"]) == "espada"
    assert honest_signal(["3H", "2D", "KC"]) == "three"
    assert honest_signal(["2H", "2D", "KC"]) == "none"
    rng = random.Random(1)
    for seed in range(40):
        game = new_game(Options(), seed)
        _play_some(game, rng, rng.randrange(3))
        if game.is_over or game.phase != "play":
            continue
        seat = game.to_act[0]
        view = game.view(seat)
        action = bot_player.signal_to_send(view)
        assert action in SIGNAL_ACTIONS
        assert fits(action.split(":")[1], view["hand"])


def test_the_search_deals_the_partner_what_he_signalled() -> None:
    """After the partner's zap signal, every sampled deal gives the partner the zap."""
    for seed in range(20):
        game = new_game(Options(), seed)
        seat = game.to_act[0]
        partner = (seat + 2) % 4
        if "4C" in game.view(seat)["hand"]:
            continue
        game.apply(partner, "signal:zap")
        view, history = game.view(seat), game.hand_history(seat)
        reading = Reading(view, history)
        known, _played, pool, hidden = search._unseen(view, history)
        rng = Rng(seed)
        for _ in range(30):
            hands, faces = search._deal(known, view["hand_sizes"], pool, rng, hidden)
            reading.place_signalled(hands, faces, set(pool), rng)
            assert "4C" in hands[partner]
            dealt = [c for h in hands for c in h]
            assert len(dealt) == len(set(dealt))  # the swap deals no card twice
        # And the look-ahead itself runs on such a history.
        assert search.choose(view, history, 50, seed) in view["legal_actions"]
