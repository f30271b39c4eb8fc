"""Card faces and backs as small RGBA images, drawn once per size and reused.

Suits are vector shapes drawn at four times the size and scaled down (Pillow does not smooth
polygon edges); red suits are red. Card codes are the engines': rank then suit ("TS", "JH",
"7D"; truco "AS", "4C"), and "JO" for the joker.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

from bot.engine.euchre.cards import JOKER_CODE
from bot.engine.euchre.cards import RANKS as EUCHRE_RANKS
from bot.engine.truco.cards import FACE_DOWN
from bot.engine.truco.cards import RANKS as TRUCO_RANKS

SCALE = 4  # supersampling of shapes
RED = (200, 30, 45)
BLACK = (25, 25, 30)
SUIT_COLOURS = {"H": RED, "D": RED, "S": BLACK, "C": BLACK}
FACE = (252, 250, 244)
EDGE = (120, 120, 120)
BACK = (32, 74, 160)
BACK_PATTERN = (70, 110, 200)
RANK_TEXT = {"T": "10"}
COURT = {"J", "Q", "K"}
FONTS = Path(__file__).with_name("fonts")


@lru_cache(maxsize=32)
def font(size: int, *, bold: bool = True) -> ImageFont.FreeTypeFont:
    """DejaVu Sans, shipped with the project (fonts/LICENSE): Latin, Greek and Cyrillic."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONTS / name), size)


# Devanagari needs shaping (vowel signs placed around their consonant, conjuncts): Pillow's raqm
# layout does it; without raqm the letters are drawn one by one, still readable.
DEVANAGARI_LAYOUT = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC


@lru_cache(maxsize=32)
def devanagari_font(size: int, *, bold: bool = True) -> ImageFont.FreeTypeFont:
    """Noto Sans Devanagari, shipped with the project (fonts/NotoSansDevanagari-LICENSE): the
    Devanagari letters of Hindi labels and names (issue 12), which DejaVu Sans lacks."""
    name = "NotoSansDevanagari-Bold.ttf" if bold else "NotoSansDevanagari-Regular.ttf"
    return ImageFont.truetype(str(FONTS / name), size, layout_engine=DEVANAGARI_LAYOUT)


def font_for(text: str, size: int, *, bold: bool = True) -> ImageFont.FreeTypeFont:
    """The font that can write `text`: Noto Sans Devanagari for Hindi, DejaVu Sans otherwise."""
    if any("\u0900" <= character <= "\u097f" for character in text):
        return devanagari_font(size, bold=bold)
    return font(size, bold=bold)


def _draw_suit(draw: ImageDraw.ImageDraw, suit: str, box: tuple[int, int, int, int]) -> None:
    """A suit symbol filling `box` (left, top, right, bottom)."""
    left, top, right, bottom = box
    w, h = right - left, bottom - top
    colour = SUIT_COLOURS[suit]

    def at(x: float, y: float) -> tuple[float, float]:
        return (left + x * w, top + y * h)

    if suit == "D":
        draw.polygon([at(0.5, 0), at(0.92, 0.5), at(0.5, 1), at(0.08, 0.5)], fill=colour)
    elif suit == "H":
        r = 0.26
        draw.ellipse([at(0.02, 0.05), at(0.02 + 2 * r, 0.05 + 2 * r * w / h)], fill=colour)
        draw.ellipse([at(0.98 - 2 * r, 0.05), at(0.98, 0.05 + 2 * r * w / h)], fill=colour)
        draw.polygon([at(0.04, 0.38), at(0.96, 0.38), at(0.5, 1.0)], fill=colour)
        draw.polygon([at(0.3, 0.2), at(0.7, 0.2), at(0.5, 0.6)], fill=colour)
    elif suit == "S":
        r = 0.26
        draw.polygon([at(0.5, 0), at(0.96, 0.55), at(0.04, 0.55)], fill=colour)
        draw.ellipse([at(0.02, 0.42), at(0.02 + 2 * r, 0.42 + 2 * r * w / h)], fill=colour)
        draw.ellipse([at(0.98 - 2 * r, 0.42), at(0.98, 0.42 + 2 * r * w / h)], fill=colour)
        draw.polygon([at(0.5, 0.6), at(0.68, 1.0), at(0.32, 1.0)], fill=colour)
    else:  # clubs
        r = 0.24
        for cx, cy in ((0.5, 0.22), (0.24, 0.55), (0.76, 0.55)):
            draw.ellipse([at(cx - r, cy - r * w / h), at(cx + r, cy + r * w / h)], fill=colour)
        draw.polygon([at(0.5, 0.4), at(0.68, 1.0), at(0.32, 1.0)], fill=colour)
        draw.rectangle([at(0.4, 0.35), at(0.6, 0.7)], fill=colour)


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, ...]) -> None:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy - radius * math.sin(angle)))
    draw.polygon(points, fill=fill)


def _shape_layer(
    size: tuple[int, int], paint: Callable[[ImageDraw.ImageDraw, int], None]
) -> Image.Image:
    """Shapes drawn at SCALE times `size` by `paint(draw, scale)`, scaled down smoothly."""
    big = Image.new("RGBA", (size[0] * SCALE, size[1] * SCALE), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), SCALE)
    return big.resize(size, Image.Resampling.LANCZOS)


@lru_cache(maxsize=8)
def suit_symbol(suit: str, size: int) -> Image.Image:
    """A suit on its own, `size` pixels square."""

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        _draw_suit(draw, suit, (0, 0, size * s, size * s))

    return _shape_layer((size, size), paint)


def rank_text(code: str) -> str:
    rank = code[:-1]
    return RANK_TEXT.get(rank, rank)


