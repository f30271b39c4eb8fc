"""Provably fair deals at a table (issues 24 and 32, docs/fair-deals.md): who cuts, and with what.

Version 2 ("fair-v2", new games): when a game starts, the UI posts a message created for it that
carries the game's commitment (`announce`); its id is recorded in the game (`cut:msg:<id>`), and
hand n is cut by drand quicknet round `beacon_round(message, n)`, fetched by `Beacon` from this
background task (never on a click's acknowledgement path). When no relay answers within `wait`
seconds the hand is cut `weak:<round>:<the latest click or none>` and marked weak everywhere. A
typed cut (the Cut modal) is only a flourish appended to the beacon's value. What follows
describes version 1, which tables already playing keep.

A table deals "fair-v1" from a 256-bit seed drawn when the table opens (the lobby shows hand 1's
commitment) or, for a game played again, when it starts. Each hand then waits in the engine's
"cut" phase, where nobody is to act: the table makes the cut itself, with the first of

1. the text the cutter typed (the Cut button): while the hand waits for its cut, or earlier,
   during the hand before, by the next hand's cutter (kept in memory for that hand);
2. the snowflake id of a human interaction on this table made while the hand's commitment was
   shown and not yet used as a cut: the Start click for hand 1, the click that ended the hand
   before (the next hand's commitment is on the table during a hand), or any click on the table
   while the hand waits (Show my hand, a card, Deal...);
3. after `wait` seconds without such a click (a bot or a turn timer ended the hand and nobody
   clicks), or at once when every person at the table is away (the bots play for them, so no
   click is coming): the latest interaction id seen at this table, else the text "none" — the
   weak case, said so in docs/fair-deals.md.

The cut never waits on a person: a hand ended by a click is cut in the same step, and a hand
ended by a bot waits at most `wait` seconds, and only if no person clicked at all during it
(scripts/fair_cut_waits.py, one person and three bots: no euchre hand in 455 waits, 2.9% of
truco hands do). What is kept here (clicks, typed cuts) lives in
memory only: after a restart a waiting hand is cut by the next click or after `wait` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.engine.fair_deal import (
    BEACON_CUT,
    DEAL_OPTION,
    DEAL_V2,
    MAX_CUT,
    MSG_CUT,
    WEAK_CUT,
    beacon_round,
)
from bot.tables.beacon import Beacon
from bot.tables.errors import NoSuchTable, NotPlaying, NotSeated, StaleVersion, TableError
from bot.tables.records import SeatRecord
from bot.tables.table import CHANGE_ACTION, CHANGE_CLOSED, Table, TableHost

log = logging.getLogger(__name__)

CUT_WAIT = 15.0  # seconds a hand ended by a bot waits for a click before it is cut anyway
CUT_PREFIX = "cut:"
NO_CLICK = "none"  # the cut when no interaction was ever seen at the table


class NotTheCutter(TableError):
    key = "fair.error.not_cutter"


class BadCut(TableError):
    key = "fair.error.bad_cut"


def player_ids(seats: list[SeatRecord | None]) -> list[str]:
    """The `players` option: a user id in decimal, a bot as "bot:<position>" (lobby order)."""
    ids = []
    for position, seat in enumerate(seats):
        if seat is None or seat.is_bot or seat.user_id is None:
            ids.append(f"bot:{position}")
        else:
            ids.append(str(seat.user_id))
    return ids


def fair_options(
    options: dict[str, Any], seats: list[SeatRecord | None], version: int = 2
) -> dict[str, Any]:
    """A new game's options: the table's rules, dealt fair (v2 unless told) by these players."""
    deal = DEAL_V2 if version == 2 else DEAL_OPTION
    return {**options, "deal": deal, "players": player_ids(seats)}


def is_fair(table: Table) -> bool:
    return table.record.options.get("deal") in (DEAL_OPTION, DEAL_V2)


def is_v2(table: Table) -> bool:
    return table.record.options.get("deal") == DEAL_V2


def fair_view(table: Table, view: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The game's public fair object (never a seed not yet revealed), or None: what
    `game.view(None)["fair"]` holds, without the rest of the view (issue 31: a whole public
    view was built for it, several times a click). `view`: the game's public view, where the
    caller has one of the current state."""
    game = table.game
    if game is None or not is_fair(table):
        return None
    fair: dict[str, Any] | None = game.fair_view() if view is None else view.get("fair")
    return fair


