"""Review my play (issue 22) through the emulator: a recorded game with one deliberately bad move
(trumping the partner's winning trick in euchre; running from a truco with the zap) reviewed at
the review's own budget by the real search in the review's worker processes; the answer shows
its progress ("Reviewing… 0/N" first) and ends with the bad move marked a mistake (or worse),
the option the bot preferred and a button that opens the replay at that trick. Only a player
of the game may ask. Real SQLite, the real bot, no mocks."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

from bot.client import CardTableBot
from bot.settings import Settings
from bot.tables.review import decision_tasks
from bot.ui.after_game.replay import replay_of, seat_names, step_job
from bot.ui.after_game.review import step_of
from bot.ui.words.cards import card_text
from emulator import Emulator, Message, SimulatedUser, run_bot
from tests.support.bad_moves import euchre_trumping_the_partner, truco_with
from tests.support.leaderboard import Recorder
from tests.support.play_driver import TableDriver
from tests.support.world import World

PROGRESS = re.compile(r"Reviewing… (\d+)/(\d+)")
REVIEW_TIMEOUT = 120.0  # generous: the machine running the tests may be busy


def progress_seen(message: Message) -> list[tuple[int, int]]:
    found = [PROGRESS.fullmatch(version.content or "") for version in message.versions]
    return [(int(m[1]), int(m[2])) for m in found if m]


async def reviewed(user: SimulatedUser, world: World, game_id: int) -> Message:
    """`user` opens the game's replay and clicks Review my play; the finished review."""
    shown = await user.slash(world.table, "replay", game=game_id)
    answer = await user.click(shown, "Review my play")
    assert answer.ephemeral and answer is not shown
    await answer.wait_until(lambda m: m.embed is not None, timeout=REVIEW_TIMEOUT)
    return answer


@pytest.mark.parametrize("game_name", ["euchre", "truco"])
async def test_review_marks_the_deliberate_bad_move_with_progress(
    emulator: Emulator, world: World, bot_settings: Settings, game_name: str
) -> None:
    if game_name == "euchre":
        played, index = euchre_trumping_the_partner()
        shown_move = card_text(played.actions[index][1].removeprefix("play:"))
    else:
        played, index = truco_with("run")
        shown_move = "run"
    seats = [world.alice, world.bob, world.carol, None]  # dave did not play
    async with run_bot(emulator, bot_settings) as bot:
        assert bot.db is not None
        recorded = await Recorder(bot.db).record(
            world.guild.id, game_name, seats, time.time() - 60, 0, played=played
        )
        stored = await bot.results.finished_game(world.guild.id, recorded.game_id)
        assert stored is not None and stored.actions == [tuple(a) for a in played.actions]
        alice = world.alice  # seat 0, who made the move

        answer = await reviewed(alice, world, recorded.game_id)
        tasks = decision_tasks(
            game_name, stored.options, stored.seed, stored.first_dealer, stored.actions, 0
        )
        total = len(tasks)
        hand = next(task.hand for task in tasks if task.index == index) + 1
        # Progress first (the thinking answer replaced at once), then the review.
        progress = progress_seen(answer)
        assert progress and progress[0] == (0, total)
        assert all(seen_total == total for _, seen_total in progress)
        assert [done for done, _ in progress] == sorted(done for done, _ in progress)
        assert answer.visible_to(alice) and not answer.visible_to(world.bob)
        embed: dict[str, Any] = answer.embed or {}
        description = embed["description"]
        title = {"euchre": "Euchre", "truco": "Truco Mineiro"}[game_name]
        assert embed["title"] == f"Review of your play — {title}, game {recorded.game_id}"
        assert description.startswith(f"{total} decisions reviewed: ")
        marked = re.search(
            rf"\*\*(\d+)\.\*\* Hand {hand}: you chose {re.escape(shown_move)} — "
            r"(mistake|blunder) \(([^)]*)\)",
            description,
        )
        assert marked, description
        # Issue 34: why, in one sentence from the search's own figures: what was played and
        # what the bot preferred, each with its estimated result.
        lines = description.splitlines()
        at_line = next(i for i, ln in enumerate(lines) if ln.startswith(f"**{marked[1]}.** "))
        why = lines[at_line + 1]
        number_of = r"[+−]?\d+\.\d"
        if game_name == "euchre":
            expected = (
                rf"{re.escape(shown_move)}: your side takes this trick \d+ times in 10 and the "
                rf"hand averages {number_of} points; .+: \d+ in 10, {number_of}\."
            )
        else:
            expected = (
                r"run: your side takes this hand 0 times in 10 and wins the game \d+% of the "
                r"time; .+: \d+ in 10, \d+%\."
            )
        assert re.fullmatch(expected, why), why
        print(f"REVIEW ({game_name}):\n{description}")  # the closing note quotes it (pytest -s)
        # Both games measure the loss in one unit, named once.
        assert description.count("chance to win the game, in points of percentage") == 1
        # Every item has its button.
        items = re.findall(r"^\*\*(\d+)\.\*\* ", description, re.M)
        assert [button.label for button in answer.buttons] == [f"🔎 {i}" for i in items]
        # Its 🔎 button opens the replay at that card, privately, every hand face up from the
        # reviewer's seat.
        number = int(marked[1])
        opened = await alice.click(answer, f"🔎 {number}")
        assert opened.ephemeral and opened.embed is not None
        steps = replay_of(stored)
        at = step_of(steps, index)
        footer = opened.embed["footer"]["text"]
        assert footer.startswith(f"Step {at + 1} of {len(steps.steps)} ")
        assert steps.steps[at].actions == index + 1  # the step of that very move
        names = seat_names(stored, alice.locale)
        job = (game_name, steps.steps[at], names, stored.id, alice.locale, 0)
        (attachment,) = opened.attachments
        assert emulator.message_service.files[int(attachment["id"])].data == step_job(job)

        # Someone who did not play the game cannot review it.
        assert not world.dave.sees(answer)
        outsider = await world.dave.slash(world.table, "replay", game=recorded.game_id)
        refused = await world.dave.click(outsider, "Review my play")
        assert refused.ephemeral
        assert refused.text == "Only the people who played this game can review their play."


async def test_the_end_of_game_buttons_find_the_recorded_game_by_its_start(
    world: World, running_bot: CardTableBot
) -> None:
    """A game played to its end at a table: the end-of-game message's Replay and Review my play
    buttons carry the table and the game's start (not its seed, which fair deals make 78 digits
    long), and open the recorded game."""
    host = world.alice
    driver = TableDriver(world.emu, running_bot, world.table, [host])
    lobby = await driver.open(host, "truco new", target=6)
    await driver.sit(lobby, [], 3, host, level="easy")
    await driver.start(lobby, host)
    await driver.play_to_end(random.Random(5))
    await driver.check_result_recorded()
    table = driver.table
    started = table.record.started_at
    assert started is not None
    ended = driver.message
    replay_button = ended.button("Replay")
    assert replay_button.custom_id == f"ge:{table.id}:t{int(started * 1000)}:open"
    [entry] = await running_bot.results.history(world.guild.id)
    shown = await host.click(ended, "Replay")
    assert shown.ephemeral and shown.embed is not None
    assert shown.embed["title"].startswith(f"Replay — Truco Mineiro, game {entry.game_id} ")
    review = await host.click(ended, "Review my play")
    await review.wait_until(lambda m: m.embed is not None, timeout=REVIEW_TIMEOUT)
    assert review.embed is not None
    assert review.embed["title"] == f"Review of your play — Truco Mineiro, game {entry.game_id}"
    driver.assert_no_failures()
