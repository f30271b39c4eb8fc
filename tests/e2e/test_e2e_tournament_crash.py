"""A progressive euchre night survives a SIGKILL (issue 23): the bot runs as a child process
(tests/support/crash.py BotProcess), twelve places (eleven people and a bot) at three tables in
threads, three rounds of one hand; the bot is killed in the middle of round 2 (one table done,
one mid-hand), restarted, and the night finishes with the standings the tables' recorded games
give, each round's standings posted once and no table or thread opened twice."""

from __future__ import annotations

from pathlib import Path

from bot.tables.rotation import progressive_schedule
from bot.texts import t
from bot.ui.tournament.standings import place_label
from emulator import Emulator
from emulator.rest_threads import ThreadChannel, active_threads
from tests.support.crash import BotProcess, check_integrity, replay
from tests.support.tournament_crash import CrashNight
from tests.support.tournament_night import MORE_PEOPLE, standings_posts


async def test_a_night_survives_a_sigkill_in_the_middle_of_round_two(tmp_path: Path) -> None:
    emu = Emulator()
    await emu.start()
    guild = emu.add_guild("Night")
    channel = guild.add_channel("euchre-night")
    people = [emu.add_user(name) for name in ("alice", "bob", "carol", "dave", *MORE_PEOPLE)]
    for person in people:
        guild.add_member(person)
    bot = BotProcess(emu, tmp_path / "cardtable.sqlite3", guild.id, tmp_path)
    night = CrashNight(emu, channel, people, bot, tmp_path / "cardtable.sqlite3", seed=23)
    try:
        await bot.start()
        await night.open()
        host = people[0]
        await host.slash(channel, "tournament create", rounds=3, hands=1, timeout=10)
        for person in people[1:]:
            await person.slash(channel, "tournament join", timeout=10)
        await host.slash(channel, "tournament start", timeout=30)
        state = await night.round_open(0)
        assert state.schedule == progressive_schedule(12, 3)
        assert [p.name for p in state.places if p.user_id is None] == ["Bot 12"]
        for table in range(3):
            assert await night.play_table(state.opened[(0, table)])
        # Round 2: one table played out, another a few moves in, then SIGKILL.
        state = await night.round_open(1)
        assert await night.play_table(state.opened[(1, 0)])
        assert not await night.play_table(state.opened[(1, 1)], moves=3)
        mid_hand = await night.record(state.opened[(1, 1)])
        assert mid_hand.status == "playing" and mid_hand.actions
        await bot.kill()
        await bot.start()
        assert bot.starts == 2
        for table in range(3):
            assert await night.play_table(state.opened[(1, table)])
        state = await night.round_open(2)
        for table in range(3):
            assert await night.play_table(state.opened[(2, table)])

        async def finished() -> bool:
            return (await night.night()).status == "finished" and len(standings_posts(channel)) == 3

        await night.until("the final standings", finished)
        state = await night.night()
        # The standings are the recorded games' scores, place by place.
        totals = {p.number: 0 for p in state.places}
        for (rnd, table), table_id in state.opened.items():
            record = await night.record(table_id)
            game = replay(record)
            scores = (int(game.scores[0]), int(game.scores[1]))
            assert state.results[(rnd, table)] == scores
            for seat, place in enumerate(state.schedule[rnd].tables[table].players):
                totals[place] += scores[seat % 2]
        assert {s.place.number: s.points for s in state.standings()} == totals
        posts = standings_posts(channel)
        assert len(posts) == 3  # one per round: none lost, none doubled by the restart
        assert posts[-1].startswith("**" + t("tournament.standings.final", None))
        leader = state.standings()[0]
        # Named as the tables name it (a bot: "🤖 Bot 12", issue 34).
        assert f"`1.` **{place_label(leader.place)}** — points: {leader.points}" in posts[-1]
        threads = active_threads(emu, guild.id)
        assert len(threads) == 9 and all(isinstance(c, ThreadChannel) for c in threads)
        assert sorted(state.threads.values()) == sorted(c.id for c in threads)
        assert night.clicks > 9 * 5  # people played every table (a bot holds one place)
        await bot.stop()
        assert bot.error_lines() == []
        check_integrity(night.db_path)
    finally:
        await night.close()
        if bot.proc is not None:
            await bot.kill()
        await emu.stop()
