"""One player's own picture: their cards large at the bottom, the table, trump or the manilhas,
the scores, whose turn (with the time left), the last trick. Drawn from `game.view(seat)` only,
so it shows nothing that seat may not see; it goes to that player alone (their hand message).

Seats sit around the player as at a real table: the player at the bottom, then clockwise in
play order: the next seat on the left, the partner at the top, the last seat on the right.

Legibility. Discord shows a picture on a phone about 400 px wide (the message column of a
~412 dp screen, at most 400 px for an embed image). The picture is drawn twice that wide,
800 x 800, so a phone's 2-3x screen gets crisp pixels, and every size below is chosen for
display at DISPLAY_SCALE = 0.5. What makes small text readable is the height of its small
letters (the x-height): the smallest text of phone interfaces (Material's 11-12 sp labels,
Apple's 11 pt caption) has an x-height of about 6 px, so MIN_X_HEIGHT (6 display px) is the
floor, and min_text_size() measures, on the shipped fonts, the smallest font size in this
picture's pixels that reaches it (22 px: DejaVu Sans's "x" is 12 px tall there, 6 on the
phone; Noto Sans Devanagari's letters are taller). Every text this module draws, the card
faces' ranks included, is at least that size: tests/test_pictures_seat.py checks each render.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.engine.euchre.cards import JOKER_CODE
from bot.engine.truco.cards import is_manilha
from bot.engine.truco.game import BASE_VALUE
from bot.pictures import layers
from bot.pictures.cards import (
    card_face,
    devanagari_font,
    face_texts,
    font,
    suit_symbol,
)
from bot.pictures.layers import Sketch
from bot.pictures.scene import SeatScene
from bot.pictures.table import (
    DIM,
    FELT,
    PLATE,
    PLATE_TEXT,
    RAIL,
    TEAM_COLOURS,
    TURN,
    WHITE,
    fixed_palette,
    shown_name,
    text_rows,
)
from bot.pictures.table import _length as text_length
from bot.pictures.table import _text as draw_text
from bot.texts import t

WIDTH, HEIGHT = 800, 800
DISPLAY_WIDTH = 400  # what a phone shows of it (see the module's docstring)
DISPLAY_SCALE = DISPLAY_WIDTH / WIDTH
MIN_X_HEIGHT = 6.0  # display px: the x-height of a phone's smallest interface text

# Text sizes (picture px); the smallest is checked against min_text_size() by the tests.
SMALL = 22
TEXT = 24
BIG = 28
HAND_CARD = 140  # the player's own cards
TABLE_CARD = 110  # cards on the table and in the last trick (a joker's label is 22 px here)
PEEK_CARD = 90  # the partner's truco cards in a mão de dez (T13: no joker in truco)
HEADER = 92  # the band of scores and trump at the top

CENTRE = (WIDTH // 2, 318)
# Relative seats (0 = the player, then clockwise): where their plate and their trick card sit.
PLATES = {1: (118, CENTRE[1] - 20), 2: (WIDTH // 2, HEADER + 34), 3: (WIDTH - 118, CENTRE[1] - 20)}
TRICK_OFFSETS = {0: (0, 74), 1: (-104, 0), 2: (0, -74), 3: (104, 0)}
BANNER_Y = 514  # the player's own plate ("Your turn") above the hand
HAND_TOP = 566  # top of a card in the hand; a playable card rises by LIFT
LIFT = 30
LAST_TRICK = (580, 384)  # top left of the last trick's cards
DIM_AMOUNT = 0.5  # how far an unplayable card fades toward the felt


@dataclass(frozen=True)
class Written:
    """One text in the picture: its font size in picture px and as a phone shows it."""

    text: str
    size: int

    @property
    def display_size(self) -> float:
        return self.size * DISPLAY_SCALE


@lru_cache(maxsize=1)
def min_text_size() -> int:
    """The smallest font size (picture px) whose small letters are MIN_X_HEIGHT display px tall,
    measured on the shipped fonts: DejaVu Sans's "x" (regular and bold) and the letter body
    (headline to baseline) of Noto Sans Devanagari's "क"."""
    for size in range(8, 80):
        heights = [
            -font(size, bold=bold).getbbox("x", anchor="ls")[1] for bold in (False, True)
        ] + [
            -devanagari_font(size, bold=bold).getbbox("क", anchor="ls")[1] for bold in (False, True)
        ]
        if min(heights) * DISPLAY_SCALE >= MIN_X_HEIGHT:
            return size
    raise AssertionError("no font size reaches the minimum x-height")


