#!/usr/bin/env python3
"""Check fair deals yourself: recompute every deal from the values the table showed.

Standard library only, and no import from the bot: this file re-implements docs/fair-deals.md
on its own (versions 1 and 2), so you can read all of it and trust it, or write your own.

From exported hand records (one record, a list of them, or {"records": [...], "game_secret":
"..."}; "-" reads standard input): every record's commitment, deal and chain link; for version
2 also the beacon round that the commitment message fixes, the beacon's value for it (fetched
from a drand relay with urllib, or given offline), and the game secret when you give it:

    python3 scripts/verify_deal.py hands.json --message 1311111111111111111
    python3 scripts/verify_deal.py hands.json --offline --beacon rounds.json

From the values shown at the table (the command /verify prints):

    python3 scripts/verify_deal.py --version 2 --game truco --deck 40 --players 1 2 3 bot:3 \\
        --hand 1 --dealer 0 --cut drand:12345:ab12... --previous 00...00 --seed 5f3a... \\
        --commitment 9c1e... --message 1311... --hands JS,KD,AS 3C,5S,3D ... ...

Nothing has a default: a value that is missing is a failure, named. What is NOT checked: the
drand BLS signature (no pairing library in Python's standard library). What is checked of the
beacon: the round number, and that the randomness equals the relay's (or yours) for that round
and is SHA-256 of its signature, as drand defines it. Check the signature with drand's own
client if you want to (docs/fair-deals.md, "The beacon").

Exit status: 0 everything checked; 1 a check failed or a value is missing; 3 everything checked
but a hand was cut weak (the beacon did not answer) and --allow-weak was not given.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import hmac
import json
import sys
import urllib.request
from typing import Any

ZERO = bytes(32)
DISCORD_EPOCH_MS = 1_420_070_400_000
CHAIN = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"  # drand quicknet
GENESIS = 1692803367  # quicknet's genesis_time (its /info)
PERIOD = 3  # quicknet's period, seconds
RELAYS = ("https://api.drand.sh", "https://api2.drand.sh", "https://drand.cloudflare.com")
WEAK_EXIT = 3


# --- docs/fair-deals.md, "Decks" ---------------------------------------------------------------


def deck_of(game: str, size: int) -> list[str]:
    if game == "euchre" and size in (24, 25, 28, 29, 32, 33):
        ranks = {24: "9TJQKA", 28: "89TJQKA", 32: "789TJQKA"}[size - size % 2]
        cards = [rank + suit for suit in "CDHS" for rank in ranks]
        return [*cards, "JO"] if size % 2 else cards
    if game == "truco" and size == 40:
        return [rank + suit for suit in "CDHS" for rank in "A234567JQK"]
    raise ValueError(f"no {game} deck of {size} cards")


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
    seed: bytes,
    game: str,
    size: int,
    players: list[str],
    hand: int,
    cut: str,
    previous: bytes,
    version: int = 1,
) -> list[str]:
    message = encode("fair-deal", version, game, size, *players, hand, cut, previous)
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


# --- docs/fair-deals.md, "The beacon" (version 2) ----------------------------------------------


def message_time(message_id: int) -> float:
    """A Discord snowflake's time, in Unix seconds."""
    return ((message_id >> 22) + DISCORD_EPOCH_MS) / 1000


def beacon_round(message_id: int, hand: int) -> int:
    """The round current at the message's millisecond, plus the hand number."""
    ms = (message_id >> 22) + DISCORD_EPOCH_MS
    return (ms - GENESIS * 1000) // (PERIOD * 1000) + 1 + hand


def parse_cut(cut: str) -> dict[str, Any]:
    """drand:<round>:<randomness>[:<typed>] or weak:<round>:<fallback>[:<typed>]."""
    kind, _, rest = cut.partition(":")
    parts = rest.split(":", 2)
    if kind not in ("drand", "weak") or len(parts) < 2 or not parts[0].isdigit():
        raise ValueError(f"not a version-2 cut: {cut!r}")
    return {"kind": kind, "round": int(parts[0]), "value": parts[1]}


