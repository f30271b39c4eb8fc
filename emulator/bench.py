"""Measure the emulator's interaction round trip: `python -m emulator.bench [-n 200]`.

For a trivial bot (one slash command answering at once) and for the real bot's `/rules`, it
prints the acknowledgement latency (INTERACTION_CREATE frame written -> first callback arrived,
as recorded on each Interaction) for sequential interactions and for a concurrent burst.
Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from emulator.harness import run_bot, run_client
from emulator.server import Emulator
from emulator.state import Channel
from emulator.users import SimulatedUser


class PingBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=0.05,
        )
        self.guild_id = guild_id

    async def setup_hook(self) -> None:
        @app_commands.command(name="ping", description="Answer at once.")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong", ephemeral=True)

        guild = discord.Object(self.guild_id)
        self.tree.add_command(ping, guild=guild)
        await self.tree.sync(guild=guild)


def describe(label: str, values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return (
        f"{label:<50} n={len(ms):<4} median {statistics.median(ms):7.3f} ms   "
        f"p95 {p95:7.3f} ms   max {ms[-1]:7.3f} ms"
    )


async def measure(
    emu: Emulator,
    people: list[SimulatedUser],
    channel: Channel,
    command: str,
    options: dict[str, Any],
    count: int,
) -> None:
    for _ in range(10):  # warm-up: first requests open connections
        await people[0].slash(channel, command, **options)
    start = len(emu.interactions)
    user_side: list[float] = []
    for n in range(count):
        began = time.perf_counter()
        await people[n % len(people)].slash(channel, command, **options)
        user_side.append(time.perf_counter() - began)
    sequential = [i.ack_latency for i in emu.interactions[start:] if i.ack_latency is not None]
    print(describe(f"/{command} sequential: frame -> callback", sequential))
    print(describe(f"/{command} sequential: user round trip", user_side))
    # The first burst also opens ~count new connections; the second reuses them.
    for label in ("cold", "warm"):
        start = len(emu.interactions)
        began = time.perf_counter()
        await asyncio.gather(
            *(
                people[n % len(people)].slash(channel, command, timeout=30, **options)
                for n in range(count)
            )
        )
        wall = time.perf_counter() - began
        burst = [i.ack_latency for i in emu.interactions[start:] if i.ack_latency is not None]
        print(describe(f"/{command} {count} concurrent ({label}): frame -> callback", burst))
        print(f"{'':<50} burst wall time {wall * 1000:.1f} ms")


def world(emu: Emulator) -> tuple[Channel, list[SimulatedUser]]:
    guild = emu.add_guild("Bench")
    channel = guild.add_channel("table")
    people = [emu.add_user(f"player{n}") for n in range(4)]
    for person in people:
        guild.add_member(person)
    return channel, people


async def main(count: int) -> None:
    async with Emulator() as emu:
        channel, people = world(emu)
        guild_id = next(iter(emu.guilds))
        async with run_client(emu, PingBot(guild_id)):
            await measure(emu, people, channel, "ping", {}, count)
        emu.assert_clean()
    from bot.settings import Settings

    with tempfile.TemporaryDirectory() as folder:
        async with Emulator() as emu:
            channel, people = world(emu)
            settings = Settings(token=None, database_path=Path(folder) / "bench.sqlite3")
            settings = dataclasses.replace(settings, dev_guild_id=next(iter(emu.guilds)))
            async with run_bot(emu, settings):
                await measure(emu, people, channel, "rules", {"game": "euchre"}, count)
            emu.assert_clean()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m emulator.bench", description=__doc__)
    parser.add_argument("-n", type=int, default=200, help="interactions per measurement")
    asyncio.run(main(parser.parse_args().n))
