#!/usr/bin/env python3
"""Check a fair-v1 deal yourself: recompute it from the values the table showed.

Standard library only, and no import from the bot: this file re-implements docs/fair-deals.md
on its own, so you can read all of it (it is short) and trust it, or write your own.

From an exported hand record (one record, a list of them, or {"records": [...]}; "-" reads
standard input). Every record's commitment and deal are checked, and the chain between
consecutive hands:

    python3 scripts/verify_deal.py hands.json

From the values shown at the table (prints the deal; checks the commitment if you give it):

    python3 scripts/verify_deal.py --game euchre --deck 24 --players 111 222 bot:2 333 \\
        --hand 1 --dealer 3 --cut 1234567890 --previous 00...00 --seed 5f3a... \\
        --commitment 9c1e...

Exit status 0 when every check passed, 1 when one failed or the input could not be read.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import sys
from typing import Any

VERSION = 1
ZERO = bytes(32)


# --- docs/fair-deals.md, "Decks" ---------------------------------------------------------------


def deck_of(game: str, size: int) -> list[str]:
    if game == "euchre" and size in (24, 25, 28, 29, 32, 33):
        ranks = {24: "9TJQKA", 28: "89TJQKA", 32: "789TJQKA"}[size - size % 2]
        cards = [rank + suit for suit in "CDHS" for rank in ranks]
        return [*cards, "JO"] if size % 2 else cards
    if game == "truco" and size == 40:
        return [rank + suit for suit in "CDHS" for rank in "A234567JQK"]
    raise ValueError(f"no {game} deck of {size} cards in version {VERSION}")


# --- docs/fair-deals.md, "Derivation" ----------------------------------------------------------


def encode(*fields: str | int | bytes) -> bytes:
    out = b""
    for value in fields:
        if isinstance(value, bytes):
            raw = value
        elif isinstance(value, int):
            raw = str(value).encode("ascii")
        else:
            raw = value.encode("utf-8")
        out += len(raw).to_bytes(4, "big") + raw
    return out


def shuffled_deck(
    seed: bytes, game: str, size: int, players: list[str], hand: int, cut: str, previous: bytes
) -> list[str]:
    message = encode("fair-deal", VERSION, game, size, *players, hand, cut, previous)
    key = hmac.new(seed, message, hashlib.sha256).digest()
    words: list[int] = []
    counter = 0

    def below(n: int) -> int:
        nonlocal counter
        limit = 2**32 - 2**32 % n
        while True:
            if not words:
                block = hmac.new(key, encode("draw", counter), hashlib.sha256).digest()
                counter += 1
                words.extend(int.from_bytes(block[i : i + 4], "big") for i in range(0, 32, 4))
            value = words.pop(0)
            if value < limit:
                return value % n

    cards = deck_of(game, size)
    for i in range(len(cards) - 1, 0, -1):
        j = below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def deal(game: str, cards: list[str], dealer: int) -> dict[str, Any]:
    """docs/fair-deals.md, "Dealing": packets from the top of the shuffled deck."""
    if game == "euchre":  # five each from the dealer's left (clockwise), then the turned card
        order, size = [(dealer + k) % 4 for k in (1, 2, 3, 4)], 5
    else:  # truco: three each from the player after the dealer, counter-clockwise
        order, size = [(dealer - k) % 4 for k in (1, 2, 3, 4)], 3
    hands: list[list[str]] = [[], [], [], []]
    for k, seat in enumerate(order):
        hands[seat] = cards[k * size : (k + 1) * size]
    out: dict[str, Any] = {"hands": hands}
    if game == "euchre":
        out["turned"] = cards[20]
        out["kitty"] = cards[21:]
    return out


# --- checking -----------------------------------------------------------------------------------


def check_record(record: dict[str, Any]) -> list[str]:
    """The failed checks of one hand record ([] when it is right)."""
    problems = []
    if record.get("version") != VERSION:
        return [f"version {record.get('version')!r} is not {VERSION}"]
    seed = bytes.fromhex(record["server_seed"])
    if hashlib.sha256(seed).hexdigest() != record["commitment"].lower():
        problems.append("the server seed does not match the commitment shown before the deal")
    cards = shuffled_deck(
        seed,
        record["game"],
        int(record["deck"]),
        [str(p) for p in record["players"]],
        int(record["hand"]),
        record["cut"],
        bytes.fromhex(record["previous_commitment"]),
    )
    expected = deal(record["game"], cards, int(record["dealer"]))
    for seat, (got, want) in enumerate(zip(record["hands"], expected["hands"], strict=True)):
        if sorted(got) != sorted(want):
            problems.append(f"seat {seat} was dealt {got}, the derivation gives {want}")
    if record["game"] == "euchre":
        if record["turned"] != expected["turned"]:
            problems.append(f"turned card {record['turned']}, derivation {expected['turned']}")
        if sorted(record["kitty"]) != sorted(expected["kitty"]):
            problems.append(f"kitty {record['kitty']}, derivation {expected['kitty']}")
    return problems


def check_chain(records: list[dict[str, Any]]) -> list[str]:
    """Each hand's previous commitment is the commitment of the hand before (hand 1: zeros)."""
    problems = []
    for i, record in enumerate(records):
        previous = record["previous_commitment"].lower()
        if record["hand"] == 1 and previous != ZERO.hex():
            problems.append("hand 1's previous commitment is not 64 zeros")
        if i == 0:
            continue
        before = records[i - 1]
        if record["hand"] != before["hand"] + 1:
            problems.append(f"hand {before['hand'] + 1} is missing before hand {record['hand']}")
        elif previous != before["commitment"].lower():
            problems.append(
                f"hand {record['hand']}'s previous commitment is not hand {before['hand']}'s"
            )
    return problems


