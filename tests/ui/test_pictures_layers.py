"""Issue 31: a seat picture is written from cached bands (bot/pictures/layers.py). Whatever the
cache holds, the PNG decodes to exactly the picture drawn whole and mapped to the game's palette,
its zlib stream checks out, and its text chunks name the table, version and seat."""

from __future__ import annotations

import dataclasses
import io
import struct
import zlib

import pytest
from PIL import Image, ImageDraw

from bot.pictures import cards, layers, samples, seat, table
from bot.pictures.scene import scene_of, seat_scene_of


def _idat(data: bytes) -> bytes:
    """The IDAT bytes of a PNG, every chunk's CRC checked on the way."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, out = 8, b""
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        (crc,) = struct.unpack(">I", data[position + 8 + length : position + 12 + length])
        assert crc == zlib.crc32(kind + body)
        if kind == b"IDAT":
            out += body
        position += 12 + length
    return out


def test_adler32_combine_matches_zlib() -> None:
    first, second = b"the felt and the rail" * 50, bytes(range(256)) * 300
    combined = layers.adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
    assert combined == zlib.adler32(first + second)


@pytest.mark.parametrize("game", ["euchre", "truco"])
def test_banded_png_is_the_whole_picture_cold_and_warm(game: str) -> None:
    for table_state in samples.stages(game).values():
        for position in range(4):
            scene = seat_scene_of(table_state, position, None, now=0.0)
            if scene is None:
                continue
            whole = seat.draw_seat(scene).image
            expected = whole.quantize(palette=seat._palette(game), dither=Image.Dither.NONE)
            for cold in (True, False):  # every band drawn, then every band from the cache
                if cold:
                    layers.clear_cache()
                data = seat.seat_png(scene)
                decoded = Image.open(io.BytesIO(data))
                decoded.load()
                assert decoded.mode == "P" and decoded.size == whole.size
                assert decoded.tobytes() == expected.tobytes()
                assert decoded.convert("RGB").tobytes() == expected.convert("RGB").tobytes()
                assert decoded.text == {
                    "table": str(scene.table_id),
                    "version": str(scene.version),
                    "seat": str(position),
                }
                # zlib's own decoder checks the combined checksum.
                assert len(zlib.decompress(_idat(data))) == whole.height * (whole.width + 1)


@pytest.mark.parametrize("game", ["euchre", "truco"])
@pytest.mark.parametrize("locale", [None, "hi"])
def test_banded_table_png_is_the_whole_picture(game: str, locale: str | None) -> None:
    """The table picture the same way: cold, then from the cache, the decoded PNG is the whole
    drawing mapped to the game's palette (Hindi labels included: their steps reach further)."""
    for table_state in samples.stages(game).values():
        scene = scene_of(table_state, locale)
        expected = table.draw_table(scene).quantize(
            palette=table._palette(game), dither=Image.Dither.NONE
        )
        for cold in (True, False):
            if cold:
                layers.clear_cache()
            data = table.table_png(scene)
            decoded = Image.open(io.BytesIO(data))
            decoded.load()
            assert decoded.tobytes() == expected.tobytes()
            assert decoded.text == {"table": str(scene.table_id), "version": str(scene.version)}
            assert len(zlib.decompress(_idat(data))) == table.HEIGHT * (table.WIDTH + 1)


def test_a_band_is_drawn_again_only_where_its_steps_changed() -> None:
    """Two seat pictures that differ in one label (the turn timer's seconds left): the second
    draws again only the bands that label reaches, and takes the others from the cache."""
    scene = seat_scene_of(samples.stages("euchre")["trick"], 0, None, now=0.0)
    assert scene is not None
    layers.clear_cache()
    seat.seat_png(dataclasses.replace(scene, seconds_left=100))
    bands = len(layers._cache)
    seat.seat_png(dataclasses.replace(scene, seconds_left=95))
    assert 0 < len(layers._cache) - bands <= 4 < bands