@dataclass
class Pen:
    """Draws the picture's texts and cards, and notes every text with its size (what the
    legibility test reads): the one way this module puts letters on the picture. It records
    the steps (bot/pictures/layers.py): `seat_png` draws only the rows not cached, `image` all."""

    sketch: Sketch
    written: list[Written] = field(default_factory=list)

    def __post_init__(self) -> None:
        # Records shapes like an ImageDraw.Draw (rounded_rectangle, ellipse, line, polygon...).
        self.draw = self.sketch.draw
        self._image: Image.Image | None = None

    @property
    def image(self) -> Image.Image:
        """The whole picture, every step drawn."""
        if self._image is None:
            self._image = self.sketch.image()
        return self._image

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        *,
        fill: tuple[int, int, int],
        bold: bool = True,
        anchor: str = "la",
    ) -> None:
        self.written.append(Written(text, size))
        kwargs = {"fill": fill, "bold": bold, "anchor": anchor}
        rows = text_rows(xy, text, size, bold=bold, anchor=anchor)
        self.sketch.text(xy, text, size, kwargs, draw_text, rows)

    def length(self, text: str, size: int, *, bold: bool = True) -> float:
        return text_length(self.draw, text, size, bold=bold)

    def paste(self, sprite: Image.Image, xy: tuple[int, int], key: Hashable) -> None:
        """A sprite at top left `xy`; `key` names it (what makes it, e.g. its card and size)."""
        self.sketch.paste(sprite, xy, key)

    def card(
        self, code: str, width: int, centre: tuple[float, float], look: str = "", game: str = ""
    ) -> None:
        """A card face centred at `centre`; `look`: "" plain, "dim" (faded toward `game`'s
        felt), "gold" (framed), "grey"."""
        self.written.extend(Written(text, size) for text, size in face_texts(code, width))
        key = (code, width, look, game if look == "dim" else "")
        sprite = _sprite(*key)
        x = round(centre[0] - sprite.width / 2)
        y = round(centre[1] - sprite.height / 2)
        self.paste(sprite, (x, y), ("card", *key))


