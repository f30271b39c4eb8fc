"""Charts as PNG, drawn with Pillow: a player's rating over time and wins by month (/stats), and a
game's score by hand (the game summary). Plain data in, bytes out (no discord, no storage).

Pillow, not matplotlib: the project draws its table pictures with Pillow already, and these
charts are simple shapes. Measured on the shared 2-core machine (scripts/bench_review.py, and
the same /stats chart in a scratch venv with matplotlib 3, Agg): Pillow 8 ms CPU a chart, 15 KB;
matplotlib 89 ms a chart, 29 KB, plus 2 s to import in each worker process.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.pictures.cards import font_for
from bot.pictures.table import TEAM_COLOURS
from bot.texts import t

WIDTH = 640
PANEL = 220  # height of one chart panel
MARGIN = 44
BACKGROUND = (250, 250, 247)
INK = (40, 40, 40)
GRID = (215, 215, 210)
LINE = (70, 130, 220)
WIN = (60, 160, 90)
LOSS = (200, 90, 80)


def _write(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int = 13,
    bold: bool = False,
    anchor: str = "la",
    fill: tuple[int, int, int] = INK,
) -> None:
    draw.text(xy, text, font=font_for(text, size, bold=bold), fill=fill, anchor=anchor)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()


def _frame(
    draw: ImageDraw.ImageDraw, top: int, title: str, low: float, high: float, ticks: int = 4
) -> tuple[int, int, int, int]:
    """A panel's title, horizontal grid lines with their values; returns the plot box."""
    left, right, plot_top, bottom = MARGIN + 10, WIDTH - 16, top + 30, top + PANEL - 24
    _write(draw, (left, top + 8), title, 15, bold=True)
    for i in range(ticks + 1):
        value = low + (high - low) * i / ticks
        y = bottom - (bottom - plot_top) * i / ticks
        draw.line([(left, y), (right, y)], fill=GRID)
        _write(draw, (left - 6, y), f"{value:.0f}", 11, anchor="rm")
    return left, plot_top, right, bottom


