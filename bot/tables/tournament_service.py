"""The tournament service (issue 23): the one versioned action path of tournaments, and what
makes a night run -- opening each round's tables (each in its own thread), hearing them finish,
posting the standings, the round timer. No discord: threads and posts are the `Host`'s
(bot/ui/tournament/threads.py).

Every step is an action appended to the store as the next one (TournamentStore), applied to a
copy first so a refused action changes nothing. A restart at any point rebuilds each running
tournament from its log and does what is missing: the thread of a table, the table in its
thread, the result of a table that finished while the bot was down (read from the games it
recorded), the standings of a round not yet posted."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol

from bot.tables.records import SeatRecord
from bot.tables.seated_tables import open_seated_table, set_turn_timer
from bot.tables.service import TableService
from bot.tables.table import Table
from bot.tables.tournament import (
    FORMAT_PROGRESSIVE,
    Place,
    Tournament,
    TournamentConfig,
    TournamentError,
)
from bot.tables.tournament_records import TournamentRecord, TournamentStale, TournamentStore

log = logging.getLogger(__name__)

ROUND_SECONDS = 30 * 60.0  # a round's timer; then every table's turn timer takes over
TAKEOVER_TURN_TIMER = 30
BOT_LEVEL = "normal"


class Host(Protocol):
    """What the service needs of Discord (bot/ui/tournament/threads.py)."""

    async def open_thread(self, record: TournamentRecord, round_number: int, table: int) -> int:
        """A new thread for the table under the tournament's channel; its id."""

    async def show_table(
        self, record: TournamentRecord, state: Tournament, rnd: int, number: int, table: Table
    ) -> None:
        """Post the table's message in its thread, after a first message that tells the
        table's people (pinging each once) where they sit and when the round's time runs out
        (`round_deadline`)."""

    async def post_standings(self, record: TournamentRecord, state: Tournament, rnd: int) -> None:
        """The standings after round `rnd` (text and picture) in the tournament's channel."""