class Beacon:
    """Rounds given offline (--beacon FILE, --randomness R=HEX) or fetched from relays."""

    def __init__(self, given: dict[int, dict[str, Any]], relays: list[str], offline: bool) -> None:
        self.given = given
        self.relays = relays
        self.offline = offline

    def get(self, number: int) -> tuple[dict[str, Any] | None, str]:
        if number in self.given:
            return self.given[number], "given"
        if self.offline:
            return None, "not given (--offline)"
        errors = []
        for relay in self.relays:
            url = f"{relay.rstrip('/')}/{CHAIN}/public/{number}"
            try:
                with urllib.request.urlopen(url, timeout=10) as answer:
                    return json.loads(answer.read().decode("utf-8")), url
            except (OSError, ValueError) as error:
                errors.append(f"{relay}: {error}")
        return None, "no relay answered (" + "; ".join(errors) + ")"


def check_beacon(round_data: dict[str, Any] | None, number: int, randomness: str) -> list[str]:
    if round_data is None:
        return [f"the beacon's round {number} is missing"]
    problems = []
    if round_data.get("round") != number:
        problems.append(f"the beacon answered round {round_data.get('round')!r}, not {number}")
    if round_data.get("randomness") != randomness:
        problems.append(
            f"round {number}'s randomness is {round_data.get('randomness')!r}, the cut used "
            f"{randomness!r}"
        )
    signature = round_data.get("signature")
    if signature is not None:
        try:
            if hashlib.sha256(bytes.fromhex(signature)).hexdigest() != round_data["randomness"]:
                problems.append(f"round {number}'s randomness is not SHA-256 of its signature")
        except (ValueError, KeyError):
            problems.append(f"round {number}'s signature is not hex")
    return problems


# --- checking -----------------------------------------------------------------------------------


def check_record(
    record: dict[str, Any], beacon: Beacon | None = None, message: int | None = None
) -> tuple[list[str], bool]:
    """(the failed checks of one hand record, whether it was cut weak)."""
    problems: list[str] = []
    version = record.get("version")
    if version not in (1, 2):
        return [f"version {version!r} is not 1 or 2"], False
    needed = ["game", "deck", "players", "hand", "dealer", "cut", "previous_commitment"]
    needed += ["commitment", "server_seed", "hands"]
    if record.get("game") == "euchre":
        needed.append("turned")
    if version == 2:
        needed.append("message")
    missing = [key for key in needed if key not in record]
    if missing:
        return [f"missing {', '.join(missing)}"], False
    seed = bytes.fromhex(record["server_seed"])
    if hashlib.sha256(seed).hexdigest() != str(record["commitment"]).lower():
        problems.append("the server seed does not match the commitment")
    cards = shuffled_deck(
        seed,
        record["game"],
        int(record["deck"]),
        [str(p) for p in record["players"]],
        int(record["hand"]),
        record["cut"],
        bytes.fromhex(record["previous_commitment"]),
        int(version),
    )
    expected = deal(record["game"], cards, int(record["dealer"]))
    if len(record["hands"]) != 4:
        problems.append("the record has not four hands")
    for seat, (got, want) in enumerate(zip(record["hands"], expected["hands"], strict=False)):
        if sorted(got) != sorted(want):
            problems.append(f"seat {seat} was dealt {got}, the derivation gives {want}")
    if record["game"] == "euchre":
        if record["turned"] != expected["turned"]:
            problems.append(f"turned card {record['turned']}, derivation {expected['turned']}")
        if "kitty" in record and sorted(record["kitty"]) != sorted(expected["kitty"]):
            problems.append(f"kitty {record['kitty']}, derivation {expected['kitty']}")
    if version == 1:
        return problems, False
    more, weak = check_v2(record, beacon, message)
    return problems + more, weak


def check_v2(
    record: dict[str, Any], beacon: Beacon | None, message: int | None
) -> tuple[list[str], bool]:
    problems: list[str] = []
    try:
        cut = parse_cut(record["cut"])
    except ValueError as error:
        return [str(error)], False
    hand = int(record["hand"])
    recorded = record["message"]
    if message is not None and str(recorded) != str(message):
        problems.append(f"the record names message {recorded}, not {message}")
    if recorded is None:
        if cut["kind"] != "weak" or cut["round"] != 0:
            problems.append("a hand without a commitment message is weak, round 0")
        return problems, True
    want = beacon_round(int(recorded), hand)
    if cut["round"] != want:
        got = cut["round"]
        problems.append(f"message {recorded} fixes round {want} for hand {hand}, not {got}")
    if cut["kind"] == "weak":
        return problems, True
    if beacon is None:
        return [*problems, f"the beacon's round {want} is missing"], False
    found, source = beacon.get(cut["round"])
    problems += check_beacon(found, cut["round"], cut["value"])
    if not problems:
        print(f"  hand {hand}: beacon round {cut['round']} checks ({source})")
    return problems, False


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


