"""The picture of a table: four seats with names, the cards on the table, the turned card or
trump, the score and (truco) the hand's worth; at the end of a hand, its tricks or rounds.

Seats sit clockwise from the bottom (seat 0) in play order. A player due to act has a gold
name plate. The PNG carries the table id and version in text chunks ("table", "version") so a
test can tell which state a sent picture shows.
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Hashable
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont
from PIL.PngImagePlugin import PngInfo

from bot.engine.truco.game import BASE_VALUE
from bot.pictures import cards, layers
from bot.pictures.cards import (
    card_back,
    card_face,
    deck_codes,
    devanagari_font,
    font,
    suit_symbol,
)
from bot.pictures.layers import Sketch
from bot.pictures.scene import Scene, Trick
from bot.texts import t

WIDTH, HEIGHT = 720, 480
FELT = {"euchre": (28, 104, 66), "truco": (118, 38, 44)}
RAIL = {"euchre": (18, 70, 44), "truco": (82, 24, 30)}
PLATE = (246, 243, 232)
PLATE_TEXT = (30, 30, 34)
TURN = (250, 200, 60)
WHITE = (250, 250, 250)
DIM = (205, 215, 205)
TEAM_COLOURS = ((70, 130, 220), (230, 120, 50))
CARD = 62  # width of a card on the table
SMALL = 36  # width of a card in the end-of-hand tricks
BACKS = 18  # width of the card backs that count a hand
MAX_NAME = 18

# Where each seat's name plate sits (centre) and where its card lands on the table.
PLATES = ((WIDTH // 2, HEIGHT - 34), (92, HEIGHT // 2), (WIDTH // 2, 34), (WIDTH - 92, HEIGHT // 2))
CENTRE = (WIDTH // 2, HEIGHT // 2 + 6)
LABEL = 20  # px of the small labels ("to 10", "tricks", "dealer"): 22 px at 800 px wide
CARD_OFFSETS = ((0, 62), (-84, 0), (0, -62), (84, 0))


@lru_cache(maxsize=4)
def _felt(game: str) -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), RAIL[game])
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle([8, 8, WIDTH - 9, HEIGHT - 9], radius=60, fill=FELT[game])
    return image


# Devanagari letters (Hindi) are drawn with Noto Sans Devanagari, everything else with DejaVu
# Sans; the zero-width joiners, which pick a conjunct's form, go with the Devanagari letters.
DEVANAGARI = re.compile("[\u0900-\u097f]")
JOINERS = "\u200c\u200d"


def _is_devanagari(character: str) -> bool:
    return "\u0900" <= character <= "\u097f" or character in JOINERS


def _font(size: int, bold: bool, devanagari: bool) -> ImageFont.FreeTypeFont:
    return devanagari_font(size, bold=bold) if devanagari else font(size, bold=bold)


@lru_cache(maxsize=4096)
def _has_glyph(character: str) -> bool:
    """The shipped fonts have Latin, Greek, Cyrillic and Devanagari letters: anything else
    (emoji, other scripts) is left out of a name or label rather than drawn as an empty box; the
    text message keeps the full name."""
    if character == " " or character in JOINERS:
        return True
    devanagari = _is_devanagari(character)
    return _glyph(character, devanagari) != _glyph("\ufffe", devanagari)


@lru_cache(maxsize=4096)
def _glyph(character: str, devanagari: bool = False) -> bytes:
    image = Image.new("L", (32, 32))
    draw = ImageDraw.Draw(image)
    draw.text((6, 4), character, font=_font(16, True, devanagari), fill=255)
    return image.tobytes()


def _kept(text: str) -> str:
    """`text` without the letters neither font has; a joiner stays only after a Devanagari
    letter (elsewhere it is what is left of an emoji sequence)."""
    kept: list[str] = []
    for character in text:
        if character in JOINERS:
            if kept and DEVANAGARI.match(kept[-1]):
                kept.append(character)
        elif _has_glyph(character):
            kept.append(character)
    return "".join(kept)


@lru_cache(maxsize=1024)
def _runs(text: str) -> tuple[tuple[str, bool], ...]:
    """`text` (with Devanagari in it) cut into runs of one font each: (part, is Devanagari).
    A space goes with the run before it (at the start, with the run after it)."""
    runs: list[tuple[str, bool]] = []
    part, devanagari = "", False
    for character in _kept(text):
        if character == " " or (part and character in JOINERS):
            part += character
            continue
        script = _is_devanagari(character)
        if part.strip() and script != devanagari:
            runs.append((part, devanagari))
            part = ""
        part, devanagari = part + character, script
    if part:
        runs.append((part, devanagari))
    return tuple(runs)


@lru_cache(maxsize=2048)
def _run_length(part: str, size: int, bold: bool, devanagari: bool) -> float:
    return _font(size, bold, devanagari).getlength(part)


@lru_cache(maxsize=4096)
def _run_mask(part: str, size: int, bold: bool, devanagari: bool) -> tuple[Image.Image, int, int]:
    """A run of text drawn once as a mask, with its box's offset from the run's left end on the
    baseline: shaping with raqm costs about a millisecond a call (HarfBuzz plans the font's
    Devanagari features again each time), and a picture's labels repeat from one version to
    the next."""
    run_font = _font(size, bold, devanagari)
    left, top, right, bottom = (round(edge) for edge in run_font.getbbox(part, anchor="ls"))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)))
    ImageDraw.Draw(mask).text((-left, -top), part, font=run_font, fill=255, anchor="ls")
    return mask, left, top


def _length(draw: ImageDraw.ImageDraw, text: str, size: int, *, bold: bool = True) -> float:
    """The width of `text` as _text draws it."""
    return _text_length(text, size, bold)


@lru_cache(maxsize=4096)
def _text_length(text: str, size: int, bold: bool) -> float:
    """`_length`, kept: a picture measures the same labels and names version after version."""
    if not DEVANAGARI.search(text):
        return font(size, bold=bold).getlength(text)
    return sum(_run_length(part, size, bold, devanagari) for part, devanagari in _runs(text))


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    *,
    fill: tuple[int, int, int],
    bold: bool = True,
    anchor: str = "la",
) -> None:
    """`_draw_text`, or on a sketch's pen (bot/pictures/layers.py) a step that draws it."""
    record = getattr(draw, "record_text", None)
    if record is not None:
        kwargs = {"fill": fill, "bold": bold, "anchor": anchor}
        record(
            xy, text, size, kwargs, _draw_text, text_rows(xy, text, size, bold=bold, anchor=anchor)
        )
    else:
        _draw_text(draw, xy, text, size, fill=fill, bold=bold, anchor=anchor)


