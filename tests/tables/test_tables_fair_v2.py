"""Issue 32 at the table layer: fair-v2 hands are cut by the drand round that the game's
commitment message fixes (hand n: the round current at the message, + n), fetched off the click
path; a beacon that is down, slow or answers garbage gives weak hands, marked, and play goes on;
a restart between the commitment and the reveal keeps the message and the rounds; /verify's
own code path fails when the engine's deck order changes."""

from __future__ import annotations

import asyncio
import itertools
import random
from pathlib import Path
from typing import Any

import pytest

from bot.engine import fair_deal
from bot.engine.common import IllegalAction
from bot.settings import Settings, SettingsError
from bot.storage.backend import Storage
from bot.tables import fair
from bot.tables import games as table_games
from bot.tables.fair_check import check_hand, expected_round, face
from bot.tables.service import Table, TableService
from emulator.beacon import fake_round
from tests.support.beacon import Announcer, MemoryBeacon
from tests.support.service import full_table, make_service, play_random, user_at

BIG = (1 << 255) + 424_242


def beacon_of(service: TableService) -> MemoryBeacon:
    beacon = service.fair_cuts.beacon
    assert isinstance(beacon, MemoryBeacon)
    return beacon


async def finished(service: TableService, game: str = "truco", **options: object) -> Table:
    table = await full_table(service, game, dict(options) or None)
    await play_random(service, table, random.Random(5))
    assert table.game is not None and table.game.is_over
    return table


@pytest.fixture
def service_options() -> dict[str, Any]:
    # The beacon's deadline 0.3 s: the weak tests wait this long per hand.
    return {"seeds": itertools.count(BIG), "cuts": {"wait": 0.3, "retry": 0.05}}


@pytest.mark.parametrize("game", ["euchre", "truco"])
async def test_every_hand_is_cut_by_its_beacon_round_and_checks(
    service: TableService, game: str
) -> None:
    table = await finished(service, game, **({"target": 5} if game == "euchre" else {}))
    assert table.options["deal"] == "fair-v2"
    announcer = service.fair_cuts.announce
    assert isinstance(announcer, Announcer)
    ((table_id, message),) = announcer.posted  # one message created for the game
    assert table_id == table.id
    assert table.record.actions[0][1] == f"cut:msg:{message}"  # recorded: survives a restart
    records = table.game.fair_records() if table.game else []
    assert len(records) >= 2
    secret = fair_deal.game_secret(BIG).hex()
    for record in records:
        hand = record["hand"]
        assert record["version"] == 2 and record["message"] == str(message)
        assert (
            record["round"]
            == expected_round(message, hand)
            == fair_deal.beacon_round(message, hand)
        )
        assert record["randomness"] == fake_round(record["round"])["randomness"]
        assert not record["weak"]
        assert record["game_commitment"] == fair_deal.game_commitment(BIG)
        check = check_hand(records, hand, secret)
        assert check is not None and check.ok and check.secret_ok and not check.weak
    # consecutive rounds, each one asked for once (cached)
    assert [r["round"] for r in records] == [
        expected_round(message, 0) + n for n in range(1, len(records) + 1)
    ]


@pytest.mark.parametrize("mode", ["down", "garbage", "slow"])
async def test_a_beacon_that_fails_gives_weak_hands_and_play_goes_on(
    service: TableService, mode: str
) -> None:
    beacon = beacon_of(service)
    beacon.mode = mode
    beacon.slow = 0.2
    table = await finished(service, "truco", target=4)
    records = table.game.fair_records() if table.game else []
    assert records and all(r["weak"] for r in records)
    for record in records:
        assert record["cut"].startswith(f"weak:{record['round']}:")
        assert record["randomness"] is None
        check = check_hand(records, record["hand"])
        assert check is not None and check.ok and check.weak  # the deal checks; it is weak
    assert beacon.asked  # it was asked, and no answer was taken from it


async def test_a_relay_that_comes_back_cuts_the_next_hands(service: TableService) -> None:
    beacon = beacon_of(service)
    beacon.mode = "down"
    table = await full_table(service, "truco", {"target": 12})
    beacon.mode = "ok"
    await play_random(service, table, random.Random(9))
    records = table.game.fair_records() if table.game else []
    assert records[0]["weak"] and not any(r["weak"] for r in records[1:])


async def test_no_commitment_message_means_weak_with_round_0(service: TableService) -> None:
    announcer = service.fair_cuts.announce
    assert isinstance(announcer, Announcer)
    announcer.fail = True
    table = await finished(service, "truco", target=4)
    records = table.game.fair_records() if table.game else []
    assert all(r["weak"] and r["round"] == 0 and r["message"] is None for r in records)
    assert all((c := check_hand(records, r["hand"])) is not None and c.ok for r in records)


