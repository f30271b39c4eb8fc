"""Server house rules (issue 21) through the emulator: a server admin sets with /settings the
options new tables of a game start with; /truco new starts with them, options given to it win,
the other game keeps the bot's defaults, a mix no table could start with is refused, and a member
without Manage Server is not offered /settings."""

from __future__ import annotations

import pytest

from bot.client import CardTableBot
from bot.texts import t
from emulator import Emulator, EmulatorUsageError
from tests.support.world import World, open_table


async def test_an_admin_sets_house_rules_that_new_tables_start_with(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    admin, alice = emulator.owner, world.alice
    service = running_bot.table_ui.service
    with pytest.raises(EmulatorUsageError, match="lacks the permissions"):
        await alice.slash(world.table, "settings", game="truco", target=6)
    shown = await admin.slash(world.table, "settings")
    assert shown.ephemeral and shown.text.startswith(t("house.title"))
    assert "**Truco Mineiro** (the bot's defaults)" in shown.text

    saved = await admin.slash(world.table, "settings", game="truco", target=6, coberta=True)
    assert saved.ephemeral and saved.text.startswith("Saved. New tables start with:")
    assert t("options.target", target=6) in saved.text and t("options.coberta") in saved.text
    # Laid over what is set: another option keeps the target and coberta.
    await admin.slash(world.table, "settings", game="truco", turn_timer=60)
    # A mix no truco table could start with is refused and changes nothing.
    refused = await admin.slash(world.table, "settings", game="truco", deck=32)
    assert refused.text == t("table.error.bad_options")

    lobby = await open_table(alice, world.table, "truco new")
    table = service.in_channel(world.table.id)
    assert table is not None
    assert (table.options["target"], table.options["coberta"]) == (6, True)
    assert table.record.settings["turn_timer"] == 60
    assert t("options.coberta") in lobby.text and "Turn timer: 1 min" in str(lobby.components)

    # Options given to /truco new win over the house rules (the rest still apply).
    second = world.guild.add_channel("second")
    await open_table(alice, second, "truco new", target=12)
    other = service.in_channel(second.id)
    assert other is not None
    assert (other.options["target"], other.options["coberta"]) == (12, True)
    # Even an option given as the game's default (coberta is off by default).
    plain = world.guild.add_channel("plain")
    await open_table(alice, plain, "truco new", coberta=False)
    off = service.in_channel(plain.id)
    assert off is not None and off.options.get("coberta", False) is False
    assert off.options["target"] == 6  # the house rule's target still applies

    # The other game has no house rules: the bot's defaults.
    third = world.guild.add_channel("third")
    await open_table(alice, third, "euchre new")
    euchre = service.in_channel(third.id)
    assert euchre is not None and euchre.options["target"] == 10
    assert euchre.record.settings["turn_timer"] == 120

    shown = await admin.slash(world.table, "settings")
    assert "**Truco Mineiro** (house rules)" in shown.text
    cleared = await admin.slash(world.table, "settings", game="truco", reset=True)
    assert cleared.text == t("house.reset", game="Truco Mineiro")
    shown = await admin.slash(world.table, "settings", game="truco")
    assert shown.text.startswith("**Truco Mineiro** (the bot's defaults)")


async def test_signals_are_a_truco_option_of_truco_new_and_of_the_house_rules(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    """Issue 35: sinais are on by default; `/truco new signals:False` switches them off for
    one table, `/settings game:truco signals:False` for the server's new tables (a table's own
    option still wins)."""
    admin, alice = emulator.owner, world.alice
    service = running_bot.table_ui.service
    await open_table(alice, world.table, "truco new")
    default = service.in_channel(world.table.id)
    assert default is not None and default.options.get("signals", True) is True

    quiet = world.guild.add_channel("quiet")
    lobby = await open_table(alice, quiet, "truco new", signals=False)
    table = service.in_channel(quiet.id)
    assert table is not None and table.options["signals"] is False
    assert t("options.signals_off") in lobby.text

    saved = await admin.slash(world.table, "settings", game="truco", signals=False)
    assert saved.ephemeral and t("options.signals_off") in saved.text
    house = world.guild.add_channel("house")
    await open_table(alice, house, "truco new")
    housed = service.in_channel(house.id)
    assert housed is not None and housed.options["signals"] is False
    mine = world.guild.add_channel("mine")
    await open_table(alice, mine, "truco new", signals=True)
    own = service.in_channel(mine.id)
    assert own is not None and own.options.get("signals", True) is True