def face_texts(code: str, width: int) -> list[tuple[str, int]]:
    """The texts card_face(code, width) draws, with their font sizes in pixels (what a
    legibility check of a picture counts besides its own labels)."""
    if code == JOKER_CODE:
        return [("JOKER", max(8, width // 5))]
    rank = rank_text(code)
    texts = [(rank, max(9, round(width * (0.3 if len(rank) == 1 else 0.26))))]
    if rank in COURT:
        texts.append((rank, max(10, round(width * 0.45))))
    return texts


# 53 cards at the table picture's three widths and the seat picture's three (~15 MB at most).
@lru_cache(maxsize=384)
def card_face(code: str, width: int) -> Image.Image:
    """A card face `width` pixels wide (height 1.4 times that); a truco card played face down
    (T15) shows its back."""
    if code == FACE_DOWN:
        return card_back(width)
    height = round(width * 1.4)
    radius = max(3, width // 10)

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        draw.rounded_rectangle(
            [0, 0, width * s - 1, height * s - 1],
            radius=radius * s,
            fill=FACE,
            outline=EDGE,
            width=max(1, s),
        )
        if code == JOKER_CODE:
            _star(draw, width * s / 2, height * s * 0.55, width * s * 0.32, (180, 120, 20))
            return
        suit = code[-1]
        corner = width * s * 0.22
        x0, y0 = width * s * 0.08, height * s * 0.27
        _draw_suit(draw, suit, (round(x0), round(y0), round(x0 + corner), round(y0 + corner)))
        if code[:-1] in COURT:
            # A framed court card: the big letter is drawn on top as text.
            inset = width * s * 0.3
            draw.rounded_rectangle(
                [inset, height * s * 0.3, width * s - width * s * 0.1, height * s * 0.92],
                radius=radius * s,
                outline=SUIT_COLOURS[suit],
                width=max(1, s * max(1, width // 40)),
            )
        else:
            big = width * s * 0.5
            bx, by = width * s * 0.38, height * s * 0.45
            _draw_suit(draw, suit, (round(bx), round(by), round(bx + big), round(by + big)))

    card = _shape_layer((width, height), paint)
    draw = ImageDraw.Draw(card)
    texts = face_texts(code, width)
    if code == JOKER_CODE:
        text_font = font(texts[0][1])
        draw.text((width / 2, height * 0.2), "JOKER", font=text_font, fill=BLACK, anchor="mm")
        return card
    colour = SUIT_COLOURS[code[-1]]
    rank = rank_text(code)
    corner_font = font(texts[0][1])
    draw.text(
        (width * 0.08, height * 0.03),
        rank,
        font=corner_font,
        fill=colour,
        stroke_width=max(0, width // 60),
        stroke_fill=colour,
    )
    if rank in COURT:
        court_font = font(texts[1][1])
        draw.text(
            (width * 0.6, height * 0.61),
            rank,
            font=court_font,
            fill=colour,
            anchor="mm",
            stroke_width=max(0, width // 40),
            stroke_fill=colour,
        )
    return card


@lru_cache(maxsize=16)
def card_back(width: int) -> Image.Image:
    height = round(width * 1.4)
    radius = max(3, width // 10)

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        draw.rounded_rectangle(
            [0, 0, width * s - 1, height * s - 1],
            radius=radius * s,
            fill=FACE,
            outline=EDGE,
            width=max(1, s),
        )
        m = max(2, width // 12) * s
        draw.rounded_rectangle(
            [m, m, width * s - m, height * s - m], radius=radius * s // 2, fill=BACK
        )
        step = max(4, width // 6) * s
        for x in range(m - height * s, width * s, step):
            draw.line([(x, height * s - m), (x + height * s, -m)], fill=BACK_PATTERN, width=s)
        draw.rounded_rectangle(
            [0, 0, width * s - 1, height * s - 1],
            radius=radius * s,
            outline=FACE,
            width=m,
        )
        draw.rounded_rectangle(
            [0, 0, width * s - 1, height * s - 1], radius=radius * s, outline=EDGE, width=s
        )

    return _shape_layer((width, height), paint)


EMOJI_SIZE = 128  # Discord scales an emoji down from 128 x 128


def deck_codes() -> list[str]:
    """Every card of both games: euchre 7-A (and its joker), truco A-7 J Q K."""
    ranks = sorted(set(EUCHRE_RANKS) | set(TRUCO_RANKS), key="A23456789TJQK".index)
    return [rank + suit for suit in "CDHS" for rank in ranks] + [JOKER_CODE]


@lru_cache(maxsize=64)
def emoji_png(code: str) -> bytes:
    """A card as an emoji: a big rank over its suit, readable at button size."""
    size = EMOJI_SIZE
    left, right = 14, size - 14

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        draw.rounded_rectangle(
            [left * s, 2 * s, right * s, (size - 2) * s],
            radius=16 * s,
            fill=FACE,
            outline=EDGE,
            width=3 * s,
        )
        if code == JOKER_CODE:
            _star(draw, size * s / 2, size * s * 0.6, size * s * 0.3, (180, 120, 20))
        else:
            box = (38 * s, 66 * s, 90 * s, 118 * s)
            _draw_suit(draw, code[-1], box)

    image = _shape_layer((size, size), paint)
    draw = ImageDraw.Draw(image)
    if code == JOKER_CODE:
        draw.text((size / 2, 30), "JOKER", font=font(22), fill=BLACK, anchor="mm")
    else:
        rank = rank_text(code)
        draw.text(
            (size / 2, 36),
            rank,
            font=font(54 if len(rank) == 1 else 46),
            fill=SUIT_COLOURS[code[-1]],
            anchor="mm",
        )
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
