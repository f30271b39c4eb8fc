"""The interaction rules the emulator enforces, each proven by a deliberately misbehaving bot,
and the user-side views (who sees what) the end-to-end tests rely on."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from emulator import Emulator, EmulatorUsageError, InteractionFailed
from emulator.errors import (
    INTERACTION_ALREADY_ACKNOWLEDGED,
    INVALID_FORM_BODY,
    INVALID_WEBHOOK_TOKEN,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
)
from tests.support.world import Handler, ProbeFactory, World, raw_callback


def late_answer(delay: float) -> Handler:
    async def handler(interaction: discord.Interaction) -> None:
        await asyncio.sleep(delay)
        await interaction.response.send_message("too late", ephemeral=True)

    return handler


async def test_a_late_first_response_is_10062_and_the_user_sees_it_failed(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    emulator.response_deadline = 0.2  # a short deadline keeps this test quick
    async with probe_bot(late_answer(0.3)) as bot:
        inter = await world.alice.send_slash(world.table, "probe")
        with pytest.raises(InteractionFailed, match="This interaction failed"):
            await inter.response()
        await bot.handled()
    [error] = bot.errors
    assert isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION
    assert inter.failed and inter.failure == "This interaction failed"
    assert world.alice.failures == [inter] and world.alice.ephemerals == []
    violations = emulator.take_violations(UNKNOWN_INTERACTION)
    assert [v.path for v in violations] == [
        "(no response)",
        f"/api/v10/interactions/{inter.id}/{inter.token}/callback",
    ]
    assert all(v.interaction_id == inter.id for v in violations)


async def test_the_default_deadline_is_3_seconds(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    assert emulator.response_deadline == 3.0
    async with probe_bot(late_answer(3.1)) as bot:
        inter = await world.alice.send_slash(world.table, "probe")
        await inter.wait_settled(timeout=5)
        await bot.handled(timeout=5)
    assert inter.failed and [e.code for e in bot.errors] == [UNKNOWN_INTERACTION]
    assert len(emulator.take_violations(UNKNOWN_INTERACTION)) == 2


async def test_a_response_within_the_deadline_is_accepted(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    emulator.response_deadline = 1.0
    async with probe_bot(late_answer(0.05)):
        reply = await world.alice.slash(world.table, "probe")
    assert reply.content == "too late" and reply.ephemeral


async def test_a_second_acknowledgement_is_40060(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async def twice(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("first", ephemeral=True)
        # discord.py refuses a second response itself; a raw callback shows Discord's answer.
        await raw_callback(interaction, {"type": 4, "data": {"content": "second"}})

    async with probe_bot(twice) as bot:
        reply = await world.alice.slash(world.table, "probe")
        await bot.handled()
    assert reply.content == "first"
    [error] = bot.errors
    assert error.status == 400 and error.code == INTERACTION_ALREADY_ACKNOWLEDGED
    [violation] = emulator.take_violations(INTERACTION_ALREADY_ACKNOWLEDGED)
    assert "first response was type 4" in violation.detail


async def test_the_token_dies_after_15_minutes_on_the_emulator_clock(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    go = asyncio.Event()

    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("still in time", ephemeral=True)
        await go.wait()
        await interaction.followup.send("too late", ephemeral=True)

    async with probe_bot(slow) as bot:
        inter = await world.alice.send_slash(world.table, "probe")
        first = await inter.response()
        assert first.content == "still in time" and not first.loading
        emulator.clock.advance(14 * 60)
        assert not inter.failed
        emulator.clock.advance(60 + 1)
        go.set()
        await bot.handled()
    [error] = bot.errors
    assert error.status == 401 and error.code == INVALID_WEBHOOK_TOKEN
    [violation] = emulator.take_violations(INVALID_WEBHOOK_TOKEN)
    assert violation.interaction_id == inter.id
    assert [m.content for m in world.alice.ephemerals] == ["still in time"]


async def test_a_thinking_response_never_completed_fails_after_15_minutes(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async def defer_only(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)

    async with probe_bot(defer_only) as bot:
        inter = await world.alice.send_slash(world.table, "probe")
        await bot.handled()
        assert inter.original is not None and inter.original.loading and not inter.settled
        emulator.clock.advance(15 * 60 + 1)
        with pytest.raises(InteractionFailed, match="did not respond"):
            await inter.response()


async def test_callback_types_must_suit_the_interaction(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async def update_a_slash_command(interaction: discord.Interaction) -> None:
        try:
            await raw_callback(interaction, {"type": 7, "data": {"content": "no message"}})
        finally:
            await interaction.response.send_message("fallback", ephemeral=True)

    async with probe_bot(update_a_slash_command) as bot:
        reply = await world.alice.slash(world.table, "probe")
        await bot.handled()
    assert reply.content == "fallback"  # the invalid callback did not count as a response
    assert [e.code for e in bot.errors] == [INVALID_FORM_BODY]
    [violation] = emulator.take_violations(INVALID_FORM_BODY)
    assert "Callback type 7" in violation.detail


async def test_a_follow_up_before_the_first_response_is_unknown_webhook(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async def followup_first(interaction: discord.Interaction) -> None:
        try:
            await interaction.followup.send("hello?")
        finally:
            await interaction.response.send_message("ok", ephemeral=True)

    async with probe_bot(followup_first) as bot:
        await world.alice.slash(world.table, "probe")
        await bot.handled()
    assert [e.code for e in bot.errors] == [UNKNOWN_WEBHOOK]
    assert len(emulator.take_violations(UNKNOWN_WEBHOOK)) == 1


async def test_a_deferred_thinking_response_is_replaced_by_the_first_follow_up(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async def think(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await asyncio.sleep(0.01)
        await interaction.followup.send("done")  # ephemeral because the defer was
        await interaction.followup.send("and a public note")

    async with probe_bot(think) as bot:
        reply = await world.alice.slash(world.table, "probe")
        await bot.handled()
    assert reply.content == "done" and reply.ephemeral and not reply.loading
    assert [v.content for v in reply.versions] == ["", "done"]
    assert reply.versions[0].flags & 128  # it was "thinking" first
    assert reply.edited_at is None  # filling a deferred response is not an edit
    assert [m.content for m in world.alice.ephemerals] == ["done"]
    assert [m.content for m in world.table.messages] == ["and a public note"]


class PressView(discord.ui.View):
    """An ephemeral card-like view: pressing updates the same message in place (type 7)."""

    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.presses = 0

    @discord.ui.button(label="Press", custom_id="press", style=discord.ButtonStyle.primary)
    async def press(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        self.presses += 1
        button.label = f"Pressed {self.presses}"
        await interaction.response.edit_message(content=f"pressed {self.presses}", view=self)

    @discord.ui.button(label="Off", custom_id="off", disabled=True)
    async def off(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        raise AssertionError("a disabled button cannot be clicked")


async def test_a_click_updates_the_ephemeral_message_in_place(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async def show(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("your hand", view=PressView(), ephemeral=True)

    async with probe_bot(show):
        hand = await world.alice.slash(world.table, "probe")
        assert [b.custom_id for b in hand.buttons] == ["press", "off"]
        assert [b.id for b in hand.buttons] == [2, 3]  # numbered like Discord: the row is 1
        after = await world.alice.click(hand, "Press")
        assert after is hand and hand.content == "pressed 1" and hand.ephemeral
        again = await world.alice.click(hand, "press")
        assert again.content == "pressed 2" and hand.button("press").label == "Pressed 2"
        assert [v.content for v in hand.versions] == ["your hand", "pressed 1", "pressed 2"]
        assert [i.response_type for i in emulator.interactions] == [4, 7, 7]
        with pytest.raises(EmulatorUsageError, match="disabled"):
            await world.alice.click(hand, "Off")
        with pytest.raises(EmulatorUsageError, match="no button"):
            await world.alice.click(hand, "Fold")
        with pytest.raises(EmulatorUsageError, match="bob cannot see"):
            await world.bob.click(hand, "Press")
    assert world.alice.ephemerals == [hand] and world.table.messages == []


async def test_public_messages_keep_their_edit_history(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async def post_and_edit(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("table opened", ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        message = await interaction.channel.send("seats: 1/4")
        await message.edit(content="seats: 2/4")
        fetched = await interaction.channel.fetch_message(message.id)
        await fetched.edit(content="seats: 3/4")

    async with probe_bot(post_and_edit) as bot:
        await world.alice.slash(world.table, "probe")
        await bot.handled()
    [table_message] = world.table.messages
    assert table_message.content == "seats: 3/4" and table_message.edits == 2
    assert [v.content for v in table_message.versions] == ["seats: 1/4", "seats: 2/4", "seats: 3/4"]
    assert all(p.sees(table_message) for p in world.players)
    updates = [f for f in emulator.gateway.frames if f.event == "MESSAGE_UPDATE"]
    assert len(updates) == 2


async def test_ephemeral_messages_are_unreachable_through_channel_endpoints(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    refused: list[int] = []

    async def reach_own_ephemeral(interaction: discord.Interaction) -> None:
        response = await interaction.response.send_message("secret", ephemeral=True)
        assert response.message_id is not None
        assert isinstance(interaction.channel, discord.TextChannel)
        partial = interaction.channel.get_partial_message(response.message_id)
        for attempt in (partial.fetch(), partial.edit(content="x"), partial.delete()):
            try:
                await attempt
            except discord.NotFound as error:
                refused.append(error.code)

    async with probe_bot(reach_own_ephemeral) as bot:
        reply = await world.alice.slash(world.table, "probe")
        await bot.handled()
    assert refused == [UNKNOWN_MESSAGE] * 3
    violations = emulator.take_violations(UNKNOWN_MESSAGE)
    assert [v.method for v in violations] == ["GET", "PATCH", "DELETE"]
    assert all("interaction token" in v.detail for v in violations)
    assert reply.content == "secret" and reply.edits == 0 and world.alice.sees(reply)


async def test_a_channel_message_can_never_be_ephemeral(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async def channel_ephemeral(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok", ephemeral=True)
        from tests.support.world import raw_channel_message

        await raw_channel_message(
            interaction.client, world.table.id, {"content": "private?", "flags": 64}
        )

    async with probe_bot(channel_ephemeral) as bot:
        await world.alice.slash(world.table, "probe")
        await bot.handled()
    [error] = bot.errors
    assert error.code == INVALID_FORM_BODY and "EPHEMERAL" in str(error)
    assert world.table.messages == [] and len(emulator.take_violations(INVALID_FORM_BODY)) == 1


async def test_editing_a_dismissed_ephemeral_is_unknown_message_but_no_violation(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    go = asyncio.Event()

    async def edit_later(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("hand", ephemeral=True)
        await go.wait()
        await interaction.edit_original_response(content="new hand")

    async with probe_bot(edit_later) as bot:
        hand = await world.alice.slash(world.table, "probe")
        world.alice.dismiss(hand)
        assert world.alice.ephemerals == []
        go.set()
        await bot.handled()
    assert [e.code for e in bot.errors] == [UNKNOWN_MESSAGE]
    assert emulator.violations == []  # a race the bot must handle, not a broken rule


async def test_a_modal_round_trip(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    answers: list[str] = []

    class NameModal(discord.ui.Modal, title="Name your table"):
        name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(
            label="Name", custom_id="name", max_length=30
        )

        async def on_submit(self, interaction: discord.Interaction) -> None:
            answers.append(self.name.value)
            await interaction.response.send_message(f"table {self.name.value}", ephemeral=True)

    async def ask(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    async with probe_bot(ask):
        inter = await world.alice.send_slash(world.table, "probe")
        await inter.wait_settled()
        assert inter.modal is not None and inter.modal.title == "Name your table"
        reply = await world.alice.submit_modal(inter.modal, {"name": "Lucky"})
    assert answers == ["Lucky"] and reply.content == "table Lucky" and reply.ephemeral


async def test_a_deferred_update_then_an_edit_of_the_original(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    class Lobby(discord.ui.View):
        @discord.ui.button(label="Sit", custom_id="sit")
        async def sit(
            self, interaction: discord.Interaction, button: discord.ui.Button[Any]
        ) -> None:
            await interaction.response.defer()  # type 6: no visible change yet
            await interaction.edit_original_response(content=f"seated: {interaction.user.name}")

    async def open_lobby(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("lobby", view=Lobby())

    async with probe_bot(open_lobby):
        lobby = await world.alice.slash(world.table, "probe")
        assert not lobby.ephemeral and world.table.messages == [lobby]
        clicked = await world.bob.click(lobby, "Sit")
        assert clicked is lobby
        await lobby.wait_until(lambda m: m.content == "seated: bob")
    assert [i.response_type for i in emulator.interactions] == [4, 6]


async def test_200_concurrent_interactions_are_all_answered(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async with probe_bot(late_answer(0)):
        replies = await asyncio.gather(
            *(world.players[n % 4].slash(world.table, "probe", timeout=10) for n in range(200))
        )
    assert len({r.id for r in replies}) == 200 and all(r.ephemeral for r in replies)
    latencies = emulator.ack_latencies()
    assert len(latencies) == 200 and all(latency > 0 for latency in latencies)
    assert sum(len(p.ephemerals) for p in world.players) == 200
