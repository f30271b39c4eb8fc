"""The emulator world the e2e tests play in, the probe bot that proves the emulator's rules, and
hand-built requests that bypass discord.py's own checks."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from emulator import Channel, Emulator, Guild, Message, SimulatedUser


@dataclass
class World:
    """One server "Cards" with a #table channel and four members with different locales."""

    emu: Emulator
    guild: Guild
    table: Channel
    alice: SimulatedUser
    bob: SimulatedUser
    carol: SimulatedUser
    dave: SimulatedUser

    @property
    def players(self) -> list[SimulatedUser]:
        return [self.alice, self.bob, self.carol, self.dave]


def build_world(emu: Emulator) -> World:
    guild = emu.add_guild("Cards")
    table = guild.add_channel("table")
    people = [
        emu.add_user(name, locale=locale)
        for name, locale in (
            ("alice", "en-US"),
            ("bob", "pt-BR"),
            ("carol", "fr"),
            ("dave", "en-GB"),
        )
    ]
    for person in people:
        guild.add_member(person)
    return World(emu, guild, table, *people)


Handler = Callable[[discord.Interaction], Awaitable[Any]]


class ProbeBot(commands.Bot):
    """A minimal bot for proving the emulator's rules: `/probe` runs `handler(interaction)`;
    discord.HTTPExceptions it raises are kept in `errors` (the bot then moves on), and
    `await bot.handled(n)` waits until n runs of the handler have finished."""

    def __init__(self, guild_id: int, handler: Handler, **options: Any) -> None:
        options.setdefault("intents", discord.Intents.default())
        # A prefix nobody types: the probe has slash commands only.
        super().__init__(command_prefix="\x00probe:", guild_ready_timeout=0.05, **options)
        self.guild_id = guild_id
        self.handler = handler
        self.errors: list[discord.HTTPException] = []
        self.runs = 0
        self._ran = asyncio.Condition()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # discord.py waits 5 s before re-identifying; the emulator needs no such courtesy.
        return None

    async def handled(self, count: int = 1, timeout: float = 5.0) -> None:  # noqa: ASYNC109
        async with self._ran:
            await asyncio.wait_for(self._ran.wait_for(lambda: self.runs >= count), timeout)

    async def setup_hook(self) -> None:
        @app_commands.command(name="probe", description="Run the test's handler.")
        async def probe(interaction: discord.Interaction) -> None:
            try:
                await self.handler(interaction)
            except discord.HTTPException as error:
                self.errors.append(error)
            finally:
                async with self._ran:
                    self.runs += 1
                    self._ran.notify_all()

        guild = discord.Object(self.guild_id)
        self.tree.add_command(probe, guild=guild)
        await self.tree.sync(guild=guild)


ProbeFactory = Callable[..., contextlib.AbstractAsyncContextManager[ProbeBot]]


async def raw_callback(interaction: discord.Interaction, payload: dict[str, Any]) -> Any:
    """POST a hand-built interaction callback, bypassing discord.py's own checks."""
    from discord.http import MultipartParameters
    from discord.webhook.async_ import async_context

    http = interaction.client.http
    return await async_context.get().create_interaction_response(
        interaction.id,
        interaction.token,
        session=interaction._session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        params=MultipartParameters(payload=payload, multipart=None, files=None),
    )


async def raw_channel_message(
    client: discord.Client, channel_id: int, payload: dict[str, Any]
) -> Any:
    """POST a hand-built message to a channel through the client's HTTP layer."""
    from discord.http import Route

    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
    return await client.http.request(route, json=payload)


async def open_table(
    person: SimulatedUser, channel: Channel, command: str, **options: Any
) -> Message:
    """The lobby that `/euchre new` or `/truco new` opened. Both answers are correct: a quick one
    is the lobby itself; a slow one (on a busy machine the bot defers past its 2 s budget) is a
    private "Your table is open: <link>" with the lobby posted in the channel. Either way the
    test gets the lobby, so no test depends on how fast this machine is."""
    # A first command on a loaded machine may take long (the bot defers it; the test waits).
    options.setdefault("timeout", 15)
    reply = await person.slash(channel, command, **options)
    if not reply.ephemeral:
        return reply
    lobby = channel.public(int(reply.text.strip().rsplit("/", 1)[-1]))
    assert lobby is not None and not lobby.ephemeral, reply
    return lobby
