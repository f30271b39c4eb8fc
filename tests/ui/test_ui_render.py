"""Table and hand messages, rendered at every step of seeded random games of both engines.

Checks what Discord would check (lengths, 25 components, unique custom ids of at most 100
characters) and what the players must be able to trust: the public message shows no card still
hidden in a hand, a hand message shows no other seat's hidden card, the buttons are exactly the
seat's legal actions, and every text comes from the catalog.
"""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

from bot.engine import euchre, truco
from bot.tables.games import rules_for
from bot.tables.records import SeatRecord, TableRecord
from bot.tables.service import Table
from bot.ui.table import render
from bot.ui.words.cards import cards_in_text
from tests.support.render import (
    USERS,
    buttons,
    check_discord_limits,
    check_step,
    items,
    make_table,
    play_out,
    texts_of,
)

EUCHRE_OPTIONS = [
    {},
    {"alone": "maker", "lead": "left_of_dealer", "stick_the_dealer": True},
    {"deck": 32, "joker": True, "seating": "draw", "target": 5},
    {"deck": 28, "joker": True, "match": "rubber", "target": 5},
]


@pytest.mark.parametrize("options", EUCHRE_OPTIONS)
async def test_euchre_messages_at_every_step(options: dict[str, Any]) -> None:
    table = make_table("euchre", options, seed=hash(str(sorted(options.items()))) & 0xFFFF)
    play_out(table, random.Random(11), check_every=2)
    result = render.table_message(table)
    assert "Game over" in result.content


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_truco_messages_at_every_step(seed: int) -> None:
    table = make_table("truco", {}, seed=seed, bots={1})
    play_out(table, random.Random(seed))


async def test_T13_partner_cards_only_in_the_pair_at_ten_hand_message() -> None:
    # Play random truco games until one reaches a hand of ten; check who sees what there.
    for seed in range(200):
        table = make_table("truco", {}, seed=seed)
        game = table.game
        rng = random.Random(seed)
        while not game.is_over and game.phase != "hand_of_ten":
            seat = rng.choice(game.to_act)
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            table.record.version += 1
        if game.phase != "hand_of_ten":
            continue
        team = game.view(None)["hand_of_ten"]
        for seat in range(4):
            partner_cards = set(game.view((seat + 2) % 4)["hand"])
            shown = cards_in_text(render.hand_message(table, seat).content)
            if seat % 2 == team:
                assert partner_cards <= shown
            else:
                assert not partner_cards & shown
        check_step(table)
        return
    pytest.fail("no hand of ten in 200 seeded games")


async def test_lobby_message_buttons() -> None:
    rules = rules_for("euchre")
    record = TableRecord(
        id=7,
        guild_id=1,
        channel_id=2,
        host_id=101,
        game="euchre",
        options=rules.normalise_options({}),
        version=1,
        seats=[SeatRecord(101, "Ana"), None, SeatRecord(None, "Bot 3", True, "hard"), None],
    )
    table = Table(record=record, rules=rules)
    parts = render.table_message(table)
    check_discord_limits(parts)
    by_id = {b.custom_id: b for b in items(parts)}
    assert by_id["tb:7:bot:hard"].label == "Add bot: hard"
    assert by_id["tb:7:seat:0"].disabled  # a human sits there
    assert not by_id["tb:7:seat:2"].disabled  # a bot's seat may be taken over
    assert by_id["tb:7:start"].disabled  # two seats are empty
    assert set(by_id) == {
        "tb:7:seat:0",
        "tb:7:seat:1",
        "tb:7:seat:2",
        "tb:7:seat:3",
        "tb:7:join",
        "tb:7:leave",
        "tb:7:bot:easy",
        "tb:7:bot:normal",
        "tb:7:bot:hard",
        "tb:7:start",
        "tb:7:cancel",
        "tb:7:set:turn_timer",  # one button per table setting (issue 10)
        "tb:7:set:pings",
        "tb:7:set:ping_after",  # issue 25
        "tb:7:set:pictures",
    }
    # Issue 21 item 7: the turn timer is a menu of its values (one pick), the current one chosen.
    timer = by_id["tb:7:set:turn_timer"]
    assert isinstance(timer, discord.ui.Select)
    assert [(o.label, o.value) for o in timer.options] == [
        ("Turn timer: off", "0"),
        ("Turn timer: 30 s", "30"),
        ("Turn timer: 1 min", "60"),
        ("Turn timer: 2 min", "120"),
        ("Turn timer: 5 min", "300"),
    ]
    assert [o.label for o in timer.options if o.default] == ["Turn timer: 2 min"]
    rows = parts.view.to_components()  # the lobby keeps its embed and buttons (issue 30)
    timer_row = next(r for r in rows if r["components"][0]["type"] == 3)
    assert len(timer_row["components"]) == 1  # a select fills its row (Discord's rule)
    assert by_id["tb:7:set:ping_after"].label == "Ping after: 15 s idle"
    assert by_id["tb:7:set:pings"].label == "Turn pings: on"
    assert "Ana" in repr(parts.embed.to_dict())
    assert "Bot 3 (hard)" in repr(parts.embed.to_dict())  # the seat shows its level


