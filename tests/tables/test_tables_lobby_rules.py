"""Issue 21: the truco lobby switches coberta (T15) like its other options — the host only, in
the lobby, stored with the table so the game replays with it."""

from __future__ import annotations

import pytest

from bot.storage.backend import Storage
from bot.tables.errors import NotHost
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
