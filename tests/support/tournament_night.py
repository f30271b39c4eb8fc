"""A progressive euchre night through the emulator (test helper, no tests here): people join
with /tournament join, the host starts it, and each round's tables are played in their threads
by clicking what the players see (TableDriver), one table after another."""

from __future__ import annotations

import random

from bot.client import CardTableBot
from bot.tables.tournament import Tournament
from bot.texts import t
from emulator import Channel, Emulator, SimulatedUser
from tests.support.play_driver import TableDriver
from tests.support.world import World

MORE_PEOPLE = ("erin", "frank", "gina", "hal", "ivy", "jon", "kim")


def eleven_people(world: World) -> list[SimulatedUser]:
    """The world's four and seven more members: eleven people, a bot makes twelve."""
    extra = [world.emu.add_user(name) for name in MORE_PEOPLE]
    for person in extra:
        world.guild.add_member(person)
    return [*world.players, *extra]


def night_of(bot: CardTableBot, channel: Channel) -> Tournament:
    found = bot.tournaments.in_channel(channel.id)
    if found is None:  # finished: the latest one of the channel
        finished = [s for r, s in bot.tournaments._live.values() if r.channel_id == channel.id]
        return finished[-1]
    return found[1]


async def play_round(
    emu: Emulator, bot: CardTableBot, channel: Channel, people: list[SimulatedUser], seed: int
) -> None:
    """Play every table of the current round to its end, in its thread (once every table of
    the round is open: the bot opens them after the last round's standings)."""

    def opened() -> Tournament | None:
        state = night_of(bot, channel)
        tables = range(state.table_count)
        ready = state.status == "playing" and bool(tables)
        return state if ready and all((state.round, t) in state.opened for t in tables) else None

    state = await emu.wait_for(opened, timeout=20, what="the round's tables")
    rnd = state.round
    for table in range(state.table_count):
        thread = emu.channels[state.threads[(rnd, table)]]
        await thread.wait_for_message(timeout=15)
        driver = TableDriver(emu, bot, thread, people)
        await driver.until_posted()
        await driver.play_to_end(random.Random(seed * 10 + table))


def standings_posts(channel: Channel) -> list[str]:
    """The standings the bot posted in the tournament's channel, oldest first."""
    first_lines = (
        t("tournament.standings.after", None, round=0, rounds=0).split(" 0")[0],
        t("tournament.standings.final", None),
    )
    return [m.content for m in channel.messages if m.content.lstrip("*").startswith(first_lines)]


def pairs_standings_posts(channel: Channel, title: str) -> list[str]:
    """The standings (and bracket) of a pairs tournament the bot posted, oldest first: they
    open with the bold title (the announcement only names it)."""
    return [m.content for m in channel.messages if m.content.startswith(f"**{title} — ")]
