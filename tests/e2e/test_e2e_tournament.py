"""A progressive euchre night through the emulator (issue 23): eleven people and a bot, three
tables each in its own thread, three rounds of one hand, the standings posted after each round
(text and picture) and the final standings matching the tables' recorded games."""

from __future__ import annotations

from bot.client import CardTableBot
from bot.tables.rotation import progressive_schedule
from bot.texts import t
from bot.ui.tournament.standings import place_label
from emulator import Emulator
from emulator.rest_threads import ThreadChannel
from tests.support.play_driver import scale_rate_limits
from tests.support.tournament_night import eleven_people, night_of, play_round, standings_posts
from tests.support.world import World


async def test_a_twelve_place_progressive_night_in_threads(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    scale_rate_limits(emulator, running_bot, per=1.0)
    people = eleven_people(world)
    created = await world.alice.slash(world.table, "tournament create", rounds=3, hands=1)
    assert not created.ephemeral and "progressive euchre night" in created.content
    for person in people[1:]:
        joined = await person.slash(world.table, "tournament join")
        assert joined.ephemeral
    late = await world.bob.slash(world.table, "tournament start")
    assert late.ephemeral and late.content == t("tournament.error.not_host", world.bob.locale)
    started = await world.alice.slash(world.table, "tournament start", timeout=20)
    assert started.content.startswith(
        "The night begins! 12 places (1 bot), 3 tables, 3 rounds. Each table plays in its own"
    )
    state = night_of(running_bot, world.table)
    assert state.schedule == progressive_schedule(12, 3)
    for rnd in range(3):
        if rnd == 1:
            # Erin leaves before round 2: a bot plays her place from now on, at her table too.
            state = await emulator.wait_for(
                lambda: (
                    (s := night_of(running_bot, world.table)).round == 1
                    and len(s.opened) == 6
                    and s
                ),
                timeout=20,
            )
            erin = people[4]
            left = await erin.slash(world.table, "tournament leave")
            assert left.content == t("tournament.left.playing", erin.locale)
            table = state.table_of(erin.id)
            assert table is not None
            live = running_bot.table_service.find(state.opened[(1, table)])
            assert live is not None
            seat = next(s for s in live.seats if s is not None and s.left_user_id == erin.id)
            assert seat.is_bot
        await play_round(emulator, running_bot, world.table, people, seed=rnd)
        await world.table.wait_for_message(
            lambda m, r=rnd: len(standings_posts(world.table)) >= r + 1, timeout=20
        )
        state = night_of(running_bot, world.table)
        threads = [emulator.channels[state.threads[(rnd, t_)]] for t_ in range(3)]
        assert all(isinstance(c, ThreadChannel) and c.parent is world.table for c in threads)
    posts = standings_posts(world.table)
    assert len(posts) == 3 and posts[-1].startswith("**" + t("tournament.standings.final", None))
    assert state.status == "finished"
    # The totals are the tables' recorded scores, seat by seat.
    assert running_bot.db is not None
    store = running_bot.tournaments.store
    totals = {p.number: 0 for p in state.places}
    for (rnd, table), table_id in state.opened.items():
        scores = await store.table_scores(table_id)
        assert scores is not None and state.results[(rnd, table)] == scores
        seats = state.schedule[rnd].tables[table].players
        for seat, place in enumerate(seats):
            totals[place] += scores[seat % 2]
    assert {s.place.number: s.points for s in state.standings()} == totals
    erin_place = next(p for p in state.places if p.user_id == people[4].id)
    assert erin_place.left and erin_place.is_bot
    assert t("tournament.place.left", None, name=erin_place.name) in posts[-1]
    leader = state.standings()[0]
    shown = place_label(leader.place)  # a bot as the tables name it (issue 34)
    assert f"`1.` **{shown}** — points: {leader.points}" in posts[-1]
    pictures = [m for m in world.table.messages if m.attachments]
    assert len(pictures) >= 3
