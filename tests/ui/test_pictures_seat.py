"""A player's own picture (issue 21, "Your seat, drawn"): every phase of seeded games of both
games draws, no text is too small to read on a phone, and nothing of another seat's hand is
drawn. Time is measured by scripts/bench_pictures.py, never here."""

from __future__ import annotations

import dataclasses
import io
import random
from typing import Any

import pytest
from PIL import Image

from bot.engine.euchre.game import new_game as new_euchre
from bot.engine.euchre.options import Options as EuchreOptions
from bot.engine.truco.game import new_game as new_truco
from bot.pictures import samples, seat
from bot.pictures.cards import devanagari_font, font
from bot.pictures.scene import SeatScene, seat_scene_of
from bot.pictures.seat import (
    DISPLAY_SCALE,
    DISPLAY_WIDTH,
    HEIGHT,
    MIN_X_HEIGHT,
    WIDTH,
    draw_seat,
    min_text_size,
    seat_png,
)
from bot.tables.games import rules_for

MAX_PNG = 150_000
LOCALES = (None, "pt-BR", "hi")


def scene_for(game_name: str, view: dict[str, Any], seat_: int, **extra: Any) -> SeatScene:
    names = ["Ana Beatriz", "Bruno", "Carla", "Diego"]
    return SeatScene(7, 1, game_name, extra.pop("locale", None), seat_, names, view, **extra)


def seeded_views(game_name: str, seed: int) -> list[tuple[int, dict[str, Any]]]:
    """A game of random legal moves run to its end (euchre with its joker, E4); every seat's
    view every few moves."""
    rules = rules_for(game_name)
    options = rules.normalise_options({"joker": True} if game_name == "euchre" else {})
    game = rules.new_game(options, seed)
    pick = random.Random(seed)
    out = []
    moves = 0
    while True:
        view = game.view(None)
        if moves % 5 == 0 or view["is_over"]:
            out.extend((s, game.view(s)) for s in range(4))
        if view["is_over"]:
            return out
        acting = view["to_act"][0]
        game.apply(acting, pick.choice(game.legal_actions(acting)))
        moves += 1


def test_the_minimum_text_size_is_measured_on_the_fonts_at_display_width() -> None:
    """The picture is drawn at 800 px for a phone's ~400 px: a text is readable there when its
    small letters are MIN_X_HEIGHT (6) display px tall, like a phone's smallest labels."""
    assert (WIDTH, DISPLAY_WIDTH, DISPLAY_SCALE) == (800, 400, 0.5)
    size = min_text_size()
    assert size == 22
    x_height = -font(size, bold=False).getbbox("x", anchor="ls")[1]
    assert x_height * DISPLAY_SCALE >= MIN_X_HEIGHT
    smaller = -font(size - 1, bold=False).getbbox("x", anchor="ls")[1]
    assert smaller * DISPLAY_SCALE < MIN_X_HEIGHT, "the minimum is the smallest size that reads"
    body = -devanagari_font(size, bold=False).getbbox("क", anchor="ls")[1]
    assert body * DISPLAY_SCALE >= MIN_X_HEIGHT


@pytest.mark.parametrize(("game_name", "seed"), [("euchre", 11), ("truco", 12)])
def test_every_phase_of_a_seeded_game_draws_every_seat_legibly(game_name: str, seed: int) -> None:
    phases = set()
    smallest = min_text_size()
    for index, (seat_, view) in enumerate(seeded_views(game_name, seed)):
        phases.add(view["phase"])
        locale = LOCALES[index % len(LOCALES)]
        scene = scene_for(
            game_name, view, seat_, locale=locale, seconds_left=index % 3 * 61 or None
        )
        pen = draw_seat(scene)
        assert pen.image.size == (WIDTH, HEIGHT)
        assert pen.written, "a picture with no text at all"
        too_small = [w for w in pen.written if w.size < smallest]
        assert not too_small, f"{too_small} are smaller than {smallest} px"
        if index % 16 == 0:
            data = seat_png(scene)
            assert len(data) < MAX_PNG
            with Image.open(io.BytesIO(data)) as image:
                assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
                assert image.text["seat"] == str(seat_)  # type: ignore[attr-defined]
    expected = {"euchre": {"bidding1", "play", "over"}, "truco": {"play", "over"}}[game_name]
    assert expected <= phases


def test_E4_the_joker_and_tens_on_the_picture_are_legible() -> None:
    """The texts card faces carry (a ten's "10", the joker's label) count as text too."""
    game = new_euchre(EuchreOptions(joker=True), 3, deals=joker_deal)
    pen = draw_seat(scene_for("euchre", game.view(0), 0))
    texts = [w.text for w in pen.written]
    assert "JOKER" in texts and "10" in texts
    assert min(w.size for w in pen.written) >= min_text_size()


def joker_deal(hand_number: int, dealer: int) -> tuple[list[list[str]], list[str]]:
    hands = [
        ["JO", "TS", "JH", "QD", "AC"],
        ["9S", "KS", "QH", "9D", "KC"],
        ["AS", "9H", "KH", "AD", "QC"],
        ["JS", "AH", "TH", "KD", "TC"],
    ]
    return hands, ["TD", "JD", "JC", "9C", "QS"]


