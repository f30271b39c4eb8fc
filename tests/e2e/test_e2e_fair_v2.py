"""Issue 32 end to end (the real bot on the emulator, whose local drand beacon answers in drand's
JSON shape): each game's commitment is in a message created for it, before the round that cuts
each hand; every hand is cut by the round that message fixes; the table message carries one small
line; a beacon that is down, slow or answers garbage gives weak hands, marked, and play goes on;
two people with the Cut modal open both get their answer, and a modal opened before a restart
too; a hostile typed cut is escaped everywhere it is shown; /verify shows card faces."""

from __future__ import annotations

import dataclasses
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.engine import fair_deal
from bot.settings import Settings
from bot.texts import t
from bot.ui.words.fair_lines import plain
from bot.ui.words.game_log import log_pages
from emulator import Emulator, Message, SimulatedUser, run_bot
from emulator.beacon import fake_round
from tests.support.fair_deals import SCRIPT, SeedWatch, cut_done, play_fair_to_end
from tests.support.play_driver import TableDriver, message_texts, scale_rate_limits
from tests.support.world import World

HOSTILE = "```x``` @everyone [click](https://evil.example) <@1> **b** ||s|| :x: # h"
CODES = re.compile(r"\b(?:[2-9TJQKA])[CDHS]\b")


async def start(driver: TableDriver, world: World, command: str, **options: Any) -> None:
    lobby = await driver.open(world.alice, command, **options)
    await driver.sit(lobby, [world.bob], 2, world.alice)
    await driver.start(lobby, world.alice)
    await cut_done(driver)


def commitment_messages(emulator: Emulator, world: World) -> list[Message]:
    return [
        m
        for m in emulator.messages.values()
        if m.channel.id == world.table.id and "commits to the game's secret" in m.content
    ]


