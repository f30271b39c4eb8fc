"""The table service's seams (issue 20 items 3 and 5): bot seats and turn timers are listeners of
table changes, the store has one append path whose write a cancelled caller does not abandon,
and bot/tables holds no import circle and never imports storage."""

from __future__ import annotations

import ast
import asyncio
import itertools
from pathlib import Path

import pytest

from bot import storage as storage_package
from bot.storage.backend import Storage
from bot.storage.database import Database
from bot.tables import records
from bot.tables.service import Table, TableService
from bot.tables.table import CHANGE_STARTED
from tests.support.service import CLICKS, CUT_WAIT, cut_made

ROOT = Path(__file__).resolve().parents[2]
TABLES = ROOT / "bot" / "tables"
GUILD, CHANNEL, HOST = 1000, 2000, 11
HUMANS = ((HOST, "Host"), (12, "Ana"), (13, "Bia"), (14, "Cau"))


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


def make_service(storage: Storage) -> TableService:
    seeds = itertools.count(3)
    return TableService(
        storage.tables,
        bot_move_delay=0,
        clock=Clock(),
        seed_source=lambda: next(seeds),
        cut_wait=CUT_WAIT,
    )


async def started(service: TableService, humans: int, turn_timer: int = 0) -> Table:
    """A euchre table with `humans` people (the host first) and bots in the other seats."""
    table = await service.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HOST,
        host_name="Host",
        game="euchre",
        settings={"turn_timer": turn_timer},
    )
    for user, name in HUMANS[1:humans]:
        await service.join(table.id, user, name)
    for _ in range(4 - humans):
        await service.add_bot(table.id, HOST, level="easy")
    service.fair_cuts.seen(table.id, next(CLICKS))  # the Start click: it cuts hand 1
    await service.start(table.id, HOST)
    await cut_made(service, table)
    return table


def without_bots_and_timers(service: TableService) -> TableService:
    service.remove_listener(service.bot_seats)
    service.remove_listener(service.turn_timers)
    return service


async def test_a_service_without_bot_seats_and_timers_still_applies_every_action(
    storage: Storage,
) -> None:
    service = without_bots_and_timers(make_service(storage))
    heard: list[str] = []
    service.add_listener(lambda _table, change: heard.append(change))
    table = await started(service, humans=4, turn_timer=30)
    assert table.game is not None
    cut = len(table.record.actions)  # hand 1's cut (fair deals)
    for _ in range(6):
        seat = table.game.to_act[0]
        user = table.player_at(seat).user_id
        assert user is not None
        await service.act(table.id, user, table.game.legal_actions(seat)[0], table.version)
    stored = await storage.tables.get_table(table.id)
    assert stored is not None and stored.version == table.version
    assert stored.actions == table.record.actions and len(stored.actions) == cut + 6
    # The deadline is table state, stored with each action; nobody runs the clock on it.
    assert table.record.turn_deadline is not None
    assert heard[-6:] == ["action"] * 6
    await service.close()


async def test_bot_seats_are_a_listener_that_plays_the_bots_turns(storage: Storage) -> None:
    service = without_bots_and_timers(make_service(storage))
    table = await started(service, humans=1)
    assert table.game is not None
    # With the bot seats not listening, nobody plays their turns...
    if service.bot_seat_to_act(table) is None:
        seat = table.game.to_act[0]
        await service.act(table.id, HOST, table.game.legal_actions(seat)[0], table.version)
    version = table.version
    assert service.bot_seat_to_act(table) is not None and table.bot_task is None
    # ...until they hear of a change: then they play until a human is to act.
    service.add_listener(service.bot_seats)
    service.bot_seats(table, CHANGE_STARTED)
    await service.wait_for_bots(table.id)
    assert table.version > version
    assert table.game.is_over or service.bot_seat_to_act(table) is None
    await service.close()


async def test_an_act_cancelled_during_its_write_is_stored_whole(storage: Storage) -> None:
    """The store's one append path completes a write that its caller stopped waiting for: the
    table in memory (which already counts the action) and the store agree."""
    service = make_service(storage)
    table = await started(service, humans=4)
    assert table.game is not None
    cut = len(table.record.actions)  # hand 1's cut (fair deals)
    seat = table.game.to_act[0]
    user = table.player_at(seat).user_id
    assert user is not None
    holding = None
    if isinstance(storage.db, Database):
        # Another write holds SQLite: the append cannot go at once, it must wait its turn.
        holding = storage.db.transaction()
        await holding.__aenter__()
    act = asyncio.create_task(
        service.act(table.id, user, table.game.legal_actions(seat)[0], table.version)
    )
    await asyncio.sleep(0)  # the act runs up to its write, which waits
    assert not act.done()
    act.cancel()
    if holding is not None:
        await holding.__aexit__(None, None, None)
    with pytest.raises(asyncio.CancelledError):
        await act
    stored = await storage.tables.get_table(table.id)
    assert stored is not None
    assert (stored.version, stored.actions) == (table.version, table.record.actions)
    assert len(stored.actions) == cut + 1
    await service.close()


def test_store_errors_are_declared_beside_the_store_protocol() -> None:
    assert storage_package.StaleAppend is records.StaleAppend
    assert storage_package.TableNotFound is records.TableNotFound
    assert storage_package.TableNotPlaying is records.TableNotPlaying
    assert issubclass(records.StaleAppend, records.StoreConflict)
    assert issubclass(records.StoreConflict, storage_package.StorageError)
    assert not hasattr(records.TableStore, "append_action_at_once")


def tables_imports() -> dict[str, set[str]]:
    """Module name -> the bot modules it imports (TYPE_CHECKING imports too)."""
    graph: dict[str, set[str]] = {}
    for path in sorted(TABLES.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        graph[f"bot.tables.{path.stem}"] = {m for m in found if m.startswith("bot.")}
    return graph


def test_bot_tables_has_no_import_circle_and_never_imports_storage() -> None:
    graph = tables_imports()
    local = {name: {m for m in deps if m in graph and m != name} for name, deps in graph.items()}
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        assert name not in path, " -> ".join([*path, name])
        if name in done:
            return
        for dep in local[name]:
            visit(dep, [*path, name])
        done.add(name)

    for name in local:
        visit(name, [])
    storage = [f"{n} imports {m}" for n, deps in graph.items() for m in deps if "storage" in m]
    assert storage == []


def test_no_module_of_bot_tables_is_much_over_400_lines() -> None:
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in TABLES.glob("*.py")}
    assert {name: n for name, n in sizes.items() if n > 430} == {}  # "~400" (issue 20)
