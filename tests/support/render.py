"""Stored table records built for the rendering tests."""

from __future__ import annotations

import random
from typing import Any

import discord

from bot.tables import alone
from bot.tables.games import rules_for
from bot.tables.records import SeatRecord, TableRecord
from bot.tables.service import Table
from bot.ui.kit.custom_ids import parse_game_action, parse_table_button
from bot.ui.kit.layout import Layout
from bot.ui.kit.message_parts import MessageParts
from bot.ui.table import render
from bot.ui.words.cards import card_text, cards_in_text
from emulator.limits import INTERACTION_MESSAGE_FLAGS, IS_COMPONENTS_V2, validate_message

USERS = [101, 102, 103, 104]


def make_table(
    game_name: str,
    options: dict[str, Any],
    seed: int,
    bots: set[int] = frozenset(),
    *,
    pictures: bool = False,
) -> Table:
    """A table in play. Pictures off by default: the messages then keep their complete text
    (issue 30: beside a picture they are compact), which most renderer tests read."""
    rules = rules_for(game_name)
    options = rules.normalise_options(options)
    seats = [
        SeatRecord(None, f"Bot {p + 1}", is_bot=True)
        if p in bots
        else SeatRecord(USERS[p], f"Player{p + 1}")
        for p in range(4)
    ]
    game = rules.new_game(options, seed)
    record = TableRecord(
        id=42,
        guild_id=1,
        channel_id=2,
        host_id=USERS[0],
        game=game_name,
        options=options,
        status="playing",
        version=3,
        seats=seats,
        message_id=99,
        seed=seed,
        first_dealer=game.first_dealer,
        settings={"pictures": pictures},
    )
    return Table(
        record=record, rules=rules, game=game, seat_of_position=rules.seat_of_position(game)
    )


def items(parts: MessageParts) -> list[Any]:
    """The message's buttons and select menus (the lobby's turn timer is a menu)."""
    assert parts.view is not None
    return [getattr(item, "item", item) for item in parts.view.children]


def buttons(parts: MessageParts) -> list[discord.ui.Button[Any]]:
    return [item for item in items(parts) if isinstance(item, discord.ui.Button)]


def play_out(table: Table, rng: random.Random, check_every: int = 1) -> int:
    game = table.game
    steps = 0
    while not game.is_over:
        if steps % check_every == 0:
            check_step(table)
        seat = rng.choice(game.to_act)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        table.record.version += 1
        steps += 1
    check_step(table)
    return steps


def texts_of(parts: MessageParts) -> list[str]:
    """Every string a reader of the message can see (custom ids included: clients receive them)."""
    out = [parts.content]
    if parts.embed is not None:
        out.append(repr(parts.embed.to_dict()))
    if parts.view is not None:
        for item in parts.view.children:
            button = getattr(item, "item", item)
            if isinstance(button, discord.ui.Select):  # a lobby menu: its choices are read
                out += [str(button.placeholder)] + [o.label for o in button.options]
            else:
                out.append(str(button.label))
            out.append(str(button.custom_id))
    return out


def check_discord_limits(parts: MessageParts) -> None:
    assert len(parts.content) <= 2000
    if parts.embed is not None:
        embed = parts.embed
        assert len(embed) <= 6000
        assert len(embed.fields) <= 25
        for f in embed.fields:
            assert 1 <= len(f.value or "") <= 1024 and len(f.name or "") <= 256
    if isinstance(parts.view, Layout):  # Components V2 (issue 30): the emulator's own check
        errors = validate_message(
            {"flags": IS_COMPONENTS_V2, "components": parts.view.to_components()},
            allowed_flags=INTERACTION_MESSAGE_FLAGS,
        )
        assert not errors, errors
    if parts.view is not None:
        rows = (
            parts.view.buttons.to_components()
            if isinstance(parts.view, Layout)
            else parts.view.to_components()
        )
        assert len(rows) <= 5
        ids = []
        for row in rows:
            assert 1 <= len(row["components"]) <= 5
            for component in row["components"]:
                assert len(component["custom_id"]) <= 100
                assert 1 <= len(component.get("label", "x")) <= 80
                ids.append(component["custom_id"])
        assert len(ids) == len(set(ids)) and len(ids) <= 25


def revealed_cards(table: Table) -> set[str]:
    """Cards that have been public at some point of the game: played, turned up, drawn. Truco's
    manilhas are named with their cards in every hand (T4, fixed: nobody's hand is told)."""
    game = table.game
    seen: set[str] = set(render.TRUCO_MANILHAS) if table.game_name == "truco" else set()
    for _, action in game.actions:
        if action.startswith("play:"):
            seen.add(action.split(":")[1])
    for event in game.events:
        if event.kind == "hand_dealt" and "turned_card" in event.data:
            seen.add(event.data["turned_card"])
        if event.kind == "seating_drawn":
            seen.update(d["card"] for r in event.data["rounds"] for d in r)
    return seen


def check_step(table: Table) -> None:
    game = table.game
    hands = {seat: set(game.view(seat)["hand"]) for seat in range(4)}
    revealed = revealed_cards(table)

    public = render.table_message(table)
    check_discord_limits(public)
    shown = set().union(*(cards_in_text(text) for text in texts_of(public)))
    hidden_somewhere = set().union(*hands.values()) - revealed
    assert not shown & hidden_somewhere, (
        f"public message shows hidden cards {shown & hidden_somewhere}"
    )
    public_view = game.view(None)
    for seat in public_view["to_act"]:
        player = table.player_at(seat)
        if not player.is_bot:
            assert f"<@{player.user_id}>" in public.content
    for entry in public_view["trick"]:
        assert card_text(entry["card"]) in repr(public.embed.to_dict())

    for seat in range(4):
        view = game.view(seat)
        mine = render.hand_message(table, seat)
        check_discord_limits(mine)
        visible = set(view["hand"]) | set(view.get("partner_hand") or ()) | revealed
        if view.get("discard"):
            visible.add(view["discard"])
        others = set().union(*(hands[s] for s in range(4) if s != seat)) - visible
        shown = set().union(*(cards_in_text(text) for text in texts_of(mine)))
        assert not shown & others, f"seat {seat} sees {shown & others}"
        enabled = set()
        for button in buttons(mine):
            game_id = parse_game_action(button.custom_id or "")
            if game_id is not None:
                assert game_id.table_id == table.id and game_id.version == table.version
                if not button.disabled:
                    enabled.add(game_id.action)
            else:
                assert parse_table_button(button.custom_id or "") is not None
        # Truco's sinais (issue 35): the signals the seat may send are buttons too.
        signals = set((view.get("signals") or {}).get("can_send", ()))
        assert enabled == set(alone.alone_variants(table, view["legal_actions"])) | signals
