"""Table options of a Truco game. The defaults are exactly the seed's rules (T1-T14); house rules
(coberta, best of three...) may be added later as new fields with seed-exact defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from bot.engine.common import InvalidOptions
from bot.engine.fair_deal import SEEDED, check_deal_options, deal_options_dict

MIN_TARGET = 4
MAX_TARGET = 30


@dataclass(frozen=True)
class Options:
    """`target`: points that win the game (T12). Points come in even amounts, so it must be even;
    the hand of ten (T13) and the iron hand (T14) happen at `target - 2` (10 by default)."""

    target: int = 12
    # How hands are dealt: "seeded" (the default: every old record) or "fair-v1"
    # (docs/fair-deals.md), which needs `players`, one id per seat.
    deal: str = SEEDED
    players: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        target = self.target
        if isinstance(target, bool) or not isinstance(target, int):
            raise InvalidOptions(f"target must be an integer, not {target!r}")
        if not MIN_TARGET <= target <= MAX_TARGET or target % 2:
            raise InvalidOptions(
                f"target must be even, from {MIN_TARGET} to {MAX_TARGET}: {target!r}"
            )
        object.__setattr__(self, "players", check_deal_options(self.deal, self.players))

    @property
    def special_score(self) -> int:
        """The score of a pair 'at ten' (T13, T14)."""
        return self.target - 2

    def to_dict(self) -> dict[str, Any]:
        return {"target": self.target} | deal_options_dict(self.deal, self.players)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Options:
        if not isinstance(data, Mapping):
            raise InvalidOptions("options must be a mapping")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidOptions(f"unknown truco options: {', '.join(map(str, unknown))}")
        return cls(**dict(data))
