"""Pictures drawn as recorded steps and written as PNG in horizontal bands, each band's bytes
cached by what is drawn on it (issue 31: pictures off the acknowledgement path's cost).

A picture is first a *sketch*: the list of its drawing steps (a shape, a text, a sprite), each
with the rows it can touch. A band of rows is fully decided by the background and the steps
that touch it, in order, so that list is the band's key. A band seen before (in any picture of
any table: the felt, the header of an unchanged score, the plates, a hand that did not move) is
taken from the cache already quantized and compressed; only the other bands are drawn (just the
steps that touch them), mapped to the game's fixed palette and compressed. The PNG is then the
bands' deflate blocks one after another: each band is compressed apart (a full flush), so its
bytes stand alone, and the zlib checksum is combined from the bands' own.

The decoded picture is pixel for pixel what drawing every step on the whole image gives
(tests/ui/test_pictures_layers.py checks it on every sample): the steps that are left out touch
none of the rows that are drawn.

What a click costs (scripts/bench_pictures.py, "along a game") is the bands it changes: drawing
their steps, mapping their rows to the palette, compressing them. So the missing bands are
drawn on a canvas of the background kept between pictures (only their rows reset, not the
whole background copied), only their rows are mapped, straight into the PNG's row layout, and the
sprites drawn again and again are pasted cheaply: a card face's opaque middle is copied
without a mask, a name plate (a filled rounded rectangle) is a sprite drawn once. Each gives
the same pixels as before (tests/ui/test_pictures_layers.py).
"""

from __future__ import annotations

import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

BAND = 32  # rows per band: small enough that a change redraws little, large enough to compress
CACHE_BANDS = 4096  # ~1-3 KB each: a few MB in the picture worker
LEVEL = 3  # zlib level of a new band: see scripts/bench_pictures.py (size against speed)
ADLER_BASE = 65521

# The shape methods of ImageDraw a step may use; anything else (textlength...) only measures.
SHAPES = frozenset(
    {"rounded_rectangle", "rectangle", "ellipse", "polygon", "line", "arc", "chord", "pieslice"}
)

# ImageDraw's drawing calls that a step cannot record (their rows are not in their arguments).
UNRECORDED = frozenset({"text", "multiline_text", "bitmap", "point", "floodfill"})

Apply = Callable[[Image.Image, ImageDraw.ImageDraw], None]  # draws a step on an image
Step = tuple[int, int, Hashable, Apply]  # its first row, past its last, its key, its drawing


def _frozen(value: Any) -> Hashable:
    if isinstance(value, list | tuple):
        # Most arguments are flat (a box, a colour): one call for them, not one per number.
        return tuple([_frozen(part) if isinstance(part, list | tuple) else part for part in value])
    return value  # type: ignore[no-any-return]


def _rows(xy: Any, pad: float) -> tuple[int, int]:
    """The rows a shape with these coordinates can touch: a flat list of numbers (x, y, x, y),
    or a list of points."""
    points = list(xy)
    if points and isinstance(points[0], list | tuple):
        ys = [point[1] for point in points]
    else:
        ys = points[1::2]
    return int(min(ys) - pad) - 1, int(max(ys) + pad) + 2


class _Recorder:
    """Stands where an ImageDraw.Draw would: its shape calls become steps of the sketch, its
    measuring calls go to a real one."""

    def __init__(self, sketch: Sketch) -> None:
        self._sketch = sketch
        self._measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))

    def record_text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        kwargs: dict[str, Any],
        write: Callable[..., None],
        rows: tuple[int, int] | None = None,
    ) -> None:
        """A text, as `Sketch.text` (table.py's `_text` calls it when given this pen)."""
        self._sketch.text(xy, text, size, kwargs, write, rows)

    def __getattr__(self, name: str) -> Any:
        if name in UNRECORDED:
            # Would draw on the measuring image, i.e. nowhere: say so instead.
            raise AttributeError(
                f"a sketch's pen has no {name}(): write texts with table._text / Pen.text, "
                "paste sprites with Sketch.paste(sprite, xy, key)"
            )
        if name not in SHAPES:
            return getattr(self._measure, name)

        def shape(*args: Any, **kwargs: Any) -> None:
            options = tuple(sorted((k, _frozen(v)) for k, v in kwargs.items()))
            key = (name, _frozen(args), options)
            top, bottom, apply = _shape_step(key)
            self._sketch.steps.append((top, bottom, key, apply))

        return shape


