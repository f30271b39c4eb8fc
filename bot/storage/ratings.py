"""OpenSkill team ratings: how a finished game moves its players' ratings.

- Model: Plackett-Luce from `openskill` with its defaults (a new player is mu 25, sigma 25/3).
  Both teams of a game are rated as teams; the winning team ranks first.
- Bots are never rated and never ranked. A bot in a game still has to count for the strength of
  its team, so it stands in with a fixed new-player rating that is never updated or stored.
- A user sitting in more than one seat of one game (possible only in tests or by a service bug)
  is not rated for that game either: one person cannot be two ratings at once, and refusing the
  game would lose it.
- Shown as a whole number: `round(1000 + 40 * ordinal)` with ordinal = mu - 3 sigma, the
  conservative estimate OpenSkill ranks by. A new player shows 1000; a steady winner climbs
  toward about 2000 as sigma shrinks; the order of shown ratings is the order of the leaderboard.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.tables.records import PlayerResult

MODEL = PlackettLuce()
DEFAULT_MU: float = MODEL.mu
DEFAULT_SIGMA: float = MODEL.sigma

DISPLAY_BASE = 1000
DISPLAY_SCALE = 40


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3.0 * sigma


def display_from_ordinal(value: float) -> int:
    return round(DISPLAY_BASE + DISPLAY_SCALE * value)


def display_rating(mu: float, sigma: float) -> int:
    """The rating users see: round(1000 + 40 * (mu - 3 sigma))."""
    return display_from_ordinal(ordinal(mu, sigma))


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)

    @property
    def display(self) -> int:
        return display_rating(self.mu, self.sigma)


NEW_PLAYER = Skill(DEFAULT_MU, DEFAULT_SIGMA)


def rated_user_ids(players: Sequence[PlayerResult]) -> set[int]:
    """The humans whose rating this game moves: not bots, and seated exactly once."""
    seats_of = Counter(p.user_id for p in players if not p.is_bot and p.user_id is not None)
    return {user_id for user_id, seats in seats_of.items() if seats == 1}


def rate_game(
    players: Sequence[PlayerResult], winner_team: int, current: dict[int, Skill]
) -> dict[int, Skill]:
    """The new skill of every rated user of a finished two-team game.

    `current` holds the rated users' skills before the game (a user missing from it is new).
    Returns {user_id: skill after}; bots and unrated users are absent."""
    rated = rated_user_ids(players)
    teams: list[list[PlayerResult]] = [
        sorted((p for p in players if p.team == team), key=lambda p: p.seat) for team in (0, 1)
    ]
    if not teams[0] or not teams[1] or not rated:
        return {}
    model_teams = []
    for team in teams:
        members = []
        for p in team:
            skill = current.get(p.user_id, NEW_PLAYER) if p.user_id in rated else NEW_PLAYER
            members.append(MODEL.rating(mu=skill.mu, sigma=skill.sigma))
        model_teams.append(members)
    ranks = [0.0 if team == winner_team else 1.0 for team in (0, 1)]
    new_teams = MODEL.rate(model_teams, ranks=ranks)
    after: dict[int, Skill] = {}
    for team, new_team in zip(teams, new_teams, strict=True):
        for p, new in zip(team, new_team, strict=True):
            if p.user_id in rated:
                after[p.user_id] = Skill(float(new.mu), float(new.sigma))
    return after
