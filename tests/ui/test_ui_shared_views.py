"""Issue 31: one view per state along a message's path. The table message and its picture share
one `game.view(None)`, a hand message and its seat picture one `game.view(seat)`, and the
engine answers `fair_view()` and `cards_down` without building a view. At every step of seeded
random games (both engines, fair-v2, fair-v1 and seeded deals, pictures on and off), each
shared path gives exactly what the path that builds its own views gives, and leaves the view
it was handed unchanged (a shared view is read, never written)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from bot.engine import fair_deal
from bot.pictures.scene import scene_of, seat_scene_of
from bot.tables import pace
from bot.tables.fair import fair_view
from bot.tables.service import Table
from bot.ui.table import render
from tests.support.render import make_table, texts_of

PLAYERS = ["12", "13", "14", "15"]
MESSAGE = 1_300_000_000_000_000_000  # the fair-v2 commitment message's snowflake


def cut_now(table: Table, rng: random.Random) -> None:
    """The hand waiting for its cut is cut (fair-v2: the message first, then the beacon)."""
    game = table.game
    assert game is not None
    fair = game.view(None)["fair"]
    if fair["version"] == 1:
        action = f"cut:{rng.getrandbits(60)}"
    elif fair["message"] is None:
        action = f"cut:msg:{MESSAGE}"
    else:
        rnd = fair_deal.beacon_round(MESSAGE, fair["hand"])
        kind = rng.choice(["drand", "weak"])
        value = f"{rng.getrandbits(256):064x}" if kind == "drand" else str(rng.getrandbits(60))
        typed = rng.choice(["", ":typed", ":a:b:c"])
        action = f"cut:{kind}:{rnd}:{value}{typed}"
    game.apply(fair["cutter"], action)


def check_state(table: Table) -> None:
    game = table.game
    assert game is not None
    public = game.view(None)
    assert game.fair_view() == public.get("fair")
    assert fair_view(table) == fair_view(table, public) == public.get("fair")
    assert game.cards_down == bool(public["trick"])
    assert pace.cards_down(game) == (not game.is_over and bool(public["trick"]))

    shared = game.view(None)
    kept = copy.deepcopy(shared)
    for picture in (True, False):
        alone = render.table_message(table, picture=picture)
        together = render.table_message(table, picture=picture, view=shared)
        assert texts_of(together) == texts_of(alone)
    assert scene_of(table, "pt-BR", shared) == scene_of(table, "pt-BR")
    assert shared == kept

    for seat in range(4):
        own = game.view(seat)
        kept = copy.deepcopy(own)
        alone = render.hand_message(table, seat)
        together = render.hand_message(table, seat, view=own)
        assert texts_of(together) == texts_of(alone)
        assert seat_scene_of(table, seat, None, 0.0, own) == seat_scene_of(table, seat, None, 0.0)
        assert own == kept


def play(table: Table, rng: random.Random, check_every: int) -> int:
    game = table.game
    assert game is not None
    steps = 0
    while not game.is_over:
        if steps % check_every == 0:
            check_state(table)
        if game.phase == "cut":
            cut_now(table, rng)
        else:
            seat = rng.choice(game.to_act)
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        table.record.version += 1
        steps += 1
    check_state(table)
    for record in game.fair_records():  # the records rebuilt as the views rebuild them
        if record["version"] == 2:
            parsed = fair_deal.parse_cut_v2(record["cut"])
            assert record["game_commitment"] == fair_deal.game_commitment(game.seed)
            assert (record["round"], record["weak"]) == (parsed["round"], parsed["kind"] == "weak")
            assert (record["randomness"], record["typed"]) == (
                parsed.get("randomness"),
                parsed["typed"],
            )
    return steps


@pytest.mark.parametrize("game_name", ["euchre", "truco"])
@pytest.mark.parametrize("deal", ["fair-v2", "fair-v1", "seeded"])
@pytest.mark.parametrize("pictures", [True, False])
def test_a_shared_view_gives_what_fresh_views_give(
    game_name: str, deal: str, pictures: bool
) -> None:
    options: dict[str, Any] = {}
    if deal != "seeded":
        options = {"deal": deal, "players": PLAYERS}
    seed = (1 << 255) + len(deal) * 7 + pictures
    rng = random.Random(seed)
    table = make_table(game_name, options, seed=seed, bots={3}, pictures=pictures)
    assert play(table, rng, check_every=3) > 5
