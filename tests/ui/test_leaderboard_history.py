"""/history against the real bot on the emulator: the server's latest finished games, newest
first, with pages; each game's log button opens a readable hand-by-hand log, replayed from
storage, whose every hand, trick and score matches the game as it was played; a second server's
games never show. Also a game played at a real table through the bot. Real SQLite, no mocks."""

from __future__ import annotations

import random
import re
import time
from typing import Any

from bot.client import CardTableBot
from bot.engine.common import team_of
from bot.settings import Settings
from bot.storage import ResultsRepository
from bot.texts import n
from bot.ui.boards.pages import HISTORY_PAGE_SIZE
from emulator import Emulator, Message, SimulatedUser, run_bot
from tests.support.leaderboard import Recorded, Recorder, display_name, people
from tests.support.play_driver import TableDriver, scale_rate_limits
from tests.support.world import World

DAY = 86400.0
ENTRY = re.compile(
    r"\*\*(?P<number>\d+)\.\*\* (?P<game>Euchre|Truco Mineiro) · <t:(?P<ended>\d+):d> · "
    r"(?P<team0>.+) \*\*(?P<score0>\d+)–(?P<score1>\d+)\*\* (?P<team1>.+) · (?P<hands>\d+) hands?"
)
HAND = re.compile(r"^\*\*Hand (\d+): ", re.MULTILINE)
SCORE = re.compile(r"^\*Score — Team 1: (\d+) · Team 2: (\d+)\*$", re.MULTILINE)
TITLES = {"euchre": "Euchre", "truco": "Truco Mineiro"}


def entries_of(message: Message) -> list[dict[str, str]]:
    embed = message.embed
    assert embed is not None and message.ephemeral, message.text
    out = []
    for line in (embed.get("description") or "").splitlines():
        match = ENTRY.fullmatch(line)
        assert match, f"unexpected history line {line!r}"
        out.append(match.groupdict())
    return out


def team_text(recorded: Recorded, team: int) -> str:
    names = " & ".join(
        p.name for p in sorted(recorded.result.players, key=lambda p: p.seat) if p.team == team
    )
    text = f"Team {team + 1} ({names})"
    return f"🏆 {text}" if recorded.result.winner_team == team else text


def check_entries(shown: list[dict[str, str]], expected: list[Recorded], first: int) -> None:
    assert len(shown) == len(expected)
    for index, (entry, recorded) in enumerate(zip(shown, expected, strict=True)):
        result = recorded.result
        assert entry == {
            "number": str(first + index),
            "game": TITLES[result.game],
            "ended": str(int(result.ended_at)),
            "team0": team_text(recorded, 0),
            "score0": str(result.scores[0]),
            "score1": str(result.scores[1]),
            "team1": team_text(recorded, 1),
            "hands": str(result.hands_played),
        }


def newest_first(games: list[Recorded]) -> list[Recorded]:
    return sorted(games, key=lambda r: (r.result.ended_at, r.game_id), reverse=True)


async def read_log(
    person: SimulatedUser, history: Message, label: str
) -> tuple[Message, list[dict[str, Any]]]:
    """Open a game's log from the history and turn every page (each click edits it, type 7)."""
    log = await person.click(history, label)
    assert log is not history and log.ephemeral and log.visible_to(person)
    assert log.embed is not None
    pages = [log.embed]
    while any(b.label == "▶" and not b.disabled for b in log.buttons):
        interaction = await person.send_click(log, "▶")
        await interaction.wait_settled()
        assert interaction.response_type == 7 and not interaction.failed
        assert log.embed is not None
        pages.append(log.embed)
    return log, pages


