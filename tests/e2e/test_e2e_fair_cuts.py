"""Issue 24 follow-up, end to end with four people: the ✂️ Cut modal (the next hand's cutter
types the cut during the hand before; anyone else is refused) and a euchre hand thrown in (all
pass twice, stick_the_dealer off) under fair-v1, both checked by scripts/verify_deal.py."""

from __future__ import annotations

import random
from pathlib import Path

from bot.settings import Settings
from bot.texts import t
from bot.ui.kit.custom_ids import parse_game_action
from emulator import Emulator, Message, SimulatedUser, run_bot
from tests.support.fair_deals import cut_done, run_verifier, run_verifier_args
from tests.support.play_driver import TableDriver, scale_rate_limits
from tests.support.world import World

CUT_TEXT = "Olá, deck ♠ 42"


async def four_people(driver: TableDriver, world: World, command: str, **options: object) -> None:
    lobby = await driver.open(world.alice, command, **options)
    await driver.sit(lobby, [world.bob, world.carol, world.dave], 0, world.alice)
    await driver.start(lobby, world.alice)
    await cut_done(driver)  # hand 1: cut by the Start click


async def type_cut(driver: TableDriver, person: SimulatedUser, text: str) -> Message:
    """The person presses ✂️ Cut on the table message and types `text` in its modal."""
    opened = await person.send_click(driver.message, f"tb:{driver.table.id}:cut")
    await opened.wait_settled()
    assert opened.modal is not None and opened.modal.title == t("fair.cut.title", person.locale)
    return await person.submit_modal(opened.modal, {"cut": text})


async def test_the_cutter_types_the_next_hands_cut_and_a_non_cutter_is_refused(
    emulator: Emulator, world: World, bot_settings: Settings, tmp_path: Path
) -> None:
    rng = random.Random(41)
    async with run_bot(emulator, bot_settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        bot.table_service.fair_version = 1  # version 1's cuts and reveals (issue 32 keeps them)
        driver = TableDriver(emulator, bot, world.table, world.players)
        await four_people(driver, world, "euchre new", target=5)
        game = driver.table.game
        assert game is not None and game.phase != "cut"
        fair = game.view(None)["fair"]
        assert fair["hand"] == 1
        # Both games pass the deal on so that the next hand's cutter deals this one.
        cutter = driver.person_at(int(fair["dealer"]))
        other = driver.person_at((int(fair["dealer"]) + 1) % 4)
        refused = await type_cut(driver, other, "mine")
        assert refused.ephemeral and refused.text == t("fair.error.not_cutter", other.locale)
        kept = await type_cut(driver, cutter, CUT_TEXT)
        assert kept.ephemeral
        assert kept.text == t("fair.cut.kept", cutter.locale, cut=CUT_TEXT)
        # Play on until hand 2 is over: its record says it was cut with the typed text.
        for _ in range(400):
            await cut_done(driver)
            if len(game.fair_records()) >= 2 or not await driver.step(rng):
                break
        records = game.fair_records()
        assert len(records) >= 2
        second = records[1]
        # E: the cutter sits at the dealer's right; hand 2's is hand 1's dealer.
        assert second["hand"] == 2 and (second["dealer"] + 3) % 4 == fair["dealer"]
        assert second["cut"] == CUT_TEXT  # not the click that ended hand 1
        assert ("cut:" + CUT_TEXT) in [a for _, a in driver.table.record.actions]
        # The player's own check, with the values revealed, and the exported records.
        assert run_verifier_args(second, second["server_seed"], CUT_TEXT) == 0
        checked = run_verifier(tmp_path, records)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        # Another cut deals other hands than the ones recorded: the check fails.
        changed = [r if r["hand"] != 2 else {**r, "cut": "mine"} for r in records]
        assert run_verifier(tmp_path, changed).returncode == 1
        driver.assert_no_failures()


async def pass_as_shown(driver: TableDriver, rng: random.Random) -> None:
    """The person to act presses Pass on their hand message."""
    table = driver.table
    game = table.game
    assert game is not None and len(game.to_act) == 1
    person = driver.person_at(game.to_act[0])
    hand = await driver.hand_of(person, rng)
    (button,) = [
        b
        for b in hand.buttons
        if b.custom_id
        and not b.disabled
        and (parsed := parse_game_action(b.custom_id)) is not None
        and parsed.action == "pass"
    ]
    before = table.version
    await driver.click_and_see_update(person, hand, button.custom_id or "")
    assert table.version > before


async def test_a_thrown_in_euchre_hand_is_dealt_as_committed_and_checks(
    emulator: Emulator, world: World, bot_settings: Settings, tmp_path: Path
) -> None:
    rng = random.Random(42)
    async with run_bot(emulator, bot_settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        bot.table_service.fair_version = 1  # version 1's cuts and reveals (issue 32 keeps them)
        driver = TableDriver(emulator, bot, world.table, world.players)
        await four_people(driver, world, "euchre new", target=5, stick_the_dealer=False)
        game = driver.table.game
        assert game is not None and driver.table.options["stick_the_dealer"] is False
        for _ in range(8):  # everyone passes twice: the hand is thrown in
            await pass_as_shown(driver, rng)
        await cut_done(driver)
        records = game.fair_records()
        assert [r["hand"] for r in records] == [1]
        (thrown,) = records
        assert game.view(None)["fair"]["hand"] == 2 and game.phase != "cut"
        # Hand 2 was cut by the click that threw hand 1 in (the eighth pass).
        assert thrown["cut"] != "none"
        assert driver.table.record.actions[-1][1].startswith("cut:")
        assert run_verifier_args(thrown, thrown["server_seed"], thrown["cut"]) == 0
        checked = run_verifier(tmp_path, records)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        # A changed cut deals another hand than the one thrown in.
        changed = [{**thrown, "cut": thrown["cut"] + "x"}]
        assert run_verifier(tmp_path, changed).returncode == 1
        driver.assert_no_failures()
