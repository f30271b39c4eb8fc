"""A table of a fixed number of hands (a progressive night's round, issue 34): titled "hand 1 of
2", and a round that ends level reads as a tie (the night's standings count it as won by
neither side), never as "Team 2 wins the game 2–2!"."""

from __future__ import annotations

import random

from bot.engine.euchre.game import new_game
from bot.engine.euchre.options import Options
from bot.tables.tournament import Tournament, TournamentConfig
from bot.ui.tournament.standings import standings_text
from bot.ui.words.events import event_sentence
from bot.ui.words.round_words import result_content, result_description, table_title

TIED_SEED = 11  # random legal play of this seed's two hands ends 2–2


def tied_game() -> object:
    game = new_game(Options(hands=2), TIED_SEED)
    rng = random.Random(TIED_SEED)
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


def test_a_round_of_two_hands_is_titled_as_such() -> None:
    game = new_game(Options(hands=2), TIED_SEED)
    assert table_title("Euchre", game.view(None), None) == "Euchre — hand 1 of 2"
    plain = new_game(Options(), TIED_SEED)
    assert table_title("Euchre", plain.view(None), None) == "Euchre — hand 1 · first to 10"


def test_a_level_round_reads_as_a_tie_at_the_table_and_in_the_standings() -> None:
    game = tied_game()
    view = game.view(None)  # type: ignore[attr-defined]
    assert view["scores"] == [2, 2]
    assert result_description(view, "Ana & Cy", None) == (
        "A tie, **2–2** after 2 hands: neither side wins the round."
    )
    assert result_content(view, "Ana & Cy", None) == "Round over — a tie, 2–2."
    [won] = [e for e in game.events if e.kind == "game_won"]  # type: ignore[attr-defined]
    line = event_sentence("euchre", won, str, None, str)
    assert line == "The round ends in a tie, 2–2."
    # The night counts the same: a 2–2 table is a round won by nobody.
    night = Tournament(TournamentConfig(rounds=1, hands=2))
    for number, name in enumerate(("Ana", "Bo", "Cy", "Di")):
        night.apply(f"join:{100 + number}:{name}")
    night.apply("start")
    night.apply("open:0:0:7")
    night.apply("result:0:0:2:2")
    assert all(s.rounds_won == 0 and s.points == 2 for s in night.standings())
    assert "rounds won: 0" in standings_text(night)
