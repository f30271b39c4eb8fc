"""Pieces both games share: seats and teams, the seeded PRNG, events and engine errors.

Standard library only (a test enforces it). The PRNG algorithm is written out here instead of
using `random`, so a stored game (options + seed + actions) replays identically on any machine
and any Python version.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Self

if TYPE_CHECKING:
    from bot.engine.fair_deal import FairDealer

SEATS = 4
MASK64 = (1 << 64) - 1


def team_of(seat: int) -> int:
    """Partners sit opposite: seats 0 & 2 are team 0, seats 1 & 3 team 1."""
    return seat % 2


def partner_of(seat: int) -> int:
    return (seat + 2) % SEATS


# --- errors -------------------------------------------------------------------------------------


class EngineError(ValueError):
    """Base of every rule violation; the state is unchanged when one is raised."""


class InvalidOptions(EngineError):
    """A table option has a value the rules do not know."""


class GameOver(EngineError):
    """An action was sent to a finished game."""


class NotYourTurn(EngineError):
    """The seat may not act now."""


class IllegalAction(EngineError):
    """The seat may act, but not this action."""


class BadSeat(EngineError):
    """The seat number is not 0..3."""


# --- events -------------------------------------------------------------------------------------


@dataclass(slots=True)
class Event:
    """Something that happened, in the game's words: `kind` is a stable key (the UI's catalog
    turns it into a sentence), `seat` who did it (None for the table), `data` the details."""

    kind: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "data": dict(self.data)}


_new_object = object.__new__


def new_event(kind: str, seat: int | None, data: dict[str, Any]) -> Event:
    """`Event(kind, seat, data)`, the same object, made without the dataclass `__init__`: in
    Python 3.11 calling a class whose `__init__` is Python code costs about twice this, and an
    engine makes several events a hand (scripts/bench_euchre.py)."""
    made: Event = _new_object(Event)
    made.kind = kind
    made.seat = seat
    made.data = data
    return made


# --- seeded PRNG --------------------------------------------------------------------------------


def _splitmix64(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


class Rng:
    """SplitMix64: tiny, fast, fully specified here. Not for cryptography; for fair shuffles."""

    __slots__ = ("_state",)

    def __init__(self, *seed_parts: int) -> None:
        # Each part is folded in with one SplitMix64 step (inlined: this runs once per hand).
        state = 0
        for part in seed_parts:
            z = ((state ^ (part & MASK64)) + 0x9E3779B97F4A7C15) & MASK64
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            state = z ^ (z >> 31)
        self._state = state

    def next64(self) -> int:
        # _splitmix64 written out: this is the deal's hot path (no call, no tuple).
        state = self._state = (self._state + 0x9E3779B97F4A7C15) & MASK64
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) by rejection (no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def shuffled(self, items: list[Any] | tuple[Any, ...]) -> list[Any]:
        """A new list: Fisher-Yates from the end."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


_seed_fold: tuple[int | None, int] = (None, 0)  # (seed, its SplitMix64 fold) of the last call


def hand_rng(seed: int, hand_number: int, purpose: int = 0) -> Rng:
    """The stream for one hand's deal: independent of every other hand, so replays are exact."""
    rng = Rng.__new__(Rng)
    rng._state = hand_state(seed, hand_number, purpose)
    return rng


