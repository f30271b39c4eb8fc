"""Knockout and round robin for pairs (issue 23) as a value: pairs in join order, a bot partner
for an odd last person, byes to the best seeds, winners advancing in bracket order, every pair
meeting every other, the stated tie-breaks, the tables' options, a leaver replaced by a bot and
the same state from a replayed log."""

from __future__ import annotations

import pytest

from bot.tables.rotation import Table
from bot.tables.tournament import Tournament, TournamentConfig, TournamentError
from bot.tables.tournament_pairs import team_of_place


def pairs(fmt: str, people: int, game: str = "euchre", best_of: int = 1) -> Tournament:
    tournament = Tournament(TournamentConfig(0, 0, format=fmt, game=game, best_of=best_of))
    for user in range(1, people + 1):
        tournament.apply(f"join:{100 + user}:P{user}")
    tournament.apply("start")
    return tournament


def teams_at(tournament: Tournament, rnd: int) -> list[tuple[int, int]]:
    return [
        (team_of_place(m.north_south[0]), team_of_place(m.east_west[0]))
        for m in tournament.schedule[rnd].tables
    ]


def win(tournament: Tournament, rnd: int, table: int, north_south: bool) -> list[str]:
    return tournament.apply(
        f"result:{rnd}:{table}:{10 if north_south else 4}:{4 if north_south else 10}"
    )


def test_pairs_form_in_join_order_and_a_bot_partners_the_odd_last_person() -> None:
    tournament = pairs("knockout", 5)
    assert len(tournament.places) == 6 and tournament.team_count == 3
    assert [p.is_bot for p in tournament.places] == [False] * 5 + [True]
    # Partners sit opposite: pair 1 (places 2 and 3) in seats 0 and 2.
    assert tournament.schedule[0].tables[0] == Table((2, 3), (4, 5))
    assert [p.number for p in tournament.seats(0, 0)] == [2, 4, 3, 5]
    lone = pairs("round_robin", 1)
    assert lone.team_count == 2 and [p.is_bot for p in lone.places] == [False, True, True, True]


def test_knockout_of_three_pairs_gives_the_top_seed_a_bye_and_the_winner_meets_it() -> None:
    tournament = pairs("knockout", 6)
    assert tournament.total_rounds == 2 and tournament.table_count == 1
    assert tournament.schedule[0].sitting_out == (0, 1)  # pair 0, the first seed: a bye
    assert teams_at(tournament, 0) == [(1, 2)]
    assert win(tournament, 0, 0, north_south=False) == ["round_over:0", "round_started:1"]
    assert teams_at(tournament, 1) == [(0, 2)]  # the bye's pair meets the winner
    assert win(tournament, 1, 0, north_south=False) == ["round_over:1", "finished"]
    standings = tournament.pair_standings()
    assert [(s.team, s.rank, s.out_in) for s in standings] == [(2, 1, None), (0, 2, 1), (1, 3, 0)]
    assert standings[0].by_round == (1, 1) and standings[1].by_round == (None, 0)
    assert tournament.played_out


def test_knockout_of_six_pairs_byes_to_seeds_one_and_two_winners_advance_in_bracket_order() -> None:
    tournament = pairs("knockout", 12)
    assert tournament.total_rounds == 3
    assert tournament.schedule[0].sitting_out == (0, 1, 2, 3)  # pairs 0 and 1
    # Bracket of eight: [0 bye] [3 v 4] [1 bye] [2 v 5]; seeds 0 and 1 meet only in the final.
    assert teams_at(tournament, 0) == [(3, 4), (2, 5)]
    win(tournament, 0, 0, north_south=True)  # pair 3 beats pair 4
    win(tournament, 0, 1, north_south=False)  # pair 5 beats pair 2
    assert teams_at(tournament, 1) == [(0, 3), (1, 5)]  # the winners, in bracket order
    win(tournament, 1, 0, north_south=True)
    win(tournament, 1, 1, north_south=True)
    assert teams_at(tournament, 2) == [(0, 1)]
    win(tournament, 2, 0, north_south=False)
    # Pairs out in the same round rank by seed: 3 before 5, then 2 before 4.
    assert [s.team for s in tournament.pair_standings()] == [1, 0, 3, 5, 2, 4]


