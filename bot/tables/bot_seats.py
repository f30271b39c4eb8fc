"""Bot seats: a listener of table changes that plays the bots' turns.

After each change (but a close) the table's bot task is started if a bot seat is to act and
none runs. The task plays the bot seats' turns one after another, each after `delay` seconds,
through the service's one apply path (`TableHost.apply_locked`), and tells the listeners. A bot
seat is a bot, or a human away from it (their turn timer ran out three times in a row). A
failed write (a full disk) is retried with a growing pause: a bot seat never stops for good.
Bot seats resume after a restore: the restore is a change too.
"""

from __future__ import annotations

import asyncio
import logging

from bot.engine.common import team_of
from bot.engine.truco.signals import SIGNAL_PREFIX
from bot.tables import bot_moves, pace
from bot.tables.errors import NoSuchTable, StaleVersion
from bot.tables.table import CHANGE_ACTION, CHANGE_CLOSED, Table, TableHost

log = logging.getLogger(__name__)


async def choose_bot_action(table: Table, seat: int, level: str) -> str:
    """The move of the bot at `seat`, as strong as `level` (bot_moves.LEVELS). The search runs
    in a worker process; its seed comes from the table's seed, the number of actions so far and
    the seat, so a restored table replays the same bot moves. The position is read before the
    first await, so a caller may think outside the table's lock (and check the version before
    applying): a hard think holds a held lock up to ~0.3 s."""
    game = table.game
    assert game is not None and table.record.seed is not None
    # One view of the seat for the signal and the move, read-only (issue 31: each built its
    # own, up to three a bot move).
    view = game.view(seat)
    # Truco's sinais: a bot (not a person's seat played while away) tells its partner before
    # its first card of the hand.
    signal = table.rules.bot_signal(view) if table.is_bot_seat(seat) else None
    if signal is not None:
        return signal
    if level == "easy":
        return table.rules.bot_decision(view)
    seed = bot_moves.search_seed(table.record.seed, len(game.actions), seat)
    return await bot_moves.searched_action(table.game_name, game, seat, level, seed, view)


def retry_pause(failures: int, first: float, most: float) -> float:
    """The pause before retry number `failures`: `first`, doubling up to `most` seconds."""
    return float(min(first * 2 ** (failures - 1), most))


def bot_seat_to_act(table: Table) -> int | None:
    """The bot seat that acts next, if any."""
    game = table.game
    if table.closed or game is None or game.is_over:
        return None
    to_act: list[int] = game.to_act
    for seat in to_act:
        if not table.bot_plays(seat):
            continue
        # A question either partner may answer (a truco ask, the hand of ten) is left to a
        # human partner: people at the table decide for their pair.
        if any(
            o != seat and team_of(o) == team_of(seat) and not table.bot_plays(o) for o in to_act
        ):
            continue
        return seat
    return None


async def bot_alone_answer(table: Table) -> tuple[int, str] | None:
    """A bot seat's going-alone answer (E14), given with the move before it (the table
    service applies it in the same step): the bots' answers are never public states of their
    own (issue 30 item 2). In the engine's order, the rule's: from the dealer's left, the
    dealer last."""
    game = table.game
    if game is None or game.is_over or str(getattr(game, "phase", "")) != "alone":
        return None
    seat = bot_seat_to_act(table)
    if seat is None:
        return None
    level = table.player_at(seat).level or bot_moves.DEFAULT_LEVEL
    return seat, await choose_bot_action(table, seat, level)


class BotSeats:
    """One bot task per table at most, started by the changes it hears."""

    def __init__(
        self, host: TableHost, *, delay: float, retry_delay: float, max_retry_delay: float
    ) -> None:
        self._host = host
        self.delay = delay  # read before each move: a test may change it on a running service
        self.retry_delay = retry_delay
        self.max_retry_delay = max_retry_delay
        self._closing = False

    def __call__(self, table: Table, change: str) -> None:
        if change == CHANGE_CLOSED or self._closing:
            return
        if table.bot_task is not None and not table.bot_task.done():
            return  # the running task re-checks after each move
        if bot_seat_to_act(table) is None:
            return
        task = table.bot_task = asyncio.create_task(self._run(table), name=f"table-{table.id}-bots")
        task.add_done_callback(lambda done: _let_go(table, done))

    async def wait(self, table: Table) -> None:
        """Until the table's bot seats have nothing left to do (tests and the demo)."""
        while table.bot_task is not None and not table.bot_task.done():
            await asyncio.wait([table.bot_task])

    def stop(self) -> list[asyncio.Task[None]]:
        """Cancel every bot task (the bot is shutting down: all is stored); the caller awaits
        the tasks returned."""
        self._closing = True
        tasks = [t.bot_task for t in self._host.tables if t.bot_task is not None]
        for task in tasks:
            task.cancel()
        return tasks

    async def _run(self, table: Table) -> None:
        """Play the bot seats' turns one after another. A failed move (the write failed: the
        table is as the store has it) is tried again after a growing pause, never given up."""
        failures = 0
        signalled = False
        while True:
            if not failures and bot_seat_to_act(table) is None:
                return  # a person's turn: nothing to wait for (those waiting on bots go on)
            # A signal is said with the card that follows it: no second pause for it.
            pause = self._pause(failures) if failures else 0.0 if signalled else self._before(table)
            signalled = False
            await asyncio.sleep(pause)
            try:
                # Think outside the lock (a hard bot thinks up to ~0.3 s; clicks must not wait
                # for it), then apply only if the table did not move meanwhile.
                seat = bot_seat_to_act(table)
                if seat is None:
                    return
                version = table.version
                level = table.player_at(seat).level or bot_moves.DEFAULT_LEVEL
                action = await choose_bot_action(table, seat, level)
                async with table.lock:
                    if table.version != version or bot_seat_to_act(table) != seat:
                        continue  # a seat changed hands, the table closed: look again
                    await self._host.apply_locked(table, seat, action)
                    signalled = action.startswith(SIGNAL_PREFIX)
            except (StaleVersion, NoSuchTable):
                # Another process had moved the table on: it is reloaded; look again.
                if table.closed:
                    return
                failures = 0
                continue
            except Exception:
                failures += 1
                log.warning(
                    "bot move failed at table %s (%d in a row); retrying in %.0f s",
                    table.id,
                    failures,
                    self._pause(failures),
                    exc_info=True,
                )
                continue
            failures = 0
            # Every listener hears it (this one too: its task is running, nothing to start).
            self._host.changed(table, CHANGE_ACTION)

    def _before(self, table: Table) -> float:
        """The wait before the next bot move: a human pace (bot/tables/pace.py)."""
        game = table.game
        if game is None:
            return self.delay
        return pace.bot_pause(
            game.events,
            str(getattr(game, "phase", "")),
            self.delay,
            trick_empty=not pace.cards_down(game),
        )

    def _pause(self, failures: int) -> float:
        return retry_pause(failures, self.retry_delay, self.max_retry_delay)


def _let_go(table: Table, done: asyncio.Task[None]) -> None:
    """A finished bot task is not kept: it held its coroutine, ~700 B a table (issue 31)."""
    if table.bot_task is done:
        table.bot_task = None
