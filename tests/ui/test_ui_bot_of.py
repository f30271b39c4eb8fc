"""The UI reaches the bot's collaborators through `host_of(interaction)`, typed: the real
CardTableBot is found from an interaction it received, anything else is refused plainly, and
the collaborators say so when read before setup_hook built them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.client import CardTableBot
from bot.settings import Settings
from bot.ui.kit.host import host_of


@pytest.fixture
async def bare_bot(tmp_path: Path) -> AsyncIterator[CardTableBot]:
    bot = CardTableBot(Settings(token=None, database_path=tmp_path / "db.sqlite3"), extensions=())
    try:
        yield bot
    finally:
        await bot.close()


def click_on(client: discord.Client) -> discord.Interaction[Any]:
    """A button click as discord.py parses it from the gateway, received by `client`."""
    data: Any = {
        "id": "11",
        "type": 3,
        "token": "tok",
        "version": 1,
        "application_id": "22",
        "attachment_size_limit": 8 << 20,
        "data": {"custom_id": "tb:7:join", "component_type": 2},
        "user": {"id": "33", "username": "ann", "discriminator": "0", "avatar": None},
    }
    return discord.Interaction(data=data, state=client._connection)


async def test_bot_of_finds_the_card_table_bot_an_interaction_reached(
    bare_bot: CardTableBot,
) -> None:
    assert host_of(click_on(bare_bot)) is bare_bot


async def test_bot_of_refuses_another_client() -> None:
    client = discord.Client(intents=discord.Intents.none())
    try:
        with pytest.raises(TypeError, match="reached a Client, not the card-table bot"):
            host_of(click_on(client))
    finally:
        await client.close()


async def test_collaborators_before_setup_hook_say_the_bot_has_not_started(
    bare_bot: CardTableBot,
) -> None:
    assert not bare_bot.started
    for name in ("table_ui", "table_service", "results"):
        with pytest.raises(RuntimeError, match=f"bot.{name} is built by setup_hook"):
            getattr(bare_bot, name)