def test_a_sketch_refuses_the_drawing_calls_it_cannot_record() -> None:
    """A text drawn with ImageDraw.text on a sketch's pen would land on its measuring image,
    nowhere in the picture: the pen says so instead of dropping it."""
    sketch = layers.Sketch(Image.new("RGB", (64, 64)), ("test",))
    with pytest.raises(AttributeError, match="no text"):
        sketch.draw.text((1, 1), "x")
    assert sketch.draw.textlength("x") > 0  # measuring is what the pen is for


@pytest.mark.parametrize("anchor", ["la", "mm", "rs", "lb", "md"])
@pytest.mark.parametrize(
    "text", ["Your turn · alone", "Ag9 12", "जोड़ी 2 — हाथ", "Mão de dez", "", "🂡 Ana"]
)
def test_a_texts_rows_are_the_rows_it_colours(text: str, anchor: str) -> None:
    """A sketch's text step touches the bands of `text_rows` only (issue 31: before, every band
    within 2.5 sizes of its row), so those rows must hold every pixel the text colours."""
    for size, bold in ((14, False), (28, True), (41, True)):
        image = Image.new("RGB", (900, 300))
        xy = (450.4, 150.6)
        pen = ImageDraw.Draw(image)
        table._draw_text(pen, xy, text, size, fill=(255, 255, 255), bold=bold, anchor=anchor)
        box = image.getbbox()
        top, bottom = table.text_rows(xy, text, size, bold=bold, anchor=anchor)
        if box is None:
            continue  # nothing drawn (no letter the fonts have)
        assert top <= box[1] and box[3] <= bottom, (size, box, (top, bottom))
        assert bottom - top <= 2 * size + 4  # and no more than the letters' own height


def _noise(size: tuple[int, int]) -> Image.Image:
    """A background of every colour, so a pixel pasted wrong cannot match by chance."""
    width, height = size
    return Image.frombytes("RGB", size, bytes((i * 7919) % 251 for i in range(width * height * 3)))


def test_a_sprite_pasted_in_pieces_is_the_sprite_pasted_whole() -> None:
    """Issue 31: a large sprite is pasted as its opaque middle (no mask) and its edges (through
    their alpha): every card face as the pictures draw them gives the pixels of one paste."""
    sprites = {
        ("card", code, width, look): seat._sprite(code, width, look, "euchre")
        for code in cards.deck_codes()
        for width in (table.CARD, seat.HAND_CARD, seat.TABLE_CARD)
        for look in ("", "gold", "dim", "grey")
    }
    for key, sprite in sprites.items():
        whole = _noise((sprite.width + 6, sprite.height + 6))
        pieces = whole.copy()
        whole.paste(sprite, (3, 3), sprite)
        for piece, (dx, dy), masked in layers._pieces(sprite, key):
            pieces.paste(piece, (3 + dx, 3 + dy), piece if masked else None)
        assert pieces.tobytes() == whole.tobytes(), key


@pytest.mark.parametrize("radius", [0, 3, 10, 14, 40])
@pytest.mark.parametrize("outline", [None, (250, 250, 250)])
def test_a_plate_pasted_from_its_sprite_is_the_plate_drawn(
    radius: int, outline: tuple[int, int, int] | None
) -> None:
    """Issue 31: a filled rounded rectangle at whole pixels is pasted from a sprite drawn once:
    the same pixels as ImageDraw drawing it there, whatever its size, place and outline."""
    for index, (width, height) in enumerate([(1, 1), (8, 28), (12, 12), (110, 28), (203, 67)]):
        for x, y in ((0, 0), (5 + index, 17), (-3, 40)):
            kwargs: dict[str, object] = {"radius": radius, "fill": (246, 243, 232)}
            if outline is not None:
                kwargs.update(outline=outline, width=1 + index % 3)
            box = [x, y, x + width, y + height]
            drawn = _noise((260, 140))
            pasted = drawn.copy()
            ImageDraw.Draw(drawn).rounded_rectangle(box, **kwargs)  # type: ignore[arg-type]
            sketch = layers.Sketch(pasted, ("test",))
            sketch.draw.rounded_rectangle(box, **kwargs)
            sketch.draw_steps(pasted)
            assert pasted.tobytes() == drawn.tobytes(), (box, kwargs)