def _draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    *,
    fill: tuple[int, int, int],
    bold: bool = True,
    anchor: str = "la",
) -> None:
    """draw.text with DejaVu Sans, except that the Devanagari runs of a text (a Hindi label, a
    name in Devanagari) are drawn with Noto Sans Devanagari on the same baseline. `anchor` is
    Pillow's two letters: l/m/r, then a/m/s/b/d (the ascent and descent of the fonts used).
    Every run is drawn from its cached mask: a picture's texts mostly repeat from one version
    to the next, and FreeType drawing them again was most of a picture's drawing time."""
    for mask, x, y in _placed(xy, text, size, bold, anchor):
        draw.bitmap((x, y), mask, fill=fill)


@lru_cache(maxsize=4096)
def _placed(
    xy: tuple[float, float], text: str, size: int, bold: bool, anchor: str
) -> tuple[tuple[Image.Image, int, int], ...]:
    """Where _draw_text puts each run's mask: (mask, left, top)."""
    runs = _runs(text)
    if not runs:
        return ()  # nothing the fonts can draw
    widths = [_run_length(part, size, bold, devanagari) for part, devanagari in runs]
    metrics = [_font(size, bold, devanagari).getmetrics() for _, devanagari in runs]
    ascent = max(up for up, _ in metrics)
    descent = max(down for _, down in metrics)
    x = xy[0] - {"l": 0.0, "m": sum(widths) / 2, "r": sum(widths)}[anchor[0]]
    y = xy[1] + {"a": ascent, "m": (ascent - descent) / 2, "s": 0}.get(anchor[1], -descent)
    placed = []
    for (part, devanagari), width in zip(runs, widths, strict=True):
        if part.strip():
            mask, left, top = _run_mask(part, size, bold, devanagari)
            placed.append((mask, round(x) + left, round(y) + top))
        x += width
    return tuple(placed)


