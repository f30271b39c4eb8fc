"""The weekly recap (issue 22) through the emulator, on the emulator's clock: a server admin turns
it on in #recaps; at the week's end the recap is posted once (the week's games, the movers, a
chart); a restart does not post it again; a week that ends while the bot is down is posted at
start-up, once; /recap off stops it. Members without Manage Server are not offered /recap.
Real SQLite, the real bot, no mocks."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.settings import Settings
from bot.storage.recaps import WEEK, week_of
from emulator import Channel, Emulator, EmulatorUsageError, Message, run_bot
from tests.support.leaderboard import Recorder
from tests.support.waiting import until
from tests.support.world import World

TITLE = "Weekly recap of Cards: "


def recaps_in(channel: Channel) -> list[Message]:
    return [m for m in channel.messages if m.embed and m.embed["title"].startswith(TITLE)]


def next_week_end(emulator: Emulator) -> float:
    """Seconds from the emulator's now to a minute after the current week ends."""
    now = emulator.clock.time()
    return week_of(now) + WEEK + 60 - now


async def test_the_weekly_recap_is_posted_once_across_restarts(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    recaps = world.guild.add_channel("recaps")
    admin = emulator.owner
    async with run_bot(emulator, bot_settings) as bot:
        assert bot.db is not None
        with pytest.raises(EmulatorUsageError, match="lacks the permissions"):
            await world.alice.slash(world.table, "recap", channel=recaps)
        off = await admin.slash(world.table, "recap")
        assert off.ephemeral and off.text.startswith("The weekly recap is off.")
        on = await admin.slash(world.table, "recap", channel=recaps)
        assert on.ephemeral
        assert on.text == f"Every Monday I'll post the week's recap in <#{recaps.id}>."
        # Two games this week, well inside it.
        week = week_of(emulator.clock.time())
        ended = max(emulator.clock.time() - 60, week + 1)
        recorder = Recorder(bot.db)
        for seed in (1, 2):
            await recorder.record(world.guild.id, "euchre", world.players, ended, seed,
                                  {"target": 5})  # fmt: skip
        passes = bot.weekly_recap.passes
        emulator.clock.advance(1)  # the recap looks again (as at any clock jump)
        await until(lambda: bot.weekly_recap.passes > passes)
        assert recaps_in(recaps) == []  # the week has not ended

        emulator.clock.advance(next_week_end(emulator))
        first = await recaps.wait_for_message(lambda m: m.embed is not None, timeout=30)
        assert first.embed is not None
        start = _day(week)
        assert first.embed["title"] == f"{TITLE}{start} to {_day(week + WEEK - 1)}"
        assert first.embed["description"].startswith("Games played: **2**\nEuchre: **2**")
        [movers] = first.embed["fields"]
        assert movers["name"] == "Movers on the leaderboard"
        # Each of the four players: rating before the week's first game, after its last one.
        games = [await bot.results.finished_game(world.guild.id, i) for i in (1, 2)]
        assert games[0] is not None and games[1] is not None
        expected = set()
        for before, after in zip(games[0].players, games[1].players, strict=True):
            change = f"{after.rating_after - before.rating_before:+d}"  # type: ignore[operator]
            expected.add(
                f"{'📈' if change[0] == '+' else '📉'} {before.name} · Euchre: "
                f"{before.rating_before} → {after.rating_after} ({change})"
            )
        assert set(movers["value"].splitlines()) == expected
        (chart,) = first.attachments
        assert chart["filename"] == "recap.png"
        assert bot.weekly_recap.posted == [(world.guild.id, week)]

    # A restart in the same week: the recap is not posted again.
    async with run_bot(emulator, bot_settings) as bot:
        await until(lambda: bot.weekly_recap.passes >= 1)
        assert bot.weekly_recap.posted == [] and recaps_in(recaps) == [first]

    # The next week ends while the bot is down: posted at start-up, once.
    emulator.clock.advance(next_week_end(emulator))
    async with run_bot(emulator, bot_settings) as bot:
        second = await recaps.wait_for_message(
            lambda m: m.embed is not None and m is not first, timeout=30
        )
        assert second.embed is not None
        assert second.embed["title"] == f"{TITLE}{_day(week + WEEK)} to {_day(week + 2 * WEEK - 1)}"
        assert second.embed["description"] == "No games this week. The tables are waiting!"
        assert second.attachments == []
        off = await admin.slash(world.table, "recap", off=True)
        assert off.text == "The weekly recap is off."
    async with run_bot(emulator, bot_settings) as bot:
        await until(lambda: bot.weekly_recap.passes >= 1)
        emulator.clock.advance(next_week_end(emulator))
        passes = bot.weekly_recap.passes
        await until(lambda: bot.weekly_recap.passes > passes)
        assert recaps_in(recaps) == [first, second]


def _day(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d")
