"""A finished game as a text file anyone can read: options, seed, every deal, every action.

The format (one file per game, UTF-8, one item a line; blank lines and lines starting with "#"
are ignored):

    # card-table hand record 1
    game: euchre
    seed: 1234567
    first_dealer: 2
    options: {"alone": "anyone", "deck": 24, ...}      <- JSON on one line
    hand 1: dealer 2                                   <- each hand opens with its deal
    seat 0: JS TS KH TH AD                             <- what each seat was dealt
    seat 1: ...
    seat 2: ...
    seat 3: ...
    kitty: 9S QC KC 9D                                 <- euchre only, the turned card first
    3 pass                                             <- "<seat> <action>", in play order
    0 play:AD
    ...
    result: 10-6                                       <- the final score (a check, not input)

Seats are game seats (0..3; partners 0 & 2, 1 & 3), actions the engine's own strings. Reading a
record back replays it on the engine: from its seed, checking that every deal written is the
deal the seed gives (so the file and the game cannot disagree), or, with `play_deals=True`, from
the deals written in the file (a hand-made or edited record).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.engine.common import EngineError
from bot.tables.games import GAME_NAMES, rules_for
from bot.tables.replay import HAND_DEALT, Deal, dealt, walk

HEADER = "# card-table hand record 1"


class HandRecordError(ValueError):
    """The text is not a hand record, or the game it describes does not replay."""


@dataclass
class HandRecord:
    game: str
    options: dict[str, Any]
    seed: int
    first_dealer: int | None
    deals: list[Deal] = field(default_factory=list)
    actions: list[tuple[int, str]] = field(default_factory=list)
    result: tuple[int, int] | None = None


def record_of(
    game_name: str,
    options: dict[str, Any],
    seed: int,
    first_dealer: int | None,
    actions: Sequence[Sequence[Any]],
) -> tuple[HandRecord, Any]:
    """The record of a stored game, and the engine game it replays to."""
    record = HandRecord(game_name, dict(options), seed, first_dealer)
    game: Any = None
    for game, count, events in walk(game_name, options, seed, first_dealer, actions):
        if count:
            seat, action = actions[count - 1]
            record.actions.append((int(seat), str(action)))
        if any(event.kind == HAND_DEALT for event in events):
            record.deals.append(dealt(game))
    record.options = game.options.to_dict()  # every option, defaults filled in
    record.first_dealer = game.first_dealer
    record.result = tuple(game.scores) if game.is_over else None
    return record, game


def export_text(
    game_name: str,
    options: dict[str, Any],
    seed: int,
    first_dealer: int | None,
    actions: Sequence[Sequence[Any]],
) -> str:
    """The hand record of a stored game as text."""
    record, _ = record_of(game_name, options, seed, first_dealer, actions)
    return format_record(record)


def format_record(record: HandRecord) -> str:
    lines = [
        HEADER,
        f"game: {record.game}",
        f"seed: {record.seed}",
        f"first_dealer: {record.first_dealer}",
        f"options: {json.dumps(record.options, sort_keys=True)}",
    ]
    # Actions go under the hand they belong to: a hand's deal is printed before its first action.
    deals = list(record.deals)
    for index, (seat, action) in enumerate([*record.actions, (-1, "")]):
        while deals and deals[0].at <= index:
            deal = deals.pop(0)
            lines.append(f"hand {deal.hand_number + 1}: dealer {deal.dealer}")
            lines.extend(f"seat {s}: {' '.join(hand)}" for s, hand in enumerate(deal.hands))
            if deal.kitty is not None:
                lines.append(f"kitty: {' '.join(deal.kitty)}")
        if seat >= 0:
            lines.append(f"{seat} {action}")
    if record.result is not None:
        lines.append(f"result: {record.result[0]}-{record.result[1]}")
    return "\n".join(lines) + "\n"


def _deal_source(by_hand: dict[int, Deal]) -> Any:
    def deal(hand_number: int, _dealer: int) -> Any:
        found = by_hand.get(hand_number)
        if found is None:
            raise HandRecordError(f"the record has no deal for hand {hand_number + 1}")
        if found.kitty is None:
            return [list(hand) for hand in found.hands]
        return [list(hand) for hand in found.hands], list(found.kitty)

    return deal


def parse_record(text: str) -> HandRecord:
    """The record in `text`; raises HandRecordError naming the line it cannot read."""
    header: dict[str, str] = {}
    deals: list[Deal] = []
    actions: list[tuple[int, str]] = []
    current: dict[str, Any] | None = None

    def close_hand() -> None:
        if current is not None:
            if len(current["hands"]) != 4:
                raise HandRecordError(
                    f"hand {current['number'] + 1} lists {len(current['hands'])} seats, not 4"
                )
            deals.append(
                Deal(
                    current["number"],
                    current["dealer"],
                    current["hands"],
                    current["kitty"],
                    current["at"],
                )
            )

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            word, _, rest = line.partition(" ")
            if word.isdigit():
                actions.append((int(word), rest.strip()))
            elif word == "hand":
                close_hand()
                hand, _, dealer = rest.partition(": dealer ")
                current = {
                    "number": int(hand) - 1,
                    "dealer": int(dealer),
                    "hands": [],
                    "kitty": None,
                    "at": len(actions),
                }
            elif word == "seat" and current is not None:
                seat, _, cards = rest.partition(":")
                if int(seat) != len(current["hands"]):
                    raise ValueError("seats must be listed 0, 1, 2, 3")
                current["hands"].append(cards.split())
            elif word == "kitty:" and current is not None:
                current["kitty"] = rest.split()
            elif word.endswith(":") and word[:-1] in (
                "game",
                "seed",
                "first_dealer",
                "options",
                "result",
            ):
                header[word[:-1]] = rest.strip()
            else:
                raise ValueError("not a line of a hand record")
        except ValueError as error:
            raise HandRecordError(f"line {number}: {error} ({raw.strip()[:60]!r})") from None
    close_hand()
    try:
        game = header["game"]
        if game not in GAME_NAMES:
            raise HandRecordError(f"unknown game {game!r}")
        dealer = header.get("first_dealer", "None")
        result = header.get("result")
        return HandRecord(
            game=game,
            options=_options(header.get("options", "{}")),
            seed=int(header["seed"]),
            first_dealer=None if dealer == "None" else int(dealer),
            deals=deals,
            actions=actions,
            result=None if result is None else _score(result),
        )
    except KeyError as missing:
        raise HandRecordError(f"the record has no {missing.args[0]!r} line") from None
    except ValueError as error:
        raise HandRecordError(str(error)) from None


def _options(text: str) -> dict[str, Any]:
    """The options line: one JSON object. Anything else a file may hold (null, a list, a
    string, JSON nested too deep to read) is a record that does not replay, not a crash."""
    try:
        options = json.loads(text)
    except RecursionError:
        raise HandRecordError("the options are nested too deep") from None
    if not isinstance(options, dict):
        raise HandRecordError(f"the options are not a JSON object ({text[:40]!r})")
    return options


def _score(text: str) -> tuple[int, int]:
    first, _, second = text.partition("-")
    return int(first), int(second)


def game_of(record: HandRecord, *, play_deals: bool = False) -> Any:
    """The engine game the record describes, replayed. From the seed (every written deal must be
    the seed's), or from the written deals with `play_deals`. The result line, if any, must
    match the final score."""
    rules = rules_for(record.game)
    try:
        rules.options(record.options)
        if play_deals:
            by_hand = {deal.hand_number: deal for deal in record.deals}
            steps = walk(
                record.game,
                record.options,
                record.seed,
                record.first_dealer,
                record.actions,
                deals=_deal_source(by_hand),
            )
            game: Any = None
            for game, _, _ in steps:  # noqa: B007 -- the game after the last action is wanted
                pass
        else:
            replayed, game = record_of(
                record.game, record.options, record.seed, record.first_dealer, record.actions
            )
            if record.deals and _deal_cards(replayed.deals) != _deal_cards(record.deals):
                raise HandRecordError("the deals written are not the deals of this seed")
    except HandRecordError:
        raise
    except EngineError as error:
        raise HandRecordError(f"the game does not replay: {error}") from error
    except (ValueError, TypeError, LookupError, ArithmeticError, RecursionError) as error:
        # The file is anyone's: whatever else its values make the engine trip on is a record
        # that does not replay, answered as such (never "something went wrong").
        raise HandRecordError(f"the game does not replay ({type(error).__name__})") from None
    if record.result is not None and tuple(game.scores) != record.result:
        raise HandRecordError(f"the record says {record.result}, the game ends {game.scores}")
    return game


def _deal_cards(deals: list[Deal]) -> list[tuple[Any, ...]]:
    """What must agree between two records' deals (a kitty's face-down order plays no part)."""
    return [
        (
            d.hand_number,
            d.dealer,
            [sorted(h) for h in d.hands],
            None if d.kitty is None else (d.kitty[0], sorted(d.kitty)),
        )
        for d in deals
    ]


def import_text(text: str, *, play_deals: bool = False) -> Any:
    """The engine game of a hand record's text (see `game_of`)."""
    return game_of(parse_record(text), play_deals=play_deals)
