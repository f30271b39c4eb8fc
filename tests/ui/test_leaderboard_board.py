"""/leaderboard against the real bot on the emulator, over many games recorded through the real
write path in two servers: ranks, pages and their buttons (also after a restart), the minimum
number of games, bots never ranked, the week and month views, and a second server's games
never shown. Real SQLite, no mocks."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.settings import Settings
from bot.storage import Database, LeaderboardRow, ResultsRepository
from bot.storage.periods import period_start
from bot.ui.boards.pages import BOARD_PAGE_SIZE, MIN_GAMES
from emulator import Emulator, Guild, Message, SimulatedUser, run_bot
from tests.support.leaderboard import (
    Ledger,
    Recorder,
    display_name,
    people,
    random_seats,
)
from tests.support.world import World

DAY = 86400.0
ROW = re.compile(
    r"`#(?P<rank>\d+)` \*\*(?P<name>.+?)\*\* — \*\*(?P<rating>-?\d+)\*\* · (?P<games>\d+) games?"
    r" · (?P<wins>\d+) wins? \((?P<pct>\d+)%\)"
)


@dataclass(frozen=True)
class Row:
    rank: int
    name: str
    rating: int
    games: int
    wins: int
    pct: int


def rows_of(message: Message) -> list[Row]:
    embed = message.embed
    assert embed is not None, message.text
    out = []
    for line in (embed.get("description") or "").splitlines():
        match = ROW.fullmatch(line)
        assert match, f"unexpected leaderboard line {line!r}"
        out.append(
            Row(
                int(match["rank"]),
                match["name"].replace("\\_", "_"),
                int(match["rating"]),
                int(match["games"]),
                int(match["wins"]),
                int(match["pct"]),
            )
        )
    return out


def buttons_of(message: Message) -> dict[str, bool]:
    """label -> enabled."""
    return {b.label or "": not b.disabled for b in message.buttons}


@dataclass
class Servers:
    a: Guild
    b: Guild
    regulars: list[SimulatedUser]  # play in A; the first three play in B too
    weekly: list[SimulatedUser]  # A's players of this week
    newbie: SimulatedUser  # two games in A: below the minimum
    b_only: list[SimulatedUser]
    ledger: Ledger
    now: float


async def record_two_servers(emu: Emulator, world: World, db: Database) -> Servers:
    """Server A: 26 regulars over 70 days, five of them this week, a newbie with 2 games, bots
    in some seats; server B: its own people and three of A's."""
    rng = random.Random(20261122)
    a = world.guild
    b = emu.add_guild("Other")
    b.add_channel("cards")
    # max_power (shown "Max_power", a markdown character in it) plays every week.
    names = ["reg00", "reg01", "reg02", "max_power"] + [f"reg{i:02d}" for i in range(4, 26)]
    regulars = people(emu, a, names)
    newbie = people(emu, a, ["newbie"])[0]
    b_only = people(emu, b, ["zed", "yan", "xia", "wes"])
    people(emu, b, names[:3])  # regulars 0..2 are members of B too
    now = time.time()
    week, month = period_start("week", now), period_start("month", now)
    recorder = Recorder(db)
    plans: list[tuple[float, int, str, Sequence[SimulatedUser | None]]] = []
    old_end = min(week, month) - 60
    for _ in range(40):
        ended = rng.uniform(now - 70 * DAY, old_end)
        plans.append((ended, a.id, "euchre", random_seats(rng, regulars, 0.15)))
    for _ in range(2):
        seats = random_seats(rng, regulars, 0.0)
        seats[1] = newbie
        plans.append((rng.uniform(now - 70 * DAY, old_end), a.id, "euchre", seats))
    if month < week:  # this month, before this week (not on the first days of a month)
        for _ in range(4):
            ended = rng.uniform(month, week - 60)
            plans.append((ended, a.id, "euchre", random_seats(rng, regulars[:8], 0.0)))
    weekly = regulars[3:8]
    for i in range(6):  # each of the five weekly players misses one or two of the six games
        week_seats: list[SimulatedUser | None] = [p for j, p in enumerate(weekly) if j != i % 5]
        if i == 2:
            week_seats[3] = None
        plans.append((rng.uniform(week, now - 1), a.id, "euchre", week_seats))
    for _ in range(4):
        plans.append((rng.uniform(now - 9 * DAY, now - 1), a.id, "truco", regulars[:4]))
    b_pool = b_only + regulars[:3]
    for _ in range(10):
        ended = rng.uniform(now - 40 * DAY, now - 1)
        plans.append((ended, b.id, "euchre", random_seats(rng, b_pool, 0.1)))
    plans.sort(key=lambda plan: plan[0])  # recorded in the order they ended, as in real life
    for index, (ended, guild_id, game, plan_seats) in enumerate(plans):
        options = {"target": 5} if game == "euchre" else {"target": 6}
        await recorder.record(guild_id, game, plan_seats, ended, seed=index + 1, options=options)
    return Servers(a, b, regulars, weekly, newbie, b_only, recorder.ledger, now)


