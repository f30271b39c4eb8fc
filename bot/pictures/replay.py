"""The picture of one replay step: the table as a spectator saw it at that step (the table
picture's own drawing), and once the hand is over a band below it with the four hands as dealt,
face up."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.pictures.cards import card_face, font
from bot.pictures.scene import Scene, Trick
from bot.pictures.table import HEIGHT, TEAM_COLOURS, WIDTH, draw_table, png_bytes
from bot.tables.replay import ReplayStep

BAND = 112  # height of the face-up hands under the table
FACE = 30  # width of a face-up card
BAND_COLOUR = (32, 36, 40)


def step_scene(
    game: str, step: ReplayStep, names: list[str], game_id: int = 0, locale: str | None = None
) -> Scene:
    """The table picture's scene at `step`: its view, and the hand's tricks once the trick in
    play is empty (as the live table shows them)."""
    over = bool(step.view["is_over"])
    tricks = [] if step.view["trick"] else [Trick(t.cards, t.winner) for t in step.tricks]
    return Scene(
        table_id=game_id,
        version=step.index,
        game=game,
        stage="over" if over else "play",
        locale=locale,
        names=names,
        view=step.view,
        last_hand=tricks,
        last_hand_points=step.hand_points,
    )


def step_png(
    game: str, step: ReplayStep, names: list[str], game_id: int = 0, locale: str | None = None
) -> bytes:
    scene = step_scene(game, step, names, game_id, locale)
    table = draw_table(scene)
    if step.hands is None:
        return png_bytes(table, scene)
    image = Image.new("RGB", (WIDTH, HEIGHT + BAND), BAND_COLOUR)
    image.paste(table, (0, 0))
    draw = ImageDraw.Draw(image)
    column = WIDTH // 4
    label = font(13)
    for seat, hand in enumerate(step.hands):
        left = seat * column + 10
        draw.text((left, HEIGHT + 8), names[seat][:20], font=label, fill=TEAM_COLOURS[seat % 2])
        for i, card in enumerate(hand):
            face = card_face(card, FACE)
            image.paste(face, (left + i * (FACE + 3), HEIGHT + 32), face)
    return png_bytes(image, scene)


def step_job(job: tuple[str, ReplayStep, list[str], int, str | None]) -> bytes:
    """`step_png` of one plain tuple: what the picture worker is sent."""
    return step_png(*job)
