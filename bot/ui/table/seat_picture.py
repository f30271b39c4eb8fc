"""The picture on a player's hand message (issue 21): their own seat, drawn in the picture worker.

The picture is a plain image attachment of the hand message (`seat.png`), shown between the text
and the buttons. It goes with the edit that carries the text: one request, and at most one
upload, per hand update. An edit whose picture is the one the message already shows leaves the
attachments out, which keeps them (Discord's edits are partial: a field left out is unchanged),
so nothing is uploaded again. The text stays complete for screen readers and for tables whose
`pictures` setting is off (then the message has no attachment).

A new hand message ("Show my hand") waits for its picture at most `wait` seconds: past that the
text goes alone and the live hand brings the picture in a later edit, once it is drawn.

A click on a hand message that shows a picture (a card played, a call, Refresh) is answered at
once (issue 31): the text and buttons of the new state go out with no wait, the message keeping
the picture it shows; the live hand (bot/ui/table/live_hands.py) sends the new picture through
the interaction token as soon as it is drawn, a few milliseconds later. A picture older than the
text beside it is shown at most `STALE_FOR` seconds: past that the live hand takes it away (the
text alone) until the new one is drawn. A live hand's picture is *supersedable*: when the table
moves on before a worker begins it, it is not drawn (Superseded) and the live hand draws the
newest state instead (issue 31: bot seats answer a click within milliseconds). The 3 s answer
is never at stake: a wait runs inside the click's work, which is deferred at the
acknowledgement deadline like any slow work.
"""

from __future__ import annotations

import asyncio
import enum
import io
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

import discord

from bot.pictures.render_pool import Superseded, render_seat_png
from bot.pictures.scene import SeatScene, seat_scene_of
from bot.tables.service import Table
from bot.texts import t
from bot.ui.kit.layout import Layout
from bot.ui.table.table_picture import wants_picture

if TYPE_CHECKING:
    from bot.ui.kit.message_parts import MessageParts

log = logging.getLogger(__name__)

FILENAME = "seat.png"
URL = f"attachment://{FILENAME}"
# Seconds a hand message that shows no picture yet (a new "Show my hand") waits for its picture
# before the text goes alone and the live hand brings the picture. A picture takes ~5 ms in the
# worker. At 2.5 s, above the 2 s deferral, starved workers (tried niced, 200 busy tables on 2
# cores) held these answers until the deferral: ack p99 2.1 s (scripts/bench_latency.py, issue 31).
PICTURE_WAIT = 0.25
# Seconds a click's answer waits for its picture (0: at once, the message keeps the one it shows).
ANSWER_WAIT = 0.0
# Seconds at most that a hand shows a picture older than its text (the bound of issue 31).
STALE_FOR = 2.5

PictureKey = tuple[Any, ...]  # SeatScene.key: what a picture shows


class _Unknown(enum.Enum):
    UNKNOWN = "unknown"


# What a message shows when we do not know it (a hand the bot does not follow, an old one).
UNKNOWN: Final = _Unknown.UNKNOWN
Shown = PictureKey | None | _Unknown