def test_a_tied_short_game_goes_to_the_better_seed() -> None:
    tournament = Tournament(TournamentConfig(0, 1, format="knockout"))
    for user in range(4):
        tournament.apply(f"join:{user + 1}:P{user + 1}")
    tournament.apply("start")
    assert tournament.config.table_options() == {"hands": 1}
    assert teams_at(tournament, 0) == [(0, 1)]
    tournament.apply("result:0:0:1:1")
    assert tournament.pair_standings()[0].team == 0 and tournament.status == "finished"


def test_round_robin_every_pair_meets_every_other_and_one_rests_when_odd() -> None:
    tournament = pairs("round_robin", 10)
    assert tournament.team_count == 5 and tournament.total_rounds == 5
    met = [frozenset(m) for rnd in range(5) for m in teams_at(tournament, rnd)]
    assert len(met) == 10 and len(set(met)) == 10
    assert all(len(tournament.schedule[r].sitting_out) == 2 for r in range(5))


def test_round_robin_standings_by_matches_won_then_head_to_head_then_seed() -> None:
    tournament = pairs("round_robin", 8)  # four pairs, three rounds of two matches
    # Pair 3 wins everything; 0, 1 and 2 beat each other in a circle (one win each) except
    # that 2 beat 1 and 1 beat 0 and 0 beat 2: all level, a circle, so the seed decides.
    beats = {(3, 0), (3, 1), (3, 2), (1, 0), (2, 1), (0, 2)}
    for rnd in range(3):
        for table, (a, b) in enumerate(teams_at(tournament, rnd)):
            win(tournament, rnd, table, north_south=(a, b) in beats)
    assert [(s.team, s.won) for s in tournament.pair_standings()] == [
        (3, 3),
        (0, 1),
        (1, 1),
        (2, 1),
    ]
    # Head to head first: two pairs level, the one that beat the other goes ahead of the seed.
    second = pairs("round_robin", 8)
    beats = {(3, 0), (3, 1), (0, 2), (1, 2), (2, 3), (1, 0)}  # 3: 2 wins, 1: 2 wins, 1 lost to 3
    for rnd in range(3):
        for table, (a, b) in enumerate(teams_at(second, rnd)):
            win(second, rnd, table, north_south=(a, b) in beats)
    order = [(s.team, s.won) for s in second.pair_standings()]
    assert order[:2] == [(3, 2), (1, 2)] and second.played_out


@pytest.mark.parametrize(
    ("game", "best_of", "options"),
    [("truco", 3, {"match": 3}), ("truco", 1, {}), ("euchre", 3, {"match": "rubber"})],
)
def test_the_tables_play_the_chosen_match(
    game: str, best_of: int, options: dict[str, object]
) -> None:
    config = TournamentConfig(0, 0, format="knockout", game=game, best_of=best_of)
    assert config.table_options() == options
    assert TournamentConfig.from_dict(config.to_dict()) == config


def test_the_pairs_config_is_checked() -> None:
    for kwargs in (
        {"best_of": 2},
        {"game": "poker"},
        {"game": "truco", "hands": 2},  # short games are euchre's
        {"best_of": 3, "hands": 2},  # not in a rubber
        {"hands": 13},
    ):
        with pytest.raises(TournamentError):
            TournamentConfig(**{"rounds": 0, "hands": 0, "format": "round_robin", **kwargs})  # type: ignore[arg-type]
    # Old stored progressive configs read back the same.
    assert TournamentConfig.from_dict({"rounds": 2, "hands": 1}) == TournamentConfig(2, 1)


def test_a_pair_member_who_leaves_is_replaced_by_a_bot_and_the_log_replays() -> None:
    tournament = pairs("knockout", 6, game="truco", best_of=3)
    tournament.apply("open:0:0:77")
    tournament.apply("leave:104")  # P4: pair 1, in the first match
    assert tournament.places[3].is_bot and tournament.seats(0, 0)[2].left
    win(tournament, 0, 0, north_south=True)
    replayed = Tournament.replay(tournament.config, list(tournament.actions))
    assert replayed == tournament and teams_at(replayed, 1) == [(0, 1)]
    with pytest.raises(TournamentError):
        tournament.apply("result:0:0:1:0")  # that round is over