def euchre_deal(others: list[list[str]]) -> Any:
    def deal(hand_number: int, dealer: int) -> tuple[list[list[str]], list[str]]:
        return [["JS", "AS", "KH", "QD", "9C"], *others], ["TD", "JD", "JC", "9D"]

    return deal


def test_the_picture_of_seat_0_does_not_depend_on_the_others_hands() -> None:
    """Two euchre deals differing only in seats 1-3's hands draw identical bytes for seat 0,
    through bidding and the first trick (the same moves played in both)."""
    one = [
        ["9S", "TS", "QS", "KS", "9H"],
        ["TH", "JH", "QH", "AH", "TC"],
        ["QC", "KC", "AC", "KD", "AD"],
    ]
    two = [one[2], one[0], one[1]]  # the same cards, dealt to other seats
    games = [
        new_euchre(EuchreOptions(), 5, first_dealer=3, deals=euchre_deal(hands))
        for hands in (one, two)
    ]
    for step in range(4):
        pictures = {seat_png(scene_for("euchre", game.view(0), 0)) for game in games}
        assert len(pictures) == 1, f"seat 0's picture differs at step {step}"
        for game in games:
            acting = game.view(None)["to_act"][0]
            game.apply(acting, "pass")


def test_T13_seat_0_sees_only_its_own_truco_cards() -> None:
    """Truco deals differing in the other seats' cards draw seat 0 identically, during play."""

    def deal(others: list[list[str]]) -> Any:
        return lambda hand_number, dealer: [["4C", "3S", "5H"], *others]

    one = [["2D", "KC", "6S"], ["7H", "AS", "QD"], ["JC", "6H", "2S"]]
    two = [["7H", "AS", "QD"], ["JC", "6H", "2S"], ["2D", "KC", "6S"]]
    games = [new_truco(None, 9, first_dealer=1, deals=deal(hands)) for hands in (one, two)]
    view = games[0].view(0)
    assert view["to_act"] == [0]
    for game in games:
        game.apply(0, "play:3S")
    pictures = {seat_png(scene_for("truco", game.view(0), 0)) for game in games}
    assert len(pictures) == 1
    # ...and the picture does show seat 0's own hand: a different hand draws differently.
    other = new_truco(None, 9, first_dealer=1, deals=lambda h, d: [["4D", "3S", "5H"], *one])
    other.apply(0, "play:3S")
    assert seat_png(scene_for("truco", other.view(0), 0)) not in pictures


def test_playable_cards_rise_and_the_others_fade() -> None:
    """On the player's turn to play, a card they must not play is drawn faded."""
    scene = samples.seat_samples()["euchre"]
    view = scene.view
    playable = seat._playable(view)
    assert playable and playable < set(view["hand"])  # must follow suit: some cards fade
    faded = draw_seat(scene).image
    everything = dataclasses.replace(
        scene, view={**view, "legal_actions": [f"play:{c}" for c in view["hand"]]}
    )
    assert draw_seat(everything).image.tobytes() != faded.tobytes()


def test_the_turn_timer_is_drawn_when_given() -> None:
    scene = samples.seat_samples()["truco"]
    timed = draw_seat(scene)
    untimed = draw_seat(dataclasses.replace(scene, seconds_left=None))
    assert "0:40" in [w.text for w in timed.written]
    assert "0:40" not in [w.text for w in untimed.written]


def test_seat_scene_of_takes_the_seats_view_and_no_frozen_time_left() -> None:
    table = samples.stages("euchre")["trick"]
    seat_ = table.game.view(None)["to_act"][0]  # type: ignore[union-attr]
    scene = seat_scene_of(table, seat_, "fr", now=100.0)
    assert scene is not None
    assert scene.view == table.game.view(seat_)  # type: ignore[union-attr]
    assert scene.seconds_left is None  # no turn timer at this table
    table.record.turn_deadline = 190.5
    timed = seat_scene_of(table, seat_, "fr", now=100.0)
    # Issue 30 item 4: a picture cannot count down, so it shows no time left (the text's
    # `<t:…:R>` does, counted down by each reader's client).
    assert timed is not None and timed.seconds_left is None
    assert seat_scene_of(samples.lobby_table("euchre"), 0) is None


async def test_the_picture_worker_draws_seat_pictures() -> None:
    from bot.pictures.render_pool import render_seat_png

    scene = samples.seat_samples()["truco"]
    assert await render_seat_png(scene) == seat_png(scene)


async def test_a_seat_picture_is_drawn_once_per_version_and_seat() -> None:
    from bot.ui.table.seat_picture import SeatPictures

    pictures = SeatPictures()
    table = samples.stages("truco")["trick"]
    first = await pictures.png(SeatPictures.scene(table, 0) or pytest.fail("no scene"))
    again = await pictures.png(SeatPictures.scene(table, 0) or pytest.fail("no scene"))
    assert pictures.drawn == 1 and again == first
    other_seat = await pictures.png(SeatPictures.scene(table, 1) or pytest.fail("no scene"))
    assert pictures.drawn == 2 and other_seat != first
    table.record.version += 1
    assert await pictures.png(SeatPictures.scene(table, 0) or pytest.fail("no scene")) != first
