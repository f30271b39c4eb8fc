"""A tournament as a value (issue 23): config + the list of actions taken. Progressive euchre
(below), or a knockout or round robin for pairs (tournament_pairs: pairs and seeds in join
order, byes to the best seeds, the stated tie-breaks; the same actions, and a knockout's next
round is made when a round's last result comes in).

Like a table, its state is a pure function of those, so a stored tournament is rebuilt after a
restart by replaying its action log, and every step goes through one versioned path (the
service appends action number `version` only if it is the next one). No clock, no randomness,
no discord, no SQL.

Actions (short strings, stored as they are):
- `join:<user_id>:<name>` and `leave:<user_id>` -- in the lobby a leaver is gone; once started,
  the leaver's place is taken by a bot (the place keeps its number, so the schedule stands);
- `start` -- bots fill the field to a multiple of four; the schedule is fixed
  (rotation.progressive_schedule over the places);
- `thread:<round>:<table>:<thread_id>` -- the service made that table's thread (a restart
  opens the table in it instead of making another);
- `open:<round>:<table>:<table_id>` -- the service opened that table (in its own thread);
- `result:<round>:<table>:<ns>:<ew>` -- the points each partnership scored in that table's H
  hands; when every table of the round has one, the round is over and the next one begins;
- `posted:<round>` -- the standings after that round were posted (a restart posts the ones
  that were not);
- `end` -- the host ends the tournament early (the standings stand as they are).

Individual totals: a player scores the points of their partnership at each round's table.
Ties are broken by the stated rule `TIE_BREAK`: more rounds won (the partnership outscored the
other at its table), then fewer points conceded, then the earlier to join.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from bot.tables.rotation import Round, progressive_schedule
from bot.tables.tournament_pairs import (
    FORMAT_KNOCKOUT,
    PAIR_FORMATS,
    PairStanding,
    first_rounds,
    next_knockout_round,
    pair_standings,
    total_rounds,
)

FORMAT_PROGRESSIVE: Final = "progressive"
MIN_PLAYERS: Final = 4
MAX_PLAYERS: Final = 40
MAX_ROUNDS: Final = 12
MAX_HANDS: Final = 12
TIE_BREAK: Final = "points, then rounds won, then fewer points conceded, then the earlier to join"


class TournamentError(ValueError):
    """An action the tournament refuses; `key` names the sentence that says why."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


@dataclass(frozen=True)
class TournamentConfig:
    """Progressive euchre: `rounds` of `hands` hands each. Pairs (knockout, round_robin; see
    tournament_pairs): truco or euchre matches of best of `best_of` (1 or 3; euchre's best of 3
    is the rubber, E22); `rounds` is unused (the field decides it) and `hands` is 0, or for a
    euchre best of 1 a short game of that many hands (a tie goes to the better seed)."""

    rounds: int
    hands: int
    format: str = FORMAT_PROGRESSIVE
    game: str = "euchre"
    best_of: int = 1

    def __post_init__(self) -> None:
        if self.format == FORMAT_PROGRESSIVE:
            if self.game != "euchre" or self.best_of != 1:
                raise TournamentError("tournament.error.format")
            if not 1 <= self.rounds <= MAX_ROUNDS or not 1 <= self.hands <= MAX_HANDS:
                raise TournamentError("tournament.error.size")
            return
        if self.format not in PAIR_FORMATS or self.game not in ("euchre", "truco"):
            raise TournamentError("tournament.error.format")
        if self.best_of not in (1, 3):
            raise TournamentError("tournament.error.best_of")
        short_ok = self.game == "euchre" and self.best_of == 1
        if not 0 <= self.hands <= MAX_HANDS or (self.hands and not short_ok):
            raise TournamentError("tournament.error.size")

    @property
    def pairs(self) -> bool:
        return self.format != FORMAT_PROGRESSIVE

    def table_options(self) -> dict[str, Any]:
        """The options of each table the tournament opens."""
        if self.game == "truco":
            return {"match": self.best_of} if self.best_of != 1 else {}
        if self.best_of == 3:
            return {"match": "rubber"}
        return {"hands": self.hands} if self.hands else {}

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"rounds": self.rounds, "hands": self.hands}
        if self.pairs:  # progressive records stay as they were
            out.update(format=self.format, game=self.game, best_of=self.best_of)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> TournamentConfig:
        def number(key: str, default: int) -> int:
            value = data.get(key, default)
            return value if isinstance(value, int) else default

        return cls(
            rounds=number("rounds", 0),
            hands=number("hands", 0),
            format=str(data.get("format", FORMAT_PROGRESSIVE)),
            game=str(data.get("game", "euchre")),
            best_of=number("best_of", 1),
        )


@dataclass
class Place:
    """One place of the field: a person, or a bot (filling in, or playing for a leaver)."""

    number: int
    user_id: int | None
    name: str
    left: bool = False  # the person left after the start: a bot plays this place

    @property
    def is_bot(self) -> bool:
        return self.user_id is None or self.left