def check_log(pages: list[dict[str, Any]], recorded: Recorded) -> None:
    """The log shows the game as the engine played it: every hand in order, every trick or
    round, each hand's score, the final result; pages of whole hands within Discord's limits."""
    result, played = recorded.result, recorded.played
    events = played.events
    winner = result.winner_team
    won, lost = result.scores[winner], result.scores[1 - winner]
    for number, page in enumerate(pages, start=1):
        assert page["title"] == (f"{TITLES[result.game]} — Team {winner + 1} wins {won}–{lost}")
        assert page["footer"]["text"] == f"Game {recorded.game_id} · page {number} of {len(pages)}"
        size = len(page["title"]) + len(page["description"]) + len(page["footer"]["text"])
        assert len(page["description"]) <= 4096 and size <= 6000
        header, _, body = page["description"].partition("\n\n")
        for team in (0, 1):
            names = [p.name if not p.is_bot else "🤖 " for p in result.players if p.team == team]
            assert all(name in header for name in names), (names, header)
        assert n("plural.hands", None, result.hands_played) in header
        if number > 1:
            assert body.startswith(("**Hand", "Game")), "a page begins with a whole hand"
    text = "\n\n".join(page["description"] for page in pages)
    dealt = [int(e.data["hand_number"]) + 1 for e in events if e.kind == "hand_dealt"]
    assert [int(n) for n in HAND.findall(text)] == dealt
    hand_end = "hand_scored" if result.game == "euchre" else "hand_won"
    scores = [tuple(e.data["scores"]) for e in events if e.kind == hand_end]
    assert [(int(a), int(b)) for a, b in SCORE.findall(text)] == scores
    assert scores[-1] == result.scores or result.options.get("match") == "rubber"
    if result.game == "euchre":
        tricks = [e for e in events if e.kind == "trick_won"]
        assert text.count(" takes trick ") == len(tricks)
    else:
        rounds = [e for e in events if e.kind in ("round_won", "round_tied")]
        taken = text.count(" wins round ") + text.count(" takes round ")
        assert taken + text.count(" is tied (empate)") == len(rounds)
    won, lost = result.scores[result.winner_team], result.scores[1 - result.winner_team]
    assert f"wins the game {won}–{lost}!" in text
    people = {p.name for p in result.players if not p.is_bot}
    assert all(name in text for name in people)


