"""After the game (issue 22) through the emulator: a recorded game replayed step by step to its
last trick, each picture checked against the one drawn from the stored log; the hand picker;
the hand record exported and read back by /replay to the same final score; the game's summary
posted to the channel by the asker, notifying nobody. Real SQLite, the real bot, no mocks."""

from __future__ import annotations

import io
import re
import time

from bot.settings import Settings
from bot.storage import FinishedGame
from bot.tables.hand_record import import_text
from bot.tables.replay import replay_steps
from bot.texts import t
from bot.ui.after_game.replay import seat_names, step_job
from bot.ui.words.cards import card_text
from emulator import Emulator, Message, run_bot
from tests.support.leaderboard import Recorder
from tests.support.world import World

STEP = re.compile(r"\D*(\d+)\D+(\d+)")  # "Step 3 of 40", "Passo 3 de 40"


def picture(emulator: Emulator, message: Message) -> bytes:
    (attachment,) = message.attachments
    return emulator.message_service.files[int(attachment["id"])].data


def step_shown(message: Message) -> tuple[int, int]:
    assert message.embed is not None
    match = STEP.match(message.embed["footer"]["text"])
    assert match, message.embed["footer"]
    return int(match[1]) - 1, int(match[2])


def expected_picture(game: FinishedGame, index: int, locale: str) -> bytes:
    steps = replay_steps(game.game, game.options, game.seed, game.first_dealer, game.actions)
    names = seat_names(game, locale)
    return step_job((game.game, steps.steps[index], names, game.id, locale))


