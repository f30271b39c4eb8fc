"""Seasons in storage (issue 23), on both back-ends: a fresh prior per season beside the all-time
rating, a game counted by the season whose window holds its end, closing claimed once with the
final ranks and champions, and the keeper posting each closed season once."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage.backend import Storage
from bot.storage.ratings import NEW_PLAYER, Skill, rate_game
from bot.storage.seasons import SeasonRepository
from bot.tables.seasons import Season, SeasonEntry, SeasonError, SeasonKeeper
from tests.support.stored_games import lobby, play_recorded, result_for

GUILD = 5
DAY = 86_400.0
T0 = 1_767_225_600.0  # 2026-01-01 00:00 UTC


async def win(storage: Storage, seats: list[int], winner: int, at: float) -> None:
    await play_recorded(
        storage.tables,  # type: ignore[arg-type]
        guild=GUILD, seats=seats, winner=winner, ended_at=at,
    )  # fmt: skip


async def test_a_season_rates_from_a_fresh_prior_while_the_all_time_rating_goes_on(
    storage: Storage,
) -> None:
    seasons = SeasonRepository(storage.db)
    await win(storage, [1, 2, 3, 4], 0, T0 - DAY)  # before any season
    season = await seasons.start(GUILD, "euchre", 50, "month", 1, 0, T0)
    assert season.number == 1 and season.ends_at == T0 + 31 * DAY  # to 1 February
    with pytest.raises(SeasonError):
        await seasons.start(GUILD, "euchre", 50, "open", 1, 0, T0 + 1)
    await win(storage, [1, 2, 3, 4], 0, T0 + DAY)
    entries = {e.user_id: e for e in await seasons.entries(season.id)}
    players = result_for(lobby(guild=GUILD, channel=1, game="euchre", seats=[1, 2, 3, 4]), 0, 0)
    fresh = rate_game(players.players, 0, {})  # one game from the prior
    assert entries[1].rating == Skill(fresh[1].mu, fresh[1].sigma).display
    assert (entries[1].games, entries[1].wins, entries[2].wins) == (1, 1, 0)
    board = await storage.results.leaderboard(GUILD, "euchre", min_games=1)
    all_time = {row.user_id: row for row in board.rows}
    assert all_time[1].games == 2 and all_time[1].rating != entries[1].rating
    assert entries[1].rating != NEW_PLAYER.display


async def test_a_game_after_the_end_is_not_the_seasons_and_closing_is_claimed_once(
    storage: Storage,
) -> None:
    seasons = SeasonRepository(storage.db)
    season = await seasons.start(GUILD, "euchre", 50, "month", 2, 0, T0)
    assert season.ends_at is not None
    await win(storage, [1, 2, 3, 4], 0, T0 + DAY)
    await win(storage, [1, 2, 5, 6], 0, T0 + 2 * DAY)
    await win(storage, [1, 2, 3, 4], 1, season.ends_at + 1)  # after the end: all-time only
    assert await seasons.due(season.ends_at - 1) == []
    assert [s.id for s in await seasons.due(season.ends_at)] == [season.id]
    first, second = await asyncio.gather(
        seasons.close(season.id, season.ends_at), seasons.close(season.id, season.ends_at)
    )
    assert (first is None) != (second is None)
    standings = first or second
    assert standings is not None
    by_user = {e.user_id: e for e in standings}
    # Users 1 and 2 played twice (the minimum): ranked, 1 the champion; 3-6 once: unranked.
    assert by_user[1].final_rank == 1 and by_user[1].champion
    assert by_user[2].final_rank == 2 and not by_user[2].champion
    assert all(by_user[u].final_rank is None for u in (3, 4, 5, 6))
    assert by_user[1].games == 2  # the game after the end did not count
    stored = {e.user_id: e for e in await seasons.entries(season.id)}
    assert stored[1].final_rank == 1 and stored[1].champion and stored[3].final_rank is None
    assert await seasons.due(season.ends_at + DAY) == []
    assert await seasons.close(season.id, season.ends_at + DAY) is None
    mine = await seasons.player_seasons(GUILD, 1)
    assert [(s.number, e.final_rank, e.champion) for s, e in mine] == [(1, 1, True)]


async def test_the_keeper_closes_and_posts_each_season_once_across_restarts(
    storage: Storage,
) -> None:
    seasons = SeasonRepository(storage.db)
    season = await seasons.start(GUILD, "euchre", 50, "open", 1, 0, T0)
    await win(storage, [1, 2, 3, 4], 0, T0 + DAY)
    posted: list[tuple[Season, list[SeasonEntry]]] = []
    now = [T0 + 2 * DAY]

    async def announce(s: Season, entries: list[SeasonEntry]) -> None:
        posted.append((s, entries))

    keeper = SeasonKeeper(seasons, announce, lambda: now[0])
    await keeper.tick()
    assert posted == []  # an open season without an end is not due
    ended = await seasons.end(GUILD, "euchre", now[0])
    assert ended.status == "closed" and ended.ends_at == now[0] and ended.announced_at is None
    with pytest.raises(SeasonError):
        await seasons.end(GUILD, "euchre", now[0])  # none open any more

    # A post that fails leaves the season closed but not posted: the next keeper posts it.
    async def broken(s: Season, entries: list[SeasonEntry]) -> None:
        raise OSError("Discord is down")

    with pytest.raises(OSError):
        await SeasonKeeper(seasons, broken, lambda: now[0]).tick()
    assert (await seasons.numbered(GUILD, "euchre", 1)).status == "closed"  # type: ignore[union-attr]
    for _ in range(2):  # a restart, and another tick
        await SeasonKeeper(seasons, announce, lambda: now[0]).tick()
    assert [s.id for s, _ in posted] == [season.id]
    assert [e.user_id for e in posted[0][1] if e.champion] == [1, 3]
    assert await seasons.current(GUILD, "euchre") is None
    second = await seasons.start(GUILD, "euchre", 50, "quarter", 1, 0, now[0])
    assert second.number == 2


async def test_a_season_posted_by_a_process_that_died_before_marking_it_is_not_posted_again(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The keeper marks the season "announcing" before the post; after a crash it asks the
    channel (`find_post`, here the list of posts) before posting again."""
    seasons = SeasonRepository(storage.db)
    channel: list[int] = []  # the season ids whose standings are in the channel
    now = T0 + 2 * DAY

    async def announce(s: Season, entries: list[SeasonEntry]) -> None:
        channel.append(s.id)

    async def find_post(s: Season) -> bool:
        return s.id in channel

    async def dies(season_id: int, at: float) -> None:
        raise OSError("the process died here")

    first = await seasons.start(GUILD, "euchre", 50, "open", 1, 0, T0)
    await seasons.end(GUILD, "euchre", now)
    # Posted, then the process dies before mark_announced.
    monkeypatch.setattr(seasons, "mark_announced", dies)
    with pytest.raises(OSError):
        await SeasonKeeper(seasons, announce, lambda: now, find_post=find_post).tick()
    monkeypatch.undo()
    [stuck] = await seasons.unannounced()
    assert stuck.id == first.id and stuck.announcing_at == now and channel == [first.id]
    restarted = SeasonKeeper(seasons, announce, lambda: now, find_post=find_post)
    await restarted.tick()
    await restarted.tick()
    assert channel == [first.id] and await seasons.unannounced() == []

    # Marked announcing, then the process dies before the post: posted after the restart.
    second = await seasons.start(GUILD, "euchre", 50, "open", 1, 0, now)
    await seasons.end(GUILD, "euchre", now + DAY)
    await seasons.mark_announcing(second.id, now + DAY)
    await SeasonKeeper(seasons, announce, lambda: now + DAY, find_post=find_post).tick()
    assert channel == [first.id, second.id] and await seasons.unannounced() == []
