"""The table picture through the emulator: every version of the table message carries the
picture of the state its text shows (checked for whole games by the play driver's
`check_picture`), and a table created with pictures off is text only."""

from __future__ import annotations

import io

from PIL import Image

from bot.client import CardTableBot
from bot.emulator import Emulator
from bot.ui import table_picture
from tests.conftest import World
from tests.test_e2e_play_driver import scale_rate_limits
from tests.test_e2e_play_games import play_game


async def test_the_lobby_message_shows_the_seats_and_a_join_changes_the_picture(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    scale_rate_limits(emulator, running_bot, per=1.0)
    await world.alice.slash(world.table, "euchre new")
    lobby = world.table.last_message
    assert lobby is not None
    await world.bob.click(lobby, "Join")
    await lobby.wait_until(lambda m: "Bob" in repr(m.embeds), timeout=10)
    assert running_bot.table_ui is not None
    await running_bot.table_ui.public.idle()
    versions = []
    for shown in lobby.versions:
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
    assert driver.table.record.settings == {"pictures": False}
    message = driver.message
    assert len(message.versions) > 3
    for shown in message.versions:
        assert not shown.attachments
        assert all("image" not in embed for embed in shown.embeds)
    assert running_bot.table_ui is not None
    assert running_bot.table_ui.public.pictures.drawn == 0