async def test_replay_to_the_last_trick_with_pictures_export_import_and_post(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    async with run_bot(emulator, bot_settings) as bot:
        assert bot.db is not None
        recorded = await Recorder(bot.db).record(
            world.guild.id, "euchre", world.players, time.time() - 60, 7, {"target": 5}
        )
        stored = await bot.results.finished_game(world.guild.id, recorded.game_id)
        assert stored is not None
        steps = replay_steps(
            stored.game, stored.options, stored.seed, stored.first_dealer, stored.actions
        )
        alice = world.alice

        shown = await alice.slash(world.table, "replay", game=recorded.game_id)
        assert shown.ephemeral and not shown.visible_to(world.bob)
        assert step_shown(shown) == (0, len(steps.steps))
        assert picture(emulator, shown) == expected_picture(stored, 0, "en-US")
        # ⏭ hand by hand to the last step: the game's last trick and the hand's end, every
        # hand face up.
        last = shown
        while not last.button("⏭").disabled:
            last = await alice.click(last, "⏭")
        assert step_shown(last) == (len(steps.steps) - 1, len(steps.steps))
        assert steps.steps[-1].kind == "hand_end" and steps.steps[-1].view["is_over"]
        assert picture(emulator, last) == expected_picture(stored, len(steps.steps) - 1, "en-US")
        # ◀ one step back: the last trick of the last hand.
        back = await alice.click(last, "◀")
        index, _ = step_shown(back)
        assert index == len(steps.steps) - 2 and steps.steps[index].kind == "trick"
        assert picture(emulator, back) == expected_picture(stored, index, "en-US")
        # The hand picker: the second hand's deal.
        second = steps.hand_starts[1]
        picked = await alice.select(back, f"ag:{recorded.game_id}:hand", [str(second)])
        assert step_shown(picked)[0] == second
        assert picked.embed is not None and "hand 2 of" in picked.embed["title"]
        # Anyone in the server can open the same replay (the ids carry all it needs).
        bobs = await world.bob.slash(world.table, "replay", game=recorded.game_id)
        assert step_shown(bobs)[0] == 0

        # The hand record: a .txt file that reads back to the same final state.
        exported = await alice.click(picked, "Hand record")
        assert exported.ephemeral
        (attachment,) = exported.attachments
        assert attachment["filename"] == f"euchre-game-{recorded.game_id}.txt"
        text = picture(emulator, exported)
        game = import_text(text.decode())
        assert tuple(game.scores) == stored.scores
        assert list(game.actions) == stored.actions
        replayed = await alice.slash(world.table, "replay", record=("game.txt", text))
        assert replayed.embed is not None
        score = f"{stored.scores[0]}–{stored.scores[1]}"
        assert f"Final score {score}" in replayed.embed["description"]
        assert picture(emulator, replayed) == step_job(
            ("euchre", steps.steps[-1], [f"Seat {s}" for s in range(1, 5)], 0, "en-US")
        )
        broken = await alice.slash(world.table, "replay", record=("x.txt", b"not a record"))
        assert broken.ephemeral and broken.text.startswith("That file doesn't replay")

        # Post to channel: a public copy of the summary, by the asker, notifying nobody.
        posted = await alice.click(picked, "Post to channel")
        assert not posted.ephemeral and posted.visible_to(world.dave)
        assert posted.content == f"Shared by <@{alice.id}>"
        assert posted.embed is not None and "Score by hand:" in posted.embed["description"]

        # A forged game id (another server's, or none): one short private sentence.
        missing = await alice.slash(world.table, "replay", game=9999)
        assert missing.ephemeral and missing.text == "That game is not in this server's history."


async def test_replay_shows_every_hand_face_up_card_by_card_from_the_viewers_seat(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    """Issue 34: a finished game has no secrets. From the deal on, the four hands are drawn
    face up, the viewer's own seat at the bottom; ◀ ▶ move one card (one action), ⏮ ⏭ one
    hand; the picture is 800 px wide (cards 84 px, text 22 px and more: readable at 400)."""
    from PIL import Image

    from bot.pictures import replay as replay_picture

    async with run_bot(emulator, bot_settings) as bot:
        assert bot.db is not None
        recorded = await Recorder(bot.db).record(
            world.guild.id, "euchre", world.players, time.time() - 60, 7, {"target": 5}
        )
        stored = await bot.results.finished_game(world.guild.id, recorded.game_id)
        assert stored is not None
        steps = replay_steps(
            stored.game, stored.options, stored.seed, stored.first_dealer, stored.actions
        )
        bob = world.bob
        names = seat_names(stored, bob.locale)
        bob_seat = next(p.seat for p in stored.players if p.user_id == bob.id)
        assert bob_seat != 0

        shown = await bob.slash(world.table, "replay", game=recorded.game_id)
        assert shown.embed is not None and "Last hand" not in str(shown.embed)
        deal = steps.steps[0]
        assert deal.kind == "deal" and [len(hand) for hand in deal.held] == [5, 5, 5, 5]
        job = (stored.game, deal, names, stored.id, bob.locale, bob_seat)
        assert picture(emulator, shown) == step_job(job)
        assert picture(emulator, shown) != step_job((*job[:5], 0))  # not from seat 0
        png = Image.open(io.BytesIO(picture(emulator, shown)))
        assert png.width == 800
        assert replay_picture.CARD >= 80 and replay_picture.SMALL_TEXT >= 22

        # ▶: one action on; card by card through the first trick.
        moved = await bob.click(shown, "▶")
        assert step_shown(moved) == (1, len(steps.steps))
        assert steps.steps[1].actions == steps.steps[0].actions + 1
        first_card = next(s for s in steps.steps if s.move and s.move[1].startswith("play:"))
        assert first_card.view["trick"] and len(first_card.view["trick"]) == 1
        held = sum(len(hand) for hand in first_card.held)
        assert held == 19  # twenty dealt, one on the table
        at = moved
        while step_shown(at)[0] < first_card.index:
            at = await bob.click(at, "▶")
        assert first_card.move is not None and at.embed is not None
        seat, action = first_card.move
        card = card_text(action.removeprefix("play:"))
        assert at.embed["description"] == t(
            "replay.move", bob.locale, player=names[seat], move=card
        )
        assert picture(emulator, at) == step_job((*job[:1], first_card, *job[2:]))
        # ⏭: the next hand's deal; ⏮: back to this hand's deal, then to the hand before.
        second = steps.hand_starts[1]
        nxt = await bob.click(moved, "⏭")
        assert step_shown(nxt)[0] == second
        stepped = await bob.click(nxt, "▶")
        back = await bob.click(stepped, "⏮")
        assert step_shown(back)[0] == second
        before = await bob.click(back, "⏮")
        assert step_shown(before)[0] == 0
