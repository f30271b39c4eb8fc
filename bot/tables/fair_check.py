"""`/verify`: a revealed hand's deal recomputed from its record alone (docs/fair-deals.md).

This is a second implementation of the document, on purpose: it imports nothing from the engine
(not its decks, its deal key or its shuffle), so a change to the engine's dealing shows up here
as a deal that does not check (tests/tables/test_tables_fair_verify.py changes the engine's deck
order and /verify fails). The record is what players were shown when the hand ended (seed, cut,
commitments, players, dealer); the check recomputes the commitment, the chain link, the beacon
round (version 2) and the deal from those values and compares them with the hands as dealt.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Any

ZEROS = "0" * 64
DISCORD_EPOCH_MS = 1_420_070_400_000
# Version 2's beacon, drand quicknet (docs/fair-deals.md, "The beacon").
GENESIS = 1692803367
PERIOD = 3
CHAIN = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"
SUIT_FACES = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


@dataclass(frozen=True)
class DealCheck:
    hand: int
    commitment_ok: bool  # SHA-256(server seed) is the hand's commitment
    chain_ok: bool  # the previous commitment is the hand before's (zeros for hand 1)
    deal_ok: bool  # the recomputed deal is the deal the game made
    hands: list[list[str]]  # recomputed, by game seat
    record: dict[str, Any]
    round_ok: bool = True  # v2: the round is the one the commitment message fixes
    weak: bool = False  # v2: no relay answered; the cut is the fallback (not the beacon)
    secret_ok: bool | None = None  # v2, game over: the game secret gives seed and commitment

    @property
    def ok(self) -> bool:
        return (
            self.commitment_ok
            and self.chain_ok
            and self.deal_ok
            and self.round_ok
            and self.secret_ok is not False
        )


def face(card: str) -> str:
    """A card as players see it: K♣, 10♥, 🃏 (the record's KC, TH, JO)."""
    if card == "JO":
        return "🃏"
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUIT_FACES[card[1]]


def _encode(*fields: str | int | bytes) -> bytes:
    out = b""
    for value in fields:
        raw = value if isinstance(value, bytes) else str(value).encode("utf-8")
        out += len(raw).to_bytes(4, "big") + raw
    return out


def _deck(game: str, size: int) -> list[str]:
    if game == "truco":
        return [rank + suit for suit in "CDHS" for rank in "A234567JQK"]
    ranks = {24: "9TJQKA", 28: "89TJQKA", 32: "789TJQKA"}[size - size % 2]
    cards = [rank + suit for suit in "CDHS" for rank in ranks]
    return [*cards, "JO"] if size % 2 else cards


def _shuffled(record: dict[str, Any]) -> list[str]:
    seed = bytes.fromhex(record["server_seed"])
    message = _encode(
        "fair-deal",
        int(record["version"]),
        record["game"],
        int(record["deck"]),
        *record["players"],
        int(record["hand"]),
        record["cut"],
        bytes.fromhex(record["previous_commitment"]),
    )
    key = hmac.new(seed, message, hashlib.sha256).digest()
    words: list[int] = []
    block = 0

    def below(n: int) -> int:
        nonlocal block
        limit = 2**32 - 2**32 % n
        while True:
            if not words:
                raw = hmac.new(key, _encode("draw", block), hashlib.sha256).digest()
                block += 1
                words.extend(int.from_bytes(raw[i : i + 4], "big") for i in range(28, -1, -4))
            value = words.pop()  # filled in reverse: pop() reads them in order
            if value < limit:
                return value % n

    cards = _deck(record["game"], int(record["deck"]))
    for i in range(len(cards) - 1, 0, -1):
        j = below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def deal_order(game: str, dealer: int) -> tuple[tuple[int, ...], int]:
    """(the seats that get a packet, in order; the packet size)."""
    if game == "truco":  # T3: from the player after the dealer, counter-clockwise
        return tuple((dealer - k) % 4 for k in (1, 2, 3, 4)), 3
    return tuple((dealer + k) % 4 for k in (1, 2, 3, 4)), 5  # E8: from the dealer's left


def expected_round(message_id: int, hand: int) -> int:
    """Hand n's round: the quicknet round current at the message's millisecond, plus n."""
    ms = (message_id >> 22) + DISCORD_EPOCH_MS
    return (ms - GENESIS * 1000) // (PERIOD * 1000) + 1 + hand


def _round_ok(record: dict[str, Any]) -> bool:
    """Version 2: the round is the one the commitment message fixes for this hand (a weak hand
    whose message could not be posted names round 0)."""
    if int(record.get("version", 1)) != 2:
        return True
    message = record.get("message")
    if message is None:
        return bool(record.get("weak")) and int(record["round"]) == 0
    return int(record["round"]) == expected_round(int(message), int(record["hand"]))


def check_secret(record: dict[str, Any], secret_hex: str) -> bool:
    """The game secret (revealed when the game ends) hashes to the game commitment and gives
    this hand's server seed."""
    secret = bytes.fromhex(secret_hex)
    seed = hmac.new(secret, _encode("hand", int(record["hand"])), hashlib.sha256).hexdigest()
    return (
        hashlib.sha256(secret).hexdigest() == record.get("game_commitment")
        and seed == record["server_seed"]
    )


def check_hand(
    records: list[dict[str, Any]], hand: int, secret: str | None = None
) -> DealCheck | None:
    """Hand `hand` (1-based) of a game's revealed records, checked; None if not revealed.
    `secret`: the game secret, once the game is over (version 2)."""
    found = [r for r in records if int(r["hand"]) == hand]
    if not found:
        return None
    record = found[0]
    seed = bytes.fromhex(record["server_seed"])
    previous = record["previous_commitment"]
    before = [r for r in records if int(r["hand"]) == hand - 1]
    expected_previous = ZEROS if hand == 1 else (before[0]["commitment"] if before else None)
    order, size = deal_order(record["game"], int(record["dealer"]))
    cards = _shuffled(record)
    hands: list[list[str]] = [[], [], [], []]
    for k, seat in enumerate(order):
        hands[seat] = cards[k * size : (k + 1) * size]
    deal_ok = hands == record["hands"]
    if record["game"] == "euchre":
        rest = cards[4 * size :]
        deal_ok = deal_ok and rest[:1] == [record["turned"]] and rest[1:] == record["kitty"]
    v2 = int(record.get("version", 1)) == 2
    return DealCheck(
        hand=hand,
        commitment_ok=hashlib.sha256(seed).hexdigest() == record["commitment"],
        chain_ok=expected_previous is None or previous == expected_previous,
        deal_ok=deal_ok,
        hands=hands,
        record=record,
        round_ok=_round_ok(record),
        weak=v2 and bool(record.get("weak")),
        secret_ok=None if not v2 or secret is None else check_secret(record, secret),
    )