def test_engines_expose_every_event_kind_the_log_knows() -> None:
    from bot.ui.words.events import LOGGED_KINDS

    assert LOGGED_KINDS["euchre"] <= set(euchre.EVENT_KINDS)
    assert LOGGED_KINDS["truco"] <= set(truco.events.ALL_KINDS)


# --- issue 10: pings and the marks of a seat a bot plays for -----------------------------------


def test_a_truco_ask_pings_both_human_partners_and_nobody_else() -> None:
    """T9: either partner may answer an ask, so the ping names both (and only them)."""
    seed = next(s for s in range(100) if make_table("truco", {}, s).game.to_act == [1])  # type: ignore[union-attr]
    table = make_table("truco", {}, seed, bots={1, 3})
    assert table.game is not None
    table.game.apply(1, "raise")  # a bot asks truco
    assert sorted(table.game.to_act) == [0, 2]
    content, users = render.ping_message(table)
    assert users == [USERS[0], USERS[2]]
    assert content.startswith(f"🃏 <@{USERS[0]}> <@{USERS[2]}>: your turn")
    assert render.ping_key(table) is not None
    table.record.settings = {"pings": False}
    assert render.ping_key(table) is None  # the table option turns pings off


def test_a_turn_pings_only_once_the_player_has_been_idle_ping_after_seconds() -> None:
    """Issue 25: no ping while the turn is fresh; due `ping_after` s after it reached them;
    `ping_after` 0 pings at once, as before."""
    seed = next(s for s in range(100) if make_table("euchre", {}, s).game.to_act == [0])  # type: ignore[union-attr]
    table = make_table("euchre", {}, seed, bots={1, 2, 3})
    assert table.humans_to_act() == [0]
    table.record.turn_since = 1000.0
    assert render.ping_key(table) is None
    assert table.ping_due() == 1000.0 + 15  # the default
    table.ping_due_for = 1000.0  # the turn timers saw the time come
    assert render.ping_key(table) is not None
    assert table.ping_due() is None  # due once per turn
    table.record.turn_since = 1005.0  # a new turn: quiet again
    assert render.ping_key(table) is None
    table.record.turn_warned = True  # half time: the warning pings, idle or not
    assert render.ping_key(table) is not None
    table.record.turn_warned = False
    table.record.settings = {"ping_after": 0}
    assert render.ping_key(table) is not None and table.ping_due() is None


def test_a_covered_seat_is_marked_and_offers_im_back() -> None:
    table = make_table("euchre", {}, 3, bots={1, 2, 3})
    seats = list(table.record.seats)
    assert seats[0] is not None
    seats[0] = SeatRecord(USERS[0], "Player1", missed=1)
    table.record.seats = seats
    parts = render.table_message(table)
    check_discord_limits(parts)
    assert f"🤖 playing for <@{USERS[0]}>" in "\n".join(texts_of(parts))
    assert "I'm back" in [b.label for b in buttons(parts)]
    seats[0] = SeatRecord(USERS[0], "Player1", missed=3, away=True)
    parts = render.table_message(table)
    assert f"🤖 playing for <@{USERS[0]}> until they are back" in "\n".join(texts_of(parts))


def test_raw_button_rows_are_placed_as_a_view_places_them() -> None:
    """bot/ui/components.Buttons writes Discord's JSON itself: the same rows, in the same order,
    as discord.ui.View with the same buttons (a free row is the first with room), and a full
    row refuses another button as a View does."""
    from bot.ui.kit.components import Buttons
    from bot.ui.table.buttons import TableButton

    rows = [None, 2, None, None, 1, None, 2, None, 3, None]
    raw, view = Buttons(), discord.ui.View(timeout=None)
    emoji = discord.PartialEmoji(name="card_AS", id=123)
    for index, row in enumerate(rows):
        custom_id, label = f"tb:1:b{index}", f"B{index}"
        style = discord.ButtonStyle.primary if index % 2 else discord.ButtonStyle.secondary
        raw.add(custom_id, label=label, style=style, disabled=index == 3, emoji=emoji, row=row)
        view.add_item(
            TableButton(
                custom_id, label=label, style=style, disabled=index == 3, emoji=emoji, row=row
            )
        )
    assert raw.to_components() == view.to_components()
    drawn = [c["custom_id"] for r in raw.to_components() for c in r["components"]]
    assert [b.custom_id for b in raw.children] == drawn and len(drawn) == len(rows)
    full = Buttons()
    for index in range(5):
        full.add(f"tb:1:r{index}", label="x", row=1)
    with pytest.raises(ValueError):
        full.add("tb:1:r5", label="x", row=1)
