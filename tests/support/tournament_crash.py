"""A progressive euchre night against the bot as a child process that is SIGKILLed (test helper,
no tests here). The oracle is the database the bot writes (as in tests/support/crash.py): the
tournament's log says which tables are open where, each table's log says whose turn it is, and
the simulated people click "Show my hand" on the table's message in its thread, then a button
of their hand."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

from bot.storage import Database, SqliteTableStore
from bot.storage.tournaments import TournamentRepository
from bot.tables import alone
from bot.tables.games import EngineGame, rules_for
from bot.tables.records import SeatRecord, TableRecord
from bot.tables.tournament import Tournament, TournamentConfig
from emulator import Channel, Emulator, Message, SimulatedUser
from tests.support.crash import BotProcess, game_buttons, replay

POLL = 0.02


def player_at(record: TableRecord, game: EngineGame, seat: int) -> SeatRecord:
    position = rules_for(record.game).seat_of_position(game).index(seat)
    player = record.seats[position]
    assert player is not None
    return player


class CrashNight:
    def __init__(
        self,
        emu: Emulator,
        channel: Channel,
        people: list[SimulatedUser],
        bot: BotProcess,
        db_path: Path,
        seed: int,
    ) -> None:
        self.emu = emu
        self.channel = channel
        self.people = {p.id: p for p in people}
        self.bot = bot
        self.db_path = db_path
        self.rng = random.Random(seed)
        self.db: Database | None = None
        self.clicks = 0

    async def open(self) -> None:
        self.db = await Database.open(self.db_path)

    async def close(self) -> None:
        if self.db is not None:
            await self.db.close()

    @property
    def tables(self) -> SqliteTableStore:
        assert self.db is not None
        return SqliteTableStore(self.db)

    async def night(self) -> Tournament:
        assert self.db is not None
        store = TournamentRepository(self.db)
        ids = await self.db_ids()
        record = await store.get_tournament(ids[-1])
        assert record is not None
        config = TournamentConfig(int(record.config["rounds"]), int(record.config["hands"]))  # type: ignore[call-overload]
        return Tournament.replay(config, record.actions)

    async def db_ids(self) -> list[int]:
        assert self.db is not None
        async with self.db.reader() as reader:
            rows = await reader.all(
                "SELECT id FROM tournaments WHERE channel_id = ? ORDER BY id", (self.channel.id,)
            )
        return [int(r[0]) for r in rows]

    async def until(self, what: str, check: object, timeout: float = 30.0) -> object:  # noqa: ASYNC109
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = await check()  # type: ignore[operator]
            if found:
                return found
            await asyncio.sleep(POLL)
        raise AssertionError(
            f"timed out waiting for {what}; the bot said:\n{self.bot.log_text()[-4000:]}"
        )

    async def round_open(self, rnd: int) -> Tournament:
        async def opened() -> Tournament | None:
            state = await self.night()
            tables = range(state.table_count)
            ok = (
                state.status == "playing"
                and state.round == rnd
                and bool(tables)
                and all((rnd, t) in state.opened for t in tables)
            )
            return state if ok else None

        found = await self.until(f"round {rnd + 1}'s tables", opened)
        assert isinstance(found, Tournament)
        return found

    async def record(self, table_id: int) -> TableRecord:
        found = await self.tables.get_table(table_id)
        assert found is not None
        return found

    async def play_table(self, table_id: int, moves: int | None = None) -> bool:
        """Click moves at the table until its game is over (True) or `moves` were made."""
        made = 0
        while moves is None or made < moves:
            record = await self.record(table_id)
            if record.status == "finished":
                return True
            if record.message_id is None or record.message_id not in self.emu.messages:
                await asyncio.sleep(POLL)
                continue
            game = replay(record)
            if game.is_over:
                return True
            humans = [s for s in game.to_act if not player_at(record, game, s).is_bot]
            if not humans:
                await asyncio.sleep(POLL)  # the bot seats move in the bot process
                continue
            seat = self.rng.choice(humans)
            user_id = player_at(record, game, seat).user_id
            assert user_id is not None
            person = self.people[user_id]
            message: Message = self.emu.messages[record.message_id]
            await message.wait_until(
                lambda m: any(b.custom_id == f"tb:{table_id}:hand" for b in m.buttons),
                timeout=10,
            )
            hand = await person.click(message, f"tb:{table_id}:hand", timeout=10)
            enabled = [b for b in game_buttons(hand) if not b.disabled]
            shown = {b.custom_id.split(":", 3)[3] for b in enabled if b.custom_id}
            legal = alone.offered(record.game, record.options, game.legal_actions(seat))
            if shown != set(legal):  # drawn a moment before a bot or timer moved: look again
                continue
            button = self.rng.choice(enabled)
            assert button.custom_id is not None
            await person.click(hand, button.custom_id, timeout=10)
            self.clicks += 1
            made += 1
            version = record.version
            await self.until(
                "the move stored",
                lambda v=version: self._moved(table_id, v),
            )
        return False

    async def _moved(self, table_id: int, version: int) -> bool:
        return (await self.record(table_id)).version > version
