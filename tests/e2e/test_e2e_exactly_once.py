"""A season's final standings and a week's recap are posted exactly once across a crash at any
point (issues 22 and 23), through the emulator on its clock. The crash is the bot stopping
between two steps: the store's step after the post (mark_announced / done) or the one before it
(mark_announcing / the claim) fails as the dying process's would, then the bot is restarted.
Real SQLite, the real bot; the channel is read back through the emulator's history."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.settings import Settings
from bot.storage.recaps import WEEK, week_of
from bot.texts import t
from emulator import Channel, Emulator, Message, run_bot
from tests.support.waiting import until
from tests.support.world import World

RECAP = "Weekly recap of Cards: "


class Crash(Exception):
    """The process dying between two steps."""


def dies_after(step: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """The step is done, then the process dies before the next one."""

    async def crashing(*args: Any) -> Any:
        await step(*args)
        raise Crash("the bot died here")

    return crashing


async def dies(*args: Any) -> None:
    """The process dies instead of doing the step."""
    raise Crash("the bot died here")


def finals(channel: Channel, number: int) -> list[Message]:
    name = t("season.name", None, game=t("game.truco", None), number=number)
    title = t("season.final.title", None, season=name)
    return [m for m in channel.messages if m.embeds and m.embeds[0].get("title") == title]


@pytest.mark.parametrize("crash_at", ["after_the_post", "before_the_post"])
async def test_a_season_end_is_posted_once_across_a_crash(
    emulator: Emulator, world: World, bot_settings: Settings, crash_at: str
) -> None:
    guild = world.table.guild
    assert guild is not None
    guild.owner_id = world.alice.id  # the server's admin
    async with run_bot(emulator, bot_settings) as bot:
        await world.alice.slash(world.table, "season start", game="truco", length="open")
        seasons = bot.seasons
        if crash_at == "after_the_post":  # posted, then dead before marking it posted
            seasons.mark_announced = dies  # type: ignore[method-assign]
        else:  # marked as being posted, then dead before the post
            seasons.mark_announcing = dies_after(seasons.mark_announcing)  # type: ignore[method-assign]
        ended = await world.alice.slash(world.table, "season end", game="truco")
        assert ended.ephemeral  # the post itself is the keeper's (the cog ticks it at once)
        with pytest.raises(Crash):
            await bot.season_keeper.tick()
        stuck = await bot.seasons.numbered(guild.id, "truco", 1)
        assert stuck is not None and stuck.announced_at is None
        assert stuck.announcing_at is not None
        assert len(finals(world.table, 1)) == (1 if crash_at == "after_the_post" else 0)
    assert emulator.take_bot_errors("Crash")  # the /season end that ticks the keeper, logged

    async with run_bot(emulator, bot_settings) as bot:
        await bot.season_keeper.tick()  # after the start-up tick (one at a time)
        done = await bot.seasons.numbered(guild.id, "truco", 1)
        assert done is not None and done.announced_at is not None
        assert len(finals(world.table, 1)) == 1
    async with run_bot(emulator, bot_settings) as bot:
        await bot.season_keeper.tick()
    assert len(finals(world.table, 1)) == 1


def recaps_in(channel: Channel) -> list[Message]:
    return [m for m in channel.messages if m.embed and m.embed["title"].startswith(RECAP)]


@pytest.mark.parametrize("crash_at", ["after_the_post", "before_the_post"])
async def test_a_weekly_recap_is_posted_once_across_a_crash(
    emulator: Emulator, world: World, bot_settings: Settings, crash_at: str
) -> None:
    recaps = world.guild.add_channel("recaps")
    week = week_of(emulator.clock.time())
    async with run_bot(emulator, bot_settings) as bot:
        await emulator.owner.slash(world.table, "recap", channel=recaps)
        store = bot.weekly_recap.store
        if crash_at == "after_the_post":  # posted, then dead before marking it done
            store.done = dies  # type: ignore[method-assign]
        else:  # the week claimed, then dead before the post
            store.claim = dies_after(store.claim)  # type: ignore[method-assign]
        passes = bot.weekly_recap.passes
        emulator.clock.advance(week + WEEK + 60 - emulator.clock.time())
        await until(lambda: bot.weekly_recap.passes > passes)
        [pending] = await store.pending()
        assert pending.week == week
        assert len(recaps_in(recaps)) == (1 if crash_at == "after_the_post" else 0)

    async with run_bot(emulator, bot_settings) as bot:
        await until(lambda: bot.weekly_recap.passes >= 1)
        assert await bot.weekly_recap.store.pending() == []
        [recap] = recaps_in(recaps)
        assert recap.embed is not None and recap.embed["footer"]["text"].endswith(
            " · " + _iso_week(week)
        )
        posted_now = [] if crash_at == "after_the_post" else [(world.guild.id, week)]
        assert bot.weekly_recap.posted == posted_now
    async with run_bot(emulator, bot_settings) as bot:
        await until(lambda: bot.weekly_recap.passes >= 1)
    assert len(recaps_in(recaps)) == 1


def _iso_week(week: int) -> str:
    from datetime import UTC, datetime

    year, number, _ = datetime.fromtimestamp(week, UTC).isocalendar()
    return f"{year}-W{number:02d}"
