"""Run a real, unmodified discord.py client against the emulator, and shut it down cleanly.

Only two class attributes are pointed at the emulator (`discord.http.Route.BASE` and
`DiscordWebSocket.DEFAULT_GATEWAY`); both are restored in `finally`. The client's ERROR log
records during the run land in `Emulator.bot_errors`, so `assert_clean()` fails on them.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING, TypeVar

import discord
import discord.gateway
import discord.http

from emulator.server import Emulator

if TYPE_CHECKING:
    from bot.client import CardTableBot
    from bot.settings import Settings

ClientT = TypeVar("ClientT", bound=discord.Client)


class _ErrorCollector(logging.Handler):
    def __init__(self, emu: Emulator) -> None:
        super().__init__(logging.ERROR)
        self._emu = emu

    def emit(self, record: logging.LogRecord) -> None:
        text = f"{record.name}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            text += f" ({record.exc_info[1]!r})"
        self._emu.bot_errors.append(text)
        self._emu.notifier.changed()


@contextlib.contextmanager
def pointed_at(emu: Emulator) -> Iterator[None]:
    """Point discord.py's REST base and default gateway at the emulator, restoring both."""
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    if old_base != "https://discord.com/api/v10":
        raise RuntimeError("discord.py is already pointed at an emulator (nested run_client?)")
    discord.http.Route.BASE = emu.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = emu.gateway_yarl
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


@contextlib.asynccontextmanager
async def run_client(
    emu: Emulator, client: ClientT, *, ready_timeout: float = 15.0
) -> AsyncIterator[ClientT]:
    """Start `client` on the emulator (token: the emulator's), wait until it is ready, yield
    it; then close it, await its task and restore discord.py, whatever happened."""
    collector = _ErrorCollector(emu)
    root = logging.getLogger()
    root.addHandler(collector)
    with pointed_at(emu):
        task = asyncio.create_task(client.start(emu.token), name="emulated-bot")
        try:
            ready = asyncio.create_task(client.wait_until_ready())
            done, _ = await asyncio.wait(
                {task, ready}, timeout=ready_timeout, return_when=asyncio.FIRST_COMPLETED
            )
            if ready not in done:
                ready.cancel()
                if task in done:
                    task.result()  # raises the start-up error (LoginFailure, ...)
                    raise RuntimeError("the bot stopped before it was ready")
                raise TimeoutError(f"the bot was not ready within {ready_timeout:g} s")
            yield client
        finally:
            await client.close()
            try:
                await asyncio.wait_for(task, timeout=10)
            except (asyncio.CancelledError, Exception):
                if not task.done():
                    task.cancel()
                    with contextlib.suppress(BaseException):
                        await task
            root.removeHandler(collector)


@contextlib.asynccontextmanager
async def run_bot(
    emu: Emulator,
    settings: Settings,
    *,
    extensions: tuple[str, ...] | None = None,
    guild_ready_timeout: float = 0.05,
    ready_timeout: float = 15.0,
) -> AsyncIterator[CardTableBot]:
    """The project's real bot (`CardTableBot`) on the emulator. The settings' token is replaced
    by the emulator's; everything else (database path, DEV_GUILD_ID...) is used as given. The
    bot's table service runs on the emulator's clock: `emu.clock.advance()` moves its turn
    timers and its weekly recap too."""
    from bot.client import EXTENSIONS, make_bot

    # The local beacon: no test reaches drand's real relays.
    settings = dataclasses.replace(settings, token=emu.token, beacon_relays=emu.beacon_relays)
    bot = make_bot(
        settings,
        extensions=EXTENSIONS if extensions is None else extensions,
        guild_ready_timeout=guild_ready_timeout,
        clock=emu.clock.time,
    )

    def clock_moved() -> None:
        if bot.started and not bot.is_closed():
            bot.time_moved()

    emu.clock.on_advance(clock_moved)
    async with run_client(emu, bot, ready_timeout=ready_timeout) as running:
        yield running
