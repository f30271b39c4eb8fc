"""The emulator's application emojis: Discord's upload rules (name, size, count, uniqueness),
and a component may show a custom emoji only if it exists."""

from __future__ import annotations

import base64
from typing import Any

import discord
import pytest

from bot.pictures.cards import emoji_png
from emulator import Emulator
from emulator.rest_emojis import MAX_APPLICATION_EMOJIS
from tests.support.world import ProbeFactory, World

PNG = emoji_png("JH")


def rejected(emulator: Emulator, code: int) -> list[Any]:
    return [v for v in emulator.violations if v.code == code]


async def test_an_emoji_is_uploaded_listed_found_renamed_and_deleted(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async def handler(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok")

    async with probe_bot(handler) as bot:
        emoji = await bot.create_application_emoji(name="card_JH", image=PNG)
        assert emoji.name == "card_JH" and emoji.id in emulator.application_emojis
        assert emulator.emoji_images[emoji.id] == PNG
        listed = await bot.fetch_application_emojis()
        assert [(e.id, e.name) for e in listed] == [(emoji.id, "card_JH")]
        assert (await bot.fetch_application_emoji(emoji.id)).name == "card_JH"
        renamed = await emoji.edit(name="card_JH2")
        assert renamed.name == "card_JH2"
        await emoji.delete()
        assert await bot.fetch_application_emojis() == []
        with pytest.raises(discord.NotFound):
            await bot.fetch_application_emoji(emoji.id)
    emulator.assert_clean()


@pytest.mark.parametrize(
    ("name", "image", "reason"),
    [
        ("x", PNG, "validation regex"),  # too short
        ("a" * 33, PNG, "validation regex"),  # too long
        ("card-JH", PNG, "validation regex"),  # a hyphen
        ("card_big", b"\x89PNG\r\n\x1a\n" + b"\0" * (256 * 1024), "larger than 256.0 kb"),
    ],
)
async def test_uploads_breaking_discords_rules_are_refused(
    emulator: Emulator,
    world: World,
    probe_bot: ProbeFactory,
    name: str,
    image: bytes,
    reason: str,
) -> None:
    async def handler(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok")

    async with probe_bot(handler) as bot:
        with pytest.raises(discord.HTTPException) as refused:
            await bot.create_application_emoji(name=name, image=image)
        assert refused.value.code == 50035 and reason in str(emulator.violations[-1])
    assert not emulator.application_emojis
    emulator.violations.clear()


async def test_a_name_is_unique_and_an_application_holds_2000(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async def handler(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok")

    async with probe_bot(handler) as bot:
        await bot.create_application_emoji(name="card_AS", image=PNG)
        with pytest.raises(discord.HTTPException) as taken:
            await bot.create_application_emoji(name="card_AS", image=PNG)
        assert taken.value.code == 50035
        for number in range(MAX_APPLICATION_EMOJIS - 1):
            emulator.application_emojis[10**6 + number] = {
                "id": str(10**6 + number),
                "name": f"e{number}",
            }
        with pytest.raises(discord.HTTPException) as full:
            await bot.create_application_emoji(name="card_KS", image=PNG)
        assert full.value.code == 30008
    assert len(rejected(emulator, 50035)) == 1 and not rejected(emulator, 30008)
    emulator.violations.clear()


async def test_a_button_may_show_only_an_emoji_that_exists(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    made: list[discord.Emoji] = []

    async def handler(interaction: discord.Interaction) -> None:
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="J♥", emoji=made[0], custom_id="real"))
        await interaction.response.send_message("real", view=view)
        ghost = discord.PartialEmoji(name="card_QS", id=made[0].id + 1)
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="Q♠", emoji=ghost, custom_id="ghost"))
        await interaction.followup.send("ghost", view=view)

    async with probe_bot(handler) as bot:
        made.append(await bot.create_application_emoji(name="card_JH", image=PNG))
        await world.alice.slash(world.table, "probe")
        await bot.handled()
        assert [e.code for e in bot.errors] == [50035]
    shown = world.table.last_message
    assert shown is not None and shown.content == "real"
    emoji = shown.button("J♥").emoji
    assert emoji is not None and int(emoji["id"]) == made[0].id and emoji["name"] == "card_JH"
    assert "Invalid emoji" in str(rejected(emulator, 50035)[0])
    emulator.violations.clear()


def test_the_image_is_sent_as_a_data_uri() -> None:
    # What discord.py sends (utils._bytes_to_base64_data) is what the emulator decodes.
    encoded = discord.utils._bytes_to_base64_data(PNG)
    assert encoded.startswith("data:image/png;base64,")
    assert base64.b64decode(encoded.split(",", 1)[1]) == PNG
