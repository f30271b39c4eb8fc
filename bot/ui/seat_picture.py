"""The picture on a player's hand message (issue 21): their own seat, drawn in the picture worker.

Not wired in yet: the hand message will attach `files(...)` (one upload per hand update, with
the edit that carries the text) once the hand UI takes it. The text stays complete for screen
readers and for tables whose `pictures` setting is off.
"""

from __future__ import annotations

import io
from collections import OrderedDict

import discord

from bot.pictures.render_pool import render_seat_png
from bot.pictures.scene import SeatScene, seat_scene_of
from bot.tables.service import Table
from bot.texts import t
from bot.ui.table_picture import wants_picture

FILENAME = "seat.png"
URL = f"attachment://{FILENAME}"


class SeatPictures:
    """The latest picture of each (table, seat), by what it shows."""

    KEEP = 32  # a live hand is redrawn right after a change; older ones are not reused

    def __init__(self) -> None:
        self._latest: OrderedDict[tuple[int, int], tuple[tuple[object, ...], bytes]] = OrderedDict()
        self.drawn = 0

    @staticmethod
    def scene(
        table: Table, seat: int, locale: str | None = None, now: float | None = None
    ) -> SeatScene | None:
        """What to draw, taken with the table's lock held; None when no picture is shown."""
        return seat_scene_of(table, seat, locale, now) if wants_picture(table) else None

    async def png(self, scene: SeatScene) -> bytes:
        slot = (scene.table_id, scene.seat)
        cached = self._latest.get(slot)
        if cached is not None and cached[0] == scene.key:
            return cached[1]
        data = await render_seat_png(scene)
        self.drawn += 1
        self._latest[slot] = (scene.key, data)
        self._latest.move_to_end(slot)
        while len(self._latest) > self.KEEP:
            self._latest.popitem(last=False)
        return data

    async def files(self, scene: SeatScene | None) -> list[discord.File]:
        if scene is None:
            return []
        data = await self.png(scene)
        description = t("picture.file_description", scene.locale)
        return [discord.File(io.BytesIO(data), filename=FILENAME, description=description)]