class SeatPictures:
    """The latest picture of each (table, seat), by what it shows, and the pictures being drawn
    (a hand update that stopped waiting for one finds it drawn later)."""

    KEEP = 32  # a live hand is redrawn right after a change; older ones are not reused

    def __init__(
        self,
        clock: Callable[[], float] = time.time,
        wait: float = PICTURE_WAIT,
        answer_wait: float = ANSWER_WAIT,
    ) -> None:
        # The table service's clock: a scene turns the turn deadline into seconds left.
        self.clock = clock
        # Public so a test can make every answer wait, or none: a new hand message's wait, and
        # a click's on a hand that shows a picture.
        self.wait = wait
        self.answer_wait = answer_wait
        self._latest: OrderedDict[tuple[int, int], tuple[PictureKey, bytes]] = OrderedDict()
        self._drawing: dict[PictureKey, asyncio.Task[bytes]] = {}
        self.drawn = 0

    @staticmethod
    def scene(
        table: Table,
        seat: int,
        locale: str | None = None,
        now: float | None = None,
        view: dict[str, Any] | None = None,
    ) -> SeatScene | None:
        """What to draw, taken with the table's lock held; None when no picture is shown.
        `view`: `game.view(seat)` of the current state, where the caller has it."""
        return seat_scene_of(table, seat, locale, now, view) if wants_picture(table) else None

    def take(
        self,
        table: Table,
        seat: int,
        locale: str | None,
        view: dict[str, Any] | None = None,
    ) -> SeatScene | None:
        """`scene` now, on the service's clock (call with the table's lock held)."""
        return self.scene(table, seat, locale, self.clock(), view)

    def _cached(self, scene: SeatScene) -> bytes | None:
        cached = self._latest.get((scene.table_id, scene.seat))
        return cached[1] if cached is not None and cached[0] == scene.key else None

    def _drawing_of(self, scene: SeatScene, supersedable: bool) -> asyncio.Task[bytes]:
        task = self._drawing.get(scene.key)
        if task is None:
            task = asyncio.create_task(
                self._draw(scene, supersedable), name=f"seat-picture-{scene.key}"
            )
            self._drawing[scene.key] = task
            task.add_done_callback(_retrieve)
        return task

    async def _draw(self, scene: SeatScene, supersedable: bool) -> bytes:
        try:
            data = await render_seat_png(scene, supersedable=supersedable)
        finally:
            if self._drawing.get(scene.key) is asyncio.current_task():
                del self._drawing[scene.key]
        self.drawn += 1
        slot = (scene.table_id, scene.seat)
        self._latest[slot] = (scene.key, data)
        self._latest.move_to_end(slot)
        while len(self._latest) > self.KEEP:
            self._latest.popitem(last=False)
        return data

    def delivered(self, scene: SeatScene) -> None:
        """The picture of `scene` is on the hand message it was drawn for (a live hand's edit
        went through): its bytes are not kept. The cache is for a picture on its way (drawn
        while the answer went without it, or while the edit rested); one kept after its upload
        was seldom asked for again, and the cache of 32 held ~0.9 MB of them (~25 KB each,
        issue 31). Asked for again (another message of the same state), it is drawn again."""
        slot = (scene.table_id, scene.seat)
        cached = self._latest.get(slot)
        if cached is not None and cached[0] == scene.key:
            del self._latest[slot]

    async def png(
        self, scene: SeatScene, wait: float | None = None, *, supersedable: bool = False
    ) -> bytes | None:
        """The picture of `scene`; None if it is not drawn within `wait` seconds (None: no
        limit). A picture that comes late is kept for the next one who asks. `supersedable`:
        raise Superseded if the table moves on before a worker begins it (a caller that is not
        joining such a drawing draws again)."""
        while True:
            cached = self._cached(scene)
            if cached is not None:
                return cached
            task = self._drawing_of(scene, supersedable)
            done, _ = await asyncio.wait({task}, timeout=wait)
            if not done:
                return None
            if supersedable or task.cancelled() or not isinstance(task.exception(), Superseded):
                return task.result()

    async def files(self, scene: SeatScene | None) -> list[discord.File]:
        if scene is None:
            return []
        data = await self.png(scene)
        assert data is not None
        return [_file(data, scene.locale)]

    async def attach(
        self,
        parts: MessageParts,
        shown: Shown,
        wait: float | None,
        *,
        keep: bool = False,
        supersedable: bool = False,
    ) -> None:
        """Give the hand message `parts` its picture, for a message that shows `shown` now:
        kept when it is the same picture, uploaded when it is new (if drawn within `wait`
        seconds), and removed when there is none to show (pictures off, or not drawn yet).
        `keep`: a new picture not drawn in time leaves the message the one it shows (a click's
        answer: the live hand brings the new one, within STALE_FOR seconds). `supersedable`:
        a picture the table's newer state makes useless before it is begun raises Superseded
        (a live hand's: it draws the newest state instead)."""
        scene = parts.seat_scene
        data = None
        if scene is not None and shown != scene.key and keep and wait == 0:
            # A click answered at once starts no drawing: the live hand draws the state it
            # finds once the answer is out (the bots may have moved on by then: one picture
            # instead of two, issue 31).
            data = self._cached(scene)
        elif scene is not None and shown != scene.key:
            try:
                data = await self.png(scene, wait, supersedable=supersedable)
            except Superseded:
                raise
            except Exception:  # logged by _retrieve; the text goes alone
                data = None
        if scene is not None and shown == scene.key:
            parts.picture, parts.files = scene.key, None  # the message keeps its attachment
        elif scene is not None and data is not None:
            parts.picture, parts.files = scene.key, [_file(data, scene.locale)]
        elif scene is not None and keep and isinstance(shown, tuple):
            parts.picture, parts.files = shown, None  # for now: the live hand brings the new
        else:
            parts.picture = None
            parts.files = None if shown is None else []  # never a stale picture
        if parts.picture is None and isinstance(parts.view, Layout):
            parts.view.picture = None  # the layout shows no picture it does not carry


def _file(data: bytes, locale: str | None) -> discord.File:
    description = t("picture.seat_description", locale)
    return discord.File(io.BytesIO(data), filename=FILENAME, description=description)


def _retrieve(task: asyncio.Task[bytes]) -> None:
    """A picture nobody waits for any more: its failure is logged, not left unretrieved."""
    error = None if task.cancelled() else task.exception()
    if error is not None and not isinstance(error, Superseded):
        log.warning("a seat picture failed", exc_info=error)