@dataclass(frozen=True)
class Standing:
    place: Place
    points: int
    rounds_won: int
    conceded: int
    rank: int


@dataclass
class Tournament:
    config: TournamentConfig
    actions: list[str] = field(default_factory=list)
    places: list[Place] = field(default_factory=list)
    status: str = "lobby"  # lobby, playing, finished
    schedule: list[Round] = field(default_factory=list)
    round: int = 0  # the round being played (0-based) while playing
    threads: dict[tuple[int, int], int] = field(default_factory=dict)  # (round, table) -> thread
    opened: dict[tuple[int, int], int] = field(default_factory=dict)  # (round, table) -> table id
    posted: set[int] = field(default_factory=set)  # rounds whose standings were posted
    results: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    # When each round's timer started (Unix seconds, stored by a "clock" action): a restart
    # keeps the round's deadline instead of counting from the restart.
    round_started: dict[int, int] = field(default_factory=dict)

    @classmethod
    def replay(cls, config: TournamentConfig, actions: list[str]) -> Tournament:
        tournament = cls(config)
        for action in actions:
            tournament.apply(action)
        return tournament

    # --- the one way to change it -----------------------------------------------------------

    def apply(self, action: str) -> list[str]:
        """Apply one action; the events it caused ("round_over:<r>", "finished"). Refused actions
        raise TournamentError and change nothing."""
        kind, _, rest = action.partition(":")
        handler = {
            "join": self._join,
            "leave": self._leave,
            "start": self._start,
            "thread": self._thread,
            "open": self._open,
            "result": self._result,
            "posted": self._posted,
            "clock": self._clock,
            "end": self._end,
        }.get(kind)
        if handler is None:
            raise TournamentError("tournament.error.action")
        events = handler(rest)
        self.actions.append(action)
        return events

    def _join(self, rest: str) -> list[str]:
        user, _, name = rest.partition(":")
        user_id = _number(user)
        if self.status != "lobby":
            raise TournamentError("tournament.error.started")
        if any(p.user_id == user_id for p in self.places):
            raise TournamentError("tournament.error.joined")
        if len(self.places) >= MAX_PLAYERS:
            raise TournamentError("tournament.error.full")
        self.places.append(Place(len(self.places), user_id, name or str(user_id)))
        return []

    def _leave(self, rest: str) -> list[str]:
        user_id = _number(rest)
        place = next((p for p in self.places if p.user_id == user_id and not p.left), None)
        if place is None or self.status == "finished":
            raise TournamentError("tournament.error.not_in")
        if self.status == "lobby":
            self.places.remove(place)
            for number, other in enumerate(self.places):
                other.number = number
        else:
            place.left = True  # a bot plays the place from now on
        return []

    def _start(self, rest: str) -> list[str]:
        if self.status != "lobby":
            raise TournamentError("tournament.error.started")
        if len(self.places) < 1:
            raise TournamentError("tournament.error.too_few")
        # Progressive: bots fill to a multiple of four. Pairs: a bot partners an odd last
        # person, and two pairs at least.
        multiple = 2 if self.config.pairs else 4
        while len(self.places) < MIN_PLAYERS or len(self.places) % multiple:
            number = len(self.places)
            self.places.append(Place(number, None, f"Bot {number + 1}"))
        if self.config.pairs:
            self.schedule = first_rounds(self.config.format, self.team_count)
        else:
            self.schedule = progressive_schedule(len(self.places), self.config.rounds)
        self.status = "playing"
        self.round = 0
        return ["round_started:0"]

    def _thread(self, rest: str) -> list[str]:
        round_number, table, thread_id = (_number(x) for x in _parts(rest, 3))
        self._check_table(round_number, table)
        if (round_number, table) in self.threads:
            raise TournamentError("tournament.error.opened")
        self.threads[(round_number, table)] = thread_id
        return []

    def _posted(self, rest: str) -> list[str]:
        round_number = _number(rest)
        if round_number not in self.rounds_over() or round_number in self.posted:
            raise TournamentError("tournament.error.round")
        self.posted.add(round_number)
        return []

    def _open(self, rest: str) -> list[str]:
        round_number, table, table_id = (_number(x) for x in _parts(rest, 3))
        self._check_table(round_number, table)
        if (round_number, table) in self.opened:
            raise TournamentError("tournament.error.opened")
        self.opened[(round_number, table)] = table_id
        return []

    def _result(self, rest: str) -> list[str]:
        round_number, table, ns, ew = (_number(x) for x in _parts(rest, 4))
        self._check_table(round_number, table)
        if (round_number, table) in self.results:
            raise TournamentError("tournament.error.reported")
        self.results[(round_number, table)] = (ns, ew)
        if any((round_number, t) not in self.results for t in range(self.table_count)):
            return []
        events = [f"round_over:{round_number}"]
        if round_number + 1 == self.total_rounds:
            self.status = "finished"
            return [*events, "finished"]
        if self.config.format == FORMAT_KNOCKOUT:  # the winners meet, in bracket order
            self.schedule.append(
                next_knockout_round(self.team_count, self.schedule, round_number, self.results)
            )
        self.round = round_number + 1
        return [*events, f"round_started:{self.round}"]

    def _clock(self, rest: str) -> list[str]:
        round_number, started = (_number(x) for x in _parts(rest, 2))
        if self.status != "playing" or round_number != self.round:
            raise TournamentError("tournament.error.round")
        if round_number in self.round_started:
            raise TournamentError("tournament.error.round")
        self.round_started[round_number] = started
        return []

    def _end(self, rest: str) -> list[str]:
        if self.status == "finished":
            raise TournamentError("tournament.error.finished")
        self.status = "finished"
        return ["finished"]

    def _check_table(self, round_number: int, table: int) -> None:
        if self.status != "playing" or round_number != self.round:
            raise TournamentError("tournament.error.round")
        if not 0 <= table < self.table_count:
            raise TournamentError("tournament.error.table")

    # --- reading ------------------------------------------------------------------------------

    @property
    def version(self) -> int:
        return len(self.actions)

    @property
    def table_count(self) -> int:
        """The tables of the current round (a knockout's rounds shrink)."""
        return self.tables_in(self.round)

    def tables_in(self, round_number: int) -> int:
        if not 0 <= round_number < len(self.schedule):
            return 0
        return len(self.schedule[round_number].tables)

    @property
    def team_count(self) -> int:
        """Pairs: places 2k and 2k + 1 are pair k (tournament_pairs)."""
        return len(self.places) // 2

    @property
    def total_rounds(self) -> int:
        if not self.config.pairs:
            return self.config.rounds
        if self.status == "lobby":
            return 0
        return total_rounds(self.config.format, self.team_count)

    def seats(self, round_number: int, table: int) -> tuple[Place, Place, Place, Place]:
        """The four places at a round's table, in seat order (partners opposite: 0 & 2, 1 & 3)."""
        a, b, c, d = self.schedule[round_number].tables[table].players
        return self.places[a], self.places[b], self.places[c], self.places[d]

    def tables_to_open(self) -> list[int]:
        """The current round's tables not opened yet (after a restart too)."""
        if self.status != "playing":
            return []
        return [t for t in range(self.table_count) if (self.round, t) not in self.opened]

    def round_points(self) -> list[list[int | None]]:
        """Per place, the points scored in each round reported so far (None: sat out)."""
        played = sorted({r for r, _ in self.results})
        out: list[list[int | None]] = [[None] * len(played) for _ in self.places]
        for (round_number, table), (ns, ew) in self.results.items():
            column = played.index(round_number)
            tables = self.schedule[round_number].tables[table]
            for pair, mine in ((tables.north_south, ns), (tables.east_west, ew)):
                for player in pair:
                    out[player][column] = mine
        return out

    def rounds_over(self) -> list[int]:
        """The rounds every table of which has reported."""
        return [
            r
            for r in range(len(self.schedule))
            if self.tables_in(r) and all((r, t) in self.results for t in range(self.tables_in(r)))
        ]

    @property
    def played_out(self) -> bool:
        """Every round was played (not ended early by the host)."""
        return self.status == "finished" and len(self.rounds_over()) == self.total_rounds > 0

    def unposted(self) -> list[int]:
        return [r for r in self.rounds_over() if r not in self.posted]

    def table_of(self, user_id: int) -> int | None:
        """The current round's table where the person's place plays (None: sits out)."""
        if self.status != "playing":
            return None
        for table in range(self.table_count):
            if any(p.user_id == user_id for p in self.seats(self.round, table)):
                return table
        return None

    def standings(self) -> list[Standing]:
        """Every place, best first, by the stated tie-break (TIE_BREAK: it always decides)."""
        points = [0] * len(self.places)
        won = [0] * len(self.places)
        conceded = [0] * len(self.places)
        for (round_number, table), (ns, ew) in self.results.items():
            tables = self.schedule[round_number].tables[table]
            for pair, mine, theirs in ((tables.north_south, ns, ew), (tables.east_west, ew, ns)):
                for player in pair:
                    points[player] += mine
                    conceded[player] += theirs
                    won[player] += mine > theirs
        order = sorted(range(len(self.places)), key=lambda p: (-points[p], -won[p], conceded[p], p))
        return [
            Standing(self.places[p], points[p], won[p], conceded[p], index + 1)
            for index, p in enumerate(order)
        ]

    def pair_standings(self) -> list[PairStanding]:
        """Pairs formats: every pair, best first (tournament_pairs states the tie-breaks)."""
        return pair_standings(self.config.format, self.team_count, self.schedule, self.results)


def _parts(rest: str, count: int) -> list[str]:
    parts = rest.split(":")
    if len(parts) != count:
        raise TournamentError("tournament.error.action")
    return parts


def _number(text: str) -> int:
    if not text.isdigit() or len(text) > 20:
        raise TournamentError("tournament.error.action")
    return int(text)