def check(
    path: Path, records: list[dict[str, Any]], *extra: str
) -> subprocess.CompletedProcess[str]:
    """scripts/verify_deal.py offline, with the rounds the local beacon serves."""
    rounds = [fake_round(r["round"]) for r in records if not r["weak"]]
    (path / "rounds.json").write_text(json.dumps(rounds))
    (path / "game.json").write_text(json.dumps({"records": records}))
    args = [str(path / "game.json"), "--offline", "--beacon", str(path / "rounds.json"), *extra]
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize(("command", "seed"), [("truco new", 61), ("euchre new", 62)])
async def test_a_whole_game_is_cut_by_the_rounds_its_commitment_message_fixes(
    emulator: Emulator,
    world: World,
    bot_settings: Settings,
    tmp_path: Path,
    command: str,
    seed: int,
) -> None:
    rng = random.Random(seed)
    settings = dataclasses.replace(bot_settings, fair_deals=True)
    async with run_bot(emulator, settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        driver = TableDriver(emulator, bot, world.table, [world.alice, world.bob])
        options = {"target": 5} if "euchre" in command else {"target": 6}
        await start(driver, world, command, **options)
        table = driver.table
        watch = SeedWatch(emulator, table)
        bot.table_service.add_listener(watch)
        await play_fair_to_end(driver, rng)
        watch.scan()
        assert watch.leaks == []  # no seed before its hand ended
        game = table.game
        assert game is not None and game.is_over and table.record.seed is not None
        records = game.fair_records()
        (posted,) = commitment_messages(emulator, world)  # one message, created for the game
        assert len(posted.versions) == 1  # never edited
        assert posted.content.startswith("-# ")  # small text
        assert fair_deal.game_commitment(table.record.seed) in posted.content
        for record in records:
            assert record["message"] == str(posted.id) and not record["weak"]
            assert record["round"] == fair_deal.beacon_round(posted.id, record["hand"])
            # the message existed before the round that cuts the hand was published
            assert fair_deal.round_time(record["round"]) * 1000 > fair_deal.message_ms(posted.id)
            assert record["randomness"] == fake_round(record["round"])["randomness"]
        assert {n for _, n in emulator.beacon.asked} == {r["round"] for r in records}
        # The table message: one small line, no reveal line (reveals are one click away).
        texts = [t for v in driver.message.versions for t in message_texts(v)]
        assert any("-# 🔒 Game " in t for t in texts)
        assert not any("🔓 Hand" in t for t in texts)
        # The whole game checks offline, the game secret included.
        secret = fair_deal.game_secret(table.record.seed).hex()
        done = check(tmp_path, records, "--message", str(posted.id), "--secret", secret)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "game secret: OK" in done.stdout
        # /verify: its own code, card faces, the round and the game secret checked.
        answer = await world.alice.slash(world.table, "verify", hand=1)
        assert answer.ephemeral and "the deal checks ✅" in answer.text, answer.text
        hands = answer.text.split("Hands as dealt:")[1].split("Check it yourself")[0]
        assert re.search("[♣♦♥♠]", hands) and not CODES.search(hands)
        assert f"Beacon round {records[0]['round']} fixed by the commitment message: ok" in (
            answer.text
        )
        assert "Game secret (commitment and this hand's seed): ok" in answer.text
        # The game secret is revealed once the game is over: on the result message and in /verify
        assert f"-# 🔓 Game secret: `{secret}`" in driver.message.text
        assert secret in answer.text
        driver.assert_no_failures()


def no_raise(view: Any, seat: int, actions: list[str]) -> str:
    return next((a for a in actions if a.startswith("play:")), None) or next(
        (a for a in actions if a != "raise"), actions[0]
    )


@pytest.mark.parametrize("mode", ["down", "slow", "garbage", "wrong"])
async def test_a_beacon_that_fails_gives_weak_hands_marked_everywhere(
    emulator: Emulator, world: World, bot_settings: Settings, tmp_path: Path, mode: str
) -> None:
    rng = random.Random(14)
    emulator.beacon.set_all(mode)
    emulator.beacon.slow = 5.0
    async with run_bot(emulator, bot_settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        cuts = bot.table_service.fair_cuts
        cuts.wait = 0.4  # seconds before a hand is dealt weak
        cuts.retry = 0.05
        assert cuts.beacon is not None
        cuts.beacon.timeout = 0.1  # a slow relay is given up after this
        driver = TableDriver(emulator, bot, world.table, [world.alice, world.bob])
        await start(driver, world, "truco new", target=12)
        game = driver.table.game
        assert game is not None
        for _ in range(400):  # play on: the weak hands do not stop the game
            await cut_done(driver)
            # Cards, never a raise: a doze won in hand 1 would end the game before hand 2.
            if len(game.fair_records()) >= 2 or not await driver.step(rng, no_raise):
                break
        await driver.settle()
        records = game.fair_records()
        assert len(records) >= 2 and all(r["weak"] for r in records)
        assert emulator.beacon.asked  # asked, and nothing it said was taken
        texts = [t for v in driver.message.versions for t in message_texts(v)]
        # Edits are coalesced: the state that revealed hand 1 may be passed over for a later one.
        assert any("weak cut" in t for t in texts)
        answer = await world.alice.slash(world.table, "verify", hand=1)
        assert "the deal checks ✅" in answer.text
        assert "⚠️ weak cut: the beacon did not answer" in answer.text
        if game.is_over:  # the result message keeps the small line, with the weak mark
            assert "weak cut" in driver.message.text
        else:
            deal = await world.alice.click(driver.message, "🔒 Deal")
            assert "⚠️ weak cut: the beacon did not answer" in deal.text
        assert check(tmp_path, records).returncode == 3  # weak: not a silent pass
        assert check(tmp_path, records, "--allow-weak").returncode == 0
        driver.assert_no_failures()


async def test_a_dead_relay_is_passed_over_for_the_next(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    emulator.beacon.modes["a"] = "down"
    async with run_bot(emulator, bot_settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        driver = TableDriver(emulator, bot, world.table, [world.alice, world.bob])
        await start(driver, world, "truco new", target=6)
        assert driver.table.record.actions[1][1].startswith("cut:drand:")
        assert [r for r, _ in emulator.beacon.asked][:2] == ["a", "b"]
        driver.assert_no_failures()


async def open_cut(person: SimulatedUser, driver: TableDriver) -> Any:
    opened = await person.send_click(driver.message, f"tb:{driver.table.id}:cut")
    await opened.wait_settled()
    assert opened.modal is not None
    return opened.modal


async def test_two_people_with_the_cut_modal_open_both_get_an_answer(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    async with run_bot(emulator, bot_settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        driver = TableDriver(emulator, bot, world.table, [world.alice, world.bob])
        await start(driver, world, "truco new", target=6)
        first = await open_cut(world.alice, driver)
        second = await open_cut(world.bob, driver)
        assert first.custom_id != second.custom_id  # one per person
        answers = [
            await world.alice.submit_modal(first, {"cut": "mine"}),
            await world.bob.submit_modal(second, {"cut": "mine too"}),
        ]
        assert all(a.ephemeral and a.text for a in answers)
        driver.assert_no_failures()


async def test_a_cut_modal_opened_before_a_restart_is_answered_after_it(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    async with run_bot(emulator, bot_settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        driver = TableDriver(emulator, bot, world.table, [world.alice, world.bob])
        await start(driver, world, "truco new", target=6)
        modal = await open_cut(world.alice, driver)
    async with run_bot(emulator, bot_settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        driver = TableDriver(emulator, bot, world.table, [world.alice, world.bob])
        answer = await world.alice.submit_modal(modal, {"cut": "after the restart"})
        assert answer.ephemeral and answer.text  # answered: not "This interaction failed"
        driver.assert_no_failures()


async def test_a_hostile_cut_text_is_escaped_everywhere_it_is_shown(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    rng = random.Random(14)
    async with run_bot(emulator, bot_settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        driver = TableDriver(emulator, bot, world.table, [world.alice, world.bob])
        await start(driver, world, "truco new", target=24)
        game = driver.table.game
        assert game is not None
        # Play until a person deals: they cut the next hand and may type its flourish (a bot
        # may end the hand before the modal is sent: then the next person's deal is tried).
        hand, reply, replies = 0, None, []
        for _ in range(800):
            await cut_done(driver)
            fair = game.view(None)["fair"]
            seat = driver.table.player_at(int(fair["dealer"]))
            if game.phase != "cut" and not seat.is_bot and seat.user_id is not None:
                dealer = driver.person_at(int(fair["dealer"]))
                hand = int(fair["hand"])
                modal = await open_cut(dealer, driver)
                reply = await dealer.submit_modal(modal, {"cut": HOSTILE})
                replies.append((hand, game.phase, reply.text))
                if reply.text == t("fair.cut.flourish", dealer.locale, cut=plain(HOSTILE)):
                    break
            assert await driver.step(rng), replies
        assert reply is not None and "\\@everyone" in reply.text, replies
        for _ in range(800):
            await cut_done(driver)
            if len(game.fair_records()) > hand or not await driver.step(rng):
                break
        await driver.settle()
        record = game.fair_records()[hand]
        assert record["typed"] == HOSTILE and record["cut"].endswith(":" + HOSTILE)
        verify = await world.alice.slash(world.table, "verify", hand=hand + 1)
        shown = {"reply": reply.text, "verify": verify.text, "table": driver.message.text}
        if not game.is_over and game.fair_records()[-1]["hand"] == hand + 1:
            shown["deal"] = (await world.alice.click(driver.message, "🔒 Deal")).text
            assert "\\@everyone" in shown["deal"]
        for _ in range(3000):  # to the end: the game's log shows every hand's reveal
            await cut_done(driver)
            if not await driver.step(rng):
                break
        await driver.settle()
        entries = await bot.results.history(world.guild.id)
        finished = await bot.results.finished_game(world.guild.id, entries[0].game_id)
        assert finished is not None
        shown["log"] = "\n".join(log_pages(finished)[1])
        assert "\\@everyone" in shown["log"]
        for where, text in shown.items():
            assert "@everyone" not in text.replace("\\@everyone", ""), where
            assert "[click](" not in text, where
            assert "<@1>" not in text, where
            assert "**b**" not in text, where
            assert text.count("```") in (0, 2), where  # only /verify's own code block
        assert "\\[click\\]\\(https\\://evil.example\\)" in verify.text
        assert "--cut-hex" in verify.text  # typed text never goes into the code block
        driver.assert_no_failures()
