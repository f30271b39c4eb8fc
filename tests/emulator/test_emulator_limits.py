"""Discord's message limits, enforced by the emulator (50035 Invalid Form Body, 50006)."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from emulator import Emulator
from emulator.errors import CANNOT_SEND_EMPTY_MESSAGE, INVALID_FORM_BODY
from tests.support.world import ProbeFactory, World, raw_callback, raw_channel_message


def button(custom_id: str, label: str = "Card", **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 2, "custom_id": custom_id, "label": label, **extra}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def grid(rows: int, per_row: int) -> list[dict[str, Any]]:
    return [row(*(button(f"b{r}.{c}") for c in range(per_row))) for r in range(rows)]


def select(options: int, **extra: Any) -> dict[str, Any]:
    return {
        "type": 3,
        "custom_id": "pick",
        "options": [{"label": f"Option {n}", "value": str(n)} for n in range(options)],
        **extra,
    }


def embed(**fields: Any) -> dict[str, Any]:
    return {"type": "rich", **fields}


V2 = 1 << 15

BAD_PAYLOADS: dict[str, tuple[dict[str, Any], str]] = {
    "6 rows": ({"components": grid(6, 1)}, "components: Must be 5 or fewer in length."),
    "26 buttons (a row of 6)": (
        {"components": [*grid(4, 5), row(*(button(f"x{n}") for n in range(6)))]},
        "components.4.components: Must be between 1 and 5 in length.",
    ),
    "custom_id of 101": (
        {"components": [row(button("c" * 101))]},
        "components.0.components.0.custom_id: Must be between 1 and 100 in length.",
    ),
    "empty custom_id": ({"components": [row(button(""))]}, "Must be between 1 and 100"),
    "label of 81": (
        {"components": [row(button("a", "L" * 81))]},
        "components.0.components.0.label: Must be 80 or fewer in length.",
    ),
    "duplicate custom_id": (
        {"components": [row(button("same")), row(button("same"))]},
        "components.1.components.0.custom_id: Component custom id cannot be duplicated",
    ),
    "button without label or emoji": (
        {"components": [row({"type": 2, "style": 1, "custom_id": "x"})]},
        "label or an emoji",
    ),
    "link button with custom_id": (
        {"components": [row(button("x", style=5, url="https://example.com"))]},
        "cannot have a custom id",
    ),
    "26 select options": ({"components": [row(select(26))]}, "Must be between 1 and 25"),
    "select beside a button": (
        {"components": [row(select(2), button("b"))]},
        "exceeds the maximum width",
    ),
    "content of 2001": ({"content": "x" * 2001}, "content: Must be 2000 or fewer in length."),
    "11 embeds": ({"embeds": [embed(title="t")] * 11}, "embeds: Must be 10 or fewer in length."),
    "embed title of 257": ({"embeds": [embed(title="t" * 257)]}, "Must be 256 or fewer"),
    "embed description of 4097": (
        {"embeds": [embed(description="d" * 4097)]},
        "Must be 4096 or fewer",
    ),
    "26 embed fields": (
        {"embeds": [embed(fields=[{"name": "n", "value": "v"}] * 26)]},
        "Must be 25 or fewer",
    ),
    "embeds over 6000 in all": (
        {"embeds": [embed(description="d" * 3001), embed(description="d" * 3000)]},
        "Embed size exceeds maximum size of 6000",
    ),
    "components v2 with content": (
        {"flags": V2, "content": "hi", "components": [{"type": 10, "content": "text"}]},
        "cannot be used when using the IS_COMPONENTS_V2 flag",
    ),
    "41 components v2": (
        {"flags": V2, "components": [{"type": 10, "content": "t"}] * 41},
        "Must be 40 or fewer components in total.",
    ),
    "components v2 with an embed": (
        {"flags": V2, "embeds": [embed(title="t")], "components": [{"type": 10, "content": "t"}]},
        "cannot be used when using the IS_COMPONENTS_V2 flag",
    ),
    "components v2 showing an attachment the message lacks (issue 30)": (
        {
            "flags": V2,
            "components": [
                {
                    "type": 17,
                    "components": [
                        {"type": 12, "items": [{"media": {"url": "attachment://table.png"}}]}
                    ],
                }
            ],
        },
        "is not an attachment of this message",
    ),
    "41 components v2 counting nested ones": (
        {
            "flags": V2,
            "components": [
                {"type": 17, "components": [{"type": 10, "content": "t"}] * 20},
                {"type": 17, "components": [{"type": 10, "content": "t"}] * 19},
            ],
        },
        "Must be 40 or fewer components in total.",
    ),
    "text display of 4001": (
        {"flags": V2, "components": [{"type": 10, "content": "t" * 4001}]},
        "components.0.content: Must be between 1 and 4000 in length.",
    ),
    "empty text display": (
        {"flags": V2, "components": [{"type": 10, "content": ""}]},
        "components.0.content: Must be between 1 and 4000 in length.",
    ),
    "text displays over 4000 in all": (
        {"flags": V2, "components": [{"type": 10, "content": "t" * 2001}] * 2},
        "Text displays must hold 4000 or fewer characters in total.",
    ),
    "empty media gallery": (
        {"flags": V2, "components": [{"type": 12, "items": []}]},
        "components.0.items: Must be between 1 and 10 in length.",
    ),
    "media gallery of 11": (
        {
            "flags": V2,
            "components": [{"type": 12, "items": [{"media": {"url": "attachment://t.png"}}] * 11}],
        },
        "components.0.items: Must be between 1 and 10 in length.",
    ),
    "action row of 6 in components v2": (
        {
            "flags": V2,
            "components": [{"type": 17, "components": [row(*(button(f"x{n}") for n in range(6)))]}],
        },
        "components.0.components.0.components: Must be between 1 and 5 in length.",
    ),
}


@pytest.mark.parametrize("case", list(BAD_PAYLOADS))
async def test_a_message_breaking_a_limit_is_refused(
    emulator: Emulator, world: World, probe_bot: ProbeFactory, case: str
) -> None:
    payload, expected = BAD_PAYLOADS[case]

    async def post(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("posting", ephemeral=True)
        await raw_channel_message(interaction.client, world.table.id, payload)

    async with probe_bot(post) as bot:
        await world.alice.slash(world.table, "probe")
        await bot.handled()
    [error] = bot.errors
    assert error.status == 400 and error.code == INVALID_FORM_BODY
    assert expected in str(error)
    assert world.table.messages == []
    [violation] = emulator.take_violations(INVALID_FORM_BODY)
    assert violation.method == "POST" and expected.split(": ")[-1] in violation.detail


async def test_an_oversized_view_in_an_interaction_response_is_refused(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    # discord.py's View raises above 25 items, so the bot that would do it sends a raw payload.
    with pytest.raises(ValueError):
        view = discord.ui.View()
        for n in range(26):
            view.add_item(discord.ui.Button(label=str(n), custom_id=str(n)))

    async def oversized(interaction: discord.Interaction) -> None:
        try:
            await raw_callback(
                interaction,
                {
                    "type": 4,
                    "data": {"content": "your hand", "flags": 64, "components": grid(6, 5)},
                },
            )
        finally:
            await interaction.response.send_message("fallback", ephemeral=True)

    async with probe_bot(oversized) as bot:
        reply = await world.alice.slash(world.table, "probe")
        await bot.handled()
    assert reply.content == "fallback" and reply.components == []
    [error] = bot.errors
    assert error.code == INVALID_FORM_BODY and "Must be 5 or fewer" in str(error)
    assert len(emulator.take_violations(INVALID_FORM_BODY)) == 1


async def test_an_empty_message_is_refused(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async def empty(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok", ephemeral=True)
        await raw_channel_message(interaction.client, world.table.id, {"content": ""})

    async with probe_bot(empty) as bot:
        await world.alice.slash(world.table, "probe")
        await bot.handled()
    assert [e.code for e in bot.errors] == [CANNOT_SEND_EMPTY_MESSAGE]
    assert len(emulator.take_violations(CANNOT_SEND_EMPTY_MESSAGE)) == 1


async def test_a_message_at_every_limit_is_accepted_and_numbered(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    components = grid(5, 5)
    components[0]["components"][0] = button("c" * 100, "L" * 80)
    payload = {
        "content": "x" * 2000,
        "embeds": [embed(title="t" * 10, fields=[{"name": "n", "value": "v"}] * 25)]
        + [embed(title="t")] * 9,
        "components": components,
    }

    async def post(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("posting", ephemeral=True)
        await raw_channel_message(interaction.client, world.table.id, payload)

    async with probe_bot(post) as bot:
        await world.alice.slash(world.table, "probe")
        await bot.handled()
    assert bot.errors == []
    [message] = world.table.messages
    assert len(message.buttons) == 25 and len(message.embeds) == 10
    # Discord numbers every component depth first: row 1, its buttons 2-6, row 7...
    assert [c["id"] for c in message.components] == [1, 7, 13, 19, 25]
    assert [b.id for b in message.buttons[:5]] == [2, 3, 4, 5, 6]
    assert message.button("L" * 80).custom_id == "c" * 100
