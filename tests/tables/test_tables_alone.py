"""Issue 21 item 3: euchre's going-alone question (E14, alone=anyone) costs people no click and
no wait: the maker says "alone" with the bid, anyone else may switch it on beforehand, and the
table answers every person's question the moment it comes (bot/tables/alone.py). The engine's
rule and order stay exact: each answer is that seat's own action in the log."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.storage.backend import Storage
from bot.tables import alone
from bot.tables.errors import ActionRefused
from bot.tables.service import Table, TableService
from tests.support.service import (
    ANA,
    BIA,
    CAU,
    HOST,
    full_table,
    make_service,
    play_random,
    user_at,
)


async def euchre_table(db: Storage) -> tuple[TableService, Table]:
    service = make_service(db)
    table = await full_table(service, "euchre")  # four people, alone=anyone (the default)
    assert table.options.get("alone", "anyone") == "anyone"
    return service, table


async def act(service: TableService, table: Table, seat: int, action: str) -> None:
    await service.act(table.id, user_at(table, seat), action, table.version)


async def to_first_bidder(service: TableService, table: Table) -> Any:
    game = table.game
    assert game is not None
    while game.phase == "name_suit":  # a turned-up joker (not in the default deck)
        await act(service, table, game.to_act[0], game.legal_actions(game.to_act[0])[0])
    assert game.phase == "bidding1"
    return game


def alone_answers(table: Table) -> list[tuple[int, str]]:
    return [(s, a) for s, a in table.record.actions if a in ("alone", "stay")]


async def test_E14_anyone_people_are_answered_stay_at_once_without_a_click(
    db: Storage,
) -> None:
    service, table = await euchre_table(db)
    game = await to_first_bidder(service, table)
    bidder = game.to_act[0]
    await act(service, table, bidder, "order")
    dealer = game.dealer
    await act(service, table, dealer, game.legal_actions(dealer)[0])  # the dealer discards
    # Nobody is asked: the play has begun, every person answered "stay", in the rule's order.
    assert game.phase == "play"
    order = [(dealer + k) % 4 for k in (1, 2, 3, 4)]
    assert alone_answers(table) == [(s, "stay") for s in order]
    assert game.view(None)["alone"] == []
    # The table's version moved with each answer: the log and the version agree.
    assert table.version == table.start_version + len(table.record.actions)


async def test_E14_anyone_the_maker_orders_up_alone_with_the_bid(db: Storage) -> None:
    service, table = await euchre_table(db)
    game = await to_first_bidder(service, table)
    bidder = game.to_act[0]
    assert "order:alone" not in game.legal_actions(bidder)  # the engine's rule is unchanged
    await act(service, table, bidder, "order:alone")
    assert "order" in [a for s, a in table.record.actions if s == bidder]
    dealer = game.dealer
    if game.phase == "discard":  # E15 under anyone: the discard first, then the question
        await act(service, table, dealer, game.legal_actions(dealer)[0])
    assert game.phase == "play"
    assert game.view(None)["alone"] == [bidder]
    assert game.view(None)["sitting_out"] == [(bidder + 2) % 4]
    assert (bidder, "alone") in alone_answers(table)


async def test_E14_anyone_a_call_alone_in_the_second_round(db: Storage) -> None:
    service, table = await euchre_table(db)
    game = await to_first_bidder(service, table)
    for _ in range(4):
        await act(service, table, game.to_act[0], "pass")
    bidder = game.to_act[0]
    call = next(a for a in game.legal_actions(bidder) if a.startswith("call:"))
    await act(service, table, bidder, call + ":alone")
    assert game.phase == "play"
    assert game.view(None)["alone"] == [bidder]


async def test_E14_anyone_a_defender_switched_on_defends_alone(db: Storage) -> None:
    service, table = await euchre_table(db)
    game = await to_first_bidder(service, table)
    bidder = game.to_act[0]
    defender = (bidder + 1) % 4
    before = table.version  # the start and hand 1's cut
    await service.set_alone_intent(table.id, user_at(table, defender), True)
    assert table.version == before  # a private switch: no version, no action
    await act(service, table, bidder, "order")
    if game.phase == "discard":
        await act(service, table, game.dealer, game.legal_actions(game.dealer)[0])
    assert game.phase == "play"
    assert game.view(None)["alone"] == [defender]
    assert (bidder, "stay") in alone_answers(table)


async def test_E14_anyone_a_partner_who_went_first_makes_the_maker_sit_out(
    db: Storage,
) -> None:
    """The rule's order is kept: the maker's partner, asked before the maker, went alone; the
    maker is not asked and sits out although he said "alone" with his bid."""
    service, table = await euchre_table(db)
    game = await to_first_bidder(service, table)
    dealer = game.dealer
    # The bidder at the dealer's left passes; the dealer's partner (asked after the dealer's
    # left, before the dealer) switched on; the dealer picks it up alone.
    await service.set_alone_intent(table.id, user_at(table, (dealer + 2) % 4), True)
    for _ in range(3):
        await act(service, table, game.to_act[0], "pass")
    assert game.to_act == [dealer]
    await act(service, table, dealer, "order:alone")
    await act(service, table, dealer, game.legal_actions(dealer)[0])
    assert game.phase == "play"
    assert game.view(None)["alone"] == [(dealer + 2) % 4]
    assert dealer in game.view(None)["sitting_out"]
    assert all(s != dealer for s, _ in alone_answers(table))


async def test_E14_a_switch_turned_off_again_stays(db: Storage) -> None:
    service, table = await euchre_table(db)
    game = await to_first_bidder(service, table)
    bidder = game.to_act[0]
    await service.set_alone_intent(table.id, user_at(table, (bidder + 1) % 4), True)
    await service.set_alone_intent(table.id, user_at(table, (bidder + 1) % 4), False)
    await act(service, table, bidder, "order")
    if game.phase == "discard":
        await act(service, table, game.dealer, game.legal_actions(game.dealer)[0])
    assert game.view(None)["alone"] == []


async def test_E14_a_refused_alone_bid_leaves_no_answer_behind(db: Storage) -> None:
    service, table = await euchre_table(db)
    game = await to_first_bidder(service, table)
    other = (game.to_act[0] + 1) % 4  # not their turn
    with pytest.raises(ActionRefused):
        await act(service, table, other, "order:alone")
    assert not table.alone_intents


async def test_E14_maker_rule_keeps_its_own_bids(db: Storage) -> None:
    """alone=maker: the bids are the engine's own; no question, no switch."""
    service = make_service(db)
    table = await full_table(service, "euchre", {"alone": "maker"})
    game = await to_first_bidder(service, table)
    bidder = game.to_act[0]
    await act(service, table, bidder, "order:alone")
    assert game.view(None)["alone"] == [bidder]
    assert not alone_answers(table)