def check_secret(records: list[dict[str, Any]], secret_hex: str) -> list[str]:
    """The game secret hashes to the game commitment and gives every hand's server seed."""
    secret = bytes.fromhex(secret_hex)
    problems = []
    commitment = hashlib.sha256(secret).hexdigest()
    for record in records:
        if record.get("game_commitment") != commitment:
            problems.append(f"hand {record['hand']}: the game secret is not its game commitment")
        seed = hmac.new(secret, encode("hand", int(record["hand"])), hashlib.sha256).hexdigest()
        if seed != record["server_seed"]:
            problems.append(f"hand {record['hand']}: the game secret does not give its seed")
    return problems


def verify_records(
    records: list[dict[str, Any]],
    beacon: Beacon | None = None,
    message: int | None = None,
    secret: str | None = None,
) -> tuple[bool, int]:
    """(everything checked, the number of weak hands)."""
    records = sorted(records, key=lambda r: int(r["hand"]))
    ok = True
    weak = 0
    messages = {str(r.get("message")) for r in records if r.get("version") == 2}
    if len(messages) > 1:
        print(f"the records name several commitment messages: {sorted(messages)}")
        ok = False
    for record in records:
        problems, was_weak = check_record(record, beacon, message)
        weak += was_weak
        ok = ok and not problems
        status = "OK" if not problems else "FAILED"
        if was_weak and not problems:
            status = "OK but WEAK: the beacon did not answer; this hand's cut was the fallback"
        print(f"hand {record['hand']} ({record['game']}, cut {record['cut']!r}): deal {status}")
        for problem in problems:
            print(f"  - {problem}")
    chain = check_chain(records)
    print(f"chain of {len(records)} hand(s): {'OK' if not chain else 'FAILED'}")
    for problem in chain:
        print(f"  - {problem}")
    if secret is not None:
        bad = check_secret(records, secret)
        print(f"game secret: {'OK' if not bad else 'FAILED'}")
        for problem in bad:
            print(f"  - {problem}")
        ok = ok and not bad
    return ok and not chain, weak


def load(path: str) -> tuple[list[dict[str, Any]], str | None]:
    text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()  # noqa: SIM115
    data = json.loads(text)
    secret = None
    if isinstance(data, dict) and "records" in data:
        secret = data.get("game_secret")
        data = data["records"]
    records = data if isinstance(data, list) else [data]
    if not records or not all(isinstance(r, dict) for r in records):
        raise ValueError("expected a hand record, a list of them or {'records': [...]}")
    return records, secret


def load_beacon(paths: list[str], pairs: list[str]) -> dict[int, dict[str, Any]]:
    """Rounds given offline: JSON files of one drand round or a list of them, and R=HEX pairs."""
    given: dict[int, dict[str, Any]] = {}
    for path in paths:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
        for item in data if isinstance(data, list) else [data]:
            if isinstance(item.get("round"), dict):  # a recorded round with its source
                item = item["round"]
            given[int(item["round"])] = item
    for pair in pairs:
        number, _, randomness = pair.partition("=")
        given[int(number)] = {"round": int(number), "randomness": randomness.lower()}
    return given


