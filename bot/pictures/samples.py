"""Seeded tables stopped at each stage a picture must show, for the tests, the benchmark and the
pictures under docs/: `python -m bot.pictures.samples docs/` draws docs/euchre-table.png,
docs/truco-table.png, docs/euchre-seat.png and docs/truco-seat.png again.
"""

from __future__ import annotations

import dataclasses
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.pictures.scene import SeatScene, scene_of, seat_scene_of
from bot.pictures.seat import seat_png
from bot.pictures.table import table_png
from bot.tables.games import rules_for
from bot.tables.records import SeatRecord, TableRecord
from bot.tables.service import Table

NAMES = ("Ana Beatriz", "Bruno", "Carla", "Diego")
Stop = Callable[[dict[str, Any]], bool]


def lobby_table(game_name: str, seated: int = 3) -> Table:
    rules = rules_for(game_name)
    seats: list[SeatRecord | None] = [
        SeatRecord(100 + p, NAMES[p]) if p < seated else None for p in range(4)
    ]
    record = TableRecord(
        id=7,
        guild_id=1,
        channel_id=2,
        host_id=100,
        game=game_name,
        options=rules.normalise_options({}),
        status="lobby",
        version=seated,
        seats=seats,
    )
    return Table(record=record, rules=rules)


def played_table(game_name: str, seed: int, stop: Stop, *, bias: tuple[str, ...] = ()) -> Table:
    """A game played with seeded random legal actions until `stop(public view)` holds.
    Actions starting with a word of `bias` are preferred (to reach a raised truco hand)."""
    rules = rules_for(game_name)
    options = rules.normalise_options({})
    game = rules.new_game(options, seed)
    pick = random.Random(seed)
    steps = 0
    while not stop(game.view(None)):
        view = game.view(None)
        if view["is_over"]:
            raise ValueError(f"seed {seed}: the game ended before the stage was reached")
        seat = view["to_act"][0]
        legal = game.legal_actions(seat)
        preferred = [a for a in legal if a.startswith(bias)] if bias else []
        game.apply(seat, pick.choice(preferred or legal))
        steps += 1
    seats: list[SeatRecord | None] = [SeatRecord(100 + p, NAMES[p]) for p in range(4)]
    seats[3] = SeatRecord(None, "bot", is_bot=True)
    record = TableRecord(
        id=7,
        guild_id=1,
        channel_id=2,
        host_id=100,
        game=game_name,
        options=options,
        status="playing",
        version=5 + steps,
        seats=seats,
        seed=seed,
        first_dealer=game.first_dealer,
    )
    return Table(
        record=record, rules=rules, game=game, seat_of_position=rules.seat_of_position(game)
    )


def stages(game_name: str) -> dict[str, Table]:
    """One table per stage of `game_name`, by stage name."""
    tables = {"lobby": lobby_table(game_name)}
    if game_name == "euchre":
        tables["bidding"] = played_table("euchre", 1, lambda v: v["phase"] == "bidding1")
        tables["trick"] = played_table(
            "euchre", 2, lambda v: len(v["trick"]) == 3 and sum(v["tricks_won"]) == 2
        )
    else:
        tables["trick"] = played_table(
            "truco", 3, lambda v: len(v["trick"]) == 2 and bool(v["rounds"])
        )
        tables["raised"] = played_table(
            "truco",
            4,
            lambda v: v["hand_value"] > 2 and len(v["trick"]) == 1,
            bias=("raise", "accept", "play"),
        )
        tables["hand_of_ten"] = played_table(
            "truco", 2, lambda v: v["hand_of_ten"] is not None and v["phase"] == "hand_of_ten"
        )
    tables["hand_end"] = played_table(
        game_name,
        6,
        lambda v: v["hand_number"] == 2 and not v["trick"] and not any(v["tricks_won"]),
    )
    tables["game_end"] = played_table(game_name, 7, lambda v: v["is_over"])
    return tables


def picture(table: Table) -> bytes:
    return table_png(scene_of(table))


def seat_scene(table: Table, seconds_left: int | None = None) -> SeatScene:
    """The own picture of the (first) seat to act at `table`."""
    assert table.game is not None
    seat = table.game.view(None)["to_act"][0]
    scene = seat_scene_of(table, seat)
    assert scene is not None
    return dataclasses.replace(scene, seconds_left=seconds_left)


def seat_samples() -> dict[str, SeatScene]:
    """The docs' seat pictures: a euchre player who must follow suit (one card to play, a
    bower in hand), a truco player holding the zap in a raised hand, each with time running."""
    euchre = played_table(
        "euchre",
        6,
        lambda v: (
            len(v["trick"]) == 2
            and sum(v["tricks_won"]) == 2
            and min(v["scores"]) >= 2
            and not v["alone"]
        ),
    )
    truco = played_table(
        "truco",
        48,
        lambda v: (
            v["hand_value"] > 2
            and len(v["trick"]) == 1
            and len(v["rounds"]) == 1
            and min(v["scores"]) >= 2
            and v["pending_ask"] is None
            and v["hand_of_ten"] is None
        ),
        bias=("raise", "accept", "play"),
    )
    return {"euchre": seat_scene(euchre, 95), "truco": seat_scene(truco, 40)}


def main(folder: str) -> None:
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    euchre = played_table(
        "euchre",
        7,
        lambda v: (
            len(v["trick"]) == 3
            and v["tricks_won"] == [1, 1]
            and min(v["scores"]) >= 2
            and not v["alone"]
        ),
    )
    truco = played_table(
        "truco",
        34,
        lambda v: (
            v["hand_value"] > 2
            and len(v["trick"]) == 2
            and len(v["rounds"]) == 1
            and min(v["scores"]) >= 2
            and v["pending_ask"] is None
            and v["hand_of_ten"] is None
        ),
        bias=("raise", "accept", "play"),
    )
    (out / "euchre-table.png").write_bytes(picture(euchre))
    (out / "truco-table.png").write_bytes(picture(truco))
    for game, scene in seat_samples().items():
        (out / f"{game}-seat.png").write_bytes(seat_png(scene))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs")
