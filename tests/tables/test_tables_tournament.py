"""The progressive euchre tournament as a value (issue 23): joining, bots filling the field,
the schedule, rounds that end when their tables report, individual totals with the stated
tie-break, a leaver replaced by a bot, and the same state from a replayed action log."""

from __future__ import annotations

import pytest

from bot.tables.rotation import progressive_schedule
from bot.tables.tournament import Tournament, TournamentConfig, TournamentError


def night(players: int, rounds: int = 3, hands: int = 1) -> Tournament:
    tournament = Tournament(TournamentConfig(rounds=rounds, hands=hands))
    for user in range(1, players + 1):
        tournament.apply(f"join:{100 + user}:P{user}")
    return tournament


def test_bots_fill_the_field_to_a_multiple_of_four_and_the_schedule_is_fixed() -> None:
    tournament = night(11)
    assert tournament.apply("start") == ["round_started:0"]
    assert len(tournament.places) == 12 and tournament.table_count == 3
    assert [p.name for p in tournament.places if p.is_bot] == ["Bot 12"]
    assert tournament.schedule == progressive_schedule(12, 3)
    assert tournament.tables_to_open() == [0, 1, 2]
    with pytest.raises(TournamentError):
        tournament.apply("join:999:Late")


def test_rounds_end_when_every_table_reports_and_totals_are_individual() -> None:
    tournament = night(12)
    tournament.apply("start")
    for table in range(3):
        tournament.apply(f"open:0:{table}:{50 + table}")
    assert tournament.tables_to_open() == []
    assert tournament.apply("result:0:0:1:0") == []
    assert tournament.apply("result:0:1:0:2") == []
    assert tournament.apply("result:0:2:4:0") == ["round_over:0", "round_started:1"]
    assert tournament.round == 1 and tournament.tables_to_open() == [0, 1, 2]
    with pytest.raises(TournamentError):
        tournament.apply("result:0:0:1:0")  # a round that is over
    table = tournament.schedule[0].tables[2]
    best = {s.place.number: s for s in tournament.standings()}
    for player in table.north_south:
        assert best[player].points == 4 and best[player].rounds_won == 1
    for player in table.east_west:
        assert best[player].points == 0 and best[player].conceded == 4
    for round_number in (1, 2):
        for t in range(3):
            tournament.apply(f"open:{round_number}:{t}:{60 + t}")
            events = tournament.apply(f"result:{round_number}:{t}:1:2")
    assert events == ["round_over:2", "finished"] and tournament.status == "finished"


def test_ties_go_to_rounds_won_then_fewer_points_conceded_then_the_earlier_to_join() -> None:
    tournament = night(4, rounds=3)
    tournament.apply("start")
    # One table each round; partnerships change. Scores chosen so two players tie on points.
    scores = [(2, 1), (1, 2), (2, 2)]
    for round_number, (ns, ew) in enumerate(scores):
        tournament.apply(f"open:{round_number}:0:{round_number + 1}")
        tournament.apply(f"result:{round_number}:0:{ns}:{ew}")
    standings = tournament.standings()
    keys = [(s.points, s.rounds_won, -s.conceded, -s.place.number) for s in standings]
    assert keys == sorted(keys, reverse=True)
    assert [s.rank for s in standings] == [1, 2, 3, 4]


def test_a_player_who_leaves_is_replaced_by_a_bot_and_the_log_replays_the_same_state() -> None:
    tournament = night(8, rounds=2)
    tournament.apply("leave:108")  # in the lobby: simply gone
    tournament.apply("join:108:P8 again")
    tournament.apply("start")
    tournament.apply("open:0:0:7")
    tournament.apply("leave:103")  # after the start: a bot plays P3's place
    place = tournament.places[2]
    assert place.left and place.is_bot and place.user_id == 103
    assert tournament.schedule == progressive_schedule(8, 2)  # the schedule stands
    with pytest.raises(TournamentError):
        tournament.apply("leave:103")
    replayed = Tournament.replay(tournament.config, list(tournament.actions))
    assert replayed == tournament


@pytest.mark.parametrize(
    "action", ["nope", "open:0:9:1", "result:0:0:1", "join:x:Bad", "result:1:0:1:1"]
)
def test_a_refused_action_changes_nothing(action: str) -> None:
    tournament = night(4)
    tournament.apply("start")
    before = Tournament.replay(tournament.config, list(tournament.actions))
    with pytest.raises(TournamentError):
        tournament.apply(action)
    assert tournament == before


def test_the_config_is_checked() -> None:
    for rounds, hands in ((0, 1), (3, 0), (13, 1), (3, 13)):
        with pytest.raises(TournamentError):
            TournamentConfig(rounds=rounds, hands=hands)
    with pytest.raises(TournamentError):  # no such format (pairs formats: their own tests)
        TournamentConfig(rounds=3, hands=2, format="swiss")
    with pytest.raises(TournamentError):  # progressive nights are euchre
        TournamentConfig(rounds=3, hands=2, game="truco")


def test_a_rounds_timer_start_is_stored_once_and_replays_after_a_restart() -> None:
    tournament = night(8)
    with pytest.raises(TournamentError):
        tournament.apply("clock:0:1000")  # not started
    tournament.apply("start")
    with pytest.raises(TournamentError):
        tournament.apply("clock:1:1000")  # not the round being played
    tournament.apply("clock:0:1000")
    with pytest.raises(TournamentError):
        tournament.apply("clock:0:2000")  # a restart does not move the deadline
    restarted = Tournament.replay(tournament.config, list(tournament.actions))
    assert restarted.round_started == {0: 1000}