def text_rows(
    xy: tuple[float, float], text: str, size: int, *, bold: bool = True, anchor: str = "la"
) -> tuple[int, int]:
    """The rows `_draw_text` colours, first and past the last (issue 31: a sketch's text step
    touches these bands only, not every band within 2.5 sizes of its row)."""
    placed = _placed(xy, text, size, bold, anchor)
    if not placed:
        return int(xy[1]), int(xy[1])
    return min(y for _, _, y in placed), max(y + mask.height for mask, _, y in placed)


def shown_name(name: str) -> str:
    kept = " ".join(_kept(name).split())
    if len(kept) > MAX_NAME:
        # Cut between letters: not before a vowel sign or after a virama or joiner (Devanagari).
        cut = MAX_NAME - 1
        while cut > 1 and (
            unicodedata.category(kept[cut]).startswith("M") or kept[cut - 1] in "\u094d" + JOINERS
        ):
            cut -= 1
        kept = kept[:cut] + "…"
    return kept or "?"


def _paste(canvas: Sketch, sprite: Image.Image, centre: tuple[float, float], key: Hashable) -> None:
    """`sprite` centred at `centre`; `key` names it (what makes it: e.g. a card and its size)."""
    x = round(centre[0] - sprite.width / 2)
    y = round(centre[1] - sprite.height / 2)
    canvas.paste(sprite, (x, y), key)


def _plate(
    draw: ImageDraw.ImageDraw,
    centre: tuple[int, int],
    text: str,
    team: int,
    *,
    to_act: bool,
    note: str = "",
) -> int:
    """A name plate; returns its width."""
    # Labels at least 20 px here, 22 px once shown 800 px wide (issue 30 item 6).
    width = max(110, round(_length(draw, text, 17)) + 34)
    if note:
        width = max(width, round(_length(draw, note, LABEL, bold=False)) + 24)
    height = 50 if note else 28
    x0, y0 = centre[0] - width // 2, centre[1] - height // 2
    fill = TURN if to_act else PLATE
    draw.rounded_rectangle([x0, y0, x0 + width, y0 + height], radius=10, fill=fill)
    draw.rounded_rectangle([x0, y0, x0 + 8, y0 + height], radius=4, fill=TEAM_COLOURS[team])
    text_y = y0 + 14
    _text(draw, (centre[0] + 4, text_y), text, 17, fill=PLATE_TEXT, anchor="mm")
    if note:
        _text(draw, (centre[0] + 4, y0 + 36), note, LABEL, bold=False, fill=PLATE_TEXT, anchor="mm")
    return width


def _seat_note(scene: Scene, seat: int) -> str:
    view = scene.view
    if view is None:
        return ""
    locale = scene.locale
    notes = []
    if view["dealer"] == seat and scene.stage == "play":  # no deal after the game is over
        notes.append(t("picture.dealer", locale))
    if seat in (view.get("alone") or ()):
        notes.append(t("picture.alone", locale))
    if seat in (view.get("sitting_out") or ()):
        notes.append(t("picture.sits_out", locale))
    return " · ".join(notes)


def _seats(image: Sketch, draw: ImageDraw.ImageDraw, scene: Scene) -> None:
    view = scene.view
    to_act = set(view["to_act"]) if view is not None else set()
    for seat, centre in enumerate(PLATES):
        width = _plate(
            draw,
            centre,
            shown_name(scene.names[seat]),
            seat % 2,
            to_act=seat in to_act,
            note=_seat_note(scene, seat),
        )
        if view is None or scene.stage != "play":
            continue
        # The hand's size as a row of small backs: under a side plate, beside the others.
        count = view["hand_sizes"][seat]
        if seat in (1, 3):
            x, y = centre[0] - (count - 1) * 5, centre[1] + 38
        else:
            x, y = centre[0] + width // 2 + 22, centre[1]
        for index in range(count):
            _paste(image, card_back(BACKS), (x + index * 10, y), ("back", BACKS))