def hand_state(seed: int, hand_number: int, purpose: int = 0) -> int:
    """The state `hand_rng(seed, hand_number, purpose)` starts from: a deal's hot path draws
    from it directly (Rng.next64 written out), with no Rng made."""
    # Rng(seed, hand_number, purpose) with its three folds written out (once per hand dealt);
    # the fold of the seed is the same for every hand of a game: the last one is kept.
    global _seed_fold
    last_seed, z = _seed_fold
    if seed != last_seed:
        z = ((seed & MASK64) + 0x9E3779B97F4A7C15) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        z ^= z >> 31
        _seed_fold = (seed, z)  # one tuple: a reader never sees half of an update
    z = ((z ^ (hand_number & MASK64)) + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    z = (((z ^ (z >> 31)) ^ (purpose & MASK64)) + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


# --- memory -------------------------------------------------------------------------------------


class ActionPairs:
    """One (seat, action) tuple for each distinct pair, for many games' logs to share: a game's
    log holds hundreds of pairs, and a host process holds many games (and their records).
    Bounded: only actions some engine accepted are put here, a few hundred distinct ones. An
    action that starts with one of `unshared` (a fair deal's cut: unique to its hand) is never
    kept: each would stay here for good, ~200 B a hand of every table ever played."""

    __slots__ = ("_pairs", "_unshared")

    def __init__(self, unshared: tuple[str, ...] = ()) -> None:
        self._pairs: dict[tuple[int, str], tuple[int, str]] = {}
        self._unshared = unshared

    def share(self, seat: int, action: str) -> tuple[int, str]:
        """The shared tuple equal to (seat, action); a new one for an unshared action."""
        pair = self._pairs.get((seat, action))
        if pair is None:
            if self._unshared and action.startswith(self._unshared):
                return (seat, action)
            pair = self._pairs[(seat, action)] = (seat, sys.intern(action))
        return pair

    def __len__(self) -> int:
        return len(self._pairs)


# --- a game as a record -------------------------------------------------------------------------


class GameRecord:
    """What both games share as stored records: a game is (options, seed, first dealer, actions)
    and its state a pure function of them, so replay, to_json and from_json are the same code.

    A game class sets GAME_NAME, OPTIONS (its Options class, with to_dict/from_dict) and
    HAND_DEALT (the kind of the event that starts every hand)."""

    __slots__ = ()
    GAME_NAME: ClassVar[str]
    OPTIONS: ClassVar[Any]
    HAND_DEALT: ClassVar[str]
    options: Any
    seed: int
    first_dealer: int | None
    actions: list[tuple[int, str]]
    events: list[Event]
    _fair: FairDealer | None  # deal="fair-v1" or "fair-v2" (docs/fair-deals.md), else None
    _trick: Sequence[Any]  # the trick in progress, as each game holds it

    def fair_view(self) -> dict[str, Any] | None:
        """`view(None)["fair"]` (None for a seeded game) without the rest of the view: the
        table reads it on every click and every table message (issue 31)."""
        return None if self._fair is None else self._fair.view()

    @property
    def cards_down(self) -> bool:
        """Whether a card of the trick in progress is on the table: `view(None)["trick"]`
        is not empty (the pace and the messages ask it several times a click, issue 31)."""
        return bool(self._trick)

    if TYPE_CHECKING:

        def __init__(self, options: Any, seed: int, first_dealer: int | None, deals: Any) -> None:
            """Each game's own constructor."""

        def apply(self, seat: int, action: str) -> list[Event]:
            """Each game's own rules."""

    @classmethod
    def replay(
        cls,
        options: Any,
        seed: int,
        first_dealer: int | None,
        actions: Sequence[Sequence[Any]],
        *,
        deals: Any = None,
    ) -> Self:
        game = cls(options, seed, first_dealer, deals)
        for entry in actions:
            if len(entry) != 2:
                raise EngineError(f"an action record is (seat, action), not {entry!r}")
            game.apply(entry[0], entry[1])
        return game

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.GAME_NAME,
            "options": self.options.to_dict(),
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "actions": [[seat, action] for seat, action in self.actions],
        }

    # --- memory: the state is unchanged by these two --------------------------------------------

    def share_actions(self, pairs: ActionPairs, start: int = 0) -> None:
        """Put `pairs`' shared tuples in the log, from index `start` on, in place of the game's
        own: equal values, so the game and its record are the same, in less memory when many
        games (and their stored records) hold the same pairs."""
        actions = self.actions
        share = pairs.share
        for index in range(max(start, 0), len(actions)):
            seat, action = actions[index]
            actions[index] = share(seat, action)

    def forget_events(self, keep: int) -> None:
        """Drop the events of old hands: a long game otherwise grows by every event. The cut is
        at a hand's start, at least one hand back and at least `keep` events back, so the
        previous hand's events and this hand's stay. No rule reads `events`: the view, the legal
        actions and the record do not change (`==` does, as it compares the events too); a
        replay brings all of them back."""
        events = self.events
        if len(events) <= keep:
            return
        kind = self.HAND_DEALT
        starts = [index for index, event in enumerate(events) if event.kind == kind]
        cuts = [index for index in starts[:-1] if len(events) - index >= keep]
        if cuts and cuts[-1] > 0:
            del events[: cuts[-1]]

    @classmethod
    def from_json(cls, data: dict[str, Any], *, deals: Any = None) -> Self:
        """Rebuild a game from `to_json()`; a record that is not one raises InvalidOptions, an
        action it holds that the rules refuse raises that action's error."""
        if not isinstance(data, dict) or data.get("game", cls.GAME_NAME) != cls.GAME_NAME:
            raise InvalidOptions(f"not a {cls.GAME_NAME} game record")
        try:
            options = cls.OPTIONS.from_dict(data["options"])
            seed, first_dealer, actions = data["seed"], data["first_dealer"], data["actions"]
        except KeyError as exc:
            raise InvalidOptions(f"{cls.GAME_NAME} game record without {exc}") from None
        if not isinstance(actions, list):
            raise InvalidOptions(f"{cls.GAME_NAME} game record: actions must be a list")
        return cls.replay(options, seed, first_dealer, actions, deals=deals)
