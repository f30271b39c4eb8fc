"""Every extension of bot.client.EXTENSIONS loads into the real bot (no connection needed) and
registers slash commands that Discord would accept."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.client import EXTENSIONS, CardTableBot
from bot.settings import Settings
from emulator.commands import validate_commands


@pytest.fixture
async def bare_bot(tmp_path: Path) -> AsyncIterator[CardTableBot]:
    bot = CardTableBot(Settings(token=None, database_path=tmp_path / "db.sqlite3"), extensions=())
    try:
        yield bot
    finally:
        await bot.close()


@pytest.mark.parametrize("extension", EXTENSIONS)
async def test_each_extension_loads_and_registers_commands(
    bare_bot: CardTableBot, extension: str
) -> None:
    before = {c.name for c in bare_bot.tree.get_commands()}
    await bare_bot.load_extension(extension)
    assert extension in bare_bot.extensions
    assert [c for c in bare_bot.cogs.values() if c.__module__ == extension], "no cog added"
    added = {c.name for c in bare_bot.tree.get_commands()} - before
    assert added, f"{extension} registered no slash command"


async def test_all_extensions_together_form_a_valid_command_sync(bare_bot: CardTableBot) -> None:
    for extension in EXTENSIONS:
        await bare_bot.load_extension(extension)
    payload = [c.to_dict(bare_bot.tree) for c in bare_bot.tree.get_commands()]
    errors = validate_commands(payload)  # the emulator's copy of Discord's rules
    assert not errors, errors.flat
    assert {"rules", "sync"} <= {c["name"] for c in payload}
