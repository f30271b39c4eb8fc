"""Issue 33: a fuzz test of the names people bring (display names, up to Discord's 32 characters
and beyond): whatever a name holds, every message that shows it (the lobby, the game, each
private hand, the result, a tournament's standings) stays within Discord's limits, mentions
only the table's own players (never @everyone, a role or a stranger: the name's `<@…>` is shown,
not parsed), and keeps its lines (no line break or bidi control from a name).

Run counts (hypothesis, derandomized): 120 examples by default, 2000 under `-m slow`."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.tables.records import SeatRecord, TableRecord
from bot.tables.table import Table, rebuilt
from bot.tables.tournament import Tournament, TournamentConfig
from bot.ui.kit.layout import Layout
from bot.ui.kit.message_parts import MessageParts
from bot.ui.table import render
from bot.ui.tournament.standings import standings_text
from bot.ui.words.names import BIDI_CONTROLS
from emulator.limits import IS_COMPONENTS_V2, validate_message

QUICK = settings(
    max_examples=120,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
LONG = settings(QUICK, max_examples=2000)
USERS = (101, 102, 103)
PIECES = [
    "@everyone",
    "@here",
    "<@999>",
    "<@!999>",
    "<@&777>",
    "<#555>",
    "</table show:1>",
    "<t:1:R>",
    "**",
    "__",
    "~~",
    "`",
    "```",
    "||",
    "> ",
    "# ",
    "- ",
    "1. ",
    "[x](https://evil.example)",
    "https://evil.example",
    "\n",
    "\r",
    "\t",
    "\u202e",
    "\u2066",
    "\u200b",
    "\u200d",
    "\x00",
    "\\",
    "👨‍👩‍👧",
    "ﷺ",
    "Ana",
]
NAMES = st.one_of(
    st.lists(st.sampled_from(PIECES), min_size=1, max_size=6).map("".join),
    st.text(min_size=1, max_size=32),
    st.text(min_size=1, max_size=200),  # past Discord's limit: the bot must not rely on it
)
MENTION = re.compile(r"<@[!&]?(\d+)>")


def table_with(names: list[str], game: str, status: str, seed: int) -> Table:
    """A table of three people named `names` and a bot, in `status` (a game played at random
    to its end for "finished", a few moves in for "playing")."""
    seats: list[SeatRecord | None] = [SeatRecord(u, n) for u, n in zip(USERS, names, strict=True)]
    seats.append(SeatRecord(None, "Bot 4", is_bot=True, level="easy"))
    record = TableRecord(
        id=7, guild_id=1, channel_id=2, host_id=USERS[0], game=game, options={}, seats=seats
    )
    table = rebuilt(record, 0.0)
    record.options = table.rules.normalise_options(None)
    if status == "lobby":
        return table
    game_ = table.rules.new_game(record.options, seed)
    rng = random.Random(seed)
    moves = 10**6 if status == "finished" else rng.randint(0, 30)
    while not game_.is_over and moves:
        seat = game_.to_act[0]
        game_.apply(seat, rng.choice(game_.legal_actions(seat)))
        moves -= 1
    record.status = "finished" if game_.is_over else "playing"
    record.seed, record.first_dealer = seed, game_.first_dealer
    record.actions = [tuple(a) for a in game_.actions]  # type: ignore[misc]
    record.version = 2 + len(record.actions)
    return rebuilt(record, 0.0)


def payload(parts: MessageParts) -> dict[str, Any]:
    """What the bot sends: a Components V2 layout (issue 30) carries its words itself."""
    if isinstance(parts.view, Layout):
        return {"flags": IS_COMPONENTS_V2, "components": parts.view.to_components()}
    out: dict[str, Any] = {"content": parts.content}
    if parts.embed is not None:
        out["embeds"] = [parts.embed.to_dict()]
    if parts.view is not None:
        out["components"] = parts.view.to_components()
    return out


def check(parts: MessageParts, where: str) -> None:
    body = payload(parts)
    errors = validate_message(body, allowed_flags=(1 << 6) | IS_COMPONENTS_V2)
    assert not errors, (where, errors.flat)
    text = repr(body)
    layout_words = parts.view.text if isinstance(parts.view, Layout) else ""
    for raw in (
        body.get("content") or "",
        layout_words,
        *(e.get("description") or "" for e in body.get("embeds", [])),
    ):
        assert "@everyone" not in raw and "@here" not in raw, (where, raw)
        assert set(MENTION.findall(raw)) <= {str(u) for u in USERS}, (where, raw)
        assert not set(raw) & BIDI_CONTROLS, (where, raw)
    assert "\\u202e" not in text, where


def messages_of(table: Table) -> list[tuple[str, MessageParts]]:
    shown = [("table", render.table_message(table, None))]
    if table.status == "playing" and table.game is not None:
        for seat in range(4):
            if not table.is_bot_seat(seat):
                shown.append((f"hand {seat}", render.hand_message(table, seat, None)))
    return shown


def names_are_shown_safely(names: list[str], game: str, status: str, seed: int) -> None:
    table = table_with(names, game, status, seed)
    for where, parts in messages_of(table):
        check(parts, f"{game} {table.status} {where}")
    night = Tournament(TournamentConfig(rounds=1, hands=1))
    for user, name in zip(USERS, names, strict=True):
        night.apply(f"join:{user}:{name.replace(':', ' ')[:32] or user}")
    text = standings_text(night, None)
    assert len(text) <= 2000 and "@everyone" not in text
    assert set(MENTION.findall(text)) <= {str(u) for u in USERS}


@QUICK
@given(
    st.lists(NAMES, min_size=3, max_size=3),
    st.sampled_from(["euchre", "truco"]),
    st.sampled_from(["lobby", "playing", "finished"]),
    st.integers(0, 10**6),
)
def test_fuzz_names_in_every_message_that_shows_them(
    names: list[str], game: str, status: str, seed: int
) -> None:
    names_are_shown_safely(names, game, status, seed)


@pytest.mark.slow
@LONG
@given(
    st.lists(NAMES, min_size=3, max_size=3),
    st.sampled_from(["euchre", "truco"]),
    st.sampled_from(["lobby", "playing", "finished"]),
    st.integers(0, 10**6),
)
def test_fuzz_names_long(names: list[str], game: str, status: str, seed: int) -> None:
    names_are_shown_safely(names, game, status, seed)