def _whole(high: int, ticks: int) -> int:
    """`high` rounded up so that each of `ticks` grid steps is a whole number."""
    return -(-high // ticks) * ticks


def _scale(value: float, low: float, high: float, start: float, end: float) -> float:
    if high == low:
        return (start + end) / 2
    return start + (value - low) * (end - start) / (high - low)


def _rating_panel(
    draw: ImageDraw.ImageDraw,
    top: int,
    ratings: Sequence[int],
    locale: str | None,
    title: str | None = None,
) -> None:
    low = min(ratings, default=1000)
    high = max(ratings, default=1000)
    pad = max(10, (high - low) // 10)
    low, high = low - pad, high + pad
    left, plot_top, right, bottom = _frame(draw, top, title or t("chart.rating", locale), low, high)
    if not ratings:
        return
    last = max(1, len(ratings) - 1)
    points = [
        (_scale(i, 0, last, left + 6, right - 6), _scale(r, low, high, bottom, plot_top))
        for i, r in enumerate(ratings)
    ]
    if len(points) > 1:
        draw.line(points, fill=LINE, width=3, joint="curve")
    x, y = points[-1]
    draw.ellipse([x - 4, y - 4, x + 4, y + 4], fill=LINE)
    _write(draw, (x - 6, y - 8), str(ratings[-1]), 12, bold=True, anchor="rb", fill=LINE)


def _months_panel(
    draw: ImageDraw.ImageDraw,
    top: int,
    months: Sequence[tuple[str, int, int]],
    locale: str | None,
    title: str | None = None,
) -> None:
    """A bar of wins per month, with "wins/games" above it. A month without a win draws
    nothing but its name (issue 34: an empty value is no bar and no "0%")."""
    ticks = 4
    most = _whole(max((wins for _, wins, _ in months), default=1) or 1, ticks)
    left, plot_top, right, bottom = _frame(
        draw, top, title or t("chart.win_share", locale), 0, most, ticks
    )
    if not months:
        return
    slot = (right - left) / len(months)
    width = min(48.0, slot * 0.6)
    for i, (label, wins, games) in enumerate(months):
        centre = left + slot * (i + 0.5)
        if wins:
            won = _scale(wins, 0, most, bottom, plot_top)
            draw.rectangle([centre - width / 2, won, centre + width / 2, bottom], fill=WIN)
            _write(draw, (centre, won - 3), f"{wins}/{games}", 11, bold=True, anchor="mb")
        _write(draw, (centre, bottom + 4), label, 11, anchor="ma")


def stats_chart(
    ratings: Sequence[int],
    months: Sequence[tuple[str, int, int]],
    locale: str | None = None,
    game: str | None = None,
) -> bytes:
    """/stats: the player's rating after each game (oldest first), then their wins by month:
    (label such as "2026-03", wins, games), oldest first. `game`: its name in the panels'
    titles (a chart of several games, stats_charts)."""
    return _png(_stats_image(ratings, months, locale, game))


def _stats_image(
    ratings: Sequence[int],
    months: Sequence[tuple[str, int, int]],
    locale: str | None,
    game: str | None,
) -> Image.Image:
    image = Image.new("RGB", (WIDTH, 2 * PANEL), BACKGROUND)
    draw = ImageDraw.Draw(image)
    rating_title = t("chart.rating", locale)
    wins_title = t("chart.win_share", locale)
    if game is not None:
        rating_title, wins_title = f"{game} · {rating_title}", f"{game} · {wins_title}"
    _rating_panel(draw, 0, ratings, locale, rating_title)
    _months_panel(draw, PANEL, months, locale, wins_title)
    return image


def stats_charts(
    sections: Sequence[tuple[str, Sequence[int], Sequence[tuple[str, int, int]]]],
    locale: str | None = None,
) -> bytes:
    """/stats with no game asked for: each game the player played, (name, ratings, months),
    one under the other (issue 34: the record covers both games, so does its chart)."""
    if len(sections) == 1:
        _, ratings, months = sections[0]
        return stats_chart(ratings, months, locale)
    images = [_stats_image(r, m, locale, name) for name, r, m in sections]
    image = Image.new("RGB", (WIDTH, sum(i.height for i in images)), BACKGROUND)
    for index, part in enumerate(images):
        image.paste(part, (0, index * 2 * PANEL))
    return _png(image)


def stats_charts_job(
    job: tuple[Sequence[tuple[str, Sequence[int], Sequence[tuple[str, int, int]]]], str | None],
) -> bytes:
    """`stats_charts` as one plain-data job, for the pictures' worker."""
    return stats_charts(*job)


def recap_chart(days: Sequence[tuple[str, int]], locale: str | None = None) -> bytes:
    """The weekly recap: bars of the games finished each day of the week, (label, games)."""
    image = Image.new("RGB", (WIDTH, PANEL), BACKGROUND)
    draw = ImageDraw.Draw(image)
    ticks = 4
    most = _whole(max((games for _, games in days), default=1) or 1, ticks)
    left, plot_top, right, bottom = _frame(draw, 0, t("chart.games_by_day", locale), 0, most, ticks)
    slot = (right - left) / max(1, len(days))
    width = min(48.0, slot * 0.6)
    for i, (label, games) in enumerate(days):
        centre = left + slot * (i + 0.5)
        if games:
            top = _scale(games, 0, most, bottom, plot_top)
            draw.rectangle([centre - width / 2, top, centre + width / 2, bottom], fill=LINE)
            _write(draw, (centre, top - 3), str(games), 11, bold=True, anchor="mb")
        _write(draw, (centre, bottom + 4), label, 11, anchor="ma")
    return _png(image)


def recap_chart_job(job: tuple[Sequence[tuple[str, int]], str | None]) -> bytes:
    """`recap_chart` as one plain-data job, for the pictures' worker."""
    return recap_chart(*job)


def stats_chart_job(job: tuple[Sequence[int], Sequence[tuple[str, int, int]], str | None]) -> bytes:
    """`stats_chart` as one plain-data job, for the pictures' worker (render_pool.render_job)."""
    ratings, months, locale = job
    return stats_chart(ratings, months, locale)


def score_chart(
    scores: Sequence[tuple[int, int]],
    target: int,
    teams: tuple[str, str],
    locale: str | None = None,
) -> bytes:
    """The game summary: each pair's score after each hand (a step line per pair, in the
    pairs' table colours), up to the target."""
    image = Image.new("RGB", (WIDTH, PANEL + 24), BACKGROUND)
    draw = ImageDraw.Draw(image)
    high = _whole(max([target, *(max(s) for s in scores)]), 4)
    left, plot_top, right, bottom = _frame(draw, 0, t("chart.score_by_hand", locale), 0, high)
    hands = len(scores)
    for team in (0, 1):
        points = [(left + 6.0, float(bottom))]
        for i, pair in enumerate(scores, start=1):
            x = _scale(i, 0, max(1, hands), left + 6, right - 6)
            y = _scale(pair[team], 0, high, bottom, plot_top)
            points += [(x, points[-1][1]), (x, y)]
        draw.line(points, fill=TEAM_COLOURS[team], width=3)
    for i in range(1, hands + 1):
        x = _scale(i, 0, max(1, hands), left + 6, right - 6)
        _write(draw, (x, bottom + 4), str(i), 10, anchor="ma")
    for team, name in enumerate(teams):
        y = PANEL + 8
        x = left + team * (right - left) / 2
        draw.rectangle([x, y, x + 14, y + 10], fill=TEAM_COLOURS[team])
        final = scores[-1][team] if scores else 0
        _write(draw, (x + 20, y + 5), f"{name}: {final}", 12, bold=True, anchor="lm")
    return _png(image)
