"""Euchre's going-alone question under alone=anyone (E14) without a wait or a click per hand
(issue 21 item 3).

The engine keeps the rule exactly: once trump is made (and the dealer has discarded, E15) it
asks each player in turn from the dealer's left, the dealer last, and skips the partner of a
player who went alone. What changes is who answers: a person's answer is known before the
question comes, so the table gives it at once, as that seat's own engine action.

- The maker answers with the bid: "Order up · alone" / "Call ♥ · alone" are `order:alone` /
  `call:H:alone` (the engine's own words for alone=maker). Under alone=anyone the table applies
  the bid (`order`, `call:H`) and remembers "alone" as the maker's answer; a plain bid means
  "stay".
- Anyone else may switch "Go alone" on in their hand while trump is being made (a private
  toggle, for this hand only); unless they do, the answer is "stay".

Every human seat is answered the moment its turn comes, in the engine's order, so nobody waits
and nobody clicks; bots answer as before. The toggle is private and every person is answered
the same way at the same moment, so the order of the answers tells nothing of anyone's cards
that the rule itself does not (the public events are the engine's: who went alone).

The intents are part of the table's record (`TableRecord.alone_intents`, issue 33), so a restart
between a bid or a switch and the question keeps them: the maker's is stored with the bid, in the
transaction of its action (`bid_with_answer` hands it to the append; no crash can keep one
without the other); a switch is its own click and its own small write (`switch`). Either is
put back in memory when its write fails. Only the current hand's intents count, and a new game
clears them (its hand numbers start again).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.tables.table import Table, TableHost

GO_ALONE, STAY = "alone", "stay"
ANSWERS = [GO_ALONE, STAY]
# The phases of a hand in which trump is not yet made (or the dealer still discards): the
# toggle is offered there.
BEFORE_THE_QUESTION = frozenset({"bidding1", "bidding2", "name_suit", "discard"})
# (hand number, game seat) of each person who goes alone when asked (TableRecord.alone_intents).
Intents = set[tuple[int, int]]


def asks_anyone(table: Table) -> bool:
    """Does this table ask the going-alone question after trump is made (E14 alone=anyone)?"""
    return rule_asks(table.game_name, table.options)


def rule_asks(game_name: str, options: dict[str, Any]) -> bool:
    return game_name == "euchre" and options.get("alone", "anyone") == "anyone"


def bid_of(table: Table, action: str) -> tuple[str, bool | None]:
    """The engine action of a bid and the maker's answer it carries: `order:alone` ->
    (`order`, True), `call:H` -> (`call:H`, False); anything else -> (action, None)."""
    if not asks_anyone(table):
        return action, None
    return split_bid(action)


def split_bid(action: str) -> tuple[str, bool | None]:
    parts = action.split(":")
    if parts[0] == "order" and len(parts) <= 2:
        return "order", parts[1:] == ["alone"]
    if parts[0] == "call" and len(parts) in (2, 3):
        return f"call:{parts[1]}", parts[2:] == ["alone"]
    return action, None


def engine_action(game_name: str, options: dict[str, Any], action: str) -> str:
    """The engine action a hand's button stands for (a test replaying clicks uses it)."""
    return split_bid(action)[0] if rule_asks(game_name, options) else action


def alone_variants(table: Table, legal: list[str]) -> list[str]:
    """The bids a hand offers under alone=anyone: each `order` / `call:H` also as `…:alone`."""
    return offered(table.game_name, table.options, legal)


def offered(game_name: str, options: dict[str, Any], legal: list[str]) -> list[str]:
    if not rule_asks(game_name, options):
        return list(legal)
    out = list(legal)
    for action in legal:
        verb = action.split(":")[0]
        if verb in ("order", "call") and action.count(":") == (0 if verb == "order" else 1):
            out.append(f"{action}:alone")
    return out


def hand_key(table: Table) -> int:
    assert table.game is not None
    return table.game.hand_number


def set_intent(table: Table, seat: int, alone: bool) -> None:
    """Remember (this hand only) whether `seat` goes alone when asked."""
    intents = table.alone_intents
    hand = hand_key(table)
    for key in [k for k in intents if k[0] != hand]:
        intents.discard(key)  # an earlier hand's answers mean nothing now
    if alone:
        intents.add((hand, seat))
    else:
        intents.discard((hand, seat))


@contextlib.contextmanager
def bid_with_answer(table: Table, seat: int, action: str) -> Iterator[tuple[str, Intents | None]]:
    """The engine's bid for a clicked one ("order:alone" -> "order") and the intents to store
    with its action (None: unchanged). The maker's going-alone answer is remembered while the
    bid is applied, and forgotten again if the bid is refused or its write fails."""
    engine_bid, maker_alone = bid_of(table, action)
    with kept_unless_stored(table) as before:
        if maker_alone is not None:
            set_intent(table, seat, maker_alone)
        yield engine_bid, changed_since(table, before)


async def switch(host: TableHost, table: Table, seat: int, on: bool) -> None:
    """The private "Go alone" switch (the caller holds the table's lock): remembered while
    trump is being made, ignored after; stored on its own (no version), put back if that write
    fails (StoreConflict: the table is not stored at its version any more)."""
    with kept_unless_stored(table) as before:
        if may_toggle(table, seat):
            set_intent(table, seat, on)
        intents = changed_since(table, before)
        if intents is not None:
            await host.store.set_alone_intents(table.id, table.version, intents)


@contextlib.contextmanager
def kept_unless_stored(table: Table) -> Iterator[Intents]:
    """The table's intents as they were, put back if the block raises before they are stored.
    Not once the bid's action is stored (its version stands: a later answer's write failed),
    nor when the table was reloaded meanwhile (another process moved it on): the store's are
    right then."""
    record = table.record
    before, version = set(record.alone_intents), record.version
    try:
        yield before
    except BaseException:
        if table.record is record and record.version == version:
            record.alone_intents = before
        raise


def changed_since(table: Table, before: Intents) -> Intents | None:
    now = table.alone_intents
    return None if now == before else set(now)


def intends(table: Table, seat: int) -> bool:
    return table.game is not None and (hand_key(table), seat) in table.alone_intents


def may_toggle(table: Table, seat: int) -> bool:
    """The toggle is offered while trump is being made, to a seat that plays this hand."""
    game = table.game
    if game is None or game.is_over or not asks_anyone(table):
        return False
    # Nobody sits out before the question under alone=anyone: every seat may switch.
    return getattr(game, "phase", None) in BEFORE_THE_QUESTION and 0 <= seat < 4


def answer_due(table: Table) -> tuple[int, str] | None:
    """The going-alone answer the table gives now: a person on turn with the question, and
    what they chose beforehand. None: no question, or a bot seat answers it itself."""
    game = table.game
    if game is None or game.is_over or not asks_anyone(table) or len(game.to_act) != 1:
        return None
    seat = game.to_act[0]
    if table.bot_plays(seat) or sorted(game.legal_actions(seat)) != ANSWERS:
        return None
    return seat, GO_ALONE if intends(table, seat) else STAY