async def test_history_lists_the_latest_games_with_a_readable_log_each(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    rng = random.Random(31)
    other = emulator.add_guild("Other")
    cards = other.add_channel("cards")
    b_people = people(emulator, other, ["gus", "hana", "ivo", "jun"])
    async with run_bot(emulator, bot_settings) as bot:
        assert bot.db is not None
        recorder = Recorder(bot.db)
        now = time.time()
        plans: list[tuple[float, int, str, list[Any], dict[str, Any]]] = []
        for i in range(9):
            seats: list[Any] = list(world.players)
            rng.shuffle(seats)
            if i % 3 == 0:
                seats[rng.randrange(1, 4)] = None
            plans.append((now - rng.uniform(DAY, 9 * DAY), world.guild.id, "euchre", seats, {}))
        # A long rubber with a draw for partners and a bot: a log of several pages.
        rubber = {"target": 10, "match": "rubber", "seating": "draw"}
        plans.append((now - 3600, world.guild.id, "euchre", [*world.players[:3], None], rubber))
        for _ in range(4):
            plans.append(
                (now - rng.uniform(DAY, 9 * DAY), world.guild.id, "truco", world.players, {})
            )
        for _ in range(3):
            plans.append((now - rng.uniform(DAY, 9 * DAY), other.id, "euchre", b_people, {}))
        plans.sort(key=lambda plan: plan[0])
        for seed, (ended, guild_id, game, seats, options) in enumerate(plans, start=1):
            await recorder.record(guild_id, game, seats, ended, seed, options)
        ledger = recorder.ledger
        in_a = newest_first(ledger.of(world.guild.id))
        assert len(in_a) == 14 > HISTORY_PAGE_SIZE

        history = await world.alice.slash(world.table, "history")
        assert history.ephemeral and not history.visible_to(world.bob)
        assert f"Latest games in {world.guild.name}" in history.text
        check_entries(entries_of(history), in_a[:10], 1)
        labels = [b.label for b in history.buttons]
        assert labels == [f"Log {n}" for n in range(1, 11)] + ["◀", "▶"]
        assert [b.custom_id for b in history.buttons[:10]] == [f"hl:{r.game_id}" for r in in_a[:10]]
        assert [b.disabled for b in history.buttons[10:]] == [True, False]
        # The next page: the four oldest games; the message is edited in place.
        interaction = await world.alice.send_click(history, "▶")
        await interaction.wait_settled()
        assert interaction.response_type == 7
        check_entries(entries_of(history), in_a[10:], 11)
        assert [b.label for b in history.buttons] == [f"Log {n}" for n in range(11, 15)] + [
            "◀",
            "▶",
        ]
        assert [b.disabled for b in history.buttons[-2:]] == [False, True]
        await world.alice.click(history, "◀")
        check_entries(entries_of(history), in_a[:10], 1)

        # The rubber's log: every page, every hand.
        number = in_a.index(next(r for r in in_a if r.result.options.get("match") == "rubber"))
        log, pages = await read_log(world.alice, history, f"Log {number + 1}")
        assert len(pages) >= 2, "a rubber's log takes several pages"
        check_log(pages, in_a[number])
        assert "Draw for partners:" in pages[0]["description"]
        assert "🤖 Bot 4" in "".join(p["description"] for p in pages)
        assert "wins the rubber" in pages[-1]["description"]
        # ◀ at the last page goes back one page.
        await world.alice.click(log, "◀")
        assert log.embed == pages[-2]

        # Only truco: its four games, one page, and a truco log.
        truco = await world.dave.slash(world.table, "history", game="truco")
        assert "Latest Truco Mineiro games in" in truco.text
        in_a_truco = [r for r in in_a if r.result.game == "truco"]
        check_entries(entries_of(truco), in_a_truco, 1)
        assert [b.label for b in truco.buttons] == ["Log 1", "Log 2", "Log 3", "Log 4"]
        _, truco_pages = await read_log(world.dave, truco, "Log 2")
        check_log(truco_pages, in_a_truco[1])

        # Server B: its three games, none of A's, and their logs.
        await emulator.owner.slash(world.table, "sync", scope="global")
        there = await b_people[0].slash(cards, "history")
        in_b = newest_first(ledger.of(other.id))
        check_entries(entries_of(there), in_b, 1)
        assert not any(display_name(p) in there.text for p in world.players)
        _, b_pages = await read_log(b_people[0], there, "Log 3")
        check_log(b_pages, in_b[2])
        # Nothing yet of a game kind: one sentence.
        none = await b_people[1].slash(cards, "history", game="truco")
        assert none.text == "No finished Truco Mineiro games in this server yet."


async def test_a_game_played_at_a_table_shows_in_history_and_stats(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    scale_rate_limits(emulator, running_bot, per=1.0)
    driver = TableDriver(emulator, running_bot, world.table, [world.alice])
    lobby = await driver.open(world.alice, "truco new", target=6)
    await driver.sit(lobby, [], 3, world.alice)
    await driver.start(lobby, world.alice)
    await driver.play_to_end(random.Random(5))
    await driver.settle()
    table = driver.table
    game = table.game
    assert game is not None and game.is_over and table.result is not None

    history = await world.alice.slash(world.table, "history")
    [entry] = entries_of(history)
    assert entry["game"] == "Truco Mineiro"
    assert (int(entry["score0"]), int(entry["score1"])) == tuple(game.scores)
    assert int(entry["hands"]) == game.hand_number + 1
    assert running_bot.db is not None
    [stored] = await ResultsRepository(running_bot.db).history(world.guild.id)
    # The whole game's events: the table in memory keeps only its last hands'.
    record = table.record
    assert record.seed is not None
    whole = table.rules.replay(record.options, record.seed, record.first_dealer, game.actions)
    recorded = Recorded(stored.game_id, table.result, whole)
    _, pages = await read_log(world.alice, history, "Log 1")
    check_log(pages, recorded)

    stats = await world.alice.slash(world.table, "stats")
    alice_team = team_of(table.seat_of(world.alice.id) or 0)
    won = int(alice_team == game.winner)
    record = n("plural.games_bold", None, 1) + " · " + n("plural.wins_bold", None, won)
    assert f"{record} ({100 * won}%)" in stats.text
    assert "ranked after 3 games (1 so far)" in stats.text
