"""Tables taken back from the store: every active table at start-up, or one channel's table that
another process opened (shards). Each game is rebuilt by replaying its action log."""

from __future__ import annotations

import logging

from bot.tables import alone
from bot.tables.table import CHANGE_RESTORED, Table, TableHost, rebuilt

log = logging.getLogger(__name__)


async def active_tables(service: TableHost) -> list[Table]:
    """Every active table of the guilds this process owns, rebuilt from the store (lobbies too)
    and registered; the service then tells its listeners."""
    restored: list[Table] = []
    if service.shards is None:
        records = await service.store.load_active()
    else:
        records = [r for shard in service.shards for r in await service.store.load_active(shard)]
    for record in records:
        if record.message_id is None and record.status != "lobby":
            # A game always starts from a shown lobby; without a message id nothing can
            # reach this table again, and it must not hold the channel.
            await service.store.delete_table(record.id)
            log.info("dropped table %s: it has no message", record.id)
            continue
        # A lobby without a message id may still have been seen (the crash came between
        # posting the message and storing its id): it is kept, and the UI posts it again.
        try:
            table = rebuilt(record, service.now())
        except Exception:
            log.exception("table %s could not be rebuilt; left as it is stored", record.id)
            continue
        table.notice = "table.notice.restored"
        table.notice_version = table.version
        service.register(table)
        restored.append(table)
    for table in restored:
        await answer_pending(service, table)
    return restored


async def answer_pending(service: TableHost, table: Table) -> None:
    """A restart that came between a euchre bid and the going-alone answers the table gives for
    people at once (bot/tables/alone.py): give them now, as the table would have. Also for a
    person who has just taken a seat that has the question (bot/tables/lobby.py)."""
    if alone.answer_due(table) is None:
        return
    try:
        async with table.lock:
            due = alone.answer_due(table)  # again, under the lock: a click may have come first
            if due is not None and not table.closed:
                await service.apply_locked(table, *due)
    except Exception:  # the answer waits for the person (their hand offers it), nothing is lost
        log.warning("table %s: the going-alone answer was not given", table.id, exc_info=True)


async def stored_table_in(service: TableHost, guild_id: int, channel_id: int) -> Table | None:
    """The stored open table of a channel that this process does not hold in memory: it
    is taken in (this process owns the guild) and returned."""
    shard = None
    if service.shards is not None:
        shard = next(
            ((i, n) for i, n in service.shards if (guild_id >> 22) % n == i), service.shards[0]
        )
    try:
        records = await service.store.load_active(shard)
    except Exception:
        log.exception("cannot read the tables of channel %s", channel_id)
        return None
    for record in records:
        if record.channel_id == channel_id and record.status != "finished":
            try:
                table = rebuilt(record, service.now())
            except Exception:
                log.exception("table %s could not be rebuilt", record.id)
                return None
            service.register(table)
            service.changed(table, CHANGE_RESTORED)
            return table
    return None


async def stored_again(service: TableHost, table: Table) -> Table | None:
    """The table as the store holds it now (another process wrote it), rebuilt; None when it
    is gone from the store or cannot be rebuilt."""
    record = await service.store.get_table(table.id)
    try:
        return None if record is None else rebuilt(record, service.now())
    except Exception:
        log.exception("table %s could not be rebuilt; closed here", table.id)
        return None
