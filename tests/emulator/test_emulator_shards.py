"""The emulator shards as Discord does (issue 14): `/gateway/bot` recommends a shard count, IDENTIFY
carries `shard: [id, count]`, a guild belongs to shard `(guild_id >> 22) % count` and its READY
entry, GUILD_CREATE and every event (INTERACTION_CREATE, MESSAGE_*, CHANNEL_*) go only to that
shard's session; a bad shard is closed with 4010, too many guilds for one session with 4011.
Driven by the real discord.py client (AutoShardedClient, and Client with shard_id/shard_count)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest

from emulator import Emulator, pointed_at
from emulator.gateway import DISPATCH, IDENTIFY, shard_of
from tests.support.world import ProbeBot


@contextlib.asynccontextmanager
async def started(emu: Emulator, *clients: discord.Client) -> AsyncIterator[None]:
    """Several clients at once on the emulator (as several processes would be), all ready."""
    with pointed_at(emu):
        tasks = [asyncio.create_task(c.start(emu.token)) for c in clients]
        try:
            await asyncio.wait_for(asyncio.gather(*(c.wait_until_ready() for c in clients)), 15)
            yield
        finally:
            for client in clients:
                await client.close()
            for task in tasks:
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(task, 10)


def sharded_world(emu: Emulator, count: int = 2) -> list[Any]:
    """One guild per shard (each with a #table channel and a member), in shard order."""
    guilds = []
    for shard_id in range(count):
        guild = emu.add_guild(f"Shard {shard_id}", shard=(shard_id, count))
        guild.add_channel("table")
        guild.add_member(emu.add_user(f"player{shard_id}"))
        guilds.append(guild)
    return guilds


def events_by_session(emu: Emulator, event: str) -> dict[int, list[Any]]:
    found: dict[int, list[Any]] = {}
    for frame in emu.gateway.frames:
        if frame.direction == "out" and frame.op == DISPATCH and frame.event == event:
            found.setdefault(frame.session, []).append(frame.data)
    return found


def shard_of_session(emu: Emulator, number: int) -> tuple[int, int]:
    session = next(s for s in emu.gateway.sessions if s.number == number)
    return session.shard_id, session.shard_count


async def test_auto_sharded_client_gets_the_recommended_count_and_only_its_guilds() -> None:
    """Issue 14: GET /gateway/bot says 2 shards; AutoShardedClient opens two sessions, each
    IDENTIFY carries its [id, 2], each READY lists and each GUILD_CREATE is only its guilds."""
    async with Emulator(shard_count=2) as emu:
        guilds = [*sharded_world(emu), emu.add_guild("More", shard=(1, 2))]
        client = discord.AutoShardedClient(intents=discord.Intents.default())
        async with started(emu, client):
            assert sorted(g.id for g in client.guilds) == sorted(g.id for g in guilds)
            for guild in client.guilds:
                assert guild.shard_id == shard_of(guild.id, 2)
        assert emu.requests_to("GET", "/gateway/bot")
        identifies = [f.data["shard"] for f in emu.gateway.frames if f.op == IDENTIFY]
        assert sorted(identifies) == [[0, 2], [1, 2]]
        ready = events_by_session(emu, "READY")
        created = events_by_session(emu, "GUILD_CREATE")
        assert len(ready) == 2
        for number, (payload,) in ready.items():
            shard_id, count = shard_of_session(emu, number)
            assert payload["shard"] == [shard_id, count]
            owned = {g.id for g in guilds if shard_of(g.id, 2) == shard_id}
            assert {int(g["id"]) for g in payload["guilds"]} == owned
            assert {int(g["id"]) for g in created[number]} == owned
        emu.assert_clean()


async def test_guild_events_go_only_to_the_shard_that_owns_the_guild() -> None:
    """Issue 14: two clients (shard 0 and shard 1 of 2, as two processes); a slash command in
    each guild reaches only its shard's client, and the guild's MESSAGE_CREATE and
    CHANNEL_CREATE only its shard's session; a guild added later is announced to its shard."""
    async with Emulator(shard_count=2) as emu:
        guilds = sharded_world(emu)
        answered: dict[int, list[int]] = {0: [], 1: []}

        def handler_for(shard_id: int) -> Any:
            async def handler(interaction: discord.Interaction) -> None:
                assert interaction.guild_id is not None
                answered[shard_id].append(interaction.guild_id)
                await interaction.response.send_message(f"shard {shard_id}")

            return handler

        bots = [ProbeBot(guilds[i].id, handler_for(i), shard_id=i, shard_count=2) for i in range(2)]
        async with started(emu, *bots):
            for shard_id in (1, 0):
                guild = guilds[shard_id]
                user = next(m for m in guild.members.values() if m.name.startswith("player"))
                reply = await user.slash(guild.channel("table"), "probe")
                assert reply.content == f"shard {shard_id}"
            await asyncio.gather(*(b.handled() for b in bots))
            joined = asyncio.ensure_future(bots[1].wait_for("guild_available", timeout=10))
            late = emu.add_guild("Late", shard=(1, 2))
            late.add_channel("lobby")
            assert (await joined).id == late.id
            assert bots[0].get_guild(late.id) is None
        assert answered == {0: [guilds[0].id], 1: [guilds[1].id]}
        for event in ("INTERACTION_CREATE", "MESSAGE_CREATE", "CHANNEL_CREATE", "GUILD_CREATE"):
            for number, payloads in events_by_session(emu, event).items():
                shard_id, count = shard_of_session(emu, number)
                for data in payloads:
                    guild_id = int(data.get("guild_id") or data["id"])
                    assert shard_of(guild_id, count) == shard_id, (event, data)
        assert {shard_of_session(emu, n)[0] for n in events_by_session(emu, "CHANNEL_CREATE")} == {
            1
        }
        emu.assert_clean()


@pytest.mark.parametrize("shard", [(2, 2), (5, 3)])
async def test_a_shard_id_outside_the_count_is_closed_with_4010(shard: tuple[int, int]) -> None:
    """Issue 14: IDENTIFY with an invalid shard -> close 4010 (Invalid shard); discord.py gives
    up with ConnectionClosed(4010) instead of reconnecting."""
    async with Emulator() as emu:
        emu.add_guild("Cards")
        client = discord.Client(
            intents=discord.Intents.default(), shard_id=shard[0], shard_count=shard[1]
        )
        with pointed_at(emu):
            with pytest.raises(discord.ConnectionClosed) as raised:
                await asyncio.wait_for(client.start(emu.token), 15)
            await client.close()
        assert raised.value.code == 4010
        assert not emu.gateway.identified


async def test_too_many_guilds_for_one_session_is_closed_with_4011() -> None:
    """Issue 14: a session that would hold more guilds than a shard may (Discord: 2,500) is
    closed with 4011 (Sharding required); two shards of the same guilds are accepted."""
    async with Emulator(max_guilds_per_shard=1) as emu:
        sharded_world(emu)
        client = discord.Client(intents=discord.Intents.default())
        with pointed_at(emu):
            with pytest.raises(discord.ConnectionClosed) as raised:
                await asyncio.wait_for(client.start(emu.token), 15)
            await client.close()
        assert raised.value.code == 4011
        sharded = discord.AutoShardedClient(intents=discord.Intents.default(), shard_count=2)
        async with started(emu, sharded):
            assert len(sharded.guilds) == 2
        emu.assert_clean()
