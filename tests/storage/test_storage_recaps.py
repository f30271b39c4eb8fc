"""The weekly recap's storage (issue 22) on both back-ends: per server its channel and the last
week recapped; a week is claimed by exactly one of several processes at once, and stays due
until claimed; the week's summary counts its games and its movers from the stored ratings.
Real SQLite and PostgreSQL, no mocks."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from bot.storage.backend import Storage
from bot.storage.recaps import WEEK, RecapStore, due_week, week_of
from tests.support.storage import reopen
from tests.support.stored_games import play_recorded

A, B = 1, 2
MONDAY = datetime(2024, 5, 13, 0, 0, tzinfo=UTC).timestamp()
DAY = 86400.0


def test_weeks_begin_on_monday_and_the_last_ended_one_is_due() -> None:
    assert week_of(MONDAY + 3 * DAY) == MONDAY == week_of(MONDAY)
    assert week_of(MONDAY - 1) == MONDAY - WEEK
    assert due_week(MONDAY + 3 * DAY) == MONDAY - WEEK
    assert due_week(MONDAY) == MONDAY - WEEK  # the week that ended at this very second


async def test_a_recap_is_due_once_its_week_ended_until_claimed(storage: Storage) -> None:
    store = RecapStore(storage.db)
    wednesday = MONDAY + 2 * DAY
    setting = await store.set_channel(A, 500, by=9, now=wednesday)
    # The week that had ended when it was turned on counts as done: the first recap is this one.
    assert (setting.channel_id, setting.last_week) == (500, MONDAY - WEEK)
    assert await store.due(wednesday) == []
    next_monday = MONDAY + WEEK + 60
    [due] = await store.due(next_monday)
    assert (due.guild_id, due.channel_id) == (A, 500)
    assert await store.due(next_monday, guild_ids=[B]) == []  # another process's server
    assert await store.claim(A, MONDAY) is True
    assert await store.claim(A, MONDAY) is False  # never twice
    assert await store.due(next_monday) == []
    # Turning it on again (another channel) keeps the last week; off stops it being due.
    again = await store.set_channel(A, 600, by=9, now=next_monday)
    assert (again.channel_id, again.last_week) == (600, MONDAY)
    await store.set_channel(A, None, by=9, now=next_monday)
    assert await store.due(next_monday + WEEK) == []
    assert await store.claim(A, MONDAY + WEEK) is False  # off: nothing to claim
    assert await store.setting(B) is None


async def test_of_processes_claiming_a_week_at_once_exactly_one_wins(storage: Storage) -> None:
    await RecapStore(storage.db).set_channel(A, 500, by=9, now=MONDAY + DAY)
    others = [await reopen(storage) for _ in range(3)]
    try:
        stores = [RecapStore(storage.db)] + [RecapStore(other.db) for other in others]
        won = await asyncio.gather(*(store.claim(A, MONDAY) for store in stores for _ in "ab"))
        assert sorted(won) == [False] * 7 + [True]
    finally:
        for other in others:
            await other.close()


async def test_the_week_summary_counts_its_games_and_movers(storage: Storage) -> None:
    store, tables = RecapStore(storage.db), storage.tables
    await play_recorded(tables, guild=A, seats=[1, 2, 3, 4], winner=0, ended_at=MONDAY - 60)
    await play_recorded(tables, guild=A, seats=[1, 2, 3, 4], winner=0, ended_at=MONDAY + 60)
    await play_recorded(tables, guild=A, seats=[1, 2, None, 4], winner=0, ended_at=MONDAY + DAY)
    await play_recorded(tables, guild=A, seats=[1, 2, 3, 4], winner=1, ended_at=MONDAY + 6 * DAY,
                        game="truco")  # fmt: skip
    await play_recorded(tables, guild=B, seats=[1, 2, 3, 4], winner=0, ended_at=MONDAY + DAY)
    summary = await store.week_summary(A, MONDAY, movers=20)
    assert summary.games == {"euchre": 2, "truco": 1}
    assert summary.by_day == [1, 1, 0, 0, 0, 0, 1]
    ratings = storage.results
    history = {}
    for game_id in range(1, 5):
        game = await ratings.finished_game(A, game_id)
        assert game is not None
        history[game_id] = {p.user_id: p for p in game.players if not p.is_bot}
    euchre = {m.user_id: m for m in summary.movers if m.game == "euchre"}
    # User 1: before their first game of the week (game 2), after their last (game 3).
    assert euchre[1].before == history[2][1].rating_before
    assert euchre[1].after == history[3][1].rating_after and euchre[1].games == 2
    assert euchre[3].games == 1  # a bot sat in their seat in game 3
    assert len(summary.movers) == 4 + 4  # four people in each game kind
    changes = [abs(m.change) for m in summary.movers]
    assert changes == sorted(changes, reverse=True)
    empty = await store.week_summary(A, MONDAY + WEEK)
    assert (empty.games, empty.by_day, empty.movers) == ({}, [0] * 7, [])


async def test_a_claimed_week_is_pending_until_done_and_turning_it_off_drops_it(
    storage: Storage,
) -> None:
    store = RecapStore(storage.db)
    await store.set_channel(A, 500, by=9, now=MONDAY + DAY)
    await store.set_channel(B, 700, by=9, now=MONDAY + DAY)
    assert await store.pending() == []
    claimed_at = MONDAY + WEEK + 30
    assert await store.claim(A, MONDAY, claimed_at) is True
    assert await store.claim(B, MONDAY) is True  # `now` left out: the week's end
    # A restart finds both pending (the posts may or may not have gone out), this process's only.
    pending = await store.pending()
    assert [(p.guild_id, p.channel_id, p.week, p.since) for p in pending] == [
        (A, 500, MONDAY, claimed_at),
        (B, 700, MONDAY, MONDAY + WEEK),
    ]
    assert [p.guild_id for p in await store.pending(guild_ids=[B])] == [B]
    await store.done(A, MONDAY)
    await store.done(A, MONDAY)  # twice is harmless
    assert [p.guild_id for p in await store.pending()] == [B]
    await store.set_channel(B, None, by=9, now=claimed_at)  # off: nothing left to post
    assert await store.pending() == []
    assert (await store.setting(B)).last_week == MONDAY  # type: ignore[union-attr]
