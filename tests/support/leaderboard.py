"""Builders for the leaderboard, stats and history tests (no tests here).

Games are real: played to the end by the engines (every seat choosing with the engine's bot
player), turned into a `GameResult` by the table service's own `build_result` (which counts the
statistics from the events), and recorded through the real write path, `SqliteTableStore` —
the result in the transaction of the game's last action, as the table service does. A `Ledger`
keeps, on the side, what each query should then show.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.storage import Database, ResultsRepository, SqliteTableStore
from bot.storage.periods import period_start
from bot.tables.games import rules_for
from bot.tables.records import GameResult, SeatRecord, TableRecord
from bot.tables.results import build_result
from emulator import Emulator, Guild, SimulatedUser

# A seat: a person, or None for a bot.
Seat = SimulatedUser | None


def play_out(game: str, options: dict[str, Any], seed: int) -> Any:
    """A whole game, every seat played by the engine's bot player."""
    rules = rules_for(game)
    played = rules.new_game(rules.normalise_options(options), seed)
    while not played.is_over:
        seat = played.to_act[0]
        played.apply(seat, rules.bot_action(played, seat))
    return played


@dataclass
class Recorded:
    game_id: int
    result: GameResult
    played: Any  # the engine's finished game


@dataclass
class Ledger:
    """Every game recorded, in order, and what the queries should show per server."""

    games: list[Recorded] = field(default_factory=list)

    def of(self, guild_id: int, game: str | None = None) -> list[Recorded]:
        return [
            r
            for r in self.games
            if r.result.guild_id == guild_id and (game is None or r.result.game == game)
        ]

    def record_of(
        self, guild_id: int, game: str, user_id: int, period: str = "all", now: float = 0.0
    ) -> tuple[int, int, dict[str, int]]:
        """(games, wins, summed statistics) of a person in one server and game kind."""
        games = wins = 0
        stats: dict[str, int] = defaultdict(int)
        for recorded in self.of(guild_id, game):
            result = recorded.result
            if period != "all" and period_start(period, result.ended_at) != period_start(
                period, now
            ):
                continue
            for player in result.players:
                if player.user_id == user_id and not player.is_bot:
                    games += 1
                    wins += int(player.team == result.winner_team)
                    for key, value in player.stats.items():
                        stats[key] += value
        return games, wins, dict(stats)

    def ranked(
        self, guild_id: int, game: str, min_games: int, period: str = "all", now: float = 0.0
    ) -> set[int]:
        """The user ids with at least `min_games` games in that view."""
        people = {
            p.user_id
            for r in self.of(guild_id, game)
            for p in r.result.players
            if p.user_id is not None and not p.is_bot
        }
        return {
            user
            for user in people
            if self.record_of(guild_id, game, user, period, now)[0] >= min_games
        }


class Recorder:
    """Records whole games through `SqliteTableStore`, as the table service does."""

    def __init__(self, db: Database, ledger: Ledger | None = None) -> None:
        self.store = SqliteTableStore(db)
        self.results = ResultsRepository(db)
        self.ledger = ledger if ledger is not None else Ledger()
        self._channel = 1000
        self._last_id = 0

    async def record(
        self,
        guild_id: int,
        game: str,
        seats: Sequence[Seat],
        ended_at: float,
        seed: int,
        options: dict[str, Any] | None = None,
        *,
        played: Any | None = None,
    ) -> Recorded:
        """Record a game of `seed` played out by the bot players, or the finished engine game
        `played` (a game with a deliberate move; its seed and options are its own)."""
        rules = rules_for(game)
        if played is not None:
            normalised, seed = played.options.to_dict(), played.seed
        else:
            normalised = rules.normalise_options(options or {})
            played = play_out(game, normalised, seed)
        humans = [s for s in seats if s is not None]
        host = humans[0] if humans else None
        self._channel += 1
        record = TableRecord(
            id=0,
            guild_id=guild_id,
            channel_id=self._channel,
            host_id=host.id if host else 0,
            game=game,
            options=normalised,
            status="lobby",
            version=1,
            seats=[
                SeatRecord(None, f"Bot {i + 1}", is_bot=True)
                if s is None
                else SeatRecord(s.id, display_name(s))
                for i, s in enumerate(seats)
            ],
            created_at=ended_at - 900,
        )
        record.id = await self.store.create_table(record)
        record.status, record.seed, record.first_dealer = "playing", seed, played.first_dealer
        record.started_at, record.version = ended_at - 900, 2
        await self.store.start_game(record)
        result = build_result(record, rules.seat_of_position(played), played, ended_at)
        seat, action = played.actions[-1]
        await self.store.append_action(record.id, seat, action, 3, result)
        await self.store.delete_table(record.id)  # closed; its recorded game stays
        # Ids count up from 1 in a fresh database; checked, since tests click buttons by id.
        self._last_id += 1
        stored = await self.results.finished_game(guild_id, self._last_id)
        assert stored is not None and stored.table_id == record.id, "unexpected game id"
        recorded = Recorded(self._last_id, result, played)
        self.ledger.games.append(recorded)
        return recorded


def display_name(user: SimulatedUser) -> str:
    """The name the bot sees for a member (the emulator's users have a global name)."""
    return user.global_name or user.name


def people(emu: Emulator, guild: Guild, names: list[str]) -> list[SimulatedUser]:
    """New members of `guild` (an existing user of that name is reused)."""
    out = []
    for name in names:
        user = next((u for u in emu.users.values() if u.name == name), None)
        if user is None:
            user = emu.add_user(name, locale="en-US")
        if user.id not in guild.members:
            guild.add_member(user)
        out.append(user)
    return out


def random_seats(rng: random.Random, pool: list[SimulatedUser], bots: float) -> list[Seat]:
    seats: list[Seat] = list(rng.sample(pool, 4))
    seats = [None if rng.random() < bots else s for s in seats]
    if all(s is None for s in seats):
        seats[0] = pool[0]
    return seats