# --- issue 33: the intents survive a restart ----------------------------------------------------


async def restarted(db: Storage, first: TableService, table: Table) -> tuple[TableService, Table]:
    """The bot stops and starts again on the same database: the table as restored."""
    await first.set_message(table.id, 4242)  # a table in play is restored with its message
    await first.close()
    second = make_service(db)
    (again,) = await second.restore()
    return second, again


async def test_E14_a_switch_survives_a_restart(db: Storage) -> None:
    service, table = await euchre_table(db)
    game = await to_first_bidder(service, table)
    bidder = game.to_act[0]
    defender = (bidder + 1) % 4
    await service.set_alone_intent(table.id, user_at(table, defender), True)
    service, table = await restarted(db, service, table)
    game = table.game
    assert game is not None and (game.hand_number, defender) in table.alone_intents
    await act(service, table, bidder, "order")
    if game.phase == "discard":
        await act(service, table, game.dealer, game.legal_actions(game.dealer)[0])
    assert game.view(None)["alone"] == [defender]


async def test_E14_order_up_alone_survives_a_restart_before_the_question(db: Storage) -> None:
    """The maker at the dealer's left orders up alone; the restart comes while the dealer still
    has to discard (E15: the discard first, then the question). The maker goes alone."""
    service, table = await euchre_table(db)
    game = await to_first_bidder(service, table)
    bidder, dealer = game.to_act[0], game.dealer
    assert bidder != dealer
    await act(service, table, bidder, "order:alone")
    assert game.phase == "discard" and not alone_answers(table)
    service, table = await restarted(db, service, table)
    game = table.game
    assert game is not None and game.phase == "discard"
    await act(service, table, dealer, game.legal_actions(dealer)[0])
    assert game.phase == "play"
    assert game.view(None)["alone"] == [bidder]
    assert (bidder, "alone") in alone_answers(table)


