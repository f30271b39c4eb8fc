"""Threads (issue 23), as Discord has them: created by the bot in a text channel or from one of
its messages, type 11 channels with their parent's permissions, messages in them, slash
commands from inside them, THREAD_CREATE on creation and GUILD_CREATE listing them."""

from __future__ import annotations

import discord

from emulator import Emulator
from emulator.rest_threads import THREAD_ALREADY_CREATED, ThreadChannel, active_threads
from tests.support.world import ProbeFactory, World


async def test_the_bot_opens_a_thread_and_talks_in_it(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    made: list[discord.Thread] = []

    async def handler(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("opening", ephemeral=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        thread = await channel.create_thread(name="Table 1", type=discord.ChannelType.public_thread)
        await thread.send("Round 1, table 1")
        made.append(thread)

    async with probe_bot(handler) as bot:
        await world.alice.slash(world.table, "probe")
        await bot.handled()
        [thread] = made
        cached = bot.get_channel(thread.id)  # THREAD_CREATE reached the bot
        assert isinstance(cached, discord.Thread) and cached.parent_id == world.table.id
    assert thread.type == discord.ChannelType.public_thread and thread.name == "Table 1"
    channel = emulator.channels[thread.id]
    assert isinstance(channel, ThreadChannel) and channel.type == 11
    assert channel.parent is world.table
    assert [m.content for m in channel.messages] == ["Round 1, table 1"]
    assert world.table.messages == []  # the thread's message is not the channel's
    assert active_threads(emulator, world.guild.id) == [channel]


async def test_a_thread_from_a_message_has_its_id_and_only_one_is_allowed(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    seen: list[tuple[int, int]] = []

    async def handler(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok", ephemeral=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        message = await channel.send("Round 2")
        thread = await message.create_thread(name="Round 2 · table 1")
        seen.append((message.id, thread.id))
        await message.create_thread(name="again")  # refused: 160004

    async with probe_bot(handler) as bot:
        await world.alice.slash(world.table, "probe")
        await bot.handled()
    [(message_id, thread_id)] = seen
    assert thread_id == message_id and emulator.channels[thread_id].type == 11
    [error] = bot.errors
    assert error.code == THREAD_ALREADY_CREATED
    [violation] = emulator.take_violations(THREAD_ALREADY_CREATED)  # a broken Discord rule
    assert "already been created" in violation.message


async def test_commands_from_a_thread_and_a_reconnecting_bot_knows_the_thread(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    where: list[tuple[type, int | None]] = []

    async def handler(interaction: discord.Interaction) -> None:
        channel = interaction.channel
        if isinstance(channel, discord.TextChannel):
            await channel.create_thread(name="Table 3", type=discord.ChannelType.public_thread)
        where.append((type(channel), getattr(channel, "parent_id", None)))
        await interaction.response.send_message("here", ephemeral=True)

    async with probe_bot(handler) as bot:
        await world.alice.slash(world.table, "probe")
        await bot.handled()
    [thread] = active_threads(emulator, world.guild.id)
    async with probe_bot(handler) as bot:  # a new connection: GUILD_CREATE lists the thread
        known = bot.get_channel(thread.id)
        assert isinstance(known, discord.Thread) and known.parent_id == world.table.id
        reply = await world.bob.slash(thread, "probe")
        await bot.handled()
    assert reply.content == "here" and reply.channel is thread
    assert where[-1] == (discord.Thread, world.table.id)
