"""Table pictures and card faces (issue 12): every card of both decks, a table at every stage of
both games, drawn small; a picture is drawn once per version.

Time is measured by scripts/bench_pictures.py, never here; sizes are checked here."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import re
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont, features

from bot.pictures import cards, samples, table
from bot.pictures.cards import (
    DEVANAGARI_LAYOUT,
    EMOJI_SIZE,
    RED,
    card_back,
    card_face,
    deck_codes,
    emoji_png,
)
from bot.pictures.scene import scene_of
from bot.pictures.table import HEIGHT, WIDTH, shown_name, table_png
from bot.texts import t
from bot.texts.en import STRINGS as ENGLISH
from bot.ui.table.table_picture import TablePictures

MAX_PNG = 150_000
MAX_EMOJI = 256 * 1024
STAGES = {
    "euchre": ("lobby", "bidding", "trick", "hand_end", "game_end"),
    "truco": ("lobby", "trick", "raised", "hand_of_ten", "hand_end", "game_end"),
}


def reds(image: Image.Image) -> int:
    """Pixels close to the red of the red suits."""
    data = image.convert("RGB").tobytes()
    return sum(
        1
        for r, g, b in zip(data[0::3], data[1::3], data[2::3], strict=True)
        if abs(r - RED[0]) < 40 and g < 90 and b < 100
    )


def test_deck_codes_cover_both_games() -> None:
    from bot.engine.euchre.cards import RANKS as EUCHRE
    from bot.engine.truco.cards import RANKS as TRUCO

    codes = deck_codes()
    assert len(codes) == len(set(codes)) == 53
    for ranks in (EUCHRE, TRUCO):
        assert {r + s for r in ranks for s in "CDHS"} <= set(codes)
    assert "JO" in codes


@pytest.mark.parametrize("code", deck_codes())
def test_every_card_face_is_drawn_with_red_suits_red(code: str) -> None:
    for width in (36, 62):
        face = card_face(code, width)
        assert face.size == (width, round(width * 1.4))
        assert face.getbbox() is not None
    emoji = emoji_png(code)
    assert len(emoji) <= MAX_EMOJI
    with Image.open(io.BytesIO(emoji)) as image:
        assert image.size == (EMOJI_SIZE, EMOJI_SIZE)
        red = reds(image)
    if code[-1] in "HD":
        assert red > 500, f"{code} is not red"
    else:
        assert red == 0, f"{code} has red in it"


def test_every_card_looks_different() -> None:
    faces = {card_face(code, 62).tobytes() for code in deck_codes()}
    emojis = {emoji_png(code) for code in deck_codes()}
    assert len(faces) == len(emojis) == 53
    assert card_back(62).tobytes() not in faces


@pytest.mark.parametrize(
    ("game", "stage"), [(g, s) for g, stages in STAGES.items() for s in stages]
)
def test_a_table_at_each_stage_is_a_small_png_naming_its_version(game: str, stage: str) -> None:
    table = samples.stages(game)[stage]
    data = table_png(scene_of(table))
    assert len(data) < MAX_PNG
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
        assert image.text == {"table": str(table.id), "version": str(table.version)}  # type: ignore[attr-defined]
    # Drawn from the state alone: the same state draws the same bytes.
    assert table_png(scene_of(table)) == data


def test_stages_reach_what_they_name() -> None:
    euchre, truco = samples.stages("euchre"), samples.stages("truco")
    assert euchre["bidding"].game.view(None)["phase"] == "bidding1"  # type: ignore[union-attr]
    assert euchre["trick"].game.view(None)["trick"]  # type: ignore[union-attr]
    raised = truco["raised"].game.view(None)  # type: ignore[union-attr]
    assert raised["hand_value"] > 2  # T9: raised above the base worth
    assert truco["hand_of_ten"].game.view(None)["phase"] == "hand_of_ten"  # type: ignore[union-attr]
    for tables in (euchre, truco):
        ended = scene_of(tables["hand_end"])
        assert ended.last_hand_points is not None and ended.stage == "play"
        over = scene_of(tables["game_end"])
        assert over.stage == "over" and over.last_hand_points is not None


def test_E17_hand_end_picture_holds_the_five_tricks_of_the_hand() -> None:
    scene = scene_of(samples.stages("euchre")["hand_end"])
    assert scene.last_hand, "the finished hand's tricks"
    assert len(scene.last_hand) == 5
    for trick in scene.last_hand:
        assert len(trick.cards) in (3, 4) and trick.winner in [s for s, _ in trick.cards]


def test_T6_truco_hand_end_rounds_show_ties_without_a_winner() -> None:
    for seed in range(40):
        table = samples.played_table(
            "truco",
            seed,
            lambda v: v["hand_number"] >= 1 and not v["trick"] and not v["rounds"],
        )
        scene = scene_of(table)
        if any(trick.winner is None for trick in scene.last_hand):
            assert 1 <= len(scene.last_hand) <= 3
            return
    pytest.fail("no tied round in 40 seeded hands")


def test_names_keep_letters_the_font_has_and_drop_the_rest() -> None:
    assert shown_name("Zoë Müller") == "Zoë Müller"
    assert shown_name("João 🃏 Дмитрий") == "João Дмитрий"
    assert shown_name("🂡🂱") == "?"
    assert len(shown_name("A" * 40)) == 18


async def test_a_picture_is_drawn_once_per_version() -> None:
    pictures = TablePictures()
    table = samples.stages("truco")["trick"]
    first = await pictures.png(scene_of(table))
    again = await asyncio.gather(*(pictures.png(scene_of(table)) for _ in range(3)))
    assert pictures.drawn == 1 and all(data == first for data in again)
    table.record.version += 1
    assert await pictures.png(scene_of(table)) != first
    assert pictures.drawn == 2


HINDI_NAME = "अनिल कुमार"


def ink(image: Image.Image) -> tuple[int, int]:
    """(inked pixels, width of the inked box) of white-on-black text."""
    grey = image.convert("L").point(lambda v: 255 if v > 60 else 0)
    box = grey.getbbox()
    return (sum(1 for v in grey.tobytes() if v), 0 if box is None else box[2] - box[0])


def drawn(text: str, size: int = 17, *, bold: bool = True) -> tuple[float, int, int]:
    """(measured width, inked pixels, inked width) of `text` drawn as the picture draws it."""
    image = Image.new("RGB", (640, 60))
    draw = ImageDraw.Draw(image)
    table._text(draw, (10, 30), text, size, fill=(255, 255, 255), bold=bold, anchor="lm")
    return (table._length(draw, text, size, bold=bold), *ink(image))


# Every text drawn on the picture (file_description is the attachment's alt text).
PICTURE_LABELS = sorted(
    k for k in ENGLISH if k.startswith("picture.") and k != "picture.file_description"
)


@pytest.mark.parametrize("key", PICTURE_LABELS)
def test_every_hindi_picture_label_is_drawn(key: str) -> None:
    """Issue 12 (follow-up of 11): on a Hindi server (guild_locale hi) every label of the
    picture is drawn, its Devanagari letters with Noto Sans Devanagari (DejaVu Sans has none),
    its digits and Latin letters with DejaVu Sans."""
    values = {
        "number": 2,
        "target": 10,
        "name": "Carla",
        "ask": t("truco.ask.truco", "hi"),
        "points": 4,
        "signal": t("signal.zap", "hi"),
    }
    text = t(key, "hi", a=6, b=11, **values)
    assert re.search("[\u0900-\u097f]", text), f"{key} is not Hindi: {text!r}"
    length, pixels, width = drawn(text)
    assert length > 0 and pixels > 20 * len(text.split())
    assert width >= 0.8 * length, f"{key}: {text!r} inks {width} of {length:.0f} px"
    # The Devanagari letters alone are inked too (not only the digits and Latin names).
    letters = " ".join(re.findall("[\u0900-\u097f]+", text))
    assert drawn(letters)[1] > 20 * len(letters.split())


@pytest.mark.parametrize(
    ("game", "stage"), [(g, s) for g, stages in STAGES.items() for s in stages]
)
def test_a_hindi_table_picture_draws_its_labels(
    game: str, stage: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 12: a table picture with locale "hi" shows its labels: every Hindi text the picture
    draws inks most of its measured width, and the picture differs over a large area from the
    same picture drawn with the Devanagari letters left out of every label."""
    scene = scene_of(samples.stages(game)[stage], "hi")
    labels: list[tuple[str, int, bool]] = []
    original = table._text

    def spy(
        draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, **kw: Any
    ) -> None:
        labels.append((text, size, kw.get("bold", True)))
        original(draw, xy, text, size, **kw)

    monkeypatch.setattr(table, "_text", spy)
    shown = table.draw_table(scene)
    hindi = [label for label in labels if re.search("[\u0900-\u097f]", label[0])]
    assert len(hindi) >= (2 if stage == "lobby" else 6)
    for text, size, bold in hindi:
        length, pixels, width = drawn(text, size, bold=bold)
        assert length > 0 and pixels > 0 and width >= 0.8 * length, text

    def without_devanagari(key: str, locale: str | None = None, /, **values: object) -> str:
        return re.sub("[\u0900-\u097f]", "", t(key, locale, **values))

    monkeypatch.setattr(table, "t", without_devanagari)
    bare = table.draw_table(scene)
    difference = ImageChops.difference(shown, bare).convert("L").point(lambda v: v > 40 and 255)
    assert sum(1 for v in difference.tobytes() if v) > 1200


