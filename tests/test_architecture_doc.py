"""docs/architecture.md stays true: every button family the bot registers is in its prefix table,
and every module it names exists."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import bot.ui
from bot.ui.kit.buttons import KeyButton
from bot.ui.kit.discord_internals import template_of

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def button_families() -> list[type[KeyButton]]:
    """Every KeyButton subclass of bot/ui, however deep (each module imported first)."""
    for module in pkgutil.iter_modules(bot.ui.__path__, "bot.ui."):
        importlib.import_module(module.name)
    found, todo = [], [KeyButton]
    while todo:
        for sub in todo.pop().__subclasses__():
            found.append(sub)
            todo.append(sub)
    return found


def test_every_button_prefix_is_in_the_table() -> None:
    listed = set(re.findall(r"^\| `([a-z]+:)` \|", DOC, re.MULTILINE))
    prefixes = {template_of(item).pattern.split("(", 1)[0] for item in button_families()}
    assert prefixes and prefixes == listed


def test_every_path_named_exists() -> None:
    named = set(re.findall(r"`((?:bot|cogs|emulator|demo|tests|scripts)/[\w/]+\.py)`", DOC))
    assert named, "the page names no module"
    missing = sorted(path for path in named if not (ROOT / path).exists())
    assert missing == []


def test_every_module_of_bot_is_named() -> None:
    # The page is the map of bot/: a module it does not name is one nobody can find from it.
    modules = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "bot").rglob("*.py")
        if path.name != "__init__.py"
    )
    named = set(re.findall(r"`(bot/[\w/]+\.py)`", DOC))
    assert modules and [m for m in modules if m not in named] == []
