"""Counted words read right for one and for many (1 round of 1 hand, 1 mistake, 1 hand), in
English and another catalog; a review names a euchre call as players say it ("call clubs"),
with the suit's name, never the engine's letter."""

from __future__ import annotations

import dataclasses

from bot.tables.review import Decision, OptionValue, Review, judge
from bot.tables.tournament import Tournament, TournamentConfig
from bot.ui.after_game.replay import record_result
from bot.ui.after_game.review import counts_text, decision_line
from bot.ui.tournament.standings import joined_text, started_text, subtitle_text
from bot.ui.words.moves import move_text
from tests.support.bad_moves import euchre_decision_in
from tests.support.tournaments import paper_night


def one_round_of_one_hand() -> Tournament:
    night = Tournament(TournamentConfig(rounds=1, hands=1))
    night.apply("join:1000:Ana")
    return night


def test_a_tournament_subtitle_says_one_round_of_one_hand_and_many_rounds_of_hands() -> None:
    night = one_round_of_one_hand()
    assert subtitle_text(night) == "1 player · 1 round of 1 hand · new partners each round"
    assert subtitle_text(night, "pt-BR") == (
        "1 jogador · 1 rodada de 1 mão · parceiro novo a cada rodada"
    )
    assert joined_text(night) == "You're in! 1 player so far."
    many = paper_night(0, rounds=3, hands=2)
    assert subtitle_text(many) == "12 players · 3 rounds of 2 hands · new partners each round"
    assert subtitle_text(many, "pt-BR") == (
        "12 jogadores · 3 rodadas de 2 mãos · parceiro novo a cada rodada"
    )


def test_the_start_of_a_night_counts_its_places_bots_tables_and_rounds() -> None:
    night = one_round_of_one_hand()
    night.apply("start")  # three bots fill the one table
    assert started_text(night).startswith("The night begins! 4 places (3 bots), 1 table, 1 round.")
    assert started_text(night, "fr").startswith(
        "La soirée commence ! 4 places (3 bots), 1 table, 1 tour."
    )
    many = paper_night(0)  # eleven people and one bot at three tables
    assert started_text(many).startswith("The night begins! 12 places (1 bot), 3 tables, 3 rounds.")


def decision(verdict: str | None, chosen: str = "play:JH", best: str = "play:JH") -> Decision:
    options = [OptionValue(best, 1.0), OptionValue(chosen, 0.0)] if chosen != best else []
    loss = 1.0 if verdict else 0.0
    return Decision(0, 0, 0, chosen, options, loss, verdict)


def test_a_review_summary_counts_one_mistake_and_one_blunder() -> None:
    one_each = Review("euchre", 0, [decision(None), decision("mistake"), decision("blunder")])
    assert counts_text(one_each, None) == (
        "3 decisions reviewed: 0 inaccuracies, 1 mistake, 1 blunder."
    )
    assert counts_text(one_each, "pt-BR") == (
        "Análise de 3 decisões: 0 imprecisões, 1 erro, 1 erro grave."
    )
    many = Review("euchre", 0, [decision(v) for v in ("mistake", "mistake", "blunder", "blunder")])
    assert counts_text(many, None) == (
        "4 decisions reviewed: 0 inaccuracies, 2 mistakes, 2 blunders."
    )
    assert counts_text(many, "pt-BR") == (
        "Análise de 4 decisões: 0 imprecisões, 2 erros, 2 erros graves."
    )
    single = Review("euchre", 0, [decision("inaccuracy")])
    assert counts_text(single, None) == (
        "1 decision reviewed: 1 inaccuracy, 0 mistakes, 0 blunders."
    )


def test_a_replayed_hand_record_counts_one_hand_and_its_moves() -> None:
    assert record_result((5, 3), 1, 1, None) == "Final score 5–3 · 1 hand · 1 move"
    assert record_result((10, 7), 9, 180, None) == "Final score 10–7 · 9 hands · 180 moves"
    assert record_result((5, 3), 1, 1, "es-ES") == "Resultado final 5–3 · 1 mano · 1 jugada"
    assert record_result((10, 7), 9, 180, "es-ES") == (
        "Resultado final 10–7 · 9 manos · 180 jugadas"
    )


def test_a_review_line_names_a_euchre_call_with_the_suits_name() -> None:
    called = decision("mistake", chosen="pass", best="call:C")
    line = decision_line(1, called, "euchre", None)
    assert line == ("**1.** Hand 1: you chose pass — mistake (−100); the bot preferred call clubs")
    assert "call C" not in line
    in_portuguese = decision_line(1, called, "euchre", "pt-BR")
    assert in_portuguese.endswith("o bot preferia chamar paus de trunfo")
    alone = decision("blunder", chosen="call:H:alone", best="call:S")
    assert decision_line(2, alone, "euchre", None).endswith(
        "you chose call hearts alone — blunder (−100); the bot preferred call spades"
    )


def test_a_judged_order_is_named_by_where_the_dealer_sits() -> None:
    """The real review pipeline (replay, search) keeps the moment a move was taken, so an order
    in round 1 reads as an order up, an assist or a pick-up, and a round-2 call names its suit."""
    task = euchre_decision_in("bidding1")
    judged = judge(dataclasses.replace(task, iterations=8))
    seat, dealer = task.view["seat"], task.view["dealer"]
    assert (judged.moment["seat"], judged.moment["dealer"]) == (seat, dealer)
    role = "pick it up" if seat == dealer else "assist" if seat % 2 == dealer % 2 else "order up"
    assert move_text("euchre", "order", None, judged.moment) == role
    named = {o.action: move_text("euchre", o.action, None, judged.moment) for o in judged.options}
    assert named["pass"] == "pass" and named["order"] == role

    call = judge(dataclasses.replace(euchre_decision_in("bidding2"), iterations=8))
    names = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    for option in call.options:
        if option.action.startswith("call:"):
            suit = option.action.split(":")[1]
            assert move_text("euchre", option.action, None, call.moment).startswith(
                f"call {names[suit]}"
            )
