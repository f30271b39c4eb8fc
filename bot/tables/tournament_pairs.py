"""Knockout and round-robin tournaments for pairs (issue 23): who meets whom, who advances, and
the standings. Pure functions of the field and the results (no clock, no randomness), so a
tournament replayed from its action log after a restart finds the same rounds.

Pairs are formed in join order: the first two to join are pair 1, the next two pair 2, and so
on; a bot partners the last person when the count is odd (and a pair of bots plays when only
one pair joined). Pair k holds places 2k and 2k + 1 and sits north-south or east-west at its
table, the partners opposite each other. Seeds are the join order: pair 1 is the first seed.

- Knockout: the bracket is the next power of two; the best seeds get the byes
  (rotation.knockout_first_round), winners advance in bracket order.
- Round robin: every pair meets every other once (rotation.round_robin); with an odd count one
  pair rests each round.

A match's result is the two pairs' scores of its final game; the higher wins. A tie (only a
short euchre game of a fixed number of hands can tie) goes to the better seed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from bot.tables.rotation import Round, Table, knockout_first_round, knockout_next_round, round_robin

FORMAT_KNOCKOUT: Final = "knockout"
FORMAT_ROUND_ROBIN: Final = "round_robin"
PAIR_FORMATS: Final = (FORMAT_KNOCKOUT, FORMAT_ROUND_ROBIN)
TIE_BREAK_ROUND_ROBIN: Final = (
    "matches won, then the matches won between the pairs level on that, then the better seed"
)
TIE_BREAK_KNOCKOUT: Final = "the further a pair went, then the better seed"

Results = Mapping[tuple[int, int], tuple[int, int]]


def team_places(team: int) -> tuple[int, int]:
    return 2 * team, 2 * team + 1


def team_of_place(place: int) -> int:
    return place // 2


def _match(a: int, b: int) -> Table:
    return Table(team_places(a), team_places(b))


def _resting(teams: Sequence[int]) -> tuple[int, ...]:
    return tuple(p for team in sorted(teams) for p in team_places(team))


def total_rounds(fmt: str, team_count: int) -> int:
    if fmt == FORMAT_ROUND_ROBIN:
        return len(round_robin(team_count))
    rounds, size = 0, 1
    while size < team_count:
        size, rounds = size * 2, rounds + 1
    return rounds


def first_rounds(fmt: str, team_count: int) -> list[Round]:
    """The rounds known at the start: every round of a round robin, a knockout's first."""
    if fmt == FORMAT_ROUND_ROBIN:
        rounds = []
        for matches in round_robin(team_count):
            playing = {t for pair in matches for t in pair}
            rest = [t for t in range(team_count) if t not in playing]
            rounds.append(Round(tuple(_match(a, b) for a, b in matches), _resting(rest)))
        return rounds
    entries = knockout_first_round(team_count)
    tables = tuple(_match(a, b) for a, b in entries if b is not None)
    byes = [a for a, b in entries if b is None]
    return [Round(tables, _resting(byes))]


def match_winner(table: Table, scores: tuple[int, int]) -> int:
    """The pair that won the table's match (a tie: the better seed, the lower number)."""
    ns, ew = team_of_place(table.north_south[0]), team_of_place(table.east_west[0])
    if scores[0] != scores[1]:
        return ns if scores[0] > scores[1] else ew
    return min(ns, ew)


def _advancing(team_count: int, schedule: Sequence[Round], rnd: int, results: Results) -> list[int]:
    """The pairs that go on from knockout round `rnd`, in bracket order."""
    winners = [
        match_winner(table, results[(rnd, number)])
        for number, table in enumerate(schedule[rnd].tables)
    ]
    if rnd > 0:
        return winners
    advancing, played = [], iter(winners)
    for team, opponent in knockout_first_round(team_count):
        advancing.append(team if opponent is None else next(played))
    return advancing


def next_knockout_round(
    team_count: int, schedule: Sequence[Round], rnd: int, results: Results
) -> Round:
    """Knockout round `rnd + 1` once every match of round `rnd` has its result."""
    advancing = _advancing(team_count, schedule, rnd, results)
    return Round(tuple(_match(a, b) for a, b in knockout_next_round(advancing)))


@dataclass(frozen=True)
class PairStanding:
    team: int  # 0-based; the seed is team + 1
    played: int
    won: int
    by_round: tuple[int | None, ...]  # per round: 1 won, 0 lost, None a bye, a rest or not yet
    out_in: int | None  # knockout: the round the pair lost (None: still in, or the champion)
    rank: int


def pair_standings(
    fmt: str, team_count: int, schedule: Sequence[Round], results: Results
) -> list[PairStanding]:
    """Every pair, best first, by the format's stated tie-break (it always decides)."""
    rounds = sorted({r for r, _ in results})
    won = [0] * team_count
    played = [0] * team_count
    out_in: list[int | None] = [None] * team_count
    by_round: list[list[int | None]] = [[None] * len(rounds) for _ in range(team_count)]
    beat: set[tuple[int, int]] = set()
    for (rnd, number), scores in sorted(results.items()):
        table = schedule[rnd].tables[number]
        winner = match_winner(table, scores)
        for team in (team_of_place(table.north_south[0]), team_of_place(table.east_west[0])):
            played[team] += 1
            won[team] += team == winner
            by_round[team][rounds.index(rnd)] = int(team == winner)
            if team != winner:
                out_in[team] = rnd
                beat.add((winner, team))
    if fmt == FORMAT_KNOCKOUT:
        deepest = len(schedule)  # still in (or the champion) beats every pair that went out

        def key(team: int) -> tuple[int, ...]:
            went = out_in[team]
            return (-(deepest if went is None else went), team)

        order = sorted(range(team_count), key=key)
    else:
        order = []
        for level in sorted(set(won), reverse=True):
            group = [t for t in range(team_count) if won[t] == level]
            # Head to head among the pairs level on matches won, then the seed.
            h2h = {t: sum((t, o) in beat for o in group) for t in group}
            order += sorted(group, key=lambda t: (-h2h[t], t))
    return [
        PairStanding(t, played[t], won[t], tuple(by_round[t]), out_in[t], index + 1)
        for index, t in enumerate(order)
    ]
