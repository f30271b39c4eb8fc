"""A progressive euchre night played on paper (test helper, no tests here): every table of every
round reports scores drawn from a seeded generator, as the tables would."""

from __future__ import annotations

import random

from bot.tables.tournament import Tournament, TournamentConfig

NAMES = ("Ana", "Bia", "Caio", "Duda", "Edu", "Fábio", "Gabi", "Hugo", "Iara", "João", "Kátia")


def paper_night(rounds_played: int, seed: int = 23, rounds: int = 3, hands: int = 2) -> Tournament:
    """Eleven people (a bot fills the twelfth place) through `rounds_played` rounds."""
    rng = random.Random(seed)
    tournament = Tournament(TournamentConfig(rounds=rounds, hands=hands))
    for number, name in enumerate(NAMES):
        tournament.apply(f"join:{1000 + number}:{name}")
    tournament.apply("start")
    for round_number in range(rounds_played):
        for table in range(tournament.table_count):
            tournament.apply(f"open:{round_number}:{table}:{100 + round_number * 10 + table}")
            ns = rng.randint(0, 2 * hands)
            ew = rng.randint(0, 2 * hands)
            tournament.apply(f"result:{round_number}:{table}:{ns}:{ew}")
    return tournament
