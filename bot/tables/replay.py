"""A finished game, step by step: what the replay shows, trick by trick (truco: round by round).

The steps are rebuilt from what storage keeps of a finished game (options, seed, first dealer,
actions) by replaying it on the engine, one action at a time. Each step holds the public view
at that moment (what a spectator saw then) and, once a hand is over, the four hands as they were
dealt, face up. Nothing here keeps state between calls: a step is found again from the game and
its index, so a button that carries (game id, step) works after a restart.

Steps of one hand, in order (issue 34: one step per action, so a replay goes card by card):
- "deal": the hand was dealt (euchre: the turned card is up; nobody has acted);
- "move": one action that ended nothing: a card played into a trick, a bid, a truco call;
- "trick": a trick (truco: a round) ended with the card just played; `trick` holds its cards
  and winner;
- "hand_end": the hand is scored (or thrown in): `hands` shows what everyone was dealt.
A finished game has no secrets: every step holds the four hands as they are at that moment
(`held`, face up), what each seat would see of its own hand then.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.engine.common import Event
from bot.engine.euchre.cards import CODES, deck_for
from bot.tables.games import rules_for

TRICK_EVENTS = frozenset({"trick_won", "round_won", "round_tied"})
# A thrown-in euchre hand ("redeal") ends its hand too, with no trick taken.
HAND_END_EVENTS = frozenset({"hand_scored", "hand_won", "redeal"})
HAND_DEALT = "hand_dealt"


@dataclass(frozen=True)
class Deal:
    """One hand as dealt: the four hands by game seat, and (euchre) the kitty, turned card first."""

    hand_number: int
    dealer: int
    hands: list[list[str]]
    kitty: list[str] | None = None
    at: int = 0  # how many actions of the log came before this deal


@dataclass(frozen=True)
class Trick:
    cards: list[tuple[int, str]]  # (seat, card) in play order
    winner: int | None  # the seat that took it; None for a tied truco round


@dataclass(frozen=True)
class ReplayStep:
    index: int
    hand: int  # 0-based position of the hand in the game (the hand picker's entries)
    kind: str  # "deal" | "trick" | "hand_end"
    actions: int  # how many actions of the log are applied at this step
    view: dict[str, Any]  # the public view (game.view(None)) at this step
    events: list[dict[str, Any]]  # the public events since the previous step
    trick: Trick | None = None  # the trick that ended at this step
    tricks: list[Trick] = field(default_factory=list)  # this hand's tricks so far
    hand_points: tuple[int, int] | None = None  # (team, points) at a hand's end, if any scored
    hands: list[list[str]] | None = None  # the hands as dealt, face up, once the hand is over
    held: list[list[str]] = field(default_factory=list)  # each seat's cards at this step
    move: tuple[int, str] | None = None  # (seat, action) of a "move" step


@dataclass(frozen=True)
class Replay:
    game: str
    steps: list[ReplayStep]
    deals: list[Deal]
    final: Any  # the engine game after the last action

    @property
    def hand_starts(self) -> list[int]:
        """The index of each hand's first step (the hand picker)."""
        return [step.index for step in self.steps if step.kind == "deal"]

    def step(self, index: int) -> ReplayStep:
        """The step at `index`, clamped into range (an old button never points past the end)."""
        return self.steps[max(0, min(index, len(self.steps) - 1))]


def walk(
    game_name: str,
    options: dict[str, Any],
    seed: int,
    first_dealer: int | None,
    actions: Sequence[Sequence[Any]],
    *,
    deals: Any = None,
) -> Iterator[tuple[Any, int, list[Event]]]:
    """The game after its start and after each action: (game, actions applied, new events)."""
    engine = rules_for(game_name).engine
    game = engine.game.replay(
        engine.options.from_dict(dict(options)), seed, first_dealer, [], deals=deals
    )
    yield game, 0, list(game.events)
    for count, (seat, action) in enumerate(actions, start=1):
        yield game, count, game.apply(seat, action)


def dealt(game: Any) -> Deal:
    """The hand just dealt, read from each seat's own view before anyone acts."""
    hands = [list(game.view(seat)["hand"]) for seat in range(4)]
    kitty = None
    if game.GAME_NAME == "euchre":
        deck = game.options.deck
        # Only euchre has a kitty.
        held = {card for hand in hands for card in hand}
        turned = game.turned_card
        rest = [CODES[c] for c in deck_for(deck, game.options.joker)]
        kitty = [turned] + [c for c in rest if c not in held and c != turned]
    return Deal(game.hand_number, game.dealer, hands, kitty, len(game.actions))


def replay_steps(
    game_name: str,
    options: dict[str, Any],
    seed: int,
    first_dealer: int | None,
    actions: Sequence[Sequence[Any]],
) -> Replay:
    """Every step of a finished (or unfinished) game; raises the engine's error for a log the
    rules refuse."""
    steps: list[ReplayStep] = []
    deals: list[Deal] = []
    pending: list[dict[str, Any]] = []
    tricks: list[Trick] = []
    game: Any = None

    def add(kind: str, count: int, **extra: Any) -> None:
        steps.append(
            ReplayStep(
                index=len(steps),
                hand=len(deals) - 1,
                kind=kind,
                actions=count,
                view=game.view(None),
                events=list(pending),
                tricks=list(tricks),
                held=[list(game.view(seat)["hand"] or ()) for seat in range(4)],
                **extra,
            )
        )
        pending.clear()

    for game, count, events in walk(game_name, options, seed, first_dealer, actions):
        before = len(steps)
        for event in events:
            if event.kind == HAND_DEALT:
                # The deal step comes after the end of the hand before (same action).
                deals.append(dealt(game))
                tricks = []
                pending.append(event.to_dict())
                add("deal", count)
                continue
            pending.append(event.to_dict())
            if event.kind in TRICK_EVENTS:
                data = event.data
                winner = None if event.kind == "round_tied" else data.get("seat", event.seat)
                trick = Trick([(c["seat"], c["card"]) for c in data["cards"]], winner)
                tricks.append(trick)
                add("trick", count, trick=trick)
            elif event.kind in HAND_END_EVENTS:
                team = event.data.get("scoring_team", event.data.get("team"))
                points = None if team is None else (int(team), int(event.data["points"]))
                add("hand_end", count, hand_points=points, hands=deals[-1].hands)
        if count and len(steps) == before and steps:  # an action that ended nothing
            seat, action = actions[count - 1]
            add("move", count, move=(int(seat), str(action)))
    if pending and steps:  # the game's end (game_won): with the last step
        last = steps[-1]
        steps[-1] = replace(last, events=last.events + pending, view=game.view(None))
    return Replay(game_name, steps, deals, game)
