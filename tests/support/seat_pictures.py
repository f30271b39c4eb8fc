"""Checks of the players' own pictures (issue 21) on the hand messages the emulator recorded."""

from __future__ import annotations

import dataclasses
import io
import random
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from bot.client import CardTableBot
from bot.pictures.scene import seat_scene_of
from bot.pictures.seat import HEIGHT, WIDTH, seat_png
from bot.tables.settings import BY_NAME, setting_of
from bot.ui.kit.custom_ids import parse_game_action
from bot.ui.table import seat_picture
from bot.ui.table.table_ui import TableUI
from emulator import Emulator, Message, SimulatedUser
from emulator.state import MessageVersion
from tests.support.play_driver import GameStates, TableDriver, game_custom_ids
from tests.support.world import World

COMPONENT = 3  # an interaction's type: a click on a button


@dataclass
class Shown:
    """One hand message version's picture."""

    attachment_id: str
    data: bytes
    version: int  # the table version its PNG names


def picture_of(emu: Emulator, shown: MessageVersion) -> Shown | None:
    """The seat picture a version of a hand message shows; None when it has none. A hand
    message carries nothing else."""
    if not shown.attachments:
        return None
    (attachment,) = shown.attachments
    assert attachment["filename"] == seat_picture.FILENAME
    data = emu.message_service.files[int(attachment["id"])].data
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
        chunks = dict(image.text)  # type: ignore[attr-defined]
    return Shown(attachment["id"], data, int(chunks["version"]))


@dataclass
class HandPictures:
    """What the hand messages of one person showed during a game."""

    updates: int = 0  # versions of their hand messages (each hand update is one)
    uploads: int = 0  # pictures uploaded with them
    kept: int = 0  # updates that kept the picture already shown
    checked: set[str] = field(default_factory=set)  # attachments compared with a fresh render


def check_hand_pictures(driver: TableDriver, states: GameStates, person_id: int) -> HandPictures:
    """Every version of every hand message of the person carries that player's own picture of
    the state its buttons act on: a PNG whose text names this table, their seat and the version
    in the buttons' ids, whose bytes are what the renderer draws for the engine's state at that
    version (replayed independently of the bot). A picture is uploaded only when it changes."""
    table = driver.table
    person = driver.people[person_id]
    seat = table.seat_of(person_id)
    assert seat is not None
    timer = int(setting_of(table.record.settings, "turn_timer"))
    assert timer in BY_NAME["turn_timer"].values
    seen = HandPictures()
    for message in person.own_ephemerals:
        previous: Shown | None = None
        for shown in message.versions:
            if not shown.components:
                continue  # "thinking…", or a one-line answer
            picture = picture_of(driver.emu, shown)
            assert picture is not None, f"a hand update of {person.name} without its picture"
            ids = game_custom_ids(shown)
            if ids:
                parsed = parse_game_action(ids[0])
                assert parsed is not None and parsed.version == picture.version, (
                    "the picture shows the state the buttons act on"
                )
            assert picture.version in states.games
            if picture.attachment_id not in seen.checked:
                check_render(states, seat, person.locale, timer, picture)
                seen.checked.add(picture.attachment_id)
            seen.updates += 1
            if previous is not None and previous.attachment_id == picture.attachment_id:
                seen.kept += 1
            else:
                seen.uploads += 1
                assert previous is None or previous.data != picture.data, (
                    "an unchanged picture was uploaded again"
                )
            previous = picture
    return seen


def check_render(states: GameStates, seat: int, locale: str, timer: int, picture: Shown) -> None:
    """The bytes are the seat's picture at that version. The turn timer's seconds left are
    the one input not replayed: the picture must be drawn for one of them."""
    snapshot = states.snapshot_table(picture.version)
    scene = seat_scene_of(snapshot, seat, locale)
    assert scene is not None
    candidates: list[int | None] = [None, *range(timer, -1, -1)]
    for seconds_left in candidates:
        if seat_png(dataclasses.replace(scene, seconds_left=seconds_left)) == picture.data:
            return
    raise AssertionError(f"the picture of move {picture.version} differs from its state's")


class LookingPlayer(TableDriver):
    """A person who looks at their hand before they click: the bot's edits of it are in (a
    person does not click within milliseconds of a change)."""

    async def hand_of(self, person: SimulatedUser, rng: random.Random) -> Message:
        await ui_of(self.bot).live_hands.idle()
        return await super().hand_of(person, rng)


def ui_of(bot: CardTableBot) -> TableUI:
    assert bot.table_ui is not None
    return bot.table_ui


async def play_alone_with_pictures(
    world: World, bot: CardTableBot, command: str, seed: int, **options: object
) -> tuple[TableDriver, HandPictures]:
    """A whole game of one person (alice) and three bots, the person clicking what their hand
    shows; then every version of their hand messages checked (`check_hand_pictures`)."""
    ui = ui_of(bot)
    # However busy this machine, every answer waits for its picture (deferred past the
    # acknowledgement deadline): no hand update here goes text-first.
    ui.seat_pictures.wait = ui.seat_pictures.answer_wait = 60.0
    ui.live_hands.pace = 0.05
    person = world.alice
    driver = LookingPlayer(world.emu, bot, world.table, [person])
    lobby = await driver.open(person, command, **options)
    await driver.sit(lobby, [], 3, person)
    await driver.start(lobby, person)
    await driver.play_to_end(random.Random(seed))
    await ui.live_hands.idle()
    driver.assert_no_failures()
    return driver, check_hand_pictures(driver, GameStates.replay(driver.table), person.id)


def hand_requests(emu: Emulator) -> list[Any]:
    """The requests that sent or edited a hand message: answers to clicks on buttons and edits
    through their tokens (not the answer to `/euchre new`, which carries the table picture)."""
    tokens = {f"/{i.token}/" for i in emu.interactions if i.type == COMPONENT}
    requests = emu.requests_to("POST", "/interactions/") + emu.requests_to("PATCH", "/webhooks/")
    return [r for r in requests if any(token in r.path for token in tokens)]