def _score_box(draw: ImageDraw.ImageDraw, scene: Scene) -> None:
    view = scene.view
    assert view is not None
    locale = scene.locale
    title = t(f"game.{scene.game}", locale)
    draw.rounded_rectangle([22, 18, 226, 124], radius=12, fill=RAIL[scene.game], outline=WHITE)
    _text(draw, (34, 20), title, 18, fill=WHITE)
    # The target on the header row's left, under the title: beside a long title ("Truco
    # Mineiro") it ran into the column header (issue 21 item 10). Its baseline sits low enough
    # for Devanagari's marks above the line (hi) to clear the title at 20 px (issue 30).
    _text(
        draw,
        (34, 69),
        t("picture.target", locale, target=view["target"]),
        LABEL,
        bold=False,
        fill=DIM,
        anchor="lb",
    )
    if scene.stage == "play":
        # The column of tricks (euchre) or rounds (truco) won in this hand.
        column = t(f"picture.tricks.{scene.game}", locale)
        _text(draw, (212, 69), column, LABEL, fill=TURN, anchor="rb")
    for team in (0, 1):
        y = 70 + team * 24
        draw.rounded_rectangle([34, y + 3, 46, y + 15], radius=3, fill=TEAM_COLOURS[team])
        _text(draw, (54, y), t("picture.team", locale, number=team + 1), 16, fill=WHITE)
        _text(draw, (160, y - 2), str(view["scores"][team]), 20, fill=WHITE)
        if scene.stage == "play":
            tricks = view["tricks_won"][team]
            _text(draw, (210, y + 1), str(tricks), 16, fill=TURN, anchor="ra")


def _suit_chip(image: Sketch, draw: ImageDraw.ImageDraw, suit: str, x: int, y: int) -> None:
    draw.ellipse([x, y, x + 34, y + 34], fill=PLATE)
    image.paste(suit_symbol(suit, 22), (x + 6, y + 6), ("suit", suit, 22))


def _euchre_box(image: Sketch, draw: ImageDraw.ImageDraw, scene: Scene) -> None:
    view = scene.view
    assert view is not None
    locale = scene.locale
    x0 = WIDTH - 210
    draw.rounded_rectangle(
        [x0, 18, WIDTH - 22, 114], radius=12, fill=RAIL[scene.game], outline=WHITE
    )
    if view["trump"] is not None:
        _text(draw, (x0 + 12, 26), t("picture.trump", locale), 14, fill=WHITE)
        _suit_chip(image, draw, view["trump"], x0 + 14, 48)
        maker = shown_name(scene.names[view["maker"]])
        _text(draw, (x0 + 56, 56), t("picture.maker", locale, name=maker), 13, bold=False, fill=DIM)
    elif view["turned_card"] is not None:  # none while a fair hand waits for its cut
        key = "picture.turned_down" if view["turned_down"] else "picture.turned_up"
        _text(draw, (x0 + 12, 26), t(key, locale), 14, fill=WHITE)
        down = bool(view["turned_down"])
        image.paste(
            _turned(view["turned_card"], down),
            (x0 + 130, 24),
            ("turned", view["turned_card"], down),
        )
        if view.get("named_suit"):
            _suit_chip(image, draw, view["named_suit"], x0 + 14, 56)


def _truco_box(draw: ImageDraw.ImageDraw, scene: Scene) -> None:
    view = scene.view
    assert view is not None
    locale = scene.locale
    x0 = WIDTH - 236
    draw.rounded_rectangle(
        [x0, 18, WIDTH - 22, 114], radius=12, fill=RAIL[scene.game], outline=WHITE
    )
    _text(draw, (x0 + 12, 26), t("picture.worth", locale), 14, fill=WHITE)
    value = view["hand_value"]
    raised = value > BASE_VALUE  # T9: a raised hand's worth is drawn in gold
    _text(draw, (x0 + 12, 44), str(value), 34, fill=TURN if raised else WHITE)
    lines = []
    ask = view.get("pending_ask")
    if ask is not None:
        lines.append(t("picture.asked", locale, ask=t(f"truco.ask.{ask['name']}", locale)))
    if view.get("hand_of_ten") is not None and view.get("phase") == "hand_of_ten":
        # Only while they decide (issue 30 item 6).
        lines.append(t("picture.hand_of_ten", locale, number=view["hand_of_ten"] + 1))
    if view.get("iron_hand"):
        lines.append(t("picture.iron_hand", locale))
    for index, line in enumerate(lines[:3]):
        _text(draw, (x0 + 58, 50 + index * 17), line, 13, fill=TURN)


