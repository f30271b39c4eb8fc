"""The bot's review of one player's decisions in a finished game, the way chess sites do it.

For each decision the player took with a real choice (more than one legal action), the hard
search estimates every legal option from what that seat could see at that moment only: its own
view and the hand's history as it saw it (`game.view(seat)`, `game.hand_history(seat)`), the
hidden cards dealt at random consistent with them, exactly as a hard bot seat decides. Options
of both games are valued in the chance to win the game (one unit, issue 34); beside it euchre
keeps the hand's expected points and the chance to take the trick in play, truco the chance to
take the hand: the figures a marked decision is explained by.

A decision whose chosen option is worth less than the best by a threshold is marked: an
inaccuracy, a mistake or a blunder (THRESHOLDS), with the option the bot preferred.

The searches run in worker processes (never on the event loop), spread over the pool; each has
its own seed from the game's seed and the decision's place in the log, so a review is the same
every time it is asked for.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bot.engine.common import Rng
from bot.engine.euchre import search as euchre_search
from bot.engine.truco import search as truco_search
from bot.engine.truco.signals import SIGNAL_PREFIX
from bot.tables.replay import HAND_DEALT, walk
from bot.workers import worker_pool

VERDICTS: tuple[str, ...] = ("inaccuracy", "mistake", "blunder")
# The loss (best option's value minus the chosen one's) from which each verdict holds, in one
# unit for both games (issue 34): the chance to win the game (a truco hand of 2 points moves it
# about 10 points of percentage mid-game, a euchre point about 7 in a game to 10).
THRESHOLDS: dict[str, tuple[float, float, float]] = {
    "euchre": (0.04, 0.08, 0.16),
    "truco": (0.04, 0.08, 0.16),
}
# Play-outs (euchre) and sampled deals (truco) per decision: above the normal bot's, since less
# noise means fewer false marks. Euchre's is held to 400, below the hard bot's 1000, so that a
# whole game stays within 30 s at p99 on this project's busy two-core machine
# (scripts/bench_review.py: at 600 a long game took 26 s, too close, before the play-outs got
# 1.6x faster).
REVIEW_ITERATIONS: dict[str, int] = {"euchre": 400, "truco": 2000}
_REVIEW_PURPOSE = 0x5245  # "RE": review seeds never coincide with a bot seat's
# Worker processes of the reviews (separate from the bot seats' search, niced: a review is
# never more urgent than a move at a table).
REVIEW_WORKERS = 2
REVIEW_NICENESS = 10

MOMENT_KEYS = ("phase", "seat", "dealer", "raise_name")

Progress = Callable[[int, int], Any]  # (decisions done, decisions in all)


@dataclass(frozen=True)
class DecisionTask:
    """One decision to judge: plain data, sent to a worker process."""

    game: str
    index: int  # the action's index in the game's log
    seat: int
    hand: int  # 0-based position of its hand in the game
    view: dict[str, Any]  # the seat's view just before it acted
    history: list[tuple[int, str]]  # the hand's actions as the seat saw them
    chosen: str
    iterations: int
    seed: int


@dataclass(frozen=True)
class OptionValue:
    action: str
    value: float  # the chance to win the game (both games: the unit of a decision's loss)
    hand_chance: float | None = None  # truco: chance to take the hand
    points: float | None = None  # euchre: the hand's expected points (ours minus theirs)
    trick_chance: float | None = None  # euchre: chance our side takes the trick in play


@dataclass(frozen=True)
class Decision:
    index: int
    seat: int
    hand: int
    chosen: str
    options: list[OptionValue]  # best first
    loss: float  # the best option's value minus the chosen one's (0 when the choice was best)
    verdict: str | None  # None, or one of VERDICTS
    # The seat's view at that moment, as far as naming a move needs it (MOMENT_KEYS): an
    # euchre "order" is an order up, an assist or a pick-up by where the dealer sits; a truco
    # "raise" asks truco, seis, dez or doze; an "accept" in a mão de dez plays it.
    moment: dict[str, Any] = field(default_factory=dict)

    @property
    def best(self) -> str:
        return self.options[0].action if self.options else self.chosen

    def value_of(self, action: str) -> OptionValue | None:
        return next((o for o in self.options if o.action == action), None)


@dataclass(frozen=True)
class Review:
    game: str
    seat: int
    decisions: list[Decision]

    @property
    def marked(self) -> list[Decision]:
        return [d for d in self.decisions if d.verdict is not None]

    def count(self, verdict: str) -> int:
        return sum(1 for d in self.decisions if d.verdict == verdict)


def verdict_of(game: str, loss: float) -> str | None:
    found = None
    for name, threshold in zip(VERDICTS, THRESHOLDS[game], strict=True):
        if loss >= threshold:
            found = name
    return found


def decision_seed(game_seed: int, index: int, seat: int) -> int:
    return Rng(game_seed, index, seat, _REVIEW_PURPOSE).next64()


def decision_tasks(
    game_name: str,
    options: dict[str, Any],
    seed: int,
    first_dealer: int | None,
    actions: Sequence[Sequence[Any]],
    seat: int,
    *,
    iterations: int | None = None,
    only: set[int] | None = None,
) -> list[DecisionTask]:
    """The decisions `seat` took with more than one legal option (`only`: those action indexes),
    each with the seat's view and history at that moment. Cheap: one replay of the game."""
    budget = REVIEW_ITERATIONS[game_name] if iterations is None else iterations
    tasks: list[DecisionTask] = []
    hand = -1
    for game, count, events in walk(game_name, options, seed, first_dealer, actions):
        hand += sum(1 for event in events if event.kind == HAND_DEALT)
        if count >= len(actions):
            break
        actor, action = actions[count]
        if actor != seat or (only is not None and count not in only):
            continue
        if str(action).startswith(SIGNAL_PREFIX):  # truco's sinais: talk, not a decision
            continue
        view = game.view(seat)
        if len(view["legal_actions"]) < 2:
            continue
        tasks.append(
            DecisionTask(
                game=game_name,
                index=count,
                seat=seat,
                hand=hand,
                view=view,
                history=list(game.hand_history(seat)),
                chosen=str(action),
                iterations=budget,
                seed=decision_seed(seed, count, seat),
            )
        )
    return tasks


