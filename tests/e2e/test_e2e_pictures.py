"""The table picture through the emulator: every version of the table message carries the
picture of the state its text shows (checked for whole games by the play driver's
`check_picture`), and a table created with pictures off is text only."""

from __future__ import annotations

import asyncio
import io

from PIL import Image

from bot.client import CardTableBot
from bot.ui.table import table_picture
from emulator import Emulator, Message, SimulatedUser
from emulator.limits import LOADING
from tests.support.games import play_game
from tests.support.play_driver import scale_rate_limits
from tests.support.world import World


async def open_lobby(world: World, command: str) -> Message:
    await world.alice.slash(world.table, command)
    lobby = world.table.last_message
    assert lobby is not None
    return lobby


async def join(person: SimulatedUser, lobby: Message) -> None:
    await person.click(lobby, "Join")
    await lobby.wait_until(lambda m: person.name.lower() in repr(m.embeds).lower(), timeout=10)


async def test_the_lobby_message_shows_the_seats_and_a_join_changes_the_picture(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    scale_rate_limits(emulator, running_bot, per=1.0)
    lobby = await open_lobby(world, "euchre new")
    await join(world.bob, lobby)
    assert running_bot.table_ui is not None
    await running_bot.table_ui.public.idle()
    versions = []
    for shown in lobby.versions:
        if shown.flags & LOADING:
            continue  # a slow start's public "thinking", which the table replaces (issue 30)
        (picture,) = shown.attachments
        assert picture["filename"] == table_picture.FILENAME
        assert picture["size"] < 150_000
        data = emulator.message_service.files[int(picture["id"])].data
        with Image.open(io.BytesIO(data)) as image:
            assert image.format == "PNG" and image.size == (720, 480)
            versions.append(int(image.text["version"]))  # type: ignore[attr-defined]
    assert versions == sorted(versions) and len(set(versions)) == len(versions) >= 2


async def test_a_table_with_pictures_off_is_text_only_for_a_whole_game(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    scale_rate_limits(emulator, running_bot, per=1.0)
    driver = await play_game(world, running_bot, "truco new", 8, humans=1, target=6, pictures=False)
    assert driver.table.record.settings["pictures"] is False
    message = driver.message
    assert len(message.versions) > 3
    for shown in message.versions:
        assert not shown.attachments
        assert all("image" not in embed for embed in shown.embeds)
    assert running_bot.table_ui is not None
    assert running_bot.table_ui.public.pictures.drawn == 0
    # Nor is the player's own seat drawn on their hand messages (issue 21): text only.
    hands = [m for m in world.alice.own_ephemerals if m.buttons]
    assert hands and all(not shown.attachments for m in hands for shown in m.versions)
    assert running_bot.table_ui.seat_pictures.drawn == 0


async def test_without_attach_files_the_table_is_text_until_the_permission_comes_back(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    scale_rate_limits(emulator, running_bot, per=1.0)
    world.table.set_bot_permissions(attach_files=False)
    lobby = await open_lobby(world, "truco new")
    assert not lobby.attachments
    assert all("image" not in embed for embed in lobby.embeds)
    await join(world.bob, lobby)
    assert not lobby.attachments
    world.table.set_bot_permissions(attach_files=True)
    assert running_bot.table_ui is not None and running_bot.table_service is not None
    public = running_bot.table_ui.public
    table = running_bot.table_service.in_channel(world.table.id)
    assert table is not None
    for _ in range(250):  # the bot learns it from a CHANNEL_UPDATE on the gateway
        if public.can_attach(table):
            break
        await asyncio.sleep(0.02)
    assert public.can_attach(table)
    await world.carol.click(lobby, "Join")
    await lobby.wait_until(lambda m: bool(m.attachments) and "Carol" in repr(m.embeds), timeout=10)
    assert lobby.embeds[0]["image"]["url"] == lobby.attachments[0]["url"]


async def test_an_edit_refused_for_its_picture_goes_again_as_text(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    scale_rate_limits(emulator, running_bot, per=1.0)
    # The channel route (where Attach Files is checked); an edit through the command's token
    # that Discord refused would come down to it too (bot/ui/table/public.py, _edit_with_pen).
    assert running_bot.table_ui is not None
    running_bot.table_ui.public.use_tokens = False
    lobby = await open_lobby(world, "euchre new")
    assert lobby.attachments
    # Taken away without the bot being told (its cache still says yes).
    world.table.set_bot_permissions(attach_files=False, announce=False)
    await join(world.bob, lobby)
    assert not lobby.attachments and "image" not in lobby.embeds[0]
    [refused] = emulator.take_violations(50013)
    assert refused.method == "PATCH"
