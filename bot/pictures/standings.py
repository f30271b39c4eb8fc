"""Tournament standings as a PNG (issue 23), drawn with Pillow: a title, one row per player with
rank, name, a column per round played and the totals, the leaders marked. Plain data in, bytes
out (no discord, no storage); the caller gives every text already translated."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.pictures.cards import font_for

WIDTH_NAME = 230
COLUMN = 64
ROW = 30
TOP = 70
MARGIN = 20
BACKGROUND = (250, 250, 247)
INK = (40, 40, 40)
MUTED = (120, 120, 115)
STRIPE = (238, 238, 232)
LEADER = (252, 236, 170)
RULE = (200, 200, 195)


@dataclass(frozen=True)
class StandingRow:
    rank: int
    name: str
    round_points: Sequence[int | None]  # None: not played yet (or sat out)
    points: int
    rounds_won: int
    is_bot: bool = False


def _write(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int = 15,
    bold: bool = False,
    anchor: str = "lm",
    fill: tuple[int, int, int] = INK,
) -> None:
    draw.text(xy, text, font=font_for(text, size, bold=bold), fill=fill, anchor=anchor)


def _fit(text: str, limit: int = 24) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def standings_png(
    title: str,
    subtitle: str,
    headers: Sequence[str],
    rows: Sequence[StandingRow],
) -> bytes:
    """`headers`: rank, player, one per round, points, rounds won (as many rounds as the rows
    have). The rows come best first; those ranked first are shaded as leaders."""
    rounds = max((len(r.round_points) for r in rows), default=0)
    width = MARGIN * 2 + 44 + WIDTH_NAME + COLUMN * (rounds + 2)
    height = TOP + ROW * (len(rows) + 1) + MARGIN
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    _write(draw, (MARGIN, 24), title, 22, bold=True)
    _write(draw, (MARGIN, 50), subtitle, 14, fill=MUTED)
    xs = [MARGIN, MARGIN + 44] + [
        MARGIN + 44 + WIDTH_NAME + COLUMN * i + COLUMN // 2 for i in range(rounds + 2)
    ]
    y = TOP + ROW // 2
    for index, header in enumerate(headers[: rounds + 4]):
        anchor = "lm" if index < 2 else "mm"
        _write(draw, (xs[index], y), header, 13, bold=True, anchor=anchor, fill=MUTED)
    draw.line([(MARGIN, TOP + ROW), (width - MARGIN, TOP + ROW)], fill=RULE, width=2)
    for number, row in enumerate(rows):
        top = TOP + ROW * (number + 1)
        if row.rank == 1:
            draw.rectangle([(MARGIN - 6, top), (width - MARGIN + 6, top + ROW)], fill=LEADER)
        elif number % 2:
            draw.rectangle([(MARGIN - 6, top), (width - MARGIN + 6, top + ROW)], fill=STRIPE)
        y = top + ROW // 2
        fill = MUTED if row.is_bot else INK
        _write(draw, (xs[0], y), f"{row.rank}.", 15, bold=True, fill=fill)
        _write(draw, (xs[1], y), _fit(row.name), 15, bold=row.rank == 1, fill=fill)
        for i in range(rounds):
            points = row.round_points[i] if i < len(row.round_points) else None
            _write(draw, (xs[2 + i], y), "–" if points is None else str(points), anchor="mm")
        _write(draw, (xs[2 + rounds], y), str(row.points), 16, bold=True, anchor="mm")
        _write(draw, (xs[3 + rounds], y), str(row.rounds_won), anchor="mm", fill=fill)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()