def test_a_devanagari_name_keeps_its_letters_and_is_drawn() -> None:
    """Issue 12: a Devanagari player name keeps its letters on the picture; a mixed name keeps
    both scripts; a long one is cut between letters, not inside one (a vowel sign or a conjunct)."""
    assert shown_name(HINDI_NAME) == HINDI_NAME
    assert shown_name("Ravi 🃏 शर्मा") == "Ravi शर्मा"
    assert shown_name("👨\u200d👩\u200d👧") == "?"
    assert shown_name("क्ष" * 6 + "a") == "क्ष" * 5 + "…"
    length, pixels, width = drawn(HINDI_NAME)
    assert length > 60 and pixels > 150 and width >= 0.8 * length
    # Mixed text: the Latin and the Devanagari parts both ink, side by side.
    mixed, latin, hindi = drawn("Ravi शर्मा"), drawn("Ravi"), drawn("शर्मा")
    assert mixed[0] == pytest.approx(latin[0] + drawn(" ")[0] + hindi[0], abs=1)
    assert mixed[1] >= 0.9 * (latin[1] + hindi[1])
    # On the table: the bottom plate (seat 0) carries the name.
    scene = scene_of(samples.stages("euchre")["trick"], "hi")
    named = dataclasses.replace(scene, names=[HINDI_NAME, *scene.names[1:]])
    unnamed = dataclasses.replace(scene, names=["", *scene.names[1:]])
    plate = (WIDTH // 2 - 120, HEIGHT - 50, WIDTH // 2 + 120, HEIGHT - 20)
    a, b = (table.draw_table(s).crop(plate) for s in (named, unnamed))
    changed = ImageChops.difference(a, b).convert("L").point(lambda v: v > 40 and 255)
    assert sum(1 for v in changed.tobytes() if v) > 150


def test_devanagari_is_shaped_with_raqm_when_pillow_has_it() -> None:
    """Issue 12: with Pillow's raqm layout the vowel sign ि is drawn before its consonant
    (कि), so the pair inks differently from the letters side by side; without raqm the picture
    falls back to the basic layout."""
    expected = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC
    assert expected == DEVANAGARI_LAYOUT
    if expected != ImageFont.Layout.RAQM:
        pytest.skip("Pillow without raqm: basic layout, no shaping")
    shaped = Image.new("RGB", (80, 40))
    apart = Image.new("RGB", (80, 40))
    table._text(ImageDraw.Draw(shaped), (10, 20), "कि", 20, fill=(255, 255, 255), anchor="lm")
    draw = ImageDraw.Draw(apart)
    table._text(draw, (10, 20), "क", 20, fill=(255, 255, 255), anchor="lm")
    table._text(
        draw, (10 + table._length(draw, "क", 20), 20), "ि", 20, fill=(255, 255, 255), anchor="lm"
    )
    assert shaped.tobytes() != apart.tobytes()


@pytest.mark.parametrize("game", ["euchre", "truco"])
def test_the_fixed_palette_keeps_every_colour_a_picture_is_made_of(game: str) -> None:
    """A picture is mapped to its game's palette, chosen once: the flat colours come out within a
    few steps of what was drawn, and no drawn picture is further than a faint shade from its
    full-colour drawing anywhere it has ink (red suits stay red, the backs keep their pattern)."""
    flat = [table.FELT[game], table.RAIL[game], table.PLATE, table.PLATE_TEXT, table.TURN]
    flat += [table.WHITE, table.DIM, *table.TEAM_COLOURS, cards.RED, cards.BLACK, cards.FACE]
    flat += [cards.BACK, cards.BACK_PATTERN]
    swatch = Image.new("RGB", (len(flat), 1))
    swatch.putdata(flat)
    mapped = swatch.quantize(palette=table._palette(game), dither=Image.Dither.NONE)
    for drawn, shown in zip(flat, mapped.convert("RGB").getdata(), strict=True):
        assert max(abs(a - b) for a, b in zip(drawn, shown, strict=True)) <= 6, (drawn, shown)
    for stage, sample in samples.stages(game).items():
        full = table.draw_table(scene_of(sample))
        with Image.open(io.BytesIO(table_png(scene_of(sample)))) as png:
            shown_png = png.convert("RGB")
        difference = ImageChops.difference(full, shown_png).convert("L")
        histogram = difference.histogram()
        far = sum(histogram[40:])  # pixels more than a faint shade off
        assert far <= WIDTH * HEIGHT // 1000, (stage, far)
