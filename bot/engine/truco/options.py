"""Table options of a Truco game. The defaults are exactly the seed's rules (T1-T14); house rules
are fields whose defaults keep the seed's game (`coberta`, T15, is off by default)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from bot.engine.common import InvalidOptions
from bot.engine.fair_deal import SEEDED, check_deal_options, deal_options_dict

MIN_TARGET = 4
MAX_TARGET = 30
# A match of best of N games ("melhor de três"): 1 is a single game.
MATCH_LENGTHS = (1, 3, 5)


@dataclass(frozen=True)
class Options:
    """`target`: points that win the game (T12). Points come in even amounts, so it must be even;
    the hand of ten (T13) and the iron hand (T14) happen at `target - 2` (10 by default).
    `coberta`: from the second round on a card may be played face down (T15, not in the seed).
    `signals`: partners may signal each other what they hold (sinais, signals.py; on by default,
    not in the seed: a signal changes no rule of play).
    `match`: best of 1, 3 or 5 games; the first pair to win a majority wins the match, the next
    game starting at 0-0 right after the winning hand (as euchre's rubber, E22)."""

    target: int = 12
    # How hands are dealt: "seeded" (the default: every old record) or "fair-v1"
    # (docs/fair-deals.md), which needs `players`, one id per seat.
    deal: str = SEEDED
    players: tuple[str, ...] | None = None
    coberta: bool = False
    match: int = 1
    signals: bool = True

    def __post_init__(self) -> None:
        target = self.target
        if isinstance(target, bool) or not isinstance(target, int):
            raise InvalidOptions(f"target must be an integer, not {target!r}")
        if not MIN_TARGET <= target <= MAX_TARGET or target % 2:
            raise InvalidOptions(
                f"target must be even, from {MIN_TARGET} to {MAX_TARGET}: {target!r}"
            )
        object.__setattr__(self, "players", check_deal_options(self.deal, self.players))
        if self.coberta.__class__ is not bool:
            raise InvalidOptions(f"coberta must be true or false, not {self.coberta!r}")
        if self.signals.__class__ is not bool:
            raise InvalidOptions(f"signals must be true or false, not {self.signals!r}")
        if self.match.__class__ is not int or self.match not in MATCH_LENGTHS:
            raise InvalidOptions(f"match must be one of {MATCH_LENGTHS}, not {self.match!r}")

    @property
    def games_to_win(self) -> int:
        """Games a pair must win to take the match (1 for a single game)."""
        return self.match // 2 + 1

    @property
    def special_score(self) -> int:
        """The score of a pair 'at ten' (T13, T14)."""
        return self.target - 2

    def to_dict(self) -> dict[str, Any]:
        # A house rule left off is not written: records of seed-rule games stay as they were.
        data: dict[str, Any] = {"target": self.target}
        if self.coberta:
            data["coberta"] = True
        if self.match != 1:
            data["match"] = self.match
        if not self.signals:  # on by default: written only when switched off
            data["signals"] = False
        return data | deal_options_dict(self.deal, self.players)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Options:
        if not isinstance(data, Mapping):
            raise InvalidOptions("options must be a mapping")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidOptions(f"unknown truco options: {', '.join(map(str, unknown))}")
        return cls(**dict(data))