def from_arguments(args: argparse.Namespace) -> tuple[dict[str, Any], list[str]]:
    """A hand record from the command line; the names of the values missing."""
    record: dict[str, Any] = {"version": args.version}
    values = {
        "game": args.game,
        "deck": args.deck,
        "players": args.players,
        "hand": args.hand,
        "dealer": args.dealer,
        "previous_commitment": args.previous,
        "server_seed": args.seed,
        "commitment": args.commitment,
        "hands": None if args.hands is None else [h.replace(",", " ").split() for h in args.hands],
    }
    if args.cut_hex is not None:
        values["cut"] = bytes.fromhex(args.cut_hex).decode("utf-8")
    else:
        values["cut"] = args.cut
    if args.game == "euchre":
        values["turned"] = args.turned
    if args.version == 2:
        values["message"] = args.message
        if args.message == "none":
            values["message"] = "none"
    flags = {"previous_commitment": "previous", "server_seed": "seed", "cut": "cut"}
    missing = [f"--{flags.get(k, k)}" for k, v in values.items() if v is None]
    record.update({k: v for k, v in values.items() if v is not None})
    if record.get("message") == "none":
        record["message"] = None
    return record, missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("record", nargs="?", help="a JSON file of hand records ('-': stdin)")
    parser.add_argument("--version", type=int, choices=(1, 2), default=None)
    parser.add_argument("--game", choices=("euchre", "truco"))
    parser.add_argument("--deck", type=int, help="cards in the deck (euchre 24/25/28/29/32/33)")
    parser.add_argument("--players", nargs=4, metavar="ID", help="player ids in seat order")
    parser.add_argument("--hand", type=int, help="the hand number (1 for the first hand)")
    parser.add_argument("--dealer", type=int, choices=range(4), help="the dealer's seat")
    parser.add_argument("--cut", help="the cut text, exactly as recorded")
    parser.add_argument("--cut-hex", help="the cut text's UTF-8 bytes in hex (any text)")
    parser.add_argument("--previous", help="the previous commitment (hex; 64 zeros for hand 1)")
    parser.add_argument("--seed", help="the revealed server seed (hex)")
    parser.add_argument("--commitment", help="the hand's commitment (hex)")
    parser.add_argument("--hands", nargs=4, metavar="CARDS", help="each seat's cards: KC,9D,..")
    parser.add_argument("--turned", help="euchre: the turned-up card")
    parser.add_argument("--message", help="v2: the id of the game's commitment message")
    parser.add_argument("--secret", help="v2: the game secret (revealed when the game ended)")
    parser.add_argument("--relay", action="append", help="a drand relay (repeatable)")
    parser.add_argument("--beacon", action="append", default=[], help="a JSON file of rounds")
    parser.add_argument("--randomness", action="append", default=[], help="ROUND=HEX, offline")
    parser.add_argument("--offline", action="store_true", help="never use the network")
    parser.add_argument("--allow-weak", action="store_true", help="exit 0 with weak hands")
    args = parser.parse_args(argv)
    try:
        beacon = Beacon(
            load_beacon(args.beacon, args.randomness), args.relay or list(RELAYS), args.offline
        )
        message = None
        if args.message not in (None, "none"):
            message = int(args.message)
            when = datetime.datetime.fromtimestamp(message_time(message), datetime.UTC)
            print(f"commitment message {message}: sent {when:%Y-%m-%d %H:%M:%S.%f} UTC")
        if args.record is not None:
            records, secret = load(args.record)
            ok, weak = verify_records(records, beacon, message, args.secret or secret)
        else:
            if args.version is None:
                args.version = 1 if args.message is None else 2
            record, missing = from_arguments(args)
            if "server_seed" in record and "commitment" in record:
                computed = hashlib.sha256(bytes.fromhex(record["server_seed"])).hexdigest()
                print(f"commitment of this seed: {computed}")
                same = computed == str(record["commitment"]).lower()
                print(f"commitment shown: {'matches' if same else 'DOES NOT MATCH'}")
            if missing:
                print(f"FAILED: missing {', '.join(missing)} (nothing has a default)")
                return 1
            cards = shuffled_deck(
                bytes.fromhex(record["server_seed"]),
                record["game"],
                record["deck"],
                record["players"],
                record["hand"],
                record["cut"],
                bytes.fromhex(record["previous_commitment"]),
                record["version"],
            )
            dealt = deal(record["game"], cards, record["dealer"])
            for seat, hand in enumerate(dealt["hands"]):
                print(f"seat {seat} ({record['players'][seat]}): {' '.join(hand)}")
            if record["game"] == "euchre":
                print(f"turned card: {dealt['turned']}; under it: {' '.join(dealt['kitty'])}")
            ok, weak = verify_records([record], beacon, message, args.secret)
        if not ok:
            print("RESULT: FAILED")
            return 1
        if weak and not args.allow_weak:
            print(f"RESULT: checked, but {weak} hand(s) WEAK (exit {WEAK_EXIT}; --allow-weak)")
            return WEAK_EXIT
        print("RESULT: OK")
        return 0
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"cannot check: {exc!r}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