def waiting_cut(table: Table) -> dict[str, Any] | None:
    """The fair object of the hand that waits for its cut, if one does."""
    game = table.game
    if table.closed or game is None or game.is_over or game.phase != "cut":
        return None
    return fair_view(table)


def shown_up_to(table: Table) -> int:
    """The highest hand whose commitment the table shows now: a click made now came after it.
    A lobby with its seed shows hand 1's; a running hand shows its own and the next one's; a
    finished table shows none of the next game's (its seed is drawn at its start)."""
    if table.status == "lobby":
        return 1 if table.record.seed is not None else 0
    if table.status != "playing":
        return 0
    fair = fair_view(table)
    return 0 if fair is None else int(fair["hand"]) + 1


def nobody_here(table: Table) -> bool:
    """Every seat is a bot or a person away (the bots play for them): no click is coming, so
    a hand waiting for its cut does not wait for one."""
    return all(seat is None or seat.is_bot or seat.away for seat in table.seats)


@dataclass
class _Click:
    shown: int  # the highest hand whose commitment was shown when the click came
    click_id: str
    game_start: int  # the table's start version then: a click of another game never cuts


class FairCuts:
    """Makes the cut of each hand that waits for one (a listener of table changes)."""

    def __init__(
        self, host: TableHost, *, wait: float = CUT_WAIT, beacon: Beacon | None = None
    ) -> None:
        self._host = host
        self.wait = wait  # read at each wait: a test may shorten it on a running service
        self.beacon = beacon  # fair-v2's rounds; None: every v2 hand is weak
        # fair-v2: posts the game's commitment message, returns its id (None: it failed).
        self.announce: Callable[[Table], Awaitable[int | None]] | None = None
        self.retry = 0.5  # seconds between two asks for a round not yet published
        self._clicks: dict[int, _Click] = {}
        self._latest: dict[int, str] = {}
        self._typed: dict[int, tuple[int, int, str]] = {}  # table -> (hand, seat, text)
        self._wakers: dict[int, asyncio.Event] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._closing = False

    # --- what the UI tells ----------------------------------------------------------------------

    def seen(self, table_id: int, click_id: int | str) -> None:
        """A person interacted with the table (any of its buttons): the click may cut."""
        table = self._host.find(table_id)
        if table is None:
            return
        click = str(click_id)
        self._latest[table_id] = click
        shown = shown_up_to(table)
        if shown:
            self._clicks[table_id] = _Click(shown, click, self._game_start(table))
        waker = self._wakers.get(table_id)
        if waker is not None:
            waker.set()

    async def cut(self, table_id: int, user_id: int, text: str) -> tuple[Table, bool]:
        """The Cut button's text. Returns (table, applied now); False: kept for the next hand,
        which this player cuts."""
        text = text.strip()
        if not text or len(text) > MAX_CUT or not text.isprintable():
            raise BadCut(self._host.find(table_id), most=MAX_CUT)
        table = self._host.get(table_id)
        async with table.lock:
            if table.game is None or table.status != "playing" or not is_fair(table):
                raise NotPlaying(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotSeated(table)
            waiting = waiting_cut(table)
            if is_v2(table):
                return table, self._keep_typed(table, seat, waiting, text)
            if waiting is not None:
                if waiting["cutter"] != seat:
                    raise NotTheCutter(table)
                await self._host.apply_locked(table, seat, CUT_PREFIX + text)
                applied = True
            else:
                fair = fair_view(table)
                assert fair is not None
                # Both games pass the deal on so that the next hand's cutter is this dealer.
                if fair["dealer"] != seat:
                    raise NotTheCutter(table)
                self._typed[table.id] = (int(fair["hand"]) + 1, seat, text)
                applied = False
        if applied:
            self._host.changed(table, CHANGE_ACTION)
        return table, applied

    def _keep_typed(
        self, table: Table, seat: int, waiting: dict[str, Any] | None, text: str
    ) -> bool:
        """fair-v2: the typed text goes with the beacon's value of the hand waiting for its
        cut (its cutter) or of the next hand (this hand's dealer). True: the hand waits now."""
        fair = waiting if waiting is not None else fair_view(table)
        assert fair is not None
        if waiting is not None and waiting["cutter"] == seat:
            hand = int(waiting["hand"])
        elif waiting is None and fair["dealer"] == seat:
            hand = int(fair["hand"]) + 1
        else:
            raise NotTheCutter(table)
        self._typed[table.id] = (hand, seat, text)
        waker = self._wakers.get(table.id)
        if waker is not None:
            waker.set()
        return waiting is not None

    # --- the cut ----------------------------------------------------------------------------

    async def cut_locked(self, table: Table) -> bool:
        """Cut the waiting hand now if a typed cut or a fresh click is at hand (the caller holds
        the lock). True if a cut was applied. Version 2 is cut by its task only."""
        waiting = waiting_cut(table)
        if waiting is None or is_v2(table):
            return False
        text = self._available(table, waiting)
        if text is None:
            return False
        await self._host.apply_locked(table, int(waiting["cutter"]), CUT_PREFIX + text)
        return True

    def _available(self, table: Table, waiting: dict[str, Any]) -> str | None:
        hand = int(waiting["hand"])
        typed = self._typed.get(table.id)
        if typed is not None and typed[0] == hand and typed[1] == waiting["cutter"]:
            del self._typed[table.id]
            return typed[2]
        click = self._clicks.get(table.id)
        if (
            click is not None
            and click.shown >= hand
            and click.game_start == self._game_start(table)
        ):
            # Used once: the next hand needs a click made after its own commitment was shown.
            del self._clicks[table.id]
            return click.click_id
        return None

    def _fallback(self, table: Table) -> str:
        return self._latest.get(table.id, NO_CLICK)

    @staticmethod
    def _game_start(table: Table) -> int:
        # A lobby's click (Start) belongs to the game it starts: the version Start leads to.
        return table.version + 1 if table.status == "lobby" else table.start_version

    def __call__(self, table: Table, change: str) -> None:
        if change == CHANGE_CLOSED:
            self._forget(table.id)
            return
        if self._closing or waiting_cut(table) is None:
            return
        task = self._tasks.get(table.id)
        if task is not None and not task.done():
            waker = self._wakers.get(table.id)
            if waker is not None:
                waker.set()  # look again now
            return
        task = self._tasks[table.id] = asyncio.create_task(
            self._run(table), name=f"table-{table.id}-cut"
        )
        task.add_done_callback(lambda done: self._let_go(table.id, done))

    def _let_go(self, table_id: int, done: asyncio.Task[None]) -> None:
        """A finished cut is not kept, nor its waker: together ~1.5 KB a table (issue 31);
        the next hand's cut starts a new task, which makes a new waker."""
        if self._tasks.get(table_id) is done:
            del self._tasks[table_id]
            self._wakers.pop(table_id, None)

    def _typed_for(self, table: Table, hand: int, cutter: int) -> str | None:
        typed = self._typed.get(table.id)
        if typed is not None and typed[0] == hand and typed[1] == cutter:
            return typed[2]
        return None

    async def _run(self, table: Table) -> None:
        if is_v2(table):
            await self._run_v2(table)
        else:
            await self._run_v1(table)

    async def _message(self, table: Table, waiting: dict[str, Any]) -> int | None:
        """The game's commitment message: recorded in the game, else posted now (hand 1) and
        recorded with `cut:msg:<id>` (so a restart keeps it). None: it could not be posted."""
        if waiting["message"] is not None:
            return int(waiting["message"])
        if int(waiting["hand"]) != 1 or self.announce is None:
            return None
        try:
            message_id = await self.announce(table)
        except Exception:
            log.warning("the commitment message failed at table %s", table.id, exc_info=True)
            return None
        if message_id is None:
            return None
        async with table.lock:
            now = waiting_cut(table)
            if now is None or now["message"] is not None:
                return None if now is None or now["message"] is None else int(now["message"])
            await self._host.apply_locked(
                table, int(now["cutter"]), f"{CUT_PREFIX}{MSG_CUT}{message_id}"
            )
        self._host.changed(table, CHANGE_ACTION)
        return message_id

    async def _run_v2(self, table: Table) -> None:
        """Cut the waiting hand with its drand round, asked for until `wait` seconds have
        passed, else weak. Never gives up on a failed write (it is tried again)."""
        waker = self._wakers.setdefault(table.id, asyncio.Event())
        loop = asyncio.get_running_loop()
        while not table.closed:
            waiting = waiting_cut(table)
            if waiting is None:
                return
            hand = int(waiting["hand"])
            message = await self._message(table, waiting)
            number = 0 if message is None else beacon_round(message, hand)
            deadline = loop.time() + self.wait
            found = None
            while self.beacon is not None and number and found is None:
                found = await self.beacon.fetch(number)
                if found is None and loop.time() + self.retry < deadline:
                    waker.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(waker.wait(), self.retry)
                elif found is None:
                    break
            try:
                async with table.lock:
                    now = waiting_cut(table)
                    if now is None or int(now["hand"]) != hand:
                        continue  # cut or moved on meanwhile: look again
                    if found is not None:
                        text = f"{BEACON_CUT}:{number}:{found.randomness}"
                    else:
                        text = f"{WEAK_CUT}:{number}:{self._fallback(table)}"
                    typed = self._typed_for(table, hand, int(now["cutter"]))
                    if typed is not None:
                        text = f"{text}:{typed}"
                    await self._host.apply_locked(table, int(now["cutter"]), CUT_PREFIX + text)
                    if typed is not None:
                        self._typed.pop(table.id, None)
                self._host.changed(table, CHANGE_ACTION)
                return
            except (StaleVersion, NoSuchTable):
                continue  # another process moved the table on: look again
            except Exception:
                log.warning("the cut failed at table %s; trying again", table.id, exc_info=True)
                await asyncio.sleep(1.0)

    async def _run_v1(self, table: Table) -> None:
        """Cut the waiting hand: at once if a cut is at hand, else at the next click, else after
        `wait` seconds with the fallback. Never gives up (a failed write is tried again)."""
        waker = self._wakers.setdefault(table.id, asyncio.Event())
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.wait
        while not table.closed:
            waker.clear()
            try:
                async with table.lock:
                    waiting = waiting_cut(table)
                    if waiting is None:
                        return
                    cutter = int(waiting["cutter"])
                    text = self._available(table, waiting)
                    if text is None and (loop.time() >= deadline or nobody_here(table)):
                        text = self._fallback(table)
                    if text is not None:
                        await self._host.apply_locked(table, cutter, CUT_PREFIX + text)
                if text is not None:
                    self._host.changed(table, CHANGE_ACTION)
                    return
            except (StaleVersion, NoSuchTable):
                continue  # another process moved the table on: look again
            except Exception:
                log.warning("the cut failed at table %s; trying again", table.id, exc_info=True)
                await asyncio.sleep(1.0)
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waker.wait(), max(0.0, deadline - loop.time()))

    def _forget(self, table_id: int) -> None:
        for kept in (self._clicks, self._latest, self._typed, self._wakers):
            kept.pop(table_id, None)
        task = self._tasks.pop(table_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def until_cut(self, table_id: int) -> bool:
        """Until the table's pending cut is made (tests and the demo). True if one was pending."""
        task = self._tasks.get(table_id)
        if task is None or task.done():
            return False
        await asyncio.wait([task])
        return True

    async def close(self) -> None:
        if self.beacon is not None:
            await self.beacon.close()

    def stop(self) -> list[asyncio.Task[None]]:
        self._closing = True
        tasks = [task for task in self._tasks.values() if not task.done()]
        for task in tasks:
            task.cancel()
        return tasks
