"""Issue 31: a seat picture is written from cached bands (bot/pictures/layers.py). Whatever the
cache holds, the PNG decodes to exactly the picture drawn whole and mapped to the game's palette,
its zlib stream checks out, and its text chunks name the table, version and seat."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image

from bot.pictures import layers, samples, seat
from bot.pictures.scene import seat_scene_of


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
    for table in samples.stages(game).values():
        for position in range(4):
            scene = seat_scene_of(table, position, None, now=0.0)
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
