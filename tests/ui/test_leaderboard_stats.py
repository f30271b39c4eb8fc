"""/stats against the real bot on the emulator: a player's record and statistics in this server
equal what was recorded (games played by the engines, counted by the table service, written
through the real store), per game kind, per server; unranked players, bots and people without
games get one sentence. Real SQLite, no mocks."""

from __future__ import annotations

import random
import re
import time
from typing import Any

from bot.settings import Settings
from bot.storage import ResultsRepository
from bot.tables.results import STATS
from bot.texts import t
from bot.ui.boards.pages import MIN_GAMES
from emulator import Emulator, Message, run_bot
from tests.support.leaderboard import Recorder, display_name, people
from tests.support.world import World

DAY = 86400.0
STANDING = re.compile(
    r"Rating \*\*(?P<rating>-?\d+)\*\* · (?:rank \*\*(?P<rank>\d+)\*\* of (?P<ranked>\d+)"
    r"|ranked after (?P<min>\d+) games \((?P<so_far>\d+) so far\))"
)
RECORD = re.compile(
    r"\*\*(?P<games>\d+)\*\* games? · \*\*(?P<wins>\d+)\*\* wins? \((?P<pct>\d+)%\)"
)
LINE = re.compile(r"(?P<label>.+): \*\*(?P<value>\d+)\*\*")


def fields_of(message: Message) -> dict[str, dict[str, Any]]:
    """Game title -> {"rating", "rank", "ranked", "so_far", "games", "wins", "pct", labels...}."""
    embed = message.embed
    assert embed is not None, message.text
    out: dict[str, dict[str, Any]] = {}
    for field in embed.get("fields") or []:
        lines = field["value"].splitlines()
        standing = STANDING.fullmatch(lines[0])
        record = RECORD.fullmatch(lines[1])
        assert standing and record, lines
        values: dict[str, Any] = {k: int(v) for k, v in standing.groupdict().items() if v}
        values |= {k: int(v) for k, v in record.groupdict().items()}
        for line in lines[2:]:
            match = LINE.fullmatch(line)
            assert match, line
            values[match["label"]] = int(match["value"])
        out[field["name"]] = values
    return out


async def test_stats_show_what_was_recorded_per_game_and_per_server(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    rng = random.Random(7)
    other = emulator.add_guild("Other")
    cards = other.add_channel("cards")
    extra = people(emulator, world.guild, ["erin", "finn"])
    people(emulator, other, ["alice", "gus", "hana", "ivo"])
    async with run_bot(emulator, bot_settings) as bot:
        assert bot.db is not None
        recorder = Recorder(bot.db)
        now = time.time()
        pool = world.players + extra[1:]  # Erin plays truco only
        seed = 0
        for _ in range(9):
            seats: list[Any] = rng.sample(pool, 4)
            if world.alice not in seats:
                seats[0] = world.alice
            if rng.random() < 0.3:
                seats[rng.choice([i for i, s in enumerate(seats) if s is not world.alice])] = None
            seed += 1
            await recorder.record(
                world.guild.id, "euchre", seats, now - rng.uniform(1, 30 * DAY), seed, {"target": 5}
            )
        for _ in range(5):
            seed += 1
            await recorder.record(
                world.guild.id, "truco", world.players, now - rng.uniform(1, 30 * DAY), seed
            )
        # Erin: exactly two truco games, below the minimum.
        for _ in range(2):
            seed += 1
            seats = [extra[0], world.bob, world.carol, world.dave]
            await recorder.record(
                world.guild.id, "truco", seats, now - rng.uniform(1, 30 * DAY), seed
            )
        # Alice in server B: three euchre games with other people.
        b_people = [emulator.user(n) for n in ("alice", "gus", "hana", "ivo")]
        for _ in range(3):
            seed += 1
            await recorder.record(other.id, "euchre", b_people, now - 1, seed, {"target": 5})
        ledger = recorder.ledger
        repo = ResultsRepository(bot.db)

        def expect(guild_id: int, user: Any, game: str, shown: dict[str, Any]) -> None:
            games, wins, stats = ledger.record_of(guild_id, game, user.id)
            assert (shown["games"], shown["wins"]) == (games, wins)
            assert shown["pct"] == round(100 * wins / games)
            for stat in STATS[game]:
                assert shown[t(f"stats.{game}.{stat}")] == stats.get(stat, 0), stat

        # Alice's own record in server A: both games, every statistic.
        mine = await world.alice.slash(world.table, "stats")
        assert mine.ephemeral and not mine.visible_to(world.bob)
        assert f"{display_name(world.alice)} — record in {world.guild.name}" in mine.text
        assert f"Ranked after {MIN_GAMES} games" in mine.text
        shown = fields_of(mine)
        assert list(shown) == ["Euchre", "Truco Mineiro"]
        stored = await repo.player_stats(world.guild.id, world.alice.id, min_games=MIN_GAMES)
        for game, title in (("euchre", "Euchre"), ("truco", "Truco Mineiro")):
            expect(world.guild.id, world.alice, game, shown[title])
            record = stored.records[game]
            assert shown[title]["rating"] == record.rating
            assert (shown[title]["rank"], shown[title]["ranked"]) == (
                record.rank,
                record.ranked_players,
            )
        euchre_stats = ledger.record_of(world.guild.id, "euchre", world.alice.id)[2]
        assert sum(euchre_stats.values()) > 0, "the games must give the statistics something"
        assert shown["Euchre"]["Made trump"] == euchre_stats["made_trump"]

        # Someone else's, one game only.
        bobs = await world.alice.slash(world.table, "stats", user=world.bob, game="truco")
        shown = fields_of(bobs)
        assert list(shown) == ["Truco Mineiro"] and "Bob — record in" in bobs.text
        expect(world.guild.id, world.bob, "truco", shown["Truco Mineiro"])

        # Below the minimum: rated, not ranked yet.
        erins = await world.dave.slash(world.table, "stats", user=extra[0])
        shown = fields_of(erins)
        assert list(shown) == ["Truco Mineiro"]
        assert shown["Truco Mineiro"]["so_far"] == 2 and "rank" not in shown["Truco Mineiro"]
        expect(world.guild.id, extra[0], "truco", shown["Truco Mineiro"])
        none = await world.dave.slash(world.table, "stats", user=extra[0], game="euchre")
        assert none.ephemeral and "Erin has no finished Euchre games in this server yet." in (
            none.text
        )

        # Server B: Alice's three games there, nothing of server A.
        await emulator.owner.slash(world.table, "sync", scope="global")
        there = await world.alice.slash(cards, "stats")
        shown = fields_of(there)
        assert list(shown) == ["Euchre"] and shown["Euchre"]["games"] == 3
        expect(other.id, world.alice, "euchre", shown["Euchre"])
        assert "record in Other" in there.text

        # Nobody and a bot.
        newcomer = people(emulator, world.guild, ["jo"])[0]
        empty = await newcomer.slash(world.table, "stats")
        assert empty.ephemeral and empty.text == "Jo has no finished games in this server yet."
        robot = await world.alice.slash(world.table, "stats", user=emulator.bot)
        assert robot.ephemeral and "Bots play for fun" in robot.text
