"""What a hand message does with its seat picture (issue 21), for each thing the message may show
now: upload a new picture, keep the one it shows (no upload), or remove one that is stale or
unwanted; a picture not drawn in time is not waited for, and is not drawn twice."""

from __future__ import annotations

import io

from PIL import Image

from bot.pictures import samples
from bot.tables.service import Table
from bot.ui.kit.message_parts import MessageParts
from bot.ui.table import render
from bot.ui.table.seat_picture import FILENAME, UNKNOWN, SeatPictures, Shown


def hand(table: Table, pictures: SeatPictures, seat: int = 0) -> MessageParts:
    parts = render.hand_message(table, seat, "pt-BR")
    parts.seat_scene = pictures.take(table, seat, "pt-BR")
    return parts


async def attached(pictures: SeatPictures, parts: MessageParts, shown: Shown) -> None:
    await pictures.attach(parts, shown, wait=None)


async def test_a_new_picture_is_uploaded_and_a_shown_one_kept() -> None:
    pictures = SeatPictures()
    table = samples.stages("euchre")["trick"]
    parts = hand(table, pictures)
    await attached(pictures, parts, None)
    assert parts.seat_scene is not None and parts.picture == parts.seat_scene.key
    assert parts.files is not None and len(parts.files) == 1
    (upload,) = parts.files
    assert upload.filename == FILENAME and upload.description
    with Image.open(io.BytesIO(upload.fp.read())) as image:
        assert image.format == "PNG" and image.text["version"] == str(table.version)  # type: ignore[attr-defined]

    again = hand(table, pictures)
    await attached(pictures, again, parts.picture)
    assert again.picture == parts.picture and again.files is None  # kept: nothing sent
    assert pictures.drawn == 1
    assert "attachments" not in again.kwargs() and "attachments" in parts.kwargs()


async def test_a_picture_of_another_state_is_replaced_or_removed_never_kept() -> None:
    pictures = SeatPictures()
    table = samples.stages("truco")["trick"]
    before = hand(table, pictures)
    await attached(pictures, before, UNKNOWN)
    assert before.files and before.picture is not None
    table.record.version += 1

    late = hand(table, pictures)
    await pictures.attach(late, before.picture, wait=0)  # not drawn in no time
    assert late.picture is None and late.files == []  # the old one goes: never stale

    drawn = hand(table, pictures)
    await attached(pictures, drawn, None)  # the picture that came late is the one sent
    assert drawn.files and drawn.picture is not None and drawn.picture != before.picture
    assert pictures.drawn == 2

    # A message whose picture we do not know (not a hand we follow) gets it sent, not kept.
    unknown = hand(table, pictures)
    await pictures.attach(unknown, UNKNOWN, wait=0)
    assert unknown.files and unknown.picture == drawn.picture and pictures.drawn == 2


async def test_a_table_without_pictures_sends_none_and_removes_an_old_one() -> None:
    pictures = SeatPictures()
    table = samples.stages("euchre")["bidding"]
    table.record.settings["pictures"] = False
    fresh = hand(table, pictures)
    assert fresh.seat_scene is None
    await attached(pictures, fresh, None)
    assert fresh.files is None and fresh.picture is None
    shown = hand(table, pictures)
    await attached(pictures, shown, (table.id, table.version, 0, "pt-BR", None))
    assert shown.files == [] and pictures.drawn == 0


async def test_a_delivered_picture_is_not_kept_but_one_on_its_way_is() -> None:
    """Issue 31's memory: the cache holds a picture until a live hand puts it on its message
    (~25 KB each); asked for after that, it is drawn again, never taken from an older state."""
    pictures = SeatPictures()
    table = samples.stages("euchre")["trick"]
    parts = hand(table, pictures)
    await attached(pictures, parts, None)
    assert parts.seat_scene is not None and pictures.drawn == 1
    assert await pictures.png(parts.seat_scene, wait=0) is not None  # on its way: kept
    other = hand(table, pictures, seat=1)
    await attached(pictures, other, None)
    assert other.seat_scene is not None
    pictures.delivered(parts.seat_scene)
    assert await pictures.png(parts.seat_scene, wait=0) is None  # let go: drawn again
    assert await pictures.png(other.seat_scene, wait=0) is not None  # another seat's stays
    assert await pictures.png(parts.seat_scene) is not None and pictures.drawn == 3
