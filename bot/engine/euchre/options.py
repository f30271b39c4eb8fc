"""Table options of Euchre (euchre.md): fixed when a table is created, checked here."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from bot.engine.common import InvalidOptions
from bot.engine.fair_deal import SEEDED, check_deal_options, deal_options_dict

_CHOICES: dict[str, tuple[Any, ...]] = {
    "target": (5, 7, 10),  # E21
    "deck": (24, 28, 32),  # E4
    "joker": (False, True),  # E4, E6
    "alone": ("anyone", "maker"),  # E14
    "lead": ("left_of_loner", "left_of_dealer"),  # E16
    "stick_the_dealer": (False, True),  # E12
    "seating": ("random", "draw"),  # E2
    "match": ("game", "rubber"),  # E22
}


MAX_HANDS = 12


@dataclass(frozen=True)
class Options:
    target: int = 10
    deck: int = 24
    joker: bool = False
    alone: str = "anyone"
    lead: str = "left_of_loner"
    stick_the_dealer: bool = False
    seating: str = "random"
    match: str = "game"
    # How hands are dealt: "seeded" (the default: every old record) or "fair-v1"
    # (docs/fair-deals.md), which needs `players`, one id per lobby position.
    deal: str = SEEDED
    players: tuple[str, ...] | None = None
    # A fixed number of hands (a progressive euchre round, issue 23): the game ends after that
    # many hands, or earlier at the target; 0: play to the target (E21). Not with a rubber.
    hands: int = 0

    def __post_init__(self) -> None:
        if self.hands.__class__ is not int or not 0 <= self.hands <= MAX_HANDS:
            raise InvalidOptions(f"euchre option hands={self.hands!r}: 0 to {MAX_HANDS}")
        if self.hands and self.match == "rubber":
            raise InvalidOptions("euchre option hands: not with match=rubber")
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            # type() too: True == 1 and 1.0 == 1 must not pass for a bool or an int option.
            if not any(type(value) is type(a) and value == a for a in allowed):
                choices = ", ".join(repr(a) for a in allowed)
                raise InvalidOptions(f"euchre option {name}={value!r}: must be one of {choices}")
        object.__setattr__(self, "players", check_deal_options(self.deal, self.players))

    def to_dict(self) -> dict[str, Any]:
        out = {name: getattr(self, name) for name in _CHOICES}
        if self.hands:  # written only when set: records of games to the target stay as they were
            out["hands"] = self.hands
        return out | deal_options_dict(self.deal, self.players)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Options:
        if not isinstance(data, dict):
            raise InvalidOptions(f"euchre options must be a dict, not {type(data).__name__}")
        unknown = sorted(set(data) - {f.name for f in fields(cls)})
        if unknown:
            raise InvalidOptions(f"unknown euchre option(s): {', '.join(map(str, unknown))}")
        return cls(**data)