async def test_a_restart_between_the_commitment_and_the_reveal(db: Storage) -> None:
    first = make_service(db, itertools.count(BIG))
    first.fair_cuts.wait = 60.0  # the beacon never answers before the restart
    beacon_of(first).mode = "down"
    first.fair_cuts.retry = 0.01
    try:
        table = await first.create(
            guild_id=1, channel_id=2, host_id=3, host_name="Host", game="truco"
        )
        for user in (4, 5, 6):
            await first.join(table.id, user, f"P{user}")
        await first.set_message(table.id, 555)
        await first.start(table.id, 3)
        for _ in range(200):  # the message is posted and recorded; the cut waits
            if table.record.actions:
                break
            await asyncio.sleep(0.01)
        assert table.record.actions[0][1].startswith("cut:msg:")
        assert table.game is not None and table.game.phase == "cut"
    finally:
        await first.close()
    message = int(table.record.actions[0][1].split(":")[2])
    second = make_service(db, itertools.count(BIG))
    second.fair_cuts.wait = 0.3
    try:
        await second.restore()
        again = second.get(table.id)
        await play_random(second, again, random.Random(3))
        announcer = second.fair_cuts.announce
        assert isinstance(announcer, Announcer) and announcer.posted == []  # not posted again
        records = again.game.fair_records() if again.game else []
        assert records[0]["message"] == str(message)
        assert records[0]["round"] == expected_round(message, 1) and not records[0]["weak"]
        secret = fair_deal.game_secret(BIG).hex()
        assert all((c := check_hand(records, r["hand"], secret)) and c.ok for r in records)
    finally:
        await second.close()


async def test_the_engine_refuses_a_round_the_message_does_not_fix(
    service: TableService,
) -> None:
    table = await full_table(service, "truco")
    game = table.game
    assert game is not None
    fair_obj = game.view(None)["fair"]
    message = int(fair_obj["message"])
    # the next hand's cut with another round is refused before anything changes
    wrong = fair_deal.beacon_round(message, fair_obj["hand"] + 2)
    dealer = fair_deal.FairDealer("truco", fair_deal.TRUCO_DECK, ["1", "2", "3", "4"], 1, "fair-v2")
    dealer.begin(1, 0, 1)
    dealer.cut(f"msg:{message}")
    with pytest.raises(IllegalAction):
        dealer.check_cut(f"cut:drand:{wrong}:{'0' * 64}")
    right = fair_deal.beacon_round(message, 1)
    assert dealer.check_cut(f"cut:drand:{right}:{'0' * 64}:hi there") is not None
    with pytest.raises(IllegalAction):
        dealer.check_cut(f"cut:msg:{message}")  # recorded once


async def test_the_dealer_types_a_flourish_that_goes_with_the_next_beacon_value(
    service: TableService,
) -> None:
    table = await full_table(service, "truco", {"target": 12})
    game = table.game
    assert game is not None
    dealer = game.view(None)["fair"]["dealer"]
    with pytest.raises(fair.NotTheCutter):
        await service.fair_cuts.cut(table.id, user_at(table, (dealer + 2) % 4), "nope")
    hostile = "```@everyone [x](https://evil.example) <@1>"
    _, applied = await service.fair_cuts.cut(table.id, user_at(table, dealer), hostile)
    assert not applied
    await play_random(service, table, random.Random(2))
    records = table.game.fair_records() if table.game else []
    assert records[1]["typed"] == hostile and records[1]["cut"].endswith(":" + hostile)
    assert records[1]["cut"].startswith(f"drand:{records[1]['round']}:")
    assert (c := check_hand(records, 2)) is not None and c.ok


async def test_verify_uses_its_own_deck_order(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.engine.truco import game as truco_game

    # The engine's truco deck in another order: its deals change, /verify's do not.
    monkeypatch.setattr(truco_game, "TRUCO_DECK", tuple(reversed(fair_deal.TRUCO_DECK)))
    table = await finished(service, "truco", target=4)
    records = table.game.fair_records() if table.game else []
    check = check_hand(records, 1)
    assert check is not None and not check.deal_ok and not check.ok


def test_card_faces() -> None:
    assert [face(c) for c in ("KC", "TH", "AS", "7D", "JO")] == ["K♣", "10♥", "A♠", "7♦", "🃏"]


def test_the_relays_are_a_setting(tmp_path: Path) -> None:
    none = tmp_path / "no.env"
    given = Settings.load(
        env={"DISCORD_TOKEN": "x", "BEACON_RELAYS": "https://a.example, http://b.example/"},
        env_file=none,
    )
    assert given.beacon_relays == ("https://a.example", "http://b.example/")
    assert len(Settings.load(env={"DISCORD_TOKEN": "x"}, env_file=none).beacon_relays) > 1
    with pytest.raises(SettingsError):
        Settings.load(env={"DISCORD_TOKEN": "x", "BEACON_RELAYS": "api.drand.sh"}, env_file=none)


async def test_a_table_keeps_no_finished_task_and_one_tuple_per_logged_action(
    service: TableService,
) -> None:
    """Issue 31's memory: a done bot or cut task held its coroutine (~1 KB a table); the game's
    log and the record's hold the same tuples, the cuts included (never in the shared pairs)."""
    table = await finished(service, "euchre", target=5)
    await asyncio.sleep(0)  # the done callbacks run
    assert table.bot_task is None
    assert table.id not in service.fair_cuts._tasks and table.id not in service.fair_cuts._wakers
    assert table.game is not None
    assert all(a is b for a, b in zip(table.game.actions, table.record.actions, strict=True))
    cuts = [pair for pair in table.record.actions if pair[1].startswith("cut:")]
    assert cuts and not any(table_games.ACTION_PAIRS.share(*pair) is pair for pair in cuts)