class TournamentService:
    def __init__(
        self,
        store: TournamentStore,
        tables: TableService,
        clock: Callable[[], float],
        *,
        round_seconds: float = ROUND_SECONDS,
    ) -> None:
        self.store = store
        self.tables = tables
        self.clock = clock
        self.round_seconds = round_seconds
        self.host: Host | None = None
        self._live: dict[int, tuple[TournamentRecord, Tournament]] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._advancing: dict[int, asyncio.Lock] = {}
        self._by_table: dict[int, tuple[int, int, int]] = {}  # table id -> (tid, round, table)
        self._tasks: set[asyncio.Task[None]] = set()
        self._timers: dict[int, asyncio.Task[None]] = {}
        tables.add_listener(self._on_table)

    # --- reading ------------------------------------------------------------------------------

    def get(self, tournament_id: int) -> tuple[TournamentRecord, Tournament]:
        found = self._live.get(tournament_id)
        if found is None:
            raise TournamentError("tournament.error.none")
        return found

    async def shown(
        self, guild_id: int, channel_id: int, tournament_id: int | None = None
    ) -> tuple[TournamentRecord, Tournament] | None:
        """What /tournament status shows: the tournament `tournament_id` of this server, or
        else this channel's running one, or else its latest (a finished night keeps its final
        standings); read from the store when it is not live (after a restart, or an old one)."""
        if tournament_id is None:
            found = self.in_channel(channel_id)
            if found is not None:
                return found
            tournament_id = await self.store.latest_tournament(channel_id)
            if tournament_id is None:
                return None
        live = self._live.get(tournament_id)
        record = live[0] if live is not None else await self.store.get_tournament(tournament_id)
        if record is None or record.guild_id != guild_id:
            return None
        if live is not None:
            return live
        config = TournamentConfig.from_dict(record.config)
        return record, Tournament.replay(config, list(record.actions))

    def in_channel(self, channel_id: int) -> tuple[TournamentRecord, Tournament] | None:
        for record, state in self._live.values():
            if record.channel_id == channel_id and state.status != "finished":
                return record, state
        return None

    # --- the verbs ----------------------------------------------------------------------------

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        rounds: int,
        hands: int,
        *,
        format: str = FORMAT_PROGRESSIVE,
        game: str = "euchre",
        best_of: int = 1,
    ) -> tuple[TournamentRecord, Tournament]:
        """A progressive night (`rounds` of `hands`), or a pairs knockout / round robin of
        `game` matches of best of `best_of` (see TournamentConfig)."""
        if format != FORMAT_PROGRESSIVE:
            rounds = 0  # the field decides a pairs tournament's rounds
        config = TournamentConfig(rounds, hands, format=format, game=game, best_of=best_of)
        if self.in_channel(channel_id) is not None:
            raise TournamentError("tournament.error.channel_busy")
        record = TournamentRecord(
            id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            config=config.to_dict(),
            status="lobby",
            version=0,
            created_at=self.clock(),
        )
        record.id = await self.store.create_tournament(record)
        state = Tournament(config)
        self._live[record.id] = (record, state)
        return record, state

    async def join(self, tournament_id: int, user_id: int, name: str) -> Tournament:
        clean = name.replace(":", " ")[:32] or str(user_id)
        return await self.act(tournament_id, f"join:{user_id}:{clean}")

    async def leave(self, tournament_id: int, user_id: int) -> Tournament:
        """In the lobby the person is gone; once started a bot plays their place, at their
        current table too."""
        state = await self.act(tournament_id, f"leave:{user_id}")
        table = state.table_of(user_id)
        if table is not None:
            table_id = state.opened.get((state.round, table))
            if table_id is not None and self.tables.find(table_id) is not None:
                try:
                    await self.tables.leave(table_id, user_id)
                except Exception:  # already away from it: the bot plays the place anyway
                    log.info(
                        "tournament %s: %s was not at table %s", tournament_id, user_id, table_id
                    )
        return state

    async def start(self, tournament_id: int, user_id: int) -> Tournament:
        record, _ = self.get(tournament_id)
        if user_id != record.host_id:
            raise TournamentError("tournament.error.not_host")
        state = await self.act(tournament_id, "start")
        await self.advance(tournament_id)
        return state

    async def end(self, tournament_id: int, user_id: int) -> Tournament:
        record, _ = self.get(tournament_id)
        if user_id != record.host_id:
            raise TournamentError("tournament.error.not_host")
        state = await self.act(tournament_id, "end")
        self._stop_timer(tournament_id)
        return state

    async def act(self, tournament_id: int, action: str) -> Tournament:
        """The one path: apply to a copy, append as the next action, then keep the copy."""
        self.get(tournament_id)
        async with self._lock(tournament_id):
            record, state = self.get(tournament_id)
            moved = Tournament.replay(state.config, list(state.actions))
            moved.apply(action)
            try:
                await self.store.append_tournament_action(
                    record.id, state.version, action, moved.status
                )
            except TournamentStale:
                log.warning("tournament %s moved on elsewhere; not applying %s", record.id, action)
                raise
            record.version, record.status = moved.version, moved.status
            record.actions = list(moved.actions)
            self._live[tournament_id] = (record, moved)
            for (r, t), table_id in moved.opened.items():
                if r == moved.round:
                    self._by_table[table_id] = (tournament_id, r, t)
            return moved

    # --- running a night ----------------------------------------------------------------------

    async def advance(self, tournament_id: int) -> None:
        """Do whatever the log says is due: post standings not yet posted, open the current
        round's threads and tables, collect the results of tables that finished. One at a time
        per tournament (two tables finishing together must not open a round twice)."""
        if self.host is None:
            return
        async with self._advancing.setdefault(tournament_id, asyncio.Lock()):
            while await self._advance_once(tournament_id):
                pass

    async def _advance_once(self, tournament_id: int) -> bool:
        """One pass; True when it recorded a result (a round may be over: pass again)."""
        host = self.host
        assert host is not None
        record, state = self.get(tournament_id)
        for rnd in state.unposted():
            await host.post_standings(record, state, rnd)
            await self.act(tournament_id, f"posted:{rnd}")
        record, state = self.get(tournament_id)
        if state.status != "playing":
            self._stop_timer(tournament_id)
            return False
        rnd = state.round
        # The round's clock first (stored, so that a restart keeps the deadline): each table's
        # first message shows the time left.
        if rnd not in state.round_started:
            state = await self.act(tournament_id, f"clock:{rnd}:{int(self.clock())}")
        for table in range(state.table_count):
            if (rnd, table) not in state.threads:
                thread_id = await host.open_thread(record, rnd, table)
                state = await self.act(tournament_id, f"thread:{rnd}:{table}:{thread_id}")
            if (rnd, table) not in state.opened:
                opened = await self._open_table(record, state, rnd, table)
                state = await self.act(tournament_id, f"open:{rnd}:{table}:{opened.id}")
                await host.show_table(record, state, rnd, table, opened)
        self._arm_timer(tournament_id, rnd)
        for table in range(state.table_count):
            if (rnd, table) in state.results:
                continue
            table_id = state.opened[(rnd, table)]
            live = self.tables.find(table_id)
            scores: tuple[int, int] | None = None
            if live is not None:
                if live.status == "finished" and live.game is not None and live.game.is_over:
                    scores = (int(live.game.scores[0]), int(live.game.scores[1]))
            else:  # finished (and closed) while the bot was down: its recorded game says
                scores = await self.store.table_scores(table_id)
            if scores is not None:
                await self.act(tournament_id, f"result:{rnd}:{table}:{scores[0]}:{scores[1]}")
                return True
        return False

    async def _open_table(
        self, record: TournamentRecord, state: Tournament, rnd: int, table: int
    ) -> Table:
        thread_id = state.threads[(rnd, table)]
        existing = self.tables.in_channel(thread_id)
        if existing is not None:  # opened before a restart, not yet in the log
            return existing
        seats = [_seat(place, position) for position, place in enumerate(state.seats(rnd, table))]
        return await open_seated_table(
            self.tables,
            guild_id=record.guild_id,
            channel_id=thread_id,
            host_id=record.host_id,
            game=state.config.game,
            seats=seats,
            options=state.config.table_options(),
            settings={"turn_timer": 0, "pings": True},
        )

    def _on_table(self, table: Table, change: str) -> None:
        if table.id in self._by_table and table.status == "finished":
            self._report_later(table)

    def _report_later(self, table: Table) -> None:
        where = self._by_table.get(table.id)
        game = table.game
        if where is None or game is None or not game.is_over:
            return
        scores = (int(game.scores[0]), int(game.scores[1]))
        task = asyncio.get_running_loop().create_task(self._report(*where, scores))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _report(
        self, tournament_id: int, rnd: int, table: int, scores: tuple[int, int]
    ) -> None:
        """A table of the round finished: its partnerships' points (seats 0 & 2 sit north and
        south; of a match, its final game's), then whatever is due next."""
        try:
            _, state = self.get(tournament_id)
            due = state.status == "playing" and state.round == rnd
            if due and (rnd, table) not in state.results:
                await self.act(tournament_id, f"result:{rnd}:{table}:{scores[0]}:{scores[1]}")
            await self.advance(tournament_id)
        except (TournamentError, TournamentStale):
            log.info("tournament %s: round %s table %s already in", tournament_id, rnd, table)
        except Exception:
            log.exception("tournament %s: table %s of round %s failed", tournament_id, table, rnd)

    # --- the round timer ----------------------------------------------------------------------

    def _arm_timer(self, tournament_id: int, rnd: int) -> None:
        running = self._timers.get(tournament_id)
        if running is not None and not running.done() and running.get_name().endswith(f":{rnd}"):
            return
        self._stop_timer(tournament_id)
        task = asyncio.get_running_loop().create_task(
            self._round_timer(tournament_id, rnd), name=f"round-timer:{tournament_id}:{rnd}"
        )
        self._timers[tournament_id] = task

    def _stop_timer(self, tournament_id: int) -> None:
        task = self._timers.pop(tournament_id, None)
        if task is not None:
            task.cancel()

    def round_deadline(self, tournament_id: int) -> float | None:
        """When the current round's timer runs out (its stored start + the round's time)."""
        _, state = self.get(tournament_id)
        started = state.round_started.get(state.round)
        return None if started is None else started + self.round_seconds

    async def _round_timer(self, tournament_id: int, rnd: int) -> None:
        """After the round's time, turn timers take over at every table still playing."""
        deadline = self.round_deadline(tournament_id)
        wait = self.round_seconds if deadline is None else deadline - self.clock()
        await asyncio.sleep(max(0.0, wait))
        _, state = self.get(tournament_id)
        if state.round != rnd or state.status != "playing":
            return
        for table in range(state.table_count):
            live = self.tables.find(state.opened.get((rnd, table), -1))
            if live is not None and live.status == "playing":
                await set_turn_timer(self.tables, live, TAKEOVER_TURN_TIMER)

    # --- start-up and shut-down ---------------------------------------------------------------

    async def restore(self) -> None:
        """Every running tournament from its log; then what is missing is done."""
        for record in await self.store.load_tournaments():
            if record.id in self._live:
                # Made or moved by a command while the log was read (commands are served from
                # READY on): the live one is newer than what was read.
                continue
            state = Tournament.replay(TournamentConfig.from_dict(record.config), record.actions)
            self._live[record.id] = (record, state)
            for (r, t), table_id in state.opened.items():
                if r == state.round:
                    self._by_table[table_id] = (record.id, r, t)
        for tournament_id in list(self._live):
            try:
                await self.advance(tournament_id)
            except Exception:
                log.exception("tournament %s could not be resumed", tournament_id)

    async def close(self) -> None:
        for task in [*self._tasks, *self._timers.values()]:
            task.cancel()
        await asyncio.gather(*self._tasks, *self._timers.values(), return_exceptions=True)

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())


def _seat(place: Place, position: int) -> SeatRecord:
    if place.user_id is not None and not place.left:
        return SeatRecord(place.user_id, place.name)
    name = place.name if place.user_id is None else f"Bot ({place.name})"
    return SeatRecord(
        None, name, is_bot=True, level=BOT_LEVEL, left_user_id=place.user_id if place.left else None
    )
