"""The picture on the table message: drawn in a worker thread, once per table version.

The table message is an embed whose image is an attachment (`attachment://table.png`) sent with
the same edit as the text: one request per state change, like the text-only message, so the
channel's edit pacing (PublicMessages) is unchanged. The embed's text stays complete for screen
readers and for tables whose `pictures` setting is off (then the message has no attachment).

Why an embed image rather than Components V2 (a MediaGallery): both cost one edit per change.
The embed keeps the message as it was (the turn line in `content`, the fields, the buttons) and
everything that reads it, with the picture as one more part; a V2 message would need all of it
rebuilt as components, and its flag can never be removed from a message again.
"""

from __future__ import annotations

import io
from collections import OrderedDict
from typing import Any

import discord

from bot.pictures.render_pool import render_png
from bot.pictures.scene import Scene, scene_of
from bot.tables.service import Table
from bot.tables.settings import setting_of
from bot.texts import t

FILENAME = "table.png"
URL = f"attachment://{FILENAME}"
SETTING = "pictures"


def wants_picture(table: Table) -> bool:
    return not table.closed and bool(setting_of(table.record.settings, SETTING))


class TablePictures:
    """The latest picture of each table, by what it shows (table, version, locale)."""

    # Pictures kept: a picture is reused only right after it is drawn (a repost, a retried
    # edit), so the busiest tables suffice; keeping one per table cost ~9 KB each.
    KEEP = 8

    def __init__(self) -> None:
        self._latest: OrderedDict[int, tuple[tuple[int, int, str | None], bytes]] = OrderedDict()
        self.drawn = 0  # pictures drawn (not served from the cache), for tests and benchmarks

    @staticmethod
    def scene(
        table: Table, locale: str | None = None, view: dict[str, Any] | None = None
    ) -> Scene | None:
        """What to draw, taken with the table's lock held; None when no picture is shown.
        `view`: the game's public view of the current state, where the caller has one."""
        return scene_of(table, locale, view) if wants_picture(table) else None

    async def png(self, scene: Scene, *, supersedable: bool = False) -> bytes:
        """`supersedable`: raise Superseded if the table moves on before a worker begins it."""
        cached = self._latest.get(scene.table_id)
        if cached is not None and cached[0] == scene.key:
            return cached[1]
        data = await render_png(scene, supersedable=supersedable)
        self.drawn += 1
        self._latest[scene.table_id] = (scene.key, data)
        self._latest.move_to_end(scene.table_id)
        while len(self._latest) > self.KEEP:
            self._latest.popitem(last=False)
        return data

    async def files(self, scene: Scene | None, *, supersedable: bool = False) -> list[discord.File]:
        """The attachments of a table message: the picture, or none (which also removes an
        earlier picture on an edit)."""
        if scene is None:
            return []
        data = await self.png(scene, supersedable=supersedable)
        description = t("picture.file_description", scene.locale)
        return [discord.File(io.BytesIO(data), filename=FILENAME, description=description)]

    def forget(self, table_id: int) -> None:
        self._latest.pop(table_id, None)
