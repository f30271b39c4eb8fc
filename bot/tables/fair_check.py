"""`/verify`: a revealed hand's deal recomputed from its record alone (docs/fair-deals.md).

The record is what players were shown when the hand ended (seed, cut, commitments, players,
dealer); the check recomputes the commitment, the chain link and the deal from those values and
compares them with the hands as the game dealt them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from bot.engine.fair_deal import TRUCO_DECK, deal_key, deal_packets, euchre_deck, shuffle

ZEROS = "0" * 64


@dataclass(frozen=True)
class DealCheck:
    hand: int
    commitment_ok: bool  # SHA-256(server seed) is the commitment shown before the hand
    chain_ok: bool  # the previous commitment is the hand before's (zeros for hand 1)
    deal_ok: bool  # the recomputed deal is the deal the game made
    hands: list[list[str]]  # recomputed, by game seat
    record: dict[str, Any]

    @property
    def ok(self) -> bool:
        return self.commitment_ok and self.chain_ok and self.deal_ok


def deck_of(record: dict[str, Any]) -> tuple[str, ...]:
    size = int(record["deck"])
    if record["game"] == "truco":
        return TRUCO_DECK
    return euchre_deck(size - size % 2, joker=size % 2 == 1)


def deal_order(game: str, dealer: int) -> tuple[tuple[int, ...], int]:
    """(the seats that get a packet, in order; the packet size)."""
    if game == "truco":  # T3: from the player after the dealer, counter-clockwise
        return tuple((dealer - k) % 4 for k in (1, 2, 3, 4)), 3
    return tuple((dealer + k) % 4 for k in (1, 2, 3, 4)), 5  # E8: from the dealer's left


def check_hand(records: list[dict[str, Any]], hand: int) -> DealCheck | None:
    """Hand `hand` (1-based) of a game's revealed records, checked; None if not revealed."""
    found = [r for r in records if int(r["hand"]) == hand]
    if not found:
        return None
    record = found[0]
    seed = bytes.fromhex(record["server_seed"])
    previous = record["previous_commitment"]
    before = [r for r in records if int(r["hand"]) == hand - 1]
    expected_previous = ZEROS if hand == 1 else (before[0]["commitment"] if before else None)
    key = deal_key(
        seed,
        record["game"],
        int(record["deck"]),
        record["players"],
        hand,
        record["cut"],
        bytes.fromhex(previous),
    )
    order, size = deal_order(record["game"], int(record["dealer"]))
    hands, rest = deal_packets(shuffle(key, deck_of(record)), order, size)
    deal_ok = hands == record["hands"]
    if record["game"] == "euchre":
        deal_ok = deal_ok and rest[:1] == [record["turned"]] and rest[1:] == record["kitty"]
    return DealCheck(
        hand=hand,
        commitment_ok=hashlib.sha256(seed).hexdigest() == record["commitment"],
        chain_ok=expected_previous is None or previous == expected_previous,
        deal_ok=deal_ok,
        hands=hands,
        record=record,
    )