async def walk_pages(user: SimulatedUser, message: Message, emu: Emulator) -> list[list[Row]]:
    """Every page, clicking ▶ until it is disabled; each click edits the message (type 7)."""
    pages = [rows_of(message)]
    assert buttons_of(message) == {"◀": False, "▶": True}
    while buttons_of(message)["▶"]:
        interaction = await user.send_click(message, "▶")
        await interaction.wait_settled()
        assert interaction.response_type == 7 and not interaction.failed
        pages.append(rows_of(message))
        assert buttons_of(message)["◀"]
    return pages


def check_board(
    rows: list[Row],
    servers: Servers,
    guild_id: int,
    game: str,
    period: str,
    expected_order: list[LeaderboardRow],
) -> None:
    """The rows are the ranked people of that view (from the ledger) with their games and wins
    (from the ledger), in the order and with the ratings the storage computed."""
    ledger, now = servers.ledger, servers.now
    ranked = ledger.ranked(guild_id, game, MIN_GAMES, period, now)
    names = {u.id: display_name(u) for u in servers.regulars + servers.b_only + [servers.newbie]}
    assert [r.rank for r in rows] == list(range(1, len(rows) + 1))
    assert sorted(r.name for r in rows) == sorted(names[u] for u in ranked)
    assert [r.name for r in rows] == [row.name for row in expected_order]
    assert [r.rating for r in rows] == [row.rating for row in expected_order]
    ratings = [r.rating for r in rows]
    assert ratings == sorted(ratings, reverse=True)
    by_name = {name: user for user, name in names.items()}
    for row in rows:
        games, wins, _ = ledger.record_of(guild_id, game, by_name[row.name], period, now)
        assert (row.games, row.wins) == (games, wins), row
        assert row.games >= MIN_GAMES
        assert row.pct == round(100 * wins / games)
        assert not row.name.startswith(("Bot", "🤖"))


