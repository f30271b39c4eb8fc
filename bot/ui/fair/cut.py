"""The ✂️ Cut modal of fair deals (issue 32, docs/fair-deals.md): one per person, answered after
a restart too, its typed text escaped wherever it is shown. In version 2 the text is only a
flourish that goes with the beacon's value; in version 1 it is the cut itself."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.engine.fair_deal import MAX_CUT
from bot.tables.errors import TableError
from bot.tables.fair import fair_view
from bot.tables.service import TableService
from bot.texts import t
from bot.ui.kit.answer import locale_of, say
from bot.ui.kit.discord_internals import has_live_modal
from bot.ui.words.fair_lines import plain

log = logging.getLogger(__name__)

MODAL_PREFIX = "fd:"  # fd:<table>:cut:<user>: one Cut modal per person (issue 32)


def modal_id(table_id: int, user_id: int) -> str:
    """One Cut modal per person: two people with theirs open each get their own answer."""
    return f"{MODAL_PREFIX}{table_id}:cut:{user_id}"


def parse_modal_id(custom_id: str) -> tuple[int, int] | None:
    parts = custom_id.split(":")
    if len(parts) != 4 or parts[0] + ":" != MODAL_PREFIX or parts[2] != "cut":
        return None
    try:
        return int(parts[1]), int(parts[3])
    except ValueError:
        return None


async def submit_cut(
    interaction: discord.Interaction[Any], service: TableService, table_id: int, text: str
) -> None:
    """A Cut modal's text (a live modal, or one opened before a restart)."""
    locale = locale_of(interaction)
    try:
        table, applied = await service.fair_cuts.cut(table_id, interaction.user.id, text)
    except TableError as error:
        await say(interaction, t(error.key, locale, **error.values))
        return
    except Exception:
        log.exception("cut failed at table %s", table_id)
        await say(interaction, t("error.unexpected", locale))
        return
    shown = plain(text.strip())
    if (fair_view(table) or {}).get("version") == 2:
        await say(interaction, t("fair.cut.flourish", locale, cut=shown))
        return
    key = "fair.cut.done" if applied else "fair.cut.kept"
    await say(interaction, t(key, locale, cut=shown))


class CutModal(discord.ui.Modal):
    """The cutter types any text: with version 2 a flourish that goes with the beacon's value
    in the cut (the beacon is what counts); with version 1 the cut itself."""

    def __init__(self, service: TableService, table_id: int, user_id: int, locale: str) -> None:
        super().__init__(title=t("fair.cut.title", locale), custom_id=modal_id(table_id, user_id))
        self.service = service
        self.table_id = table_id
        self.text: discord.ui.TextInput[CutModal] = discord.ui.TextInput(
            label=t("fair.cut.label", locale), max_length=MAX_CUT, custom_id="cut"
        )
        self.add_item(self.text)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await submit_cut(interaction, self.service, self.table_id, self.text.value)


def _modal_values(data: Any) -> dict[str, str]:
    """custom_id -> value of a modal submit's text inputs (action rows or labels around them)."""
    found: dict[str, str] = {}

    def walk(items: Any) -> None:
        for item in items or ():
            if not isinstance(item, dict):
                continue
            if "value" in item and "custom_id" in item:
                found[str(item["custom_id"])] = str(item["value"])
            walk(item.get("components"))
            if isinstance(item.get("component"), dict):
                walk([item["component"]])

    walk((data or {}).get("components"))
    return found


def is_orphan_cut(interaction: discord.Interaction[Any]) -> bool:
    """A Cut modal's submit that no live modal will answer: it was opened before a restart
    (discord.py keeps modals in memory only), or its modal was already answered."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return False
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    if parse_modal_id(custom_id) is None:
        return False
    return not has_live_modal(interaction.client, custom_id)


async def on_orphan_cut(interaction: discord.Interaction[Any], service: TableService) -> None:
    data: Any = interaction.data or {}
    parsed = parse_modal_id(str(data.get("custom_id", "")))
    if parsed is None:
        return
    table_id, _ = parsed
    text = _modal_values(interaction.data).get("cut", "")
    await submit_cut(interaction, service, table_id, text)
