"""A whole progressive euchre night played from outside, as players would (issue 34): eleven
people and a bot, two rounds of two hands, each table in its own thread. What the players are
told must lead them: the start message points to exactly the threads of round 1, each with its
seats; each person is pinged once, in their own thread, by its first message, which shows the
round's time left; tables are titled "hand 1 of 2"; a tied table reads as a tie, as the
standings count it; bots carry one name at the tables and in the standings; after the night
/tournament status shows the final standings (and `id:` any night of the server); the command
offers only the hands it accepts. Real SQLite, the real bot, no mocks."""

from __future__ import annotations

import re

import pytest

from bot.client import CardTableBot
from bot.tables.tournament import Tournament
from bot.texts import t
from emulator import Channel, Emulator, EmulatorUsageError, Message
from tests.support.play_driver import scale_rate_limits
from tests.support.shown import text_of
from tests.support.tournament_night import eleven_people, night_of, play_round, standings_posts
from tests.support.world import World

THREAD = re.compile(r"<#(\d+)>")
RELATIVE_TIME = re.compile(r"<t:(\d+):R>")


def embed_texts(channel: Channel) -> list[str]:
    """Every version of every message the bot showed in a channel: its embeds' titles and
    descriptions, its content, and its layout's words."""
    out = []
    for message in channel.messages:
        for version in message.versions:
            for embed in version.embeds:
                out.append(f"{embed.get('title', '')}\n{embed.get('description', '')}")
            out.append(version.content)
            out.append(text_of(version.components))  # a Components V2 layout's words (issue 30)
    return out


def first_message(channel: Channel) -> Message:
    """The thread's first message of the bot's own: the welcome. The game's fair-deal
    commitment (issue 32) is posted from the cuts' task, before or after it."""
    return next(m for m in channel.messages if not m.content.startswith("-# 🔒"))


async def test_a_night_tells_each_player_where_to_sit_and_reads_as_played(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    scale_rate_limits(emulator, running_bot, per=1.0)
    people = eleven_people(world)
    alice = world.alice
    # The options offered are the ones accepted: no night of 0 hands is offered.
    with pytest.raises(EmulatorUsageError, match="hands=0"):
        await alice.slash(world.table, "tournament create", rounds=2, hands=0)
    created = await alice.slash(world.table, "tournament create", rounds=2, hands=2)
    assert not created.ephemeral and "2 rounds of 2 hands" in created.content
    for person in people[1:]:
        await person.slash(world.table, "tournament join")
    started = await alice.slash(world.table, "tournament start", timeout=20)
    state: Tournament = night_of(running_bot, world.table)
    tournament_id = next(iter(running_bot.tournaments._live))

    # The start message lists every table of round 1: its thread and its seats, pinging nobody.
    round_one = {state.threads[(0, table)] for table in range(state.table_count)}
    assert {int(i) for i in THREAD.findall(started.content)} == round_one
    for table in range(state.table_count):
        line = next(
            ln for ln in started.content.splitlines() if f"<#{state.threads[(0, table)]}>" in ln
        )
        assert line.startswith(f"**Table {table + 1}**")
        for place in state.seats(0, table):
            shown = f"<@{place.user_id}>" if place.user_id is not None else "🤖 Bot 12"
            assert shown in line, line
    assert started.notified == []
    print("START MESSAGE:\n" + started.content)  # the closing note quotes it (pytest -s)

    bot_place = next(p for p in state.places if p.user_id is None)
    assert bot_place.number == 11
    for rnd in range(2):
        await play_round(emulator, running_bot, world.table, people, seed=rnd + 40)
        await world.table.wait_for_message(
            lambda m, r=rnd: len(standings_posts(world.table)) >= r + 1, timeout=30
        )
        state = night_of(running_bot, world.table)
        pinged: dict[int, int] = {}
        for table in range(state.tables_in(rnd)):
            thread = emulator.channels[state.threads[(rnd, table)]]
            seats = state.seats(rnd, table)
            people_here = sorted(p.user_id for p in seats if p.user_id is not None)
            # Its first message (besides the deal's commitment): the round, its hands, the seats,
            # the time left; it pings the table's people, each once, and nobody else.
            welcome = first_message(thread)
            assert welcome.content.startswith(f"**Round {rnd + 1} of 2 · Table {table + 1}**")
            assert "2 hands" in welcome.content
            deadline = RELATIVE_TIME.search(welcome.content)
            assert deadline is not None
            started_at = state.round_started[rnd]
            assert int(deadline[1]) == started_at + running_bot.tournaments.round_seconds
            assert sorted(welcome.notified) == people_here
            if rnd == table == 0:
                print("FIRST MESSAGE OF A THREAD:\n" + welcome.content)
            for user_id in welcome.notified:
                pinged[user_id] = pinged.get(user_id, 0) + 1
            texts = embed_texts(thread)
            # A round of two hands is titled as such, never by a target it does not play to.
            assert any("Euchre — hand 1 of 2" in text for text in texts), texts[:6]
            assert not any("first to" in text.split("\n")[0] for text in texts)
            # A tie reads as a tie (and not as a win); a decided table names its winner.
            ns, ew = state.results[(rnd, table)]
            final = "\n".join(texts[-12:])
            if ns == ew:
                assert f"a tie, {ns}–{ew}" in final.lower(), final
                assert "wins the game" not in "\n".join(texts)
            else:
                assert f"{max(ns, ew)}–{min(ns, ew)}" in final
            # The bot of the field carries its name at the table too.
            if bot_place in seats:
                assert any("🤖 Bot 12 (normal)" in text for text in texts)
        assert pinged == {p.id: 1 for p in people}  # everyone plays each round (12 places)
        # Nobody is pinged into a thread that is not theirs.
        for table in range(state.tables_in(rnd)):
            thread = emulator.channels[state.threads[(rnd, table)]]
            here = {p.user_id for p in state.seats(rnd, table)}
            strangers = {u for m in thread.messages for u in m.notified} - here
            assert not strangers

    posts = standings_posts(world.table)
    assert len(posts) == 2 and state.status == "finished"
    final = posts[-1]
    assert "🤖 Bot 12" in final and "Bot 12 " not in final.replace("🤖 Bot 12", "")
    # A tied table counts as won by neither side: rounds won as the tables read them.
    for standing in state.standings():
        won = 0
        for (rnd, table), (ns, ew) in state.results.items():
            seats = state.schedule[rnd].tables[table]
            if standing.place.number in seats.north_south:
                won += ns > ew
            elif standing.place.number in seats.east_west:
                won += ew > ns
        assert standing.rounds_won == won

    # After the night: the channel's status is its final standings; `id:` shows it anywhere.
    after = await world.bob.slash(world.table, "tournament status")
    assert after.ephemeral and after.content.startswith("**Final standings**"), after.content
    assert after.content.splitlines()[:4] == final.splitlines()[:4]
    elsewhere = world.guild.add_channel("elsewhere")
    by_id = await world.bob.slash(elsewhere, "tournament status", id=tournament_id)
    assert by_id.content.splitlines()[:4] == final.splitlines()[:4]
    nothing = await world.bob.slash(elsewhere, "tournament status", id=tournament_id + 99)
    refused = t("tournament.error.no_such", world.bob.locale, number=tournament_id + 99)
    assert nothing.ephemeral and nothing.content == refused