def judge(task: DecisionTask) -> Decision:
    """The search's value of every legal option of one decision (in a worker process)."""
    options: list[OptionValue]
    if task.game == "truco":
        both = truco_search.evaluate_both(task.view, task.history, task.iterations, task.seed)
        options = [OptionValue(action, value, hand) for action, value, hand in both]
    else:
        figures = euchre_search.evaluate_for_review(
            task.view, task.history, task.iterations, task.seed
        )
        options = [
            OptionValue(action, chance, points=points, trick_chance=trick)
            for action, points, trick, chance in figures
        ]
    # Best first; among equals the legal order (the order the search itself prefers them in).
    options.sort(key=lambda option: -option.value)
    chosen = next((o for o in options if o.action == task.chosen), None)
    loss = 0.0 if chosen is None or not options else max(0.0, options[0].value - chosen.value)
    return Decision(
        index=task.index,
        seat=task.seat,
        hand=task.hand,
        chosen=task.chosen,
        options=options,
        loss=loss,
        verdict=verdict_of(task.game, loss),
        moment={key: task.view.get(key) for key in MOMENT_KEYS},
    )


_pool: ProcessPoolExecutor | None = None


def review_pool() -> ProcessPoolExecutor:
    """The review's worker processes, started at first use."""
    global _pool
    if _pool is None:
        _pool = worker_pool(max_workers=REVIEW_WORKERS, niceness=REVIEW_NICENESS)
    return _pool


async def review_game(
    game_name: str,
    options: dict[str, Any],
    seed: int,
    first_dealer: int | None,
    actions: Sequence[Sequence[Any]],
    seat: int,
    *,
    progress: Progress | None = None,
    executor: Executor | None = None,
    iterations: int | None = None,
    only: set[int] | None = None,
) -> Review:
    """The review of `seat`'s decisions, judged in `executor` (default: the review's worker
    pool); `progress(done, total)` is called on the event loop as each decision is judged."""
    loop = asyncio.get_running_loop()
    tasks = decision_tasks(
        game_name,
        options,
        seed,
        first_dealer,
        actions,
        seat,
        iterations=iterations,
        only=only,
    )
    pool = review_pool() if executor is None else executor
    total = len(tasks)
    if progress is not None:
        progress(0, total)
    futures = [loop.run_in_executor(pool, judge, task) for task in tasks]
    for done, finished in enumerate(asyncio.as_completed(futures), start=1):
        await finished
        if progress is not None:
            progress(done, total)
    decisions = sorted((future.result() for future in futures), key=lambda d: d.index)
    return Review(game_name, seat, decisions)
