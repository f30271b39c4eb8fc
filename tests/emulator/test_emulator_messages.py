"""Message flows the bot may use: files, follow-ups edited by id, the original response fetched
and deleted, selects, layout (Components V2) messages, several guilds, mentions."""

from __future__ import annotations

import io
from typing import Any

import aiohttp
import discord

from emulator import Emulator
from emulator.messages import notified_users, notifies_everyone
from tests.support.world import ProbeFactory, World


async def test_files_are_uploaded_stored_and_served(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async def send_files(interaction: discord.Interaction) -> None:
        picture = discord.File(io.BytesIO(b"\x89PNG fake"), filename="table.png")
        await interaction.response.send_message("your cards", file=picture, ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send("scores", file=discord.File(io.BytesIO(b"1,2"), "s.csv"))

    async with probe_bot(send_files) as bot:
        reply = await world.alice.slash(world.table, "probe")
        await bot.handled()
    [picture] = reply.attachments
    assert picture["filename"] == "table.png" and picture["size"] == 9 and picture["ephemeral"]
    [public] = world.table.messages
    assert public.attachments[0]["filename"] == "s.csv"
    async with aiohttp.ClientSession() as session, session.get(picture["url"]) as response:
        assert await response.read() == b"\x89PNG fake"


async def test_follow_ups_by_id_and_the_original_response(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    seen: list[str] = []

    async def manage(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("original")
        original = await interaction.original_response()
        seen.append(original.content)
        note = await interaction.followup.send("note", ephemeral=True, wait=True)
        await note.edit(content="note, edited")
        await interaction.delete_original_response()

    async with probe_bot(manage) as bot:
        reply = await world.alice.slash(world.table, "probe")
        await bot.handled()
    assert seen == ["original"] and reply.deleted and world.table.messages == []
    [note] = world.alice.ephemerals
    assert note.content == "note, edited" and note.edits == 1
    assert [m.deleted for m in emulator.interactions[0].followups] == [False]


async def test_a_select_menu(emulator: Emulator, world: World, probe_bot: ProbeFactory) -> None:
    picked: list[list[str]] = []

    class Pick(discord.ui.View):
        @discord.ui.select(
            custom_id="target",
            placeholder="Points to win",
            options=[discord.SelectOption(label=f"{n} points", value=str(n)) for n in (5, 7, 10)],
        )
        async def target(
            self, interaction: discord.Interaction, menu: discord.ui.Select[Any]
        ) -> None:
            picked.append(menu.values)
            await interaction.response.edit_message(content=f"to {menu.values[0]}", view=None)

    async def ask(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("options", view=Pick(), ephemeral=True)

    async with probe_bot(ask):
        menu = await world.alice.slash(world.table, "probe")
        after = await world.alice.select(menu, "Points to win", ["7"])
    assert picked == [["7"]] and after.content == "to 7" and after.components == []


async def test_a_layout_message_with_components_v2(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    class Board(discord.ui.LayoutView):
        text: discord.ui.TextDisplay[Board] = discord.ui.TextDisplay("## Table\\nNorth deals.")
        row: discord.ui.ActionRow[Board] = discord.ui.ActionRow()

        @row.button(label="Sit", custom_id="sit")
        async def sit(
            self, interaction: discord.Interaction, button: discord.ui.Button[Any]
        ) -> None:
            await interaction.response.send_message("seated", ephemeral=True)

    async def show(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(view=Board())

    async with probe_bot(show):
        board = await world.alice.slash(world.table, "probe")
        assert board.flags & (1 << 15) and "North deals." in board.text
        seated = await world.bob.click(board, "Sit")
    assert seated.content == "seated" and seated.ephemeral_for is world.bob


async def test_several_guilds_keep_their_people_apart(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    other = emulator.add_guild("Other", locale="pt-BR")
    lounge = other.add_channel("lounge")
    zoe = emulator.add_user("zoe", locale="pt-BR")
    other.add_member(zoe)

    async def post(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {interaction.guild_locale}")

    async with probe_bot(post) as bot:
        assert {g.id for g in bot.guilds} == {world.guild.id, other.id}
        probe = bot.tree.get_command("probe", guild=world.guild)
        assert isinstance(probe, discord.app_commands.Command)
        bot.tree.add_command(probe, guild=other)
        await bot.tree.sync(guild=other)
        message = await zoe.slash(lounge, "probe")
    assert message.content == "hello pt-BR" and zoe.sees(message)
    assert not world.alice.sees(message) and world.alice.visible_messages(lounge) == []


async def test_a_mention_reaches_the_bot_with_its_content(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async def answer(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok", ephemeral=True)

    async with probe_bot(answer) as bot:
        waiter = bot.loop.create_task(bot.wait_for("message", timeout=5))
        await world.carol.say(world.table, f"{emulator.bot.mention} deal me in")
        message = await waiter
    assert message.content.endswith("deal me in")


def test_only_a_new_message_notifies_and_only_whom_allowed_mentions_names() -> None:
    """Discord notifies mentions in the content of a new message, filtered by allowed_mentions;
    mentions in embeds and mentions edited in never notify (issue 10's pings rely on it)."""
    content = "<@1> <@!2> <@3>"
    assert notified_users(content, None) == [1, 2, 3]
    assert notified_users(content, {"parse": ["users"]}) == [1, 2, 3]
    assert notified_users(content, {"parse": [], "users": ["2", "3"]}) == [2, 3]
    assert notified_users(content, {"parse": []}) == []
    assert notified_users("no mention <@&9> @everyone", None) == []


async def test_the_emulator_records_who_a_message_notified(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async def nothing(interaction: discord.Interaction) -> None:
        return None

    alice, bob = world.alice, world.bob
    async with probe_bot(nothing) as bot:
        channel = bot.get_partial_messageable(world.table.id, guild_id=world.guild.id)
        sent = await channel.send("table")
        await channel.get_partial_message(sent.id).edit(content=f"{alice.mention} to play")
        assert emulator.messages[sent.id].notified == [] and emulator.notifications == []
        ping = await channel.send(
            f"{alice.mention} {bob.mention}",
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(alice.id)]),
        )
        assert emulator.messages[ping.id].notified == [alice.id]
        assert emulator.notifications == [(alice.id, ping.id)]


def test_everyone_and_here_notify_only_unescaped_and_when_allowed() -> None:
    """@everyone / @here in a new message's content notify as allowed_mentions permits (absent:
    they do); escaped (`@\u200beveryone`, discord.utils.escape_mentions) they never do."""
    assert notifies_everyone("hi @everyone", None)
    assert notifies_everyone("hi @here", {"parse": ["everyone"]})
    assert not notifies_everyone("hi @everyone", {"parse": ["users"]})
    assert not notifies_everyone("hi @everyone", {"parse": []})
    assert not notifies_everyone(discord.utils.escape_mentions("hi @everyone @here"), None)


async def test_the_emulator_records_each_requests_allowed_mentions(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    """Issue 13 item 3: every create/edit that sets text keeps its allowed_mentions, so a test
    can assert who would be pinged."""

    async def nothing(interaction: discord.Interaction) -> None:
        return None

    async with probe_bot(nothing, allowed_mentions=discord.AllowedMentions.none()) as bot:
        channel = bot.get_partial_messageable(world.table.id, guild_id=world.guild.id)
        sent = await channel.send("@everyone look")
        await channel.get_partial_message(sent.id).edit(
            content="again",
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(world.alice.id)]),
        )
        message = emulator.messages[sent.id]
        assert not message.notified_everyone
        first, second = message.allowed_mentions
        assert first is not None and not first.get("parse") and not first.get("users")
        assert second is not None
        assert [int(u) for u in second.get("users") or ()] == [world.alice.id]
        loud = await channel.send(
            "@everyone look", allowed_mentions=discord.AllowedMentions(everyone=True)
        )
        assert emulator.messages[loud.id].notified_everyone