def _trick(image: Sketch, scene: Scene) -> None:
    view = scene.view
    assert view is not None
    for entry in view["trick"]:
        dx, dy = CARD_OFFSETS[entry["seat"]]
        card = entry["card"]
        _paste(image, card_face(card, CARD), (CENTRE[0] + dx, CENTRE[1] + dy), ("card", card, CARD))


def _last_hand(image: Sketch, draw: ImageDraw.ImageDraw, scene: Scene) -> None:
    """The finished hand's tricks in a row across the middle, each winning card raised."""
    tricks: list[Trick] = scene.last_hand
    locale = scene.locale
    if scene.last_hand_points is not None:
        team, points = scene.last_hand_points
        heading = t("picture.hand_points", locale, number=team + 1, points=points)
    else:
        heading = t("picture.last_hand", locale)
    _text(draw, (CENTRE[0], CENTRE[1] - 76), heading, 17, fill=WHITE, anchor="mm")
    if not tricks:
        return
    step = 15 if len(tricks) > 3 else 30
    widths = [SMALL + step * (len(trick.cards) - 1) for trick in tricks]
    gap = 14 if len(tricks) > 3 else 28
    x = CENTRE[0] - (sum(widths) + gap * (len(tricks) - 1)) / 2
    y = CENTRE[1] - 4
    for trick, width in zip(tricks, widths, strict=True):
        for index, (seat, card) in enumerate(trick.cards):
            sprite = card_face(card, SMALL)
            lift = -10 if seat == trick.winner else 0
            image.paste(
                sprite,
                (round(x + index * step), round(y - sprite.height / 2 + lift)),
                ("card", card, SMALL),
            )
        label = (
            t("picture.team", locale, number=trick.winner % 2 + 1)
            if trick.winner is not None
            else t("picture.tied", locale)
        )
        colour = TEAM_COLOURS[trick.winner % 2] if trick.winner is not None else DIM
        _text(draw, (x + width / 2, y + 42), label, 13, fill=colour, anchor="mm")
        x += width + gap


def _winner_banner(draw: ImageDraw.ImageDraw, scene: Scene) -> None:
    view = scene.view
    assert view is not None
    winner = view["winner"]
    scores = view["scores"]
    # The winner's score first, as the text says (issue 30 item 6).
    text = t(
        "picture.winner", scene.locale, number=winner + 1, a=scores[winner], b=scores[1 - winner]
    )
    draw.rounded_rectangle(
        [CENTRE[0] - 170, CENTRE[1] + 62, CENTRE[0] + 170, CENTRE[1] + 100],
        radius=12,
        fill=TURN,
    )
    _text(draw, (CENTRE[0], CENTRE[1] + 81), text, 20, fill=PLATE_TEXT, anchor="mm")


def _lobby(draw: ImageDraw.ImageDraw, scene: Scene) -> None:
    locale = scene.locale
    _text(draw, CENTRE, t(f"game.{scene.game}", locale), 34, fill=WHITE, anchor="mm")
    _text(
        draw,
        (CENTRE[0], CENTRE[1] + 34),
        t("picture.lobby", locale),
        16,
        bold=False,
        fill=DIM,
        anchor="mm",
    )


@lru_cache(maxsize=128)
def _turned(code: str, down: bool) -> Image.Image:
    """The turned card in the euchre box: greyed once turned down (E9)."""
    card = card_face(code, 40)
    return card.convert("LA").convert("RGBA") if down else card


def draw_table(scene: Scene) -> Image.Image:
    """The whole picture, every step drawn."""
    return sketch_table(scene).image()


def sketch_table(scene: Scene) -> Sketch:
    """The picture as steps over the felt (bot/pictures/layers.py): `table_png` draws only the
    bands no earlier picture had."""
    image = Sketch(_felt(scene.game), ("table", scene.game))
    draw: Any = image.draw
    if scene.stage == "lobby" or scene.view is None:
        _lobby(draw, scene)
    else:
        _score_box(draw, scene)
        # The hand's box (trump, worth, asks) is for a hand in play: not on the game-over picture.
        if scene.stage != "play":
            pass
        elif scene.game == "euchre":
            _euchre_box(image, draw, scene)
        else:
            _truco_box(draw, scene)
        if scene.view["trick"]:
            _trick(image, scene)
        elif scene.last_hand or scene.last_hand_points:
            _last_hand(image, draw, scene)
        if scene.stage == "over":
            _winner_banner(draw, scene)
    _seats(image, draw, scene)
    return image


