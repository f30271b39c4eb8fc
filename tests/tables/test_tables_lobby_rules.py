"""Issue 21: the truco lobby switches coberta (T15) like its other options — the host only, in
the lobby, stored with the table so the game replays with it."""

from __future__ import annotations

import pytest

from bot.storage.backend import Storage
from bot.tables.errors import BadOptions, NotHost
from tests.support.service import ANA, CHANNEL, GUILD, HOST, make_service


async def test_T15_the_host_switches_coberta_in_the_lobby(db: Storage) -> None:
    service = make_service(db)
    table = await service.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, host_name="Host", game="truco"
    )
    assert not table.options.get("coberta", False)
    await service.join(table.id, ANA, "Ana")
    with pytest.raises(NotHost):
        await service.change_setting(table.id, ANA, "coberta")
    await service.change_setting(table.id, HOST, "coberta")
    assert table.options["coberta"] is True
    stored = await db.tables.get_table(table.id)
    assert stored is not None and stored.options["coberta"] is True
    await service.change_setting(table.id, HOST, "coberta")
    assert table.options["coberta"] is False


async def test_the_host_picks_a_turn_timer_value_in_one_change(db: Storage) -> None:
    """Issue 21 item 7: the lobby's menu names the value; the table takes it at once (one
    version), the host only, and a value the setting does not have is refused."""
    service = make_service(db)
    table = await service.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, host_name="Host", game="euchre"
    )
    await service.join(table.id, ANA, "Ana")
    with pytest.raises(NotHost):
        await service.change_setting(table.id, ANA, "turn_timer", "60")
    before = table.version
    await service.change_setting(table.id, HOST, "turn_timer", "60")
    assert table.record.settings["turn_timer"] == 60
    assert table.version == before + 1
    stored = await db.tables.get_table(table.id)
    assert stored is not None and stored.settings["turn_timer"] == 60
    with pytest.raises(BadOptions):
        await service.change_setting(table.id, HOST, "turn_timer", "45")
    assert table.record.settings["turn_timer"] == 60
    # A click on an old lobby's button (no value) still moves to the next value.
    await service.change_setting(table.id, HOST, "turn_timer")
    assert table.record.settings["turn_timer"] == 120
