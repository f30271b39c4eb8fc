"""Channels: the bot's permissions (403s and app_permissions), per-channel rate limits with
429s discord.py can honour, history, DMs and deletions."""

from __future__ import annotations

import asyncio

import aiohttp
import discord

from emulator import Emulator
from emulator import permissions as perms
from emulator.errors import MISSING_ACCESS, MISSING_PERMISSIONS
from tests.support.world import Handler, ProbeFactory, World


async def post_in(channel_id: int) -> Handler:
    async def handler(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("trying", ephemeral=True)
        channel = interaction.client.get_channel(channel_id)
        assert isinstance(channel, discord.TextChannel)
        await channel.send("hello")

    return handler


async def test_a_channel_without_send_messages_answers_403_50013(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    muted = world.guild.add_channel("muted", bot_can_send=False)
    permissions_seen: list[discord.Permissions] = []

    async def handler(interaction: discord.Interaction) -> None:
        permissions_seen.append(interaction.app_permissions)
        await (await post_in(muted.id))(interaction)

    async with probe_bot(handler) as bot:
        reply = await world.alice.slash(muted, "probe")  # interaction responses still work
        await bot.handled()
        channel = bot.get_channel(muted.id)
        assert isinstance(channel, discord.TextChannel)
        assert not channel.permissions_for(channel.guild.me).send_messages
    assert reply.content == "trying"
    [seen] = permissions_seen
    assert seen.view_channel and not seen.send_messages
    [error] = bot.errors
    assert isinstance(error, discord.Forbidden) and error.code == MISSING_PERMISSIONS
    assert muted.messages == []
    [violation] = emulator.take_violations(MISSING_PERMISSIONS)
    assert "Send Messages" in violation.detail


async def test_a_channel_the_bot_cannot_view_answers_403_50001(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    hidden = world.guild.add_channel("staff", bot_can_view=False)

    async with probe_bot(await post_in(hidden.id)) as bot:
        await world.alice.slash(world.table, "probe")
        await bot.handled()
    assert [e.code for e in bot.errors] == [MISSING_ACCESS]
    assert len(emulator.take_violations(MISSING_ACCESS)) == 1


async def test_a_permission_change_reaches_the_bot_and_the_next_interaction(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    seen: list[int] = []

    async def handler(interaction: discord.Interaction) -> None:
        seen.append(interaction.app_permissions.value)
        await interaction.response.send_message("ok", ephemeral=True)

    async with probe_bot(handler) as bot:
        await world.alice.slash(world.table, "probe")
        world.table.set_bot_permissions(send=False)
        await emulator.wait_for(
            lambda: any(f.event == "CHANNEL_UPDATE" for f in emulator.gateway.frames)
        )
        await world.alice.slash(world.table, "probe")
        channel = bot.get_channel(world.table.id)
        assert isinstance(channel, discord.TextChannel)
        # The CHANNEL_UPDATE frame came before the second interaction's, so it is parsed.
        assert not channel.permissions_for(channel.guild.me).send_messages
    assert seen[0] & perms.SEND_MESSAGES and not seen[1] & perms.SEND_MESSAGES


async def raw_posts(
    emulator: Emulator, channel_id: int, count: int
) -> list[aiohttp.ClientResponse]:
    """A client that ignores rate-limit headers (what discord.py never does)."""
    url = f"{emulator.api_base}/channels/{channel_id}/messages"
    headers = {"Authorization": f"Bot {emulator.token}"}
    responses = []
    async with aiohttp.ClientSession() as session:
        for n in range(count):
            async with session.post(url, json={"content": f"m{n}"}, headers=headers) as response:
                await response.read()
                responses.append(response)
    return responses


async def test_rate_limits_answer_429_with_via_and_retry_after_when_enabled(
    emulator: Emulator, world: World
) -> None:
    emulator.set_rate_limits(True)  # 5 per 5 s per channel, like Discord's message buckets
    responses = await raw_posts(emulator, world.table.id, 6)
    assert [r.status for r in responses] == [200] * 5 + [429]
    assert [r.headers["X-RateLimit-Remaining"] for r in responses[:5]] == ["4", "3", "2", "1", "0"]
    limited = responses[-1]
    assert limited.headers["Via"] and limited.headers["X-RateLimit-Limit"] == "5"
    assert 0 < float(limited.headers["X-RateLimit-Reset-After"]) <= 5
    assert limited.headers["Content-Type"] == "application/json"
    assert len(emulator.rate_limit_hits) == 1 and emulator.invalid_request_count == 1
    assert len(world.table.messages) == 5
    # Another channel has its own bucket.
    other = world.guild.add_channel("other")
    assert [r.status for r in await raw_posts(emulator, other.id, 1)] == [200]


async def test_rate_limits_are_off_unless_a_test_asks(emulator: Emulator, world: World) -> None:
    responses = await raw_posts(emulator, world.table.id, 12)
    assert {r.status for r in responses} == {200} and emulator.rate_limit_hits == []


async def test_discord_py_honours_the_429_and_the_headers(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    emulator.set_rate_limits(True, limit=2, per=0.3)

    async def burst(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("go", ephemeral=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        await raw_posts(emulator, world.table.id, 3)  # someone else empties the bucket
        first = await channel.send("after a 429")  # discord.py sleeps retry_after and retries
        for n in range(4):  # then paces itself from the headers
            await first.edit(content=f"edit {n}")
            await channel.send(f"more {n}")

    async with probe_bot(burst) as bot:
        await world.alice.slash(world.table, "probe")
        await bot.handled(timeout=10)
    assert bot.errors == []
    assert [m.content for m in world.table.messages][-5:] == [
        "edit 3",
        "more 0",
        "more 1",
        "more 2",
        "more 3",
    ]
    retried = [r for r in emulator.rate_limit_hits if r.body.get("content") == "after a 429"]
    assert len(retried) == 1  # the one 429 discord.py could not foresee, then it obeyed


async def test_history_pages_newest_first(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    pages: list[list[str]] = []

    async def read(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("reading", ephemeral=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        for n in range(5):
            await channel.send(f"m{n}")
        pages.append([m.content async for m in channel.history(limit=3)])
        pages.append([m.content async for m in channel.history(limit=10, oldest_first=True)])

    async with probe_bot(read) as bot:
        await world.alice.slash(world.table, "probe")
        await bot.handled()
    assert pages == [["m4", "m3", "m2"], ["m0", "m1", "m2", "m3", "m4"]]


async def test_the_bot_can_write_to_a_users_dm(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async def dm(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("check your DMs", ephemeral=True)
        await interaction.user.send("a private hello")

    async with probe_bot(dm) as bot:
        await world.alice.slash(world.table, "probe")
        await bot.handled()
    assert [m.content for m in world.alice.dm.messages] == ["a private hello"]
    assert world.alice.sees(world.alice.dm.messages[0])
    assert not world.bob.sees(world.alice.dm.messages[0])


async def test_a_deleted_message_disappears_and_the_bot_is_told(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async def post(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("a public table")

    async with probe_bot(post) as bot:
        message = await world.alice.slash(world.table, "probe")
        waiter = asyncio.ensure_future(bot.wait_for("raw_message_delete", timeout=5))
        await asyncio.sleep(0)
        emulator.delete_message(message)
        deleted = await waiter
    assert deleted.message_id == message.id
    assert world.table.messages == [] and not world.alice.sees(message)
