"""The table message's last trick / last round across deals (issue 13 item 6), on the table
service with a real SQLite store: a new deal shows no last trick unless it is the previous
hand's, labelled as such."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.settings import DatabaseTarget
from bot.storage.backend import Storage, open_storage
from bot.tables.service import Table, TableService
from bot.texts import t
from bot.ui.table import render
from tests.support.service import CLICKS, full_table, user_at


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Storage]:
    storage = await open_storage(DatabaseTarget("sqlite", path=tmp_path / "tables.sqlite3"))
    try:
        yield storage
    finally:
        await storage.close()


@pytest.fixture
def service_options() -> dict[str, Any]:
    # Version 1: the click that ends a hand cuts the next one at once, so the next deal is
    # there when the click is answered (version 2 waits for the beacon's round in a task).
    return {"fair_version": 1}


async def act(service: TableService, table: Table, choose: Callable[[list[str]], str]) -> None:
    assert table.game is not None
    seat = table.game.to_act[0]
    action = choose(table.game.legal_actions(seat))
    # With a click id, as the UI acts: a click that ends a hand cuts the next one at once.
    await service.act(table.id, user_at(table, seat), action, table.version, next(CLICKS))


def field_names(table: Table) -> list[str]:
    parts = render.table_message(table, None, picture=False)  # the complete text
    assert parts.embed is not None
    return [str(f.name) for f in parts.embed.fields]


def plays(actions: list[str]) -> str:
    return next((a for a in actions if a.startswith("play:")), actions[0])


async def test_truco_a_hand_run_from_before_any_round_leaves_no_last_round(
    service: TableService,
) -> None:
    """Truco: the previous hand's last round is labelled; after a hand that ended before its
    first round (truco called and run from at once), the next deal shows no last round."""
    table = await full_table(service, "truco")
    assert table.game is not None
    last = t("table.field.last_trick.truco", None)
    previous = t("table.field.last_trick.previous.truco", None)
    assert last not in field_names(table) and previous not in field_names(table)

    while table.game.hand_number == 0:  # hand 1: cards only
        await act(service, table, plays)
        names = field_names(table)
        if table.game.hand_number == 0 and table.game.view(None)["last_trick"] is not None:
            assert last in names and previous not in names, names
    names = field_names(table)
    assert previous in names and last not in names, names

    await act(service, table, lambda actions: "raise")  # hand 2: truco! ...
    await act(service, table, lambda actions: "run")  # ... and run: no round played
    assert table.game.hand_number == 2
    names = field_names(table)
    assert previous not in names and last not in names, names