def png_bytes(image: Image.Image, scene: Scene) -> bytes:
    info = PngInfo()
    info.add_text("table", str(scene.table_id))
    info.add_text("version", str(scene.version))
    out = io.BytesIO()
    # A palette keeps the file small (flat felt, few colours). Mapping to the game's fixed
    # palette costs a millisecond where choosing a palette for each picture cost nine; zlib's
    # level 3 takes half the time of level 6 for a file ~2 KB larger (~10 KB).
    image.quantize(palette=_palette(scene.game), dither=Image.Dither.NONE).save(
        out, format="PNG", pnginfo=info, compress_level=3
    )
    return out.getvalue()


def _swatch(game: str) -> Image.Image:
    """Everything a picture of `game` is made of: the felt, every card face at each size drawn
    (and greyed, as a turned-down card), the backs, and each text colour over each background
    it is drawn on (the blends of its smoothed edges)."""
    swatch = Image.new("RGB", (WIDTH, HEIGHT + 2000), FELT[game])
    swatch.paste(_felt(game), (0, 2000))
    draw = ImageDraw.Draw(swatch)
    x, y = 12, 12
    sprites = [card_back(BACKS), suit_symbol("S", 22), suit_symbol("H", 22)]
    for code in deck_codes():
        for width in (CARD, SMALL, 40):
            sprites.append(card_face(code, width))
        sprites.append(card_face(code, 40).convert("LA").convert("RGBA"))
    for sprite in sprites:
        if x + sprite.width > WIDTH - 12:
            x, y = 12, y + 96
        swatch.paste(sprite, (x, y), sprite)
        x += sprite.width + 4
    y += 100
    backgrounds = (FELT[game], RAIL[game], PLATE, TURN)
    inks = (WHITE, DIM, TURN, PLATE_TEXT, *TEAM_COLOURS)
    for index, (background, ink) in enumerate(
        (background, ink) for background in backgrounds for ink in inks
    ):
        left, top = 12 + (index % 4) * 176, y + (index // 4) * 30
        draw.rectangle([left, top, left + 170, top + 28], fill=background)
        _text(draw, (left + 4, top + 4), "Ag9 ♠♥ 12", 20, fill=ink)
        _text(draw, (left + 110, top + 8), "Mão 3", 12, bold=False, fill=ink)
    return swatch


@lru_cache(maxsize=2)
def _palette(game: str) -> Image.Image:
    return fixed_palette(game, _swatch(game))


def fixed_palette(game: str, swatch: Image.Image) -> Image.Image:
    """The 256 colours of a game's pictures, chosen once: every flat colour the drawing uses,
    exactly, and the rest chosen from its swatch's blends. Each distinct colour of the swatch
    counts once, so the few pixels of a card back's pattern weigh as much as the felt."""
    flat = [FELT[game], RAIL[game], PLATE, PLATE_TEXT, TURN, WHITE, DIM, *TEAM_COLOURS]
    flat += [cards.RED, cards.BLACK, cards.FACE, cards.EDGE, cards.BACK, cards.BACK_PATTERN]
    colours = swatch.getcolors(maxcolors=swatch.width * swatch.height)
    assert colours is not None
    distinct = Image.new("RGB", (len(colours), 1))
    distinct.putdata([colour for _, colour in colours if isinstance(colour, tuple)])
    blends = distinct.quantize(colors=256 - len(flat), method=Image.Quantize.MEDIANCUT)
    palette = Image.new("P", (1, 1))
    palette.putpalette([part for colour in flat for part in colour] + (blends.getpalette() or []))
    return palette


def prepare() -> None:
    """Make what every picture uses (the palettes: ~0.3 s) before the first picture is due."""
    for game in FELT:
        _palette(game)


def table_png(scene: Scene) -> bytes:
    """The whole picture, as PNG bytes (the same pixels as png_bytes(draw_table(scene)), only
    the bands not cached drawn). Pure CPU work: run it off the event loop."""
    texts = {"table": str(scene.table_id), "version": str(scene.version)}
    return layers.png(sketch_table(scene), _palette(scene.game), texts)
