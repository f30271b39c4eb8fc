"""A knockout for pairs through the emulator (issue 23): five people and a bot make three pairs
in join order, the top seed has a bye, two rounds of one short euchre game each (best of 1),
every match in its own thread, the standings and bracket posted after each round and at the end,
and the champions are the winners of the final."""

from __future__ import annotations

from bot.client import CardTableBot
from bot.tables.tournament_pairs import team_of_place
from bot.texts import t
from emulator import Emulator
from emulator.rest_threads import ThreadChannel
from tests.support.play_driver import scale_rate_limits
from tests.support.tournament_night import (
    eleven_people,
    night_of,
    play_round,
)
from tests.support.tournament_night import (
    pairs_standings_posts as standings_posts,
)
from tests.support.world import World


async def test_a_knockout_of_three_pairs_with_a_bye_in_threads(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    scale_rate_limits(emulator, running_bot, per=1.0)
    people = eleven_people(world)[:5]
    created = await world.alice.slash(
        world.table, "tournament create", format="knockout", game="euchre", best_of=1, hands=1
    )
    title = t("tournament.title.knockout", None)
    assert not created.ephemeral and title in created.content
    for person in people[1:]:
        assert (await person.slash(world.table, "tournament join")).ephemeral
    started = await world.alice.slash(world.table, "tournament start", timeout=20)
    assert started.content.startswith(
        "It begins! 3 pairs (1 bot), 2 rounds. Each match plays in its own thread:"
    )
    state = night_of(running_bot, world.table)
    assert state.schedule[0].sitting_out == (0, 1)  # alice & bob, the top seed: a bye
    assert state.places[5].is_bot  # erin's partner
    posts: list[str] = []
    for rnd in range(2):
        await play_round(emulator, running_bot, world.table, people, seed=rnd)
        await world.table.wait_for_message(
            lambda m, r=rnd: len(standings_posts(world.table, title)) >= r + 1, timeout=20
        )
        posts = standings_posts(world.table, title)
        state = night_of(running_bot, world.table)
        thread = emulator.channels[state.threads[(rnd, 0)]]
        assert isinstance(thread, ThreadChannel) and thread.parent is world.table
    assert state.status == "finished" and state.played_out and len(posts) == 2
    assert state.table_count == 1 and len(state.opened) == 2
    # The first round's winner met the bye's pair in the final.
    first = state.schedule[0].tables[0]
    final = state.schedule[1].tables[0]
    ns, ew = state.results[(0, 0)]
    first_winner = team_of_place((first.north_south if ns >= ew else first.east_west)[0])
    if ns == ew:  # a tied short game goes to the better seed
        first_winner = 1
    assert {team_of_place(final.north_south[0]), team_of_place(final.east_west[0])} == {
        0,
        first_winner,
    }
    # The recorded games are the results.
    store = running_bot.tournaments.store
    for (rnd, table), table_id in state.opened.items():
        assert await store.table_scores(table_id) == state.results[(rnd, table)]
    champion = state.pair_standings()[0]
    assert champion.out_in is None and champion.won == (1 if champion.team == 0 else 2)
    names = " & ".join(state.places[p].name for p in (2 * champion.team, 2 * champion.team + 1))
    assert t("tournament.pair.champion", None, rank=1, names=names) in posts[-1]
    assert posts[-1].startswith(f"**{title} — " + t("tournament.standings.final", None))
    top_seed = f"{state.places[0].name} & {state.places[1].name}"  # alice and bob, joined first
    assert t("tournament.match.bye", None, round=1, names=top_seed) in posts[-1]
    assert len([m for m in world.table.messages if m.attachments]) >= 2