class Crashing:
    """The real store, but one write fails (the process dies there, or the disk is full): the
    append of a going-alone answer, or the switch's own write."""

    def __init__(self, inner: Any, fail: str) -> None:
        self._inner = inner
        self.fail: str | None = fail

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def append_action(self, *args: Any, **kwargs: Any) -> None:
        if self.fail == "answer" and args[2] in ("alone", "stay"):
            self.fail = None
            raise OSError("the process died here")
        await self._inner.append_action(*args, **kwargs)

    async def set_alone_intents(self, *args: Any) -> None:
        if self.fail == "switch":
            self.fail = None
            raise OSError("disk full")
        await self._inner.set_alone_intents(*args)


async def test_E14_a_crash_after_a_call_alone_still_answers_alone_at_the_restart(
    db: Storage,
) -> None:
    """The maker's answer is written in the transaction of the bid itself: a crash right after
    the bid (the first answer not yet written) leaves nothing to forget. The restart gives the
    answers as the table would have, the maker's "alone" among them."""
    service, table = await euchre_table(db)
    game = await to_first_bidder(service, table)
    for _ in range(4):
        await act(service, table, game.to_act[0], "pass")
    bidder = game.to_act[0]
    call = next(a for a in game.legal_actions(bidder) if a.startswith("call:"))
    service.store = Crashing(db.tables, "answer")
    with pytest.raises(OSError):
        await act(service, table, bidder, call + ":alone")
    # The bid is stored, so is its answer: memory keeps both, as the store has them.
    assert table.record.actions[-1] == (bidder, call) and not alone_answers(table)
    assert alone.intends(table, bidder)
    service, table = await restarted(db, service, table)
    game = table.game
    assert game is not None and game.phase == "play"
    assert game.view(None)["alone"] == [bidder]
    assert (bidder, "alone") in alone_answers(table)


async def test_E14_a_switch_not_stored_is_put_back(db: Storage) -> None:
    """A switch whose write fails is not kept: the hand shows what the store has."""
    service, table = await euchre_table(db)
    game = await to_first_bidder(service, table)
    user = user_at(table, (game.to_act[0] + 1) % 4)
    service.store = Crashing(db.tables, "switch")
    with pytest.raises(OSError):
        await service.set_alone_intent(table.id, user, True)
    assert not table.alone_intents
    await service.set_alone_intent(table.id, user, True)  # the disk has room again
    assert table.alone_intents


async def test_E14_a_new_game_starts_with_no_intents(db: Storage) -> None:
    """Hand numbers start again with each game: the last game's intents must not come back."""
    service, table = await euchre_table(db)
    await play_random(service, table, random.Random(5))
    assert table.status == "finished"
    left = {(1, 0), (1, 2)}  # as if the last game's hand 1 had left them behind
    await db.tables.set_alone_intents(table.id, table.version, left)
    table.alone_intents = set(left)
    for user in (HOST, ANA, BIA, CAU):
        await service.play_again(table.id, user)
    assert table.status == "playing" and not table.alone_intents
    stored = await db.tables.get_table(table.id)
    assert stored is not None and stored.alone_intents == set()
