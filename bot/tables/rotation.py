"""Who plays with whom at a tournament: progressive euchre rounds, round robin and knockout.

Pure functions of their arguments (no clock, no randomness): a stored tournament rebuilds the same
schedule after a restart, and the tests can check every size.

Progressive euchre: players change partners every round; each round seats them four to a table,
two partnerships facing each other. `progressive_schedule` gives nobody a partner twice for as many
rounds as that is possible, and when the count is not a multiple of four (and no bot fills in) the
sit-outs go round in turn: nobody sits out twice before everyone has sat out once.
- a multiple of four: the circle method (one player fixed, the others turning around them), n - 1
  rounds of new partners, all that exist;
- one over: the circle method with an empty chair; whoever faces it sits out: n rounds;
- two or three over: the sit-outs in turn, and a search for new partners among the others
  (n - 2 rounds at least, checked for 8 to 40 players by the tests).
Past those rounds, a search for the partners with the fewest repeats.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

Pair = tuple[int, int]


@dataclass(frozen=True)
class Table:
    """Two partnerships that face each other for one round."""

    north_south: Pair
    east_west: Pair

    @property
    def players(self) -> tuple[int, int, int, int]:
        # Seats in playing order: partners sit opposite (0 and 2, 1 and 3).
        return (self.north_south[0], self.east_west[0], self.north_south[1], self.east_west[1])


@dataclass(frozen=True)
class Round:
    tables: tuple[Table, ...]
    sitting_out: tuple[int, ...] = ()


@dataclass
class History:
    """What earlier rounds did: partners had, opponents met, rounds sat out."""

    partners: set[Pair] = field(default_factory=set)
    opponents: Counter[Pair] = field(default_factory=Counter)
    sat_out: Counter[int] = field(default_factory=Counter)

    @classmethod
    def of(cls, rounds: Iterable[Round]) -> History:
        history = cls()
        for played in rounds:
            history.add(played)
        return history

    def add(self, played: Round) -> None:
        for table in played.tables:
            self.partners.add(_pair(*table.north_south))
            self.partners.add(_pair(*table.east_west))
            for a in table.north_south:
                for b in table.east_west:
                    self.opponents[_pair(a, b)] += 1
        for player in played.sitting_out:
            self.sat_out[player] += 1


def _pair(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


def progressive_schedule(player_count: int, rounds: int) -> list[Round]:
    """Every round of a progressive euchre night for players 0 .. player_count - 1.

    A pure function of its two numbers: a tournament restored after a restart (or a player
    replaced by a bot, who takes the player's number) recomputes the same schedule."""
    if player_count < 4:
        raise ValueError("a progressive round needs at least four players")
    schedule: list[Round] = []
    history = History()
    for number in range(rounds):
        sitting_out: tuple[int, ...]
        if player_count % 4 == 0 and number < player_count - 1:
            matching, sitting_out = _circle_matching(player_count, number), ()
        elif player_count % 4 == 1 and number < player_count:
            matching, sitting_out = _chair_round(player_count, number)
        else:
            sitting_out = _in_turn(player_count, number)
            playing = [p for p in range(player_count) if p not in sitting_out]
            matching = _fresh_matching(playing, history.partners, number)
        played = Round(_tables(matching, history), sitting_out)
        history.add(played)
        schedule.append(played)
    return schedule


def _chair_round(n: int, number: int) -> tuple[list[Pair], tuple[int, ...]]:
    """The circle method over n players and an empty chair: whoever faces the chair (player r in
    round r) sits out, everyone once in n rounds, and every partnership is new."""
    pairs = _circle_matching(n + 1, number)
    chair = next(pair for pair in pairs if n in pair)
    pairs.remove(chair)
    return pairs, (chair[0],)


def _in_turn(n: int, number: int) -> tuple[int, ...]:
    """Who sits out, in turn: blocks of n % 4 players walking round the list, so nobody sits out
    a second time before everyone has sat out once."""
    out_count = n % 4
    return tuple(sorted((number * out_count + i) % n for i in range(out_count)))


def _circle_matching(n: int, number: int) -> list[Pair]:
    """Round `number` of the circle method: player n-1 stays, the others turn one step a round."""
    turning = n - 1
    pairs = [_pair(n - 1, number % turning)]
    for step in range(1, n // 2):
        a = (number + step) % turning
        b = (number - step) % turning
        pairs.append(_pair(a, b))
    return pairs


def _fresh_matching(playing: Sequence[int], used: set[Pair], number: int) -> list[Pair]:
    """Partners for everyone playing, using no pair in `used` if that can be done; else as few
    repeats as the search finds (a night longer than the players can rotate through)."""
    for allowed_repeats in (0, 1, 2, len(playing)):
        found = _search(list(playing), used, number, allowed_repeats, budget=[20_000])
        if found is not None:
            return found
    raise AssertionError("unreachable: with any number of repeats a matching exists")


def _search(
    left: list[int], used: set[Pair], number: int, repeats: int, budget: list[int]
) -> list[Pair] | None:
    if not left:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        return None
    # The player with the fewest fresh partners left goes first (fail early, not late).
    fresh = {p: sum(q != p and _pair(p, q) not in used for q in left) for p in left}
    first = min(left, key=lambda p: (fresh[p], (p - number) % 997))
    rest = [p for p in left if p != first]
    # Fresh partners first, the most constrained of them first; rotated by round so they spread.
    candidates = sorted(rest, key=lambda c: (_pair(first, c) in used, fresh[c], (c + number) % 997))
    for partner in candidates:
        repeat = _pair(first, partner) in used
        if repeat and repeats == 0:
            break
        remaining = [p for p in rest if p != partner]
        found = _search(remaining, used, number, repeats - repeat, budget)
        if found is not None:
            return [_pair(first, partner), *found]
    return None


def _tables(matching: list[Pair], history: History) -> tuple[Table, ...]:
    """Partnerships two by two, each facing the partnership it has met least."""
    pairs = sorted(matching)
    tables: list[Table] = []
    while pairs:
        first = pairs.pop(0)
        met = [sum(history.opponents[_pair(a, b)] for a in first for b in other) for other in pairs]
        other = pairs.pop(met.index(min(met)))
        tables.append(Table(first, other))
    return tuple(tables)


# --- pairs: round robin and knockout -----------------------------------------------------------


def round_robin(team_count: int) -> list[list[Pair]]:
    """Every team meets every other once: team_count - 1 rounds (team_count rounds when odd, one
    team resting each round, shown as no match)."""
    if team_count < 2:
        raise ValueError("a round robin needs two teams")
    n = team_count + team_count % 2  # a rest day stands in for the missing team
    rounds = []
    for number in range(n - 1):
        matches = [
            pair
            for pair in _circle_matching(n, number)
            if pair[1] < team_count  # the pair with the rest day is no match
        ]
        rounds.append(sorted(matches))
    return rounds


def knockout_first_round(team_count: int) -> list[tuple[int, int | None]]:
    """The seeded first round in bracket order: (team, opponent), or (team, None) for a bye. The
    bracket size is the next power of two; the best seeds (lowest numbers) get the byes, and seeds
    0 and 1 can meet only in the final. The winners, in this order, play the next round."""
    if team_count < 2:
        raise ValueError("a knockout needs two teams")
    size = 1
    while size < team_count:
        size *= 2
    order = _bracket_order(size)
    return [
        (order[i], order[i + 1] if order[i + 1] < team_count else None) for i in range(0, size, 2)
    ]


def _bracket_order(size: int) -> list[int]:
    """Seeds in bracket positions: 0 v size-1, and each half mirrors (standard seeding)."""
    order = [0]
    while len(order) < size:
        total = len(order) * 2 - 1
        order = [x for seed in order for x in (seed, total - seed)]
    return order


def knockout_next_round(advancing: Sequence[int]) -> list[Pair]:
    """The next round from the teams advancing, in bracket order (winner of match 1 meets the winner
    of match 2, and so on)."""
    if len(advancing) % 2:
        raise ValueError("a knockout round needs an even number of teams")
    return [(advancing[i], advancing[i + 1]) for i in range(0, len(advancing), 2)]
