"""The story of a finished game, for the end-of-game message: the score hand by hand, the
loners, the euchres (truco: the calls and who ran), and the deciding hand.

`game_story` reads the replayed game's public events only (a pure function); `story_lines`
turns a story into sentences of the catalog (bot/texts/en.py, keys "story.*"). Names come from
the caller: this layer knows seats, not people.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.texts import t

if TYPE_CHECKING:
    from bot.tables.table import Table

HAND_END = frozenset({"hand_scored", "hand_won"})
ASKS = {"truco_asked": "truco", "six_asked": "six", "ten_asked": "ten", "twelve_asked": "twelve"}


@dataclass(frozen=True)
class HandScore:
    hand: int  # 1-based number of the hand in the game
    team: int  # the pair that scored
    points: int
    scores: tuple[int, int]  # after the hand (of its own game, under a rubber)


@dataclass(frozen=True)
class Loner:
    hand: int
    seat: int
    made: bool  # the loner's side scored the hand


@dataclass(frozen=True)
class Call:
    """A truco ask (or raise) and its answer: "accepted", "ran" or "raised" (a counter-raise)."""

    hand: int
    seat: int
    ask: str  # truco | six | ten | twelve
    answer: str | None
    answer_seat: int | None


@dataclass(frozen=True)
class Story:
    game: str
    hands: list[HandScore] = field(default_factory=list)
    loners: list[Loner] = field(default_factory=list)
    euchres: list[tuple[int, int]] = field(default_factory=list)  # (hand, the maker's seat)
    calls: list[Call] = field(default_factory=list)
    deciding_hand: int | None = None  # after it, the winners led to the end
    winner: int | None = None


def game_story(game: Any) -> Story:
    """The story of a replayed engine game (its events from the start)."""
    story = Story(game.GAME_NAME, winner=game.winner)
    hand = 0
    alone: list[int] = []
    open_call: Call | None = None
    for event in game.events:
        kind, data = event.kind, event.data
        if kind == "hand_dealt":
            hand += 1
            alone = []
        elif kind == "went_alone":
            alone.append(int(event.seat))
        elif kind in ASKS:
            if open_call is not None:  # a raise answers the ask before it
                story.calls[-1] = _answered(open_call, "raised", event.seat)
            open_call = Call(hand, int(event.seat), ASKS[kind], None, None)
            story.calls.append(open_call)
        elif kind in ("accepted", "ran") and open_call is not None:
            story.calls[-1] = _answered(open_call, kind, event.seat)
            open_call = None
        elif kind in HAND_END:
            open_call = None
            team = int(data.get("scoring_team", data.get("team", 0)))
            scores = data["scores"]
            story.hands.append(HandScore(hand, team, int(data["points"]), (scores[0], scores[1])))
            for seat in alone:
                story.loners.append(Loner(hand, seat, seat % 2 == team))
            if data.get("euchre"):
                story.euchres.append((hand, int(data["maker"])))
    return _with_deciding_hand(story)


def _answered(call: Call, answer: str, seat: int | None) -> Call:
    return Call(call.hand, call.seat, call.ask, answer, seat)


def _with_deciding_hand(story: Story) -> Story:
    """The hand after which the winners were ahead for good (the first hand, if they always
    were); None for an unfinished game."""
    if story.winner is None or not story.hands:
        return story
    deciding = story.hands[0].hand
    for before, after in zip(story.hands, story.hands[1:], strict=False):
        ours, theirs = before.scores[story.winner], before.scores[1 - story.winner]
        if ours <= theirs or after.scores < before.scores:  # behind, level, or a new game began
            deciding = after.hand
    return Story(**{**story.__dict__, "deciding_hand": deciding})


NameOf = Callable[[int], str]


def story_lines(
    story: Story, name_of: NameOf, team_name: NameOf, locale: str | None = None
) -> list[str]:
    """The story as sentences: the score line by hand, then loners, euchres or calls, then the
    deciding hand. `name_of(seat)` names a player, `team_name(team)` a pair."""
    lines = [
        t(
            "story.scores",
            locale,
            scores=" · ".join(f"{h.scores[0]}–{h.scores[1]}" for h in story.hands),
        )
    ]
    for loner in story.loners:
        key = "story.loner.made" if loner.made else "story.loner.lost"
        lines.append(t(key, locale, player=name_of(loner.seat), hand=loner.hand))
    for hand, maker in story.euchres:
        lines.append(t("story.euchred", locale, player=name_of(maker), hand=hand))
    for call in story.calls:
        if call.answer in ("accepted", "ran") and call.answer_seat is not None:
            lines.append(
                t(
                    f"story.call.{call.answer}",
                    locale,
                    player=name_of(call.seat),
                    other=name_of(call.answer_seat),
                    ask=t(f"truco.ask.{call.ask}", locale),
                    hand=call.hand,
                )
            )
    if story.deciding_hand is not None and story.winner is not None:
        lines.append(
            t("story.deciding", locale, hand=story.deciding_hand, team=team_name(story.winner))
        )
    return lines


_TOLD: dict[tuple[int, int, int], Story] = {}  # (table, seed, actions) -> its story; a few kept


def table_story(table: Table) -> Story:
    """The story of the game a table has just finished. The table in memory keeps only its latest
    hands' events (games.forget_old_events): the story is told from a replay, which has them all,
    as the result's statistics are."""
    record, game = table.record, table.game
    assert game is not None and record.seed is not None
    key = (table.id, record.seed, len(game.actions))
    story = _TOLD.get(key)
    if story is None:
        whole = table.rules.replay(record.options, record.seed, record.first_dealer, game.actions)
        story = game_story(whole)
        if len(_TOLD) >= 64:
            _TOLD.pop(next(iter(_TOLD)))
        _TOLD[key] = story
    return story
