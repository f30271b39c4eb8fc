"""The picture of one replay step (issue 34): a finished game has no secrets, so the four hands
are drawn face up around the table from the deal on, with the viewer's seat at the bottom when
they played in the game (else the first seat), the trick being played in the middle (the card
just played, or the trick just won with its winner's card raised), the turned card or trump and
the score above. Once a hand is over, the hands are shown as they were dealt.

Drawn 800 px wide for a phone's ~400 px: no text under 22 px and no card under 80 px wide here,
so at 400 px the text is 11 px or more and each card at least 40 px wide (a fanned hand shows
each card's corner). Plain data in, PNG bytes out (the pictures' worker draws it)."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw
from PIL.PngImagePlugin import PngInfo

from bot.pictures.cards import card_back, card_face, deck_codes, font_for, suit_symbol
from bot.pictures.table import FELT, RAIL, TEAM_COLOURS
from bot.tables.replay import ReplayStep
from bot.texts import t

WIDTH, HEIGHT = 800, 700
CARD = 84  # a card's width (118 high): 42 px at a phone's 400
CARD_HEIGHT = 118
TEXT = 26  # names and the header: 13 px at 400
SMALL_TEXT = 22  # the smallest text drawn
FAN = 31  # a side hand's overlap: each card shows a corner this wide
ROW = CARD + 8  # cards side by side in the top and bottom hands
WHITE = (250, 250, 250)
DIM = (205, 215, 205)
GOLD = (250, 200, 60)
CENTRE = (WIDTH // 2, 372)
# Where the trick's cards lie, by place around the table (bottom, left, top, right).
TRICK_AT = ((0, 68), (-104, 0), (0, -68), (104, 0))
_DECK = frozenset(deck_codes())


def _card(code: str) -> Image.Image:
    """A face; a back for what the log keeps hidden (a truco card played covered)."""
    return card_face(code, CARD) if code in _DECK else card_back(CARD)


def _write(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int = TEXT,
    *,
    fill: tuple[int, int, int] = WHITE,
    anchor: str = "la",
) -> None:
    draw.text(xy, text, font=font_for(text, size), fill=fill, anchor=anchor)


def _paste(image: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    image.paste(sprite, (round(x), round(y)), sprite)


def place_of(seat: int, bottom: int) -> int:
    """0 bottom, 1 left, 2 top, 3 right: play goes clockwise from the bottom seat."""
    return (seat - bottom) % 4


def _hand(image: Image.Image, cards: list[str], place: int) -> None:
    """One seat's cards: in a row at the top and bottom, fanned at the sides."""
    if not cards:
        return
    if place in (0, 2):
        y = HEIGHT - CARD_HEIGHT - 14 if place == 0 else 86
        left = WIDTH / 2 - (len(cards) * ROW - 8) / 2
        for i, code in enumerate(cards):
            _paste(image, _card(code), left + i * ROW, y)
        return
    side_y = CENTRE[1] - CARD_HEIGHT / 2 + 28
    width = CARD + FAN * (len(cards) - 1)
    side_left = 14 if place == 1 else WIDTH - 14 - width
    for i, code in enumerate(cards):
        _paste(image, _card(code), side_left + i * FAN, side_y)


def _name(draw: ImageDraw.ImageDraw, name: str, seat: int, place: int, dealer: str | None) -> None:
    """The seat's name in its team's colour, "· dealer" beside the dealer's."""
    label = name[:18] + (f" · {dealer}" if dealer else "")
    colour = TEAM_COLOURS[seat % 2]
    if place == 0:
        _write(draw, (WIDTH / 2, HEIGHT - CARD_HEIGHT - 22), label, fill=colour, anchor="md")
    elif place == 2:
        _write(draw, (WIDTH / 2, 80), label, fill=colour, anchor="md")
    else:
        x = 14 if place == 1 else WIDTH - 14
        y = CENTRE[1] - CARD_HEIGHT / 2 + 20
        _write(draw, (x, y), label, fill=colour, anchor="ld" if place == 1 else "rd")