def verify_records(records: list[dict[str, Any]]) -> bool:
    records = sorted(records, key=lambda r: int(r["hand"]))
    ok = True
    for record in records:
        problems = check_record(record)
        ok = ok and not problems
        status = "OK" if not problems else "FAILED"
        print(f"hand {record['hand']} ({record['game']}, cut {record['cut']!r}): deal {status}")
        for problem in problems:
            print(f"  - {problem}")
    chain = check_chain(records)
    if len(records) > 1 or records[0]["hand"] == 1:
        print(f"chain of {len(records)} hand(s): {'OK' if not chain else 'FAILED'}")
    for problem in chain:
        print(f"  - {problem}")
    return ok and not chain


def load_records(path: str) -> list[dict[str, Any]]:
    text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()  # noqa: SIM115
    data = json.loads(text)
    if isinstance(data, dict) and "records" in data:
        data = data["records"]
    records = data if isinstance(data, list) else [data]
    if not records or not all(isinstance(r, dict) for r in records):
        raise ValueError("expected a hand record, a list of them or {'records': [...]}")
    return records


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("record", nargs="?", help="a JSON file of hand records ('-': stdin)")
    parser.add_argument("--game", choices=("euchre", "truco"))
    parser.add_argument("--deck", type=int, help="cards in the deck (euchre 24/25/28/29/32/33)")
    parser.add_argument("--players", nargs=4, metavar="ID", help="player ids in seat order")
    parser.add_argument("--hand", type=int, help="the hand number (1 for the first hand)")
    parser.add_argument("--dealer", type=int, choices=range(4), help="the dealer's seat")
    parser.add_argument("--cut", help="the cut text, exactly as shown")
    parser.add_argument("--previous", default=ZERO.hex(), help="the previous commitment (hex)")
    parser.add_argument("--seed", help="the revealed server seed (hex)")
    parser.add_argument("--commitment", help="the commitment shown before the deal (hex)")
    args = parser.parse_args(argv)
    try:
        if args.record is not None:
            return 0 if verify_records(load_records(args.record)) else 1
        needed = ("game", "players", "hand", "dealer", "cut", "seed")
        missing = [f"--{name}" for name in needed if getattr(args, name) is None]
        if missing:
            parser.error(f"give a record file, or the values: missing {', '.join(missing)}")
        size = args.deck or (40 if args.game == "truco" else 24)
        seed = bytes.fromhex(args.seed)
        computed = hashlib.sha256(seed).hexdigest()
        print(f"commitment of this seed: {computed}")
        ok = True
        if args.commitment is not None:
            ok = computed == args.commitment.lower()
            print(f"commitment shown: {'matches' if ok else 'DOES NOT MATCH'}")
        cards = shuffled_deck(
            seed, args.game, size, args.players, args.hand, args.cut, bytes.fromhex(args.previous)
        )
        dealt = deal(args.game, cards, args.dealer)
        for seat, hand in enumerate(dealt["hands"]):
            print(f"seat {seat} ({args.players[seat]}): {' '.join(hand)}")
        if args.game == "euchre":
            print(f"turned card: {dealt['turned']}; under it: {' '.join(dealt['kitty'])}")
        return 0 if ok else 1
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"cannot check: {exc!r}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
