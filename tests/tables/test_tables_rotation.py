"""Tournament pairings (issue 23): progressive euchre's partner rotation, round robin, knockout."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tables.rotation import (
    Round,
    knockout_first_round,
    knockout_next_round,
    progressive_schedule,
    round_robin,
)


def fresh_rounds(players: int) -> int:
    """How many rounds can give everyone a new partner each round, at least: the circle method's
    n - 1 with a multiple of four, n with one player out, and n - 2 otherwise (our search)."""
    return {0: players - 1, 1: players}.get(players % 4, players - 2)


def partnerships(schedule: list[Round]) -> list[tuple[int, int]]:
    return [
        tuple(sorted(pair))
        for played in schedule
        for table in played.tables
        for pair in (table.north_south, table.east_west)
    ]


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_nobody_partners_anyone_twice_and_sit_outs_stay_even(data: st.DataObject) -> None:
    players = data.draw(st.integers(8, 40), label="players")
    rounds = data.draw(st.integers(1, fresh_rounds(players)), label="rounds")
    schedule = progressive_schedule(players, rounds)
    assert len(schedule) == rounds
    for played in schedule:
        seated = [p for table in played.tables for p in table.players] + list(played.sitting_out)
        assert sorted(seated) == list(range(players))  # everyone once: at a table or out
        assert len(played.sitting_out) == players % 4
    pairs = partnerships(schedule)
    assert len(pairs) == len(set(pairs)), Counter(pairs).most_common(3)
    sat_out = [sum(p in played.sitting_out for played in schedule) for p in range(players)]
    assert max(sat_out) - min(sat_out) <= 1


def test_every_size_from_8_to_40_rotates_fully_for_a_game_night() -> None:
    for players in range(8, 41):
        schedule = progressive_schedule(players, min(8, fresh_rounds(players)))
        pairs = partnerships(schedule)
        assert len(pairs) == len(set(pairs)), players
        sat_out = Counter(p for played in schedule for p in played.sitting_out)
        counts = [sat_out[p] for p in range(players)]
        assert max(counts) - min(counts) <= 1, players


def test_a_night_longer_than_the_rotation_still_seats_everyone_and_says_so() -> None:
    # 8 players have 7 rounds of new partners; an 8th round must repeat some partnership.
    schedule = progressive_schedule(8, 8)
    pairs = partnerships(schedule)
    assert len(pairs) > len(set(pairs))
    assert all(len(played.tables) == 2 for played in schedule)


def test_the_schedule_is_a_pure_function_of_its_numbers() -> None:
    # A restored tournament recomputes it: the same numbers, the same night.
    assert progressive_schedule(14, 5) == progressive_schedule(14, 5)
    assert progressive_schedule(14, 3) == progressive_schedule(14, 5)[:3]


def test_round_robin_meets_every_other_team_once() -> None:
    for teams in range(2, 13):
        rounds = round_robin(teams)
        matches = [pair for played in rounds for pair in played]
        assert sorted(matches) == [(a, b) for a in range(teams) for b in range(a + 1, teams)]
        for played in rounds:
            playing = [team for pair in played for team in pair]
            assert len(playing) == len(set(playing))  # nobody twice in a round


def test_knockout_gives_byes_to_the_best_seeds_and_keeps_them_apart() -> None:
    assert knockout_first_round(4) == [(0, 3), (1, 2)]
    slots = knockout_first_round(6)
    assert sorted(team for team, other in slots if other is None) == [0, 1]
    assert sorted(t for slot in slots for t in slot if t is not None) == list(range(6))
    # Seeds 0 and 1 are in different halves: they can meet only in the final.
    half = len(slots) // 2
    assert 0 in {t for slot in slots[:half] for t in slot} ^ {
        t for slot in slots[half:] for t in slot
    }
    assert knockout_next_round([0, 2, 1, 5]) == [(0, 2), (1, 5)]