def _trick(
    image: Image.Image, cards: list[tuple[int, str]], winner: int | None, bottom: int
) -> None:
    for seat, code in cards:
        dx, dy = TRICK_AT[place_of(seat, bottom)]
        lift = -14 if seat == winner else 0
        x, y = CENTRE[0] + dx - CARD / 2, CENTRE[1] + dy - CARD_HEIGHT / 2 + lift
        if seat == winner:
            ImageDraw.Draw(image).rounded_rectangle(
                [x - 5, y - 5, x + CARD + 5, y + CARD_HEIGHT + 5], 8, outline=GOLD, width=5
            )
        _paste(image, _card(code), x, y)


def _header(
    image: Image.Image, draw: ImageDraw.ImageDraw, step: ReplayStep, locale: str | None
) -> None:
    """The hand's number and trump on the left, the score (in the teams' colours) on the right."""
    view = step.view
    label = t("replay.picture.hand", locale, number=step.hand + 1)
    trump = view.get("trump")
    if view.get("hand_value"):  # truco: what the hand is worth now (raised by a truco)
        label += f" · {t('picture.worth', locale)} {view['hand_value']}"
    if trump:
        label += " · " + t("picture.trump", locale)
    _write(draw, (16, 12), label)
    if trump:
        x = 16 + draw.textlength(label + " ", font=font_for(label, TEXT))
        _paste(image, suit_symbol(trump, 30), x, 10)
    scores = view.get("scores") or [0, 0]
    parts = [(str(scores[0]), TEAM_COLOURS[0]), (" – ", WHITE), (str(scores[1]), TEAM_COLOURS[1])]
    right = WIDTH - 16.0
    for text, colour in reversed(parts):
        _write(draw, (right, 12), text, fill=colour, anchor="ra")
        right -= draw.textlength(text, font=font_for(text, TEXT))


def _middle_note(draw: ImageDraw.ImageDraw, step: ReplayStep, locale: str | None) -> None:
    """What the middle shows when no trick is there: the deal's turned card, or the hand's end."""
    if step.kind == "hand_end":
        _write(
            draw, CENTRE, t("replay.picture.as_dealt", locale), SMALL_TEXT, fill=DIM, anchor="mm"
        )


def step_png(
    game: str,
    step: ReplayStep,
    names: list[str],
    game_id: int = 0,
    locale: str | None = None,
    bottom: int = 0,
) -> bytes:
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT.get(game, FELT["euchre"]))
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 0, WIDTH, 52], fill=RAIL.get(game, RAIL["euchre"]))
    _header(image, draw, step, locale)
    view: dict[str, Any] = step.view
    over = step.kind == "hand_end"
    held = step.hands if over and step.hands else step.held
    dealer = view.get("dealer")
    for seat in range(4):
        place = place_of(seat, bottom)
        mark = t("picture.dealer", locale) if seat == dealer else None
        _name(draw, names[seat], seat, place, mark)
        if seat < len(held):
            _hand(image, list(held[seat]), place)
    if step.kind == "trick" and step.trick is not None:
        _trick(image, step.trick.cards, step.trick.winner, bottom)
    elif view.get("trick"):
        _trick(image, [(c["seat"], c["card"]) for c in view["trick"]], None, bottom)
    elif step.kind == "deal" and view.get("turned_card"):
        _paste(image, _card(view["turned_card"]), CENTRE[0] - CARD / 2, CENTRE[1] - CARD_HEIGHT / 2)
    else:
        _middle_note(draw, step, locale)
    info = PngInfo()
    info.add_text("game", str(game_id))
    info.add_text("step", str(step.index))
    out = io.BytesIO()
    image.save(out, format="PNG", pnginfo=info, compress_level=3)
    return out.getvalue()


def step_job(job: tuple[Any, ...]) -> bytes:
    """`step_png` of one plain tuple (game, step, names, game id, locale[, bottom seat]): what
    the picture worker is sent."""
    return step_png(*job)
