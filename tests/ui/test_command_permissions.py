"""Issue 33, defect 3: every command that needs a permission checks it inside the bot too.

A command's `default_permissions` only sets who sees it by default: a server may grant any
command to everyone in its Integrations settings. So each command of the loaded cogs whose
default permissions (its own or its group's) are not empty must refuse a member who lacks them,
by a check the bot runs itself, and let a member who has them through."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.utils import maybe_coroutine

from bot.client import EXTENSIONS, CardTableBot
from bot.settings import Settings


@pytest.fixture
async def loaded_bot(tmp_path: Path) -> AsyncIterator[CardTableBot]:
    bot = CardTableBot(Settings(token=None, database_path=tmp_path / "db.sqlite3"), extensions=())
    try:
        for extension in EXTENSIONS:
            await bot.load_extension(extension)
        yield bot
    finally:
        await bot.close()


def needed(command: app_commands.Command[Any, ..., Any]) -> discord.Permissions | None:
    """What Discord asks of a member by default: the command's own, else its top group's."""
    node: Any = command
    while node is not None:
        if node.default_permissions is not None:
            return node.default_permissions  # type: ignore[no-any-return]
        node = node.parent
    return None


async def allowed(command: app_commands.Command[Any, ..., Any], permissions: int) -> bool:
    """Whether the bot's own checks let a member with `permissions` run the command: the groups'
    interaction checks, then the command's checks (what discord.py runs before the callback)."""
    interaction = SimpleNamespace(
        permissions=discord.Permissions(permissions),
        app_permissions=discord.Permissions.all(),
        user=SimpleNamespace(id=1),
        guild_id=2,
        channel_id=3,
        locale=discord.Locale.american_english,
    )
    try:
        node: Any = command.parent
        while node is not None:
            if not await maybe_coroutine(node.interaction_check, interaction):
                return False
            node = node.parent
        for check in command.checks:
            if not await maybe_coroutine(check, interaction):
                return False
    except app_commands.CheckFailure:
        return False
    return True


def commands_of(bot: CardTableBot) -> list[app_commands.Command[Any, ..., Any]]:
    return [c for c in bot.tree.walk_commands() if isinstance(c, app_commands.Command)]


async def test_every_command_with_default_permissions_checks_them_in_the_bot(
    loaded_bot: CardTableBot,
) -> None:
    guarded = {c.qualified_name: needed(c) for c in commands_of(loaded_bot)}
    guarded = {name: p for name, p in guarded.items() if p is not None and p.value}
    # The list the issue names, and those that already checked: none may drop out unseen.
    assert {"season start", "season end", "board-count", "settings", "recap"} <= set(guarded)
    unchecked = []
    for command in commands_of(loaded_bot):
        permissions = guarded.get(command.qualified_name)
        if permissions is None:
            continue
        without = discord.Permissions.all().value & ~permissions.value
        if await allowed(command, without):
            unchecked.append(command.qualified_name)
        # A member who has them is let through (the check is the permission, not a wall).
        assert await allowed(command, permissions.value), command.qualified_name
    assert not unchecked, f"only Discord's default permissions guard: {sorted(unchecked)}"
