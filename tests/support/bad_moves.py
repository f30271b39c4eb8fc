"""Games with one deliberate move (issue 22's review): played to the end by the rule players,
except at the first position a finder accepts, where the chosen move is made instead. The seeds
are those where the situation arises (found by playing seeds 1.. until it did)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.engine.euchre import Options as EuchreOptions
from bot.engine.euchre import bot_player as euchre_bot
from bot.engine.euchre import new_game as new_euchre
from bot.engine.euchre.cards import CARD_OF_CODE, EFFECTIVE_SUIT, SUIT_OF_CODE
from bot.engine.truco import Options as TrucoOptions
from bot.engine.truco import bot_player as truco_bot
from bot.engine.truco import new_game as new_truco
from bot.tables.review import DecisionTask, decision_tasks

Choice = Callable[[Any, int], str | None]  # a deliberate move at some position, else None


def played(game: Any, bot: Any, choice: Choice | None = None) -> tuple[Any, list[int]]:
    """The game played to its end by the rule player, except where `choice` names a move;
    returns the game and the indexes of the chosen moves."""
    chosen: list[int] = []
    while not game.is_over:
        seat = game.to_act[0]
        action = choice(game, seat) if choice is not None else None
        if action is None:
            action = bot.choose_action(game, seat)
        else:
            chosen.append(len(game.actions))
        game.apply(seat, action)
    return game, chosen


# Seeds where the situation arises (found by playing seeds 1.. until it did; most such moves are
# marked, see the closing note: trumping a trick the partner has already won is not always costly).
EUCHRE_SEED = 19
TRUCO_SEED = 314


def trump_or_throw_off(game: Any, seat: int) -> tuple[str, str] | None:
    """Seat 0 plays last to a trick its partner is winning, a plain suit led, and may either
    trump it or throw off another card: (its lowest trump, its first other card)."""
    if seat != 0 or game.phase != "play":
        return None
    view = game.view(0)
    if len(view["trick"]) != 3 or not view["trump"]:
        return None
    effective = EFFECTIVE_SUIT[SUIT_OF_CODE[view["trump"]]]
    trump = effective[CARD_OF_CODE["J" + view["trump"]]]

    def suit(action: str) -> int:
        return effective[CARD_OF_CODE[action.removeprefix("play:")]]

    if suit(view["trick"][0]["card"]) == trump:
        return None
    legal = view["legal_actions"]
    trumps = [a for a in legal if suit(a) == trump]
    others = [a for a in legal if suit(a) != trump]
    if not trumps or not others:
        return None
    # The partner wins the trick unless seat 0 trumps it: ask the engine itself.
    trial = game.clone()
    [won] = [e for e in trial.apply(0, others[0]) if e.kind == "trick_won"]
    return (trumps[-1], others[0]) if won.seat == 2 else None


def once(pick: Callable[[tuple[str, str]], str], find: Callable[[Any, int], Any]) -> Choice:
    """A choice made at the first position `find` accepts, and never again."""
    done: list[bool] = []

    def choice(game: Any, seat: int) -> str | None:
        found = None if done else find(game, seat)
        if found is None:
            return None
        done.append(True)
        return pick(found)

    return choice


def _zap_answer(game: Any, seat: int) -> bool | None:
    """Seat 0 answers a truco ask holding the zap."""
    if game.phase == "answer" and 0 in game.to_act and "4C" in game.view(0)["hand"]:
        return True
    return None


def truco_with(answer: str) -> tuple[Any, int]:
    def choice(game: Any, seat: int) -> str | None:
        if chosen or not _zap_answer(game, 0):
            return None
        chosen.append(len(game.actions))
        return answer if seat == 0 else None

    chosen: list[int] = []
    game = new_truco(TrucoOptions(), TRUCO_SEED)
    while not game.is_over:
        seat = game.to_act[0]
        action = choice(game, seat)
        if action is None:
            action = truco_bot.choose_action(game, seat)
        game.apply(seat, action)
    assert game.actions[chosen[0]] == (0, answer)
    return game, chosen[0]


def euchre_trumping_the_partner() -> tuple[Any, int]:
    """The euchre game of EUCHRE_SEED where seat 0 trumps its partner's winning trick, and the
    index of that move in the log."""
    game, [index] = played(
        new_euchre(EuchreOptions(), EUCHRE_SEED),
        euchre_bot,
        once(lambda found: found[0], trump_or_throw_off),
    )
    return game, index


def euchre_decision_in(phase: str, seat: int = 0) -> DecisionTask:
    """The first decision `seat` takes with a real choice in `phase` ("bidding1", "bidding2"...)
    of the rule players' euchre games, seeds 1.. (a review's DecisionTask)."""
    for seed in range(1, 200):
        game, _ = played(new_euchre(EuchreOptions(), seed), euchre_bot)
        actions = [tuple(a) for a in game.actions]
        options = EuchreOptions().to_dict()
        tasks = decision_tasks("euchre", options, seed, game.first_dealer, actions, seat)
        found = next((task for task in tasks if task.view["phase"] == phase), None)
        if found is not None:
            return found
    raise AssertionError(f"no seed gives seat {seat} a choice in {phase}")