# The framed, faded and greyed faces (a plain one is card_face's own image).
@lru_cache(maxsize=384)
def _sprite(code: str, width: int, look: str, game: str = "") -> Image.Image:
    face = card_face(code, width)
    if look == "gold":
        # A gold frame: trump (euchre) or a manilha (truco).
        framed = Image.new("RGBA", (face.width + 10, face.height + 10), (0, 0, 0, 0))
        radius = max(3, width // 10) + 5
        ImageDraw.Draw(framed).rounded_rectangle(
            [0, 0, framed.width - 1, framed.height - 1], radius=radius, fill=TURN
        )
        framed.paste(face, (5, 5), face)
        return framed
    if look == "grey":
        return face.convert("LA").convert("RGBA")
    if look == "dim":
        # Faded toward the felt, alpha kept: the card is there, but not one to play now.
        felt = Image.new("RGBA", face.size, (*FELT[game], 255))
        faded = Image.blend(face, felt, DIM_AMOUNT)
        faded.putalpha(face.getchannel("A"))
        return faded
    return face


def _relative(scene: SeatScene, seat: int) -> int:
    return (seat - scene.seat) % 4


def _is_special(scene: SeatScene, code: str) -> bool:
    """Trump in euchre (the left bower and the joker too), a manilha in truco."""
    if scene.game == "truco":
        return is_manilha(code)
    trump = scene.view["trump"]
    if trump is None:
        return False
    return code == JOKER_CODE or code[-1] == trump or code == _left_bower(trump)


def _left_bower(trump: str) -> str:
    return "J" + {"C": "S", "S": "C", "H": "D", "D": "H"}[trump]


def _card_tag(scene: SeatScene, code: str) -> str:
    """The word under a card of the hand: the bowers (euchre), a manilha (truco)."""
    if scene.game == "truco":
        return t("picture.manilha", scene.locale) if is_manilha(code) else ""
    trump = scene.view["trump"]
    if trump is None:
        return ""
    if code == "J" + trump:
        return t("picture.right_bower", scene.locale)
    if code == _left_bower(trump):
        return t("picture.left_bower", scene.locale)
    return ""


def _clock(pen: Pen, x: float, y: float, colour: tuple[int, int, int]) -> None:
    """A small clock face (the fonts have no hourglass), its centre at (x, y)."""
    pen.draw.ellipse([x - 10, y - 10, x + 10, y + 10], outline=colour, width=3)
    pen.draw.line([(x, y), (x, y - 6)], fill=colour, width=3)
    pen.draw.line([(x, y), (x + 5, y)], fill=colour, width=3)


def _time_left(
    pen: Pen, scene: SeatScene, x: float, y: float, colour: tuple[int, int, int]
) -> None:
    """The turn timer as it stood when the scene was taken, e.g. "1:45", left edge at x."""
    if scene.seconds_left is None:
        return
    minutes, seconds = divmod(scene.seconds_left, 60)
    _clock(pen, x + 10, y, colour)
    pen.text((x + 26, y), f"{minutes}:{seconds:02d}", SMALL, fill=colour, anchor="lm")


def _seat_note(scene: SeatScene, seat: int) -> str:
    view = scene.view
    notes = []
    if view["dealer"] == seat:
        notes.append(t("picture.dealer", scene.locale))
    if seat in (view.get("alone") or ()):
        notes.append(t("picture.alone", scene.locale))
    if seat in (view.get("sitting_out") or ()):
        notes.append(t("picture.sits_out", scene.locale))
    notes.extend(_signal_note(scene, seat))
    return " · ".join(notes)


def _signal_note(scene: SeatScene, seat: int) -> list[str]:
    """Truco's sinais: the partner's signal on the partner's plate (the view holds only the
    seat's own pair's signals)."""
    signals = scene.view.get("signals")
    if not signals or signals["partner"] is None or seat != (scene.seat + 2) % 4:
        return []
    kind = t(f"signal.{signals['partner']}", scene.locale)
    return [t("picture.signal", scene.locale, signal=kind)]


def _plate(pen: Pen, centre: tuple[int, int], name: str, team: int, to_act: bool, note: str) -> int:
    """A name plate (gold while that seat is to act); returns its height."""
    width = max(160, round(pen.length(name, TEXT)) + 40)
    if note:
        width = max(width, round(pen.length(note, SMALL, bold=False)) + 30)
    height = 66 if note else 40
    x0, y0 = centre[0] - width // 2, centre[1] - height // 2
    pen.draw.rounded_rectangle(
        [x0, y0, x0 + width, y0 + height], radius=12, fill=TURN if to_act else PLATE
    )
    pen.draw.rounded_rectangle([x0, y0, x0 + 10, y0 + height], radius=5, fill=TEAM_COLOURS[team])
    pen.text((centre[0] + 5, y0 + 20), name, TEXT, fill=PLATE_TEXT, anchor="mm")
    if note:
        pen.text((centre[0] + 5, y0 + 48), note, SMALL, bold=False, fill=PLATE_TEXT, anchor="mm")
    return height


def _others(pen: Pen, scene: SeatScene) -> None:
    to_act = set(scene.view["to_act"])
    over = scene.view["is_over"]
    for seat in range(4):
        relative = _relative(scene, seat)
        if relative == 0:
            continue
        centre = PLATES[relative]
        acting = seat in to_act and not over
        height = _plate(
            pen, centre, shown_name(scene.names[seat]), seat % 2, acting, _seat_note(scene, seat)
        )
        if acting:
            # The turn marker: a gold arrow pointing at the plate. The partner's (the top
            # plate) sits at the plate's left, clear of the partner's card on the table below
            # it (issue 30 item 6: it overlapped in truco); the side plates' under them.
            x0 = centre[0] - 96
            y = centre[1] + height // 2 + 22
            if relative == 2:
                x0 = centre[0] - _plate_width(pen, scene, seat) // 2 - 30
                y = centre[1]
            pen.draw.polygon([(x0, y - 11), (x0 + 18, y), (x0, y + 11)], fill=TURN)
            _time_left(pen, scene, x0 + 26, y, TURN)


def _plate_width(pen: Pen, scene: SeatScene, seat: int) -> int:
    """The width `_plate` gives a seat's plate."""
    width = max(160, round(pen.length(shown_name(scene.names[seat]), TEXT)) + 40)
    note = _seat_note(scene, seat)
    if note:
        width = max(width, round(pen.length(note, SMALL, bold=False)) + 30)
    return width


def _banner(pen: Pen, scene: SeatScene) -> None:
    """The player's own plate above their hand: "Your turn" in gold (with the time left)."""
    view = scene.view
    mine = scene.seat in view["to_act"] and not view["is_over"]
    label = t("picture.your_turn" if mine else "picture.you", scene.locale)
    note = _seat_note(scene, scene.seat)
    if note:
        label = f"{label} · {note}"
    width = round(pen.length(label, TEXT)) + 44
    if mine and scene.seconds_left is not None:
        width += 100
    x0, y0 = CENTRE[0] - width // 2, BANNER_Y - 20
    pen.draw.rounded_rectangle(
        [x0, y0, x0 + width, y0 + 40], radius=14, fill=TURN if mine else PLATE
    )
    pen.draw.rounded_rectangle(
        [x0, y0, x0 + 10, y0 + 40], radius=5, fill=TEAM_COLOURS[scene.seat % 2]
    )
    pen.text((x0 + 26, BANNER_Y), label, TEXT, fill=PLATE_TEXT, anchor="lm")
    if mine:
        _time_left(pen, scene, x0 + 36 + pen.length(label, TEXT), BANNER_Y, PLATE_TEXT)


def _playable(view: dict[str, Any]) -> set[str]:
    """The cards the player may click now: play one, or (the euchre dealer) discard one."""
    out = set()
    for action in view["legal_actions"]:
        kind, _, code = action.partition(":")
        if kind in ("play", "discard"):
            out.add(code)
    return out


def _hand(pen: Pen, scene: SeatScene) -> None:
    """The hand in a gentle arc; on the player's turn to play, the cards they may play rise
    and the others fade."""
    hand: list[str] = scene.view["hand"] or []
    if not hand:
        return
    playable = _playable(scene.view)
    count = len(hand)
    step = min(HAND_CARD + 14, (WIDTH - 40 - HAND_CARD) / max(1, count - 1))
    left = WIDTH / 2 - step * (count - 1) / 2
    height = round(HAND_CARD * 1.4)
    tags = []
    for index, code in enumerate(hand):
        middle = (count - 1) / 2
        arc = round(abs(index - middle) ** 2 * 4)  # the ends a little lower, as held in a hand
        lift = LIFT if code in playable else 0
        look = "dim" if playable and code not in playable else ""
        if not look and _is_special(scene, code):
            look = "gold"
        centre = (
            left + index * step,
            HAND_TOP + height / 2 + arc - lift + (0 if playable else LIFT / 2),
        )
        pen.card(code, HAND_CARD, centre, look, scene.game)
        tag = _card_tag(scene, code)
        if tag:
            tags.append((tag, centre))
    for tag, (x, y) in tags:
        # Drawn after every card, so a neighbour's card never covers a tag.
        width = pen.length(tag, SMALL, bold=False) + 16
        top = y + height / 2 - 44
        pen.draw.rounded_rectangle(
            [x - width / 2, top, x + width / 2, top + 32], radius=10, fill=TURN
        )
        pen.text((x, top + 16), tag, SMALL, bold=False, fill=PLATE_TEXT, anchor="mm")


def _trick(pen: Pen, scene: SeatScene) -> None:
    for entry in scene.view["trick"]:
        dx, dy = TRICK_OFFSETS[_relative(scene, entry["seat"])]
        look = "gold" if _is_special(scene, entry["card"]) else ""
        pen.card(entry["card"], TABLE_CARD, (CENTRE[0] + dx, CENTRE[1] + dy), look)


def _turned_card(pen: Pen, scene: SeatScene) -> None:
    """Euchre's bidding: the turned card in the middle (greyed once turned down, E9)."""
    view = scene.view
    down = bool(view["turned_down"])
    key = "picture.turned_down" if down else "picture.turned_up"
    pen.text((CENTRE[0], CENTRE[1] - 100), t(key, scene.locale), TEXT, fill=WHITE, anchor="mm")
    pen.card(view["turned_card"], TABLE_CARD, CENTRE, "grey" if down else "")


def _last_trick(pen: Pen, scene: SeatScene) -> None:
    """The latest finished trick (round), small on the right: its winning card raised."""
    last = scene.view["last_trick"]
    if not last:
        return
    x, y = LAST_TRICK
    winner = last["winner"]
    # Truco's are rounds, as its text says (issue 30 item 6).
    label = t("picture.last_round" if scene.game == "truco" else "picture.last_trick", scene.locale)
    if winner is None:  # a tied truco round (T6)
        label = f"{label} · {t('picture.tied', scene.locale)}"
    # The label in the winning team's colour, like the name plates' bars.
    colour = TEAM_COLOURS[winner % 2] if winner is not None else RAIL[scene.game]
    width = pen.length(label, SMALL)
    pen.draw.rounded_rectangle([x - 8, y - 46, x + 8 + width, y - 12], radius=10, fill=colour)
    pen.text((x, y - 29), label, SMALL, fill=WHITE, anchor="lm")
    step = 30
    height = round(TABLE_CARD * 1.4)
    for index, entry in enumerate(last["cards"]):
        lift = -12 if entry["seat"] == winner else 0
        centre = (x + TABLE_CARD / 2 + index * step, y + height / 2 + lift)
        pen.card(entry["card"], TABLE_CARD, centre)


def _header(pen: Pen, scene: SeatScene) -> None:
    view = scene.view
    locale = scene.locale
    mine = scene.seat % 2
    for team in (0, 1):
        y = 24 + team * 42
        pen.draw.rounded_rectangle([18, y - 10, 38, y + 10], radius=4, fill=TEAM_COLOURS[team])
        name = t("picture.team", locale, number=team + 1)
        if team == mine:
            name = t("picture.your_team", locale, name=name)
        pen.text((48, y), name, TEXT, fill=WHITE, anchor="lm")
        score_x = 60 + max(
            pen.length(
                t("picture.your_team", locale, name=t("picture.team", locale, number=n + 1)), TEXT
            )
            for n in (0, 1)
        )
        pen.text((score_x, y), str(view["scores"][team]), BIG, fill=WHITE, anchor="lm")
        # This hand's tricks (rounds) won: gold pips, no words needed.
        for pip in range(view["tricks_won"][team]):
            px = score_x + 48 + pip * 22
            pen.draw.ellipse([px, y - 7, px + 14, y + 7], fill=TURN)
    target = t("picture.target", locale, target=view["target"])
    x0 = 440
    if scene.game == "euchre":
        _euchre_header(pen, scene, x0)
    else:
        _truco_header(pen, scene, x0)
    pen.text((30, HEADER + 30), target, SMALL, bold=False, fill=DIM, anchor="lm")


def _euchre_header(pen: Pen, scene: SeatScene, x0: int) -> None:
    view = scene.view
    trump = view["trump"] or view.get("named_suit")
    if trump is None:
        return
    pen.text((x0, 24), t("picture.trump", scene.locale), TEXT, fill=WHITE, anchor="lm")
    chip_x = x0 + pen.length(t("picture.trump", scene.locale), TEXT) + 12
    pen.draw.ellipse([chip_x, 4, chip_x + 40, 44], fill=PLATE)
    pen.paste(suit_symbol(trump, 26), (round(chip_x) + 7, 11), ("suit", trump, 26))
    if view["maker"] is not None:
        maker = shown_name(scene.names[view["maker"]])
        # Your own bid reads as yours (issue 30 item 6).
        called = (
            t("picture.maker.you", scene.locale)
            if view["maker"] == scene.seat
            else t("picture.maker", scene.locale, name=maker)
        )
        pen.text(
            (x0, 66),
            called,
            SMALL,
            bold=False,
            fill=DIM,
            anchor="lm",
        )


def _truco_header(pen: Pen, scene: SeatScene, x0: int) -> None:
    view = scene.view
    locale = scene.locale
    label = t("picture.worth", locale)
    pen.text((x0, 24), label, TEXT, fill=WHITE, anchor="lm")
    raised = view["hand_value"] > BASE_VALUE  # T9: a raised hand's worth in gold
    pen.text(
        (x0 + pen.length(label, TEXT) + 12, 24),
        str(view["hand_value"]),
        BIG,
        fill=TURN if raised else WHITE,
        anchor="lm",
    )
    lines = []
    ask = view.get("pending_ask")
    if ask is not None:
        lines.append(t("picture.asked", locale, ask=t(f"truco.ask.{ask['name']}", locale)))
    if view.get("hand_of_ten") is not None and view.get("phase") == "hand_of_ten":
        # Only while they decide (issue 30 item 6).
        lines.append(t("picture.hand_of_ten", locale, number=view["hand_of_ten"] + 1))
    if view.get("iron_hand"):
        lines.append(t("picture.iron_hand", locale))
    if lines:
        pen.text((x0, 66), " · ".join(lines), SMALL, fill=TURN, anchor="lm")


def _partner_hand(pen: Pen, scene: SeatScene) -> None:
    """T13: in a mão de dez the pair at 10 sees each other's cards: the partner's, small by
    their plate."""
    partner = scene.view.get("partner_hand")
    if not partner:
        return
    x, y = PLATES[2][0] + 150, HEADER + 74
    for index, code in enumerate(partner):
        pen.card(code, PEEK_CARD, (x + index * 40, y), "gold" if is_manilha(code) else "")


def _winner(pen: Pen, scene: SeatScene) -> None:
    view = scene.view
    scores = view["scores"]
    winner = view["winner"]  # the winner's score first, as the text says (issue 30 item 6)
    text = t(
        "picture.winner", scene.locale, number=winner + 1, a=scores[winner], b=scores[1 - winner]
    )
    width = pen.length(text, BIG) + 60
    pen.draw.rounded_rectangle(
        [CENTRE[0] - width / 2, CENTRE[1] - 30, CENTRE[0] + width / 2, CENTRE[1] + 30],
        radius=14,
        fill=TURN,
    )
    pen.text(CENTRE, text, BIG, fill=PLATE_TEXT, anchor="mm")


@lru_cache(maxsize=4)
def _felt(game: str) -> Image.Image:
    # The header band is the rail's wood; the felt lies below it.
    image = Image.new("RGB", (WIDTH, HEIGHT), RAIL[game])
    ImageDraw.Draw(image).rounded_rectangle(
        [8, HEADER, WIDTH - 9, HEIGHT - 9], radius=48, fill=FELT[game]
    )
    return image


def draw_seat(scene: SeatScene) -> Pen:
    """The picture, drawn; the pen holds it (`.image`) and what was written on it."""
    pen = Pen(Sketch(_felt(scene.game), ("seat", scene.game)))
    view = scene.view
    _header(pen, scene)
    if view["trick"]:
        _trick(pen, scene)
    elif scene.game == "euchre" and view["phase"] in ("bidding1", "bidding2", "name"):
        _turned_card(pen, scene)
    _last_trick(pen, scene)
    _others(pen, scene)
    _partner_hand(pen, scene)
    if view["is_over"]:
        _winner(pen, scene)
    else:
        _banner(pen, scene)
    _hand(pen, scene)
    return pen


def seat_png(scene: SeatScene) -> bytes:
    """The picture as PNG bytes (pure CPU work: the picture worker runs it). The text chunks
    name the table, version and seat, so a test can tell which state a sent picture shows."""
    texts = {"table": str(scene.table_id), "version": str(scene.version), "seat": str(scene.seat)}
    # The table picture's way: one fixed palette per game (exact flat colours, chosen blends);
    # only the bands no earlier picture had are drawn, mapped and compressed.
    return layers.png(draw_seat(scene).sketch, _palette(scene.game), texts)


# A few cards carry every colour a face has (red and black suits, courts, a ten, the joker).
SWATCH_CARDS = ("TH", "JS", "QD", "KC", "AS", "7H", "4C", "JO")


def _swatch_sprites(game: str) -> Iterator[Image.Image]:
    for code in SWATCH_CARDS:
        yield _sprite(code, HAND_CARD, "dim", game)
        for look in ("", "gold"):
            yield _sprite(code, HAND_CARD, look)
        for look in ("", "gold", "grey"):
            yield _sprite(code, TABLE_CARD, look)
        yield _sprite(code, PEEK_CARD, "")
    for suit in "SH":
        yield suit_symbol(suit, 26)


def _swatch(game: str) -> Image.Image:
    swatch = Image.new("RGB", (WIDTH, 2200), FELT[game])
    draw = ImageDraw.Draw(swatch)
    x, y = 12, 12
    for sprite in _swatch_sprites(game):
        if x + sprite.width > WIDTH - 12:
            x, y = 12, y + 220
        swatch.paste(sprite, (x, y), sprite)
        x += sprite.width + 4
    y += 230
    backgrounds = (FELT[game], RAIL[game], PLATE, TURN)
    inks = (WHITE, DIM, TURN, PLATE_TEXT, *TEAM_COLOURS)
    pairs = [(background, ink) for background in backgrounds for ink in inks]
    for index, (background, ink) in enumerate(pairs):
        left, top = 12 + (index % 4) * 196, y + (index // 4) * 40
        draw.rectangle([left, top, left + 190, top + 38], fill=background)
        draw_text(draw, (left + 4, top + 4), "Ag9 12", BIG, fill=ink)
        draw_text(draw, (left + 110, top + 10), "Mão 3", SMALL, bold=False, fill=ink)
    return swatch


@lru_cache(maxsize=2)
def _palette(game: str) -> Image.Image:
    return fixed_palette(game, _swatch(game))


def prepare() -> None:
    """Make the palettes before the first seat picture is due."""
    for game in FELT:
        _palette(game)