async def test_leaderboard_ranks_pages_and_buttons_survive_a_restart(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    async with run_bot(emulator, bot_settings) as bot:
        assert bot.db is not None
        servers = await record_two_servers(emulator, world, bot.db)
        repo = ResultsRepository(bot.db)
        expected = (await repo.leaderboard(world.guild.id, "euchre", page_size=100)).rows
        assert len(expected) > 2 * BOARD_PAGE_SIZE, "the data must fill three pages"

        board = await world.alice.slash(world.table, "leaderboard", game="euchre")
        assert not board.ephemeral and board.visible_to(world.bob)  # public
        assert "Euchre leaderboard — all time" in board.text
        assert f"ranked after {MIN_GAMES} games" in board.text
        assert "bots are not ranked" in board.text
        assert "Page 1 of 3" in board.text
        pages = await walk_pages(world.bob, board, emulator)
        assert [len(p) for p in pages] == [10, 10, len(expected) - 20]
        assert "Page 3 of 3" in board.text and buttons_of(board) == {"◀": True, "▶": False}
        rows = [row for page in pages for row in page]
        check_board(rows, servers, world.guild.id, "euchre", "all", expected)
        # The minimum number of games: the newbie played two.
        assert servers.ledger.record_of(world.guild.id, "euchre", servers.newbie.id)[0] == 2
        assert display_name(servers.newbie) not in board.text
        # A name is shown as it was typed: its markdown characters escaped.
        descriptions = "".join(m.get("description") or "" for v in board.versions for m in v.embeds)
        assert "Max\\_power" in descriptions and "Max_power" not in descriptions
        # ◀ goes back, one page at a time.
        await world.carol.click(board, "◀")
        assert rows_of(board) == pages[1] and "Page 2 of 3" in board.text

    # A restart: the buttons carry their keys, so the old message's buttons still work.
    async with run_bot(emulator, bot_settings):
        interaction = await world.dave.send_click(board, "◀")
        await interaction.wait_settled()
        assert interaction.response_type == 7
        assert rows_of(board) == pages[0] and buttons_of(board) == {"◀": False, "▶": True}


async def test_leaderboard_week_and_month_views_and_a_second_server(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    async with run_bot(emulator, bot_settings) as bot:
        assert bot.db is not None
        servers = await record_two_servers(emulator, world, bot.db)
        repo = ResultsRepository(bot.db)
        a, b = servers.a, servers.b
        for period in ("week", "month"):
            expected = (
                await repo.leaderboard(a.id, "euchre", period, page_size=100, now=servers.now)
            ).rows
            board = await world.alice.slash(
                world.table, "leaderboard", game="euchre", period=period
            )
            assert f"Euchre leaderboard — this {period}" in board.text
            assert f"ranked after {MIN_GAMES} games this {period}" in board.text
            rows = rows_of(board)
            if len(expected) > BOARD_PAGE_SIZE:
                rows = [r for page in await walk_pages(world.alice, board, emulator) for r in page]
            check_board(rows, servers, a.id, "euchre", period, expected)
            if period == "week":
                # Exactly this week's five players: the week's games count, not older ones.
                assert sorted(r.name for r in rows) == sorted(
                    display_name(u) for u in servers.weekly
                )
                assert all(r.games <= 6 for r in rows)

        # Truco in server A: four people, four games each.
        truco = await world.alice.slash(world.table, "leaderboard", game="truco")
        assert [r.games for r in rows_of(truco)] == [4, 4, 4, 4] and not truco.buttons

        # Server B shows its own games only: B's people and the three regulars with B's figures.
        expected_b = (await repo.leaderboard(b.id, "euchre", page_size=100)).rows
        other = b.channel("cards")
        reg0 = servers.regulars[0]
        await emulator.owner.slash(world.table, "sync", scope="global")  # B gets the commands
        board_b = await reg0.slash(other, "leaderboard", game="euchre")
        rows_b = rows_of(board_b)
        check_board(rows_b, servers, b.id, "euchre", "all", expected_b)
        a_only = {display_name(u) for u in servers.regulars[3:]} | {display_name(servers.newbie)}
        assert not a_only & {r.name for r in rows_b}
        board_a = await reg0.slash(world.table, "leaderboard", game="euchre")
        a_rows = [r for page in await walk_pages(reg0, board_a, emulator) for r in page]
        assert not {display_name(u) for u in servers.b_only} & {r.name for r in a_rows}
        # Nobody played truco in B: a friendly private sentence, no empty board.
        empty = await reg0.slash(other, "leaderboard", game="truco")
        assert empty.ephemeral and "Nobody is ranked in Truco Mineiro here yet" in empty.text


async def test_leaderboard_in_a_direct_message_is_one_private_sentence(
    emulator: Emulator, world: World, running_bot: object
) -> None:
    # Publish the commands everywhere (the owner's /sync), so that a DM offers them.
    await emulator.owner.slash(world.table, "sync", scope="global")
    commands: list[tuple[str, dict[str, Any]]] = [
        ("leaderboard", {"game": "euchre"}),
        ("stats", {}),
        ("history", {}),
    ]
    for command, options in commands:
        reply = await world.alice.slash(world.alice.dm, command, **options)
        assert reply.ephemeral and "per server" in reply.text and not reply.embeds
