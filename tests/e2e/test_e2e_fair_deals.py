"""Issue 24 phase B, end to end: whole fair games of both games through the emulator. The lobby
shows hand 1's commitment before Start, the table cuts every hand by itself (it never stalls),
no message shows a seed before its hand ends, scripts/verify_deal.py (a separate process)
reproduces every deal from what players saw and from the exported records, a changed seed or cut
fails it, /verify answers inside Discord, and a table restored after a restart deals on."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from bot.engine.fair_deal import hand_commitment
from bot.settings import Settings
from bot.ui.words.game_log import log_pages
from emulator import Emulator, run_bot
from tests.support.fair_deals import (
    SeedWatch,
    cut_done,
    play_fair_to_end,
    reveals_shown,
    run_verifier,
    run_verifier_args,
)
from tests.support.play_driver import TableDriver, scale_rate_limits
from tests.support.world import World

CUT_WAIT = 0.3  # a hand ended by a bot is cut after this long without a click


@pytest.mark.parametrize(("command", "seed"), [("euchre new", 31), ("truco new", 32)])
async def test_whole_fair_games_deal_as_committed_and_check(
    emulator: Emulator,
    world: World,
    bot_settings: Settings,
    tmp_path: Path,
    command: str,
    seed: int,
) -> None:
    settings = dataclasses.replace(bot_settings, fair_deals=True)
    rng = random.Random(seed)
    async with run_bot(emulator, settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        bot.table_service.fair_version = 1  # version 1's cuts and reveals (issue 32 keeps them)
        bot.table_service.fair_cuts.wait = CUT_WAIT
        driver = TableDriver(emulator, bot, world.table, [world.alice, world.bob])
        lobby = await driver.open(world.alice, command, target=5 if "euchre" in command else 6)
        table = driver.table
        assert table.record.seed is not None and table.record.seed.bit_length() > 64
        first = hand_commitment(table.record.seed, 1)[:12]
        await driver.sit(lobby, [world.bob], 2, world.alice)
        assert first in lobby.text  # shown before the Start click that cuts hand 1
        watch = SeedWatch(emulator, table)
        bot.table_service.add_listener(watch)
        await driver.start(lobby, world.alice)
        await play_fair_to_end(driver, rng)
        watch.scan()
        assert watch.scans > 10 and watch.leaks == []
        game = table.game
        assert game is not None and game.is_over
        records = game.fair_records()
        assert [r["hand"] for r in records] == list(range(1, len(records) + 1))
        assert records[0]["cut"] != "none"
        # The exported records check, chain included.
        checked = run_verifier(tmp_path, records)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        # Seeds and cuts as the table message showed them when hands ended (its edits are
        # coalesced: a hand over within one edit window is shown in the log below), the last
        # hand's on the result message.
        shown = reveals_shown(driver)
        assert records[-1]["hand"] in shown
        for record in records:
            if record["hand"] in shown:
                seed_shown, cut_shown = shown[record["hand"]]
                assert (seed_shown, cut_shown) == (record["server_seed"], record["cut"])
                assert run_verifier_args(record, seed_shown, cut_shown) == 0
        # The game's log in /history reveals every hand.
        entries = await bot.results.history(world.guild.id)
        finished = await bot.results.finished_game(world.guild.id, entries[0].game_id)
        assert finished is not None
        _, pages = log_pages(finished)
        log_text = "\n".join(pages)
        for record in records:
            assert f"seed `{record['server_seed']}`, cut `{record['cut']}`" in log_text
        # A changed seed fails its commitment; a changed cut deals other hands than the
        # record's (the exported records say which hands were dealt).
        last = records[-1]
        flipped = ("0" if last["server_seed"][0] != "0" else "1") + last["server_seed"][1:]
        assert run_verifier_args(last, flipped, last["cut"]) == 1
        changed = [dict(r) for r in records]
        changed[0]["cut"] = "not the cut"
        assert run_verifier(tmp_path, changed).returncode == 1
        # /verify inside Discord: this channel's table, then the finished game by its number.
        answer = await world.alice.slash(world.table, "verify", hand=len(records))
        assert answer.ephemeral and "the deal checks ✅" in answer.text, answer.text
        assert "scripts/verify_deal.py" in answer.text
        answer = await world.alice.slash(world.table, "verify", hand=1, game=entries[0].game_id)
        assert "the deal checks ✅" in answer.text, answer.text
        missing = await world.alice.slash(world.table, "verify", hand=len(records) + 5)
        assert "No finished hand" in missing.text
        driver.assert_no_failures()


async def test_a_fair_table_restored_after_a_restart_deals_and_checks(
    emulator: Emulator, world: World, bot_settings: Settings, tmp_path: Path
) -> None:
    settings = dataclasses.replace(bot_settings, fair_deals=True)
    rng = random.Random(33)
    async with run_bot(emulator, settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        bot.table_service.fair_version = 1  # version 1's cuts and reveals (issue 32 keeps them)
        bot.table_service.fair_cuts.wait = CUT_WAIT
        driver = TableDriver(emulator, bot, world.table, [world.alice, world.bob])
        lobby = await driver.open(world.alice, "euchre new", target=5)
        await driver.sit(lobby, [world.bob], 2, world.alice)
        await driver.start(lobby, world.alice)
        for _ in range(12):
            await play_step(driver, rng)
        await driver.settle()
        before = driver.table.game
        assert before is not None
        revealed_before = len(before.fair_records())
        deal = await world.bob.click(driver.message, "🔒 Deal")
        assert deal.ephemeral and before.view(None)["fair"]["commitment"] in deal.text

    async with run_bot(emulator, settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        bot.table_service.fair_version = 1  # version 1's cuts and reveals (issue 32 keeps them)
        bot.table_service.fair_cuts.wait = CUT_WAIT
        driver = TableDriver(emulator, bot, world.table, [world.alice, world.bob])
        table = driver.table
        assert table.game is not None
        assert len(table.game.fair_records()) == revealed_before
        watch = SeedWatch(emulator, table)
        bot.table_service.add_listener(watch)
        await play_fair_to_end(driver, rng)
        watch.scan()
        assert watch.leaks == []
        records = table.game.fair_records()
        assert len(records) > revealed_before
        checked = run_verifier(tmp_path, records)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        driver.assert_no_failures()


async def play_step(driver: TableDriver, rng: random.Random) -> None:
    await cut_done(driver)
    await driver.step(rng)
