"""Table pictures and card faces (issue 12): every card of both decks, a table at every stage of
both games, drawn small; a picture is drawn once per version.

Time is measured by scripts/bench_pictures.py, never here; sizes are checked here."""

from __future__ import annotations

import asyncio
import io

import pytest
from PIL import Image

from bot.pictures import samples
from bot.pictures.cards import (
    EMOJI_SIZE,
    RED,
    card_back,
    card_face,
    deck_codes,
    emoji_png,
)
from bot.pictures.scene import scene_of
from bot.pictures.table import HEIGHT, WIDTH, shown_name, table_png
from bot.ui.table_picture import TablePictures

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