@lru_cache(maxsize=8192)
def _shape_step(
    key: tuple[str, tuple[Any, ...], tuple[tuple[str, Any], ...]],
) -> tuple[int, int, Apply]:
    """A recorded shape's rows and drawing, from its key (its call, frozen), made once: a
    picture's plates and boxes come back version after version."""
    name, args, options = key
    kwargs = dict(options)
    xy = args[0] if args else kwargs["xy"]
    top, bottom = _rows(xy, float(kwargs.get("width", 1)) + 1)
    box = _whole_box(name, args, kwargs)
    if box is not None:
        return top, bottom, _plate_step(box, options)

    def apply(_image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
        getattr(draw, name)(*args, **kwargs)

    return top, bottom, apply


def _whole_box(
    name: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[int, int, int, int] | None:
    """The box of a filled rounded rectangle drawn at whole pixels (x0, y0, x1, y1), which
    `_plate_step` can paste as a sprite; None for any other shape."""
    if name != "rounded_rectangle" or len(args) != 1 or kwargs.get("fill") is None:
        return None
    box = tuple(args[0])
    if len(box) != 4 or not all(type(part) is int for part in box):
        return None
    if not all(type(v) is int for k, v in kwargs.items() if k in ("radius", "width")):
        return None
    return box


def _plate_step(box: tuple[int, int, int, int], options: tuple[tuple[str, Hashable], ...]) -> Apply:
    """A filled rounded rectangle (a name plate, a box) pasted from a sprite of it, drawn once
    per size and look: ImageDraw builds one from four pie slices and three rectangles, in
    Python, each time. Its pixels are the ones drawing it here gives: a shape drawn at whole
    pixels moved by whole pixels is the same shape, and its pixels are opaque or untouched."""
    x0, y0, x1, y1 = box

    def apply(image: Image.Image, _draw: ImageDraw.ImageDraw) -> None:
        # Looked up when drawn: a kept step (see _shape_step) does not keep the sprite alive.
        (dx, dy), pieces = _plate_pieces(x1 - x0, y1 - y0, options)
        for piece, (px, py), masked in pieces:
            image.paste(piece, (x0 + dx + px, y0 + dy + py), piece if masked else None)

    return apply


PLATE_MARGIN = 4  # px around a plate's sprite, in case a shape reaches past its box


@lru_cache(maxsize=128)  # a plate is ~50 KB: a few MB
def _plate_pieces(
    width: int, height: int, options: tuple[tuple[str, Hashable], ...]
) -> tuple[tuple[int, int], tuple[Piece, ...]]:
    """A rounded rectangle from (0, 0) to (width, height), cropped to the pixels it colours:
    the offset of that crop and its pieces (see _pieces)."""
    margin = PLATE_MARGIN
    canvas = Image.new("RGBA", (width + 1 + 2 * margin, height + 1 + 2 * margin), (0, 0, 0, 0))
    corners = [margin, margin, margin + width, margin + height]
    drawn: dict[str, Any] = dict(options)
    ImageDraw.Draw(canvas).rounded_rectangle(corners, **drawn)
    left, top, right, bottom = canvas.getchannel("A").getbbox() or (0, 0, 1, 1)
    sprite = canvas.crop((left, top, right, bottom))
    return (left - margin, top - margin), _split_sprite(sprite)


Piece = tuple[Image.Image, tuple[int, int], bool]  # image, offset in the sprite, pasted masked

SPLIT_AREA = 4000  # px: a smaller sprite is pasted whole (the pieces' calls cost more)
SPLIT_BYTES = 24 * 1024 * 1024  # the pieces kept, about as much as the card faces' own cache
_split: OrderedDict[Hashable, tuple[Piece, ...]] = OrderedDict()
_split_lock = threading.Lock()
_split_bytes = 0


def _pieces(sprite: Image.Image, key: Hashable) -> tuple[Piece, ...]:
    """`sprite` as pieces that paste to the same pixels: its opaque middle copied without a
    mask (blending a card face through its alpha, pixel by pixel, was a large part of drawing
    a band), the edges around it through their alpha. Kept by the sprite's key, the least
    used dropped past SPLIT_BYTES."""
    global _split_bytes
    with _split_lock:
        pieces = _split.get(key)
        if pieces is not None:
            _split.move_to_end(key)
            return pieces
    pieces = _split_sprite(sprite)
    with _split_lock:
        _split[key] = pieces
        _split_bytes += _size(pieces)
        while _split_bytes > SPLIT_BYTES and len(_split) > 1:
            _split_bytes -= _size(_split.popitem(last=False)[1])
    return pieces


def _size(pieces: tuple[Piece, ...]) -> int:
    return sum(piece.width * piece.height * 4 for piece, _xy, _masked in pieces)


def _split_sprite(sprite: Image.Image) -> tuple[Piece, ...]:
    """The pieces of `_pieces`; a small sprite, or one with no opaque middle, stays whole."""
    whole: tuple[Piece, ...] = ((sprite, (0, 0), True),)
    width, height = sprite.size
    if sprite.mode != "RGBA" or width * height < SPLIT_AREA:
        return whole
    core = _opaque_core(sprite.getchannel("A"))
    if core is None:
        return whole
    left, top, right, bottom = core
    pieces: list[Piece] = [(sprite.crop(core).convert("RGB"), (left, top), False)]
    above, below = (0, 0, width, top), (0, bottom, width, height)
    beside = ((0, top, left, bottom), (right, top, width, bottom))
    for box in (above, below, *beside):
        if box[0] < box[2] and box[1] < box[3]:
            edge = sprite.crop(box)
            if edge.getchannel("A").getbbox() is not None:  # not wholly transparent
                pieces.append((edge, (box[0], box[1]), True))
    return tuple(pieces)


def _opaque_core(alpha: Image.Image) -> tuple[int, int, int, int] | None:
    """A box of the alpha band that is opaque throughout: the opaque run of the middle row
    through its centre, grown up and down while those columns stay opaque."""
    width, height = alpha.size
    values = alpha.tobytes()
    middle = height // 2
    row = values[middle * width : (middle + 1) * width]
    left = right = width // 2
    if row[left] != 255:
        return None
    while left > 0 and row[left - 1] == 255:
        left -= 1
    while right < width and row[right] == 255:
        right += 1
    opaque_run = b"\xff" * (right - left)

    def opaque(y: int) -> bool:
        return values[y * width + left : y * width + right] == opaque_run

    top, bottom = middle, middle + 1
    while top > 0 and opaque(top - 1):
        top -= 1
    while bottom < height and opaque(bottom):
        bottom += 1
    return left, top, right, bottom


class Sketch:
    """A picture as steps over a cached background; `image()` draws it all."""

    def __init__(self, background: Image.Image, background_key: Hashable) -> None:
        self.background = background
        self.background_key = background_key
        self.steps: list[Step] = []
        self.draw: Any = _Recorder(self)

    @property
    def size(self) -> tuple[int, int]:
        return self.background.size

    def paste(self, sprite: Image.Image, xy: tuple[int, int], key: Hashable) -> None:
        """`sprite` (RGBA, its own mask) at top left `xy`; `key` names the sprite (the same key,
        the same pixels)."""
        x, y = xy

        def apply(image: Image.Image, _draw: ImageDraw.ImageDraw) -> None:
            for piece, (dx, dy), masked in _pieces(sprite, key):
                image.paste(piece, (x + dx, y + dy), piece if masked else None)

        self.steps.append((y, y + sprite.height, ("paste", key, x, y), apply))

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        kwargs: dict[str, Any],
        write: Callable[..., None],
        rows: tuple[int, int] | None = None,
    ) -> None:
        """A text drawn by `write(draw, xy, text, size, **kwargs)`. `rows`: the rows its
        letters colour (first, past the last: table.text_rows), where the writer knows them;
        else they stay within 2.5 sizes of `xy`'s row whatever the anchor and the font
        (Devanagari marks included)."""

        def apply(_image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
            write(draw, xy, text, size, **kwargs)

        if rows is None:
            reach = int(size * 2.5) + 2
            rows = (int(xy[1]) - reach, int(xy[1]) + reach)
        else:
            rows = (rows[0] - 1, rows[1] + 1)
        key = ("text", xy, text, size, tuple(sorted(kwargs.items())))
        self.steps.append((rows[0], rows[1], key, apply))

    def image(self, bands: Iterable[int] | None = None) -> Image.Image:
        """The picture: every step drawn, or only those touching `bands` (the other rows are
        then unfinished)."""
        image = self.background.copy()
        self.draw_steps(image, bands)
        return image

    def draw_steps(self, image: Image.Image, bands: Iterable[int] | None = None) -> None:
        """Every step on `image`, or only those touching `bands`."""
        draw = ImageDraw.Draw(image)
        wanted = None if bands is None else set(bands)
        for top, bottom, _key, apply in self.steps:
            if wanted is None or any(b in wanted for b in range(top // BAND, bottom // BAND + 1)):
                apply(image, draw)

    def band_keys(self) -> list[Hashable]:
        count = -(-self.size[1] // BAND)
        lists: list[list[Hashable]] = [[] for _ in range(count)]
        for top, bottom, key, _apply in self.steps:
            for band in range(max(0, top // BAND), min(count - 1, bottom // BAND) + 1):
                lists[band].append(key)
        return [(self.background_key, band, tuple(keys)) for band, keys in enumerate(lists)]


# band key -> (deflate blocks, adler32 of the band's filtered rows, their length)
_cache: OrderedDict[Hashable, tuple[bytes, int, int]] = OrderedDict()
_lock = threading.Lock()  # where pictures fall back to threads, several may draw at once
_free_canvases: dict[Hashable, list[Image.Image]] = {}  # by background key (see _scratch)
_background_bands: dict[tuple[Hashable, int, int], Image.Image] = {}


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """zlib's adler32_combine: the checksum of A + B from A's, B's and B's length."""
    remainder = second_length % ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (remainder * sum1) % ADLER_BASE
    sum1 = (sum1 + (second & 0xFFFF) + ADLER_BASE - 1) % ADLER_BASE
    sum2 = (sum2 + (first >> 16) + (second >> 16) + ADLER_BASE - remainder) % ADLER_BASE
    return sum1 | (sum2 << 16)


def _runs(bands: list[int]) -> list[tuple[int, int]]:
    """Sorted bands as runs of neighbours: (first, last) each."""
    runs: list[tuple[int, int]] = []
    for band in bands:
        if runs and runs[-1][1] == band - 1:
            runs[-1] = (runs[-1][0], band)
        else:
            runs.append((band, band))
    return runs


def _scratch(sketch: Sketch, runs: list[tuple[int, int]]) -> Image.Image:
    """A canvas of the sketch's background (taken from the free ones: give it back with
    `_give_back`), its rows of `runs` reset to the background and every step touching them
    drawn. A canvas is kept from one picture to the next: copying the whole background for
    each picture cost more than drawing its steps. Rows outside the runs are left as an
    earlier picture's steps made them; nothing reads them."""
    with _lock:
        free = _free_canvases.get(sketch.background_key)
        canvas = free.pop() if free else None
    bands = [band for first, last in runs for band in range(first, last + 1)]
    if canvas is None or canvas.size != sketch.size:
        canvas = sketch.background.copy()
    elif len(bands) * BAND * 2 > sketch.size[1]:
        canvas.paste(sketch.background)  # most of it: one copy (a cold cache's picture)
    else:
        for band in bands:
            canvas.paste(_background_band(sketch, band), (0, band * BAND))
    sketch.draw_steps(canvas, bands)
    return canvas


def _give_back(sketch: Sketch, canvas: Image.Image) -> None:
    """A canvas from `_scratch`, free for the next picture: as many are kept as pictures were
    drawn at once (one in a picture worker)."""
    with _lock:
        _free_canvases.setdefault(sketch.background_key, []).append(canvas)


def _background_band(sketch: Sketch, band: int) -> Image.Image:
    """A band of the sketch's background, cut once: resetting a canvas's band is one copy."""
    key = (sketch.background_key, BAND, band)
    cut = _background_bands.get(key)
    if cut is None or cut.width != sketch.size[0]:
        width, height = sketch.size
        cut = sketch.background.crop((0, band * BAND, width, min(height, (band + 1) * BAND)))
        _background_bands[key] = cut
    return cut


def _filtered_rows(
    image: Image.Image, runs: list[tuple[int, int]], palette: Image.Image
) -> bytearray:
    """The rows of `runs`, one after another, mapped to the palette, each row led by its PNG
    filter byte (0: none): the runs are laid on one image a column wider, mapped at once (each
    mapping call builds its colour cache anew: one per picture, not one per run, issue 31), and
    the first column becomes the filter bytes. Nearest colour, no dithering: a pixel's index is
    its own, so rows mapped apart equal the whole picture's."""
    width, height = image.size
    boxes = [(0, first * BAND, width, min(height, (last + 1) * BAND)) for first, last in runs]
    rows = sum(box[3] - box[1] for box in boxes)
    gathered = Image.new("RGB", (width + 1, rows))
    y = 0
    for box in boxes:
        gathered.paste(image.crop(box), (1, y))
        y += box[3] - box[1]
    mapped = bytearray(gathered.quantize(palette=palette, dither=Image.Dither.NONE).tobytes())
    mapped[:: width + 1] = bytes(rows)  # the filter bytes
    return mapped


def _encode_bands(
    sketch: Sketch, palette: Image.Image, missing: list[int], keys: list[Hashable]
) -> dict[int, tuple[bytes, int, int]]:
    width, height = sketch.size
    runs = _runs(missing)
    canvas = _scratch(sketch, runs)
    try:
        rows = memoryview(_filtered_rows(canvas, runs, palette))
    finally:
        _give_back(sketch, canvas)
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
    out: dict[int, tuple[bytes, int, int]] = {}
    start = 0
    for band in missing:
        end = start + (min(height, (band + 1) * BAND) - band * BAND) * (width + 1)
        band_rows = rows[start:end]
        # A full flush ends the band's blocks on a byte with nothing referring back: they
        # stand alone, whatever band comes before them in a later picture.
        blocks = compressor.compress(band_rows) + compressor.flush(zlib.Z_FULL_FLUSH)
        out[band] = (blocks, zlib.adler32(band_rows), end - start)
        start = end
    with _lock:
        for band, encoded in out.items():
            _cache[keys[band]] = encoded
        while len(_cache) > CACHE_BANDS:
            _cache.popitem(last=False)
    return out


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(sketch: Sketch, palette: Image.Image, texts: dict[str, str]) -> bytes:
    """The sketch as an 8-bit palette PNG (no filter, as Pillow writes a palette image), with
    `texts` as tEXt chunks."""
    keys = sketch.band_keys()
    found: dict[int, tuple[bytes, int, int]] = {}
    missing = []
    with _lock:
        for band, key in enumerate(keys):
            hit = _cache.get(key)
            if hit is None:
                missing.append(band)
            else:
                _cache.move_to_end(key)
                found[band] = hit
    if missing:
        found.update(_encode_bands(sketch, palette, missing, keys))
    adler = 1
    parts = [b"\x78\x01"]  # zlib header: deflate, 32 KB window, fastest
    for band in range(len(keys)):
        blocks, band_adler, length = found[band]
        parts.append(blocks)
        adler = adler32_combine(adler, band_adler, length)
    parts.append(b"\x03\x00")  # the last block: empty, fixed codes
    parts.append(struct.pack(">I", adler))
    width, height = sketch.size
    colours = palette.getpalette() or []
    out = [
        b"\x89PNG\r\n\x1a\n",
        _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
        _chunk(b"PLTE", bytes(colours[: 256 * 3])),
    ]
    out += [_chunk(b"tEXt", f"{k}\0{v}".encode("latin-1")) for k, v in texts.items()]
    out += [_chunk(b"IDAT", b"".join(parts)), _chunk(b"IEND", b"")]
    return b"".join(out)


def clear_cache() -> None:
    with _lock:
        _cache.clear()
