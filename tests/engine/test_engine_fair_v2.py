"""Issue 32: fair-v2's specification (docs/fair-deals.md, version 2) against the engine, /verify's
own code (bot/tables/fair_check.py) and the standalone checker (scripts/verify_deal.py), and the
checker failing on a changed card, seed, beacon value, message id or chain link, on a missing
value, and on a weak hand unless allowed; online through urllib (a local relay) and offline."""

from __future__ import annotations

import copy
import http.server
import json
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from bot.engine import fair_deal
from bot.tables.beacon import parse_round
from bot.tables.fair_check import check_hand, expected_round

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "fair-deals.md"
SCRIPT = ROOT / "scripts" / "verify_deal.py"
ROUND_3 = ROOT / "tests" / "data" / "drand" / "quicknet-round-3.json"


def examples() -> list[dict[str, Any]]:
    blocks = re.findall(r"```json v2\n(.*?)\n```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    found = [json.loads(block) for block in blocks]
    assert [e["example"] for e in found] == ["truco-v2-beacon", "truco-v2-weak"]
    return found


def records() -> list[dict[str, Any]]:
    keep = ("version", "game", "deck", "players", "hand", "dealer", "cut")
    keep += ("previous_commitment", "commitment", "server_seed", "message", "game_commitment")
    keep += ("round", "weak", "randomness", "typed", "hands")
    return [{k: e[k] for k in keep} for e in examples()]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    # From outside the repository: the checker needs nothing of it but itself.
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        cwd="/",
        timeout=60,
        input=stdin,
        check=False,
    )


def game_file(tmp_path: Path, recs: list[dict[str, Any]], secret: str | None = None) -> str:
    path = tmp_path / "game.json"
    data: dict[str, Any] = {"records": recs}
    if secret is not None:
        data["game_secret"] = secret
    path.write_text(json.dumps(data))
    return str(path)


# --- the document --------------------------------------------------------------------------------


def test_the_real_drand_round_parses_and_its_randomness_is_its_signatures_hash() -> None:
    data = json.loads(ROUND_3.read_text())
    assert "api.drand.sh" in data["source"]
    info = data["chain_info"]
    assert info["hash"] == fair_deal.QUICKNET_HASH
    assert (info["genesis_time"], info["period"]) == (
        fair_deal.QUICKNET_GENESIS,
        fair_deal.QUICKNET_PERIOD,
    )
    parsed = parse_round(data["round"], 3)
    assert parsed.round == 3 and len(parsed.signature) == 96  # a G1 point: 48 bytes
    assert parsed.randomness == examples()[0]["randomness"]
    with pytest.raises(ValueError):
        parse_round(data["round"], 4)  # another round than the one asked for
    with pytest.raises(ValueError):
        parse_round({**data["round"], "randomness": "00" * 32}, 3)
    with pytest.raises(ValueError):
        parse_round({**data["round"], "round": "3"}, 3)
    # drand's default (chained) network adds previous_signature; it is kept
    chained = {**data["round"], "previous_signature": "ab" * 96}
    assert parse_round(chained, 3).previous_signature == "ab" * 96


def test_the_beacon_rule_of_the_worked_example() -> None:
    message = 1143924991197315072
    assert fair_deal.message_ms(message) == 1692803371000
    assert [fair_deal.beacon_round(message, n) for n in (1, 2)] == [3, 4]
    assert [expected_round(message, n) for n in (1, 2)] == [3, 4]  # /verify's own code
    # the round that cuts hand 1 is published after the message
    assert fair_deal.round_time(3) * 1000 > fair_deal.message_ms(message)
    assert fair_deal.round_time(2) * 1000 <= fair_deal.message_ms(message)


def test_the_worked_examples_are_what_the_engine_deals() -> None:
    first, second = examples()
    seed = int(first["game_seed"])
    game = fair_deal.FairDealer(
        "truco", fair_deal.TRUCO_DECK, first["players"], seed, fair_deal.DEAL_V2
    )
    game.begin(1, first["dealer"], (first["dealer"] + 1) % 4)
    assert (
        game.check_cut("cut:msg:" + first["message"])
        and game.cut("msg:" + first["message"]) is None
    )
    for ex in (first, second):
        if ex["hand"] == 2:
            game.begin(2, ex["dealer"], (ex["dealer"] + 1) % 4)
        game.check_cut("cut:" + ex["cut"])
        shuffled = game.cut(ex["cut"])
        assert shuffled == ex["shuffled"]
        game.deal = fair_deal.deal_of("truco", shuffled, ex["dealer"])
        game.reveal()
        key = fair_deal.deal_key(
            bytes.fromhex(ex["server_seed"]),
            "truco",
            40,
            ex["players"],
            ex["hand"],
            ex["cut"],
            bytes.fromhex(ex["previous_commitment"]),
            2,
        )
        assert key.hex() == ex["deal_key"]
        stream = fair_deal.DrawStream(key)
        assert [stream.next32() for _ in range(8)] == ex["first_block"]
    assert game.records() == records()
    assert fair_deal.game_commitment(seed) == first["game_commitment"]
    assert fair_deal.game_secret(seed).hex() == first["game_secret"]


def test_verify_checks_the_worked_examples_through_its_own_code() -> None:
    recs = records()
    secret = examples()[0]["game_secret"]
    beacon, weak = (check_hand(recs, n, secret) for n in (1, 2))
    assert beacon is not None and beacon.ok and not beacon.weak and beacon.secret_ok
    assert weak is not None and weak.ok and weak.weak
    changed = copy.deepcopy(recs)
    changed[0]["message"] = str(int(changed[0]["message"]) + (4000 << 22))  # 4 s later
    moved = check_hand(changed, 1)
    assert moved is not None and not moved.round_ok and not moved.ok
    assert (bad := check_hand(recs, 1, "00" * 32)) is not None and bad.secret_ok is False


# --- scripts/verify_deal.py ----------------------------------------------------------------------


def test_the_checker_passes_the_game_offline_and_says_weak(tmp_path: Path) -> None:
    path = game_file(tmp_path, records(), examples()[0]["game_secret"])
    message = ("--message", examples()[0]["message"])
    done = run(path, "--offline", "--beacon", str(ROUND_3), *message, "--allow-weak")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "OK but WEAK: the beacon did not answer" in done.stdout
    assert "game secret: OK" in done.stdout and "RESULT: OK" in done.stdout
    strict = run(path, "--offline", "--beacon", str(ROUND_3), *message)
    assert strict.returncode == 3, strict.stdout  # weak, not allowed
    # the beacon's value given as ROUND=HEX works the same
    pair = f"3={examples()[0]['randomness']}"
    assert run(path, "--offline", "--randomness", pair, "--allow-weak").returncode == 0


def test_the_checker_fails_on_a_missing_beacon_value(tmp_path: Path) -> None:
    done = run(game_file(tmp_path, records()), "--offline", "--allow-weak")
    assert done.returncode == 1
    assert "round 3 is missing" in done.stdout


CHANGES: dict[str, Any] = {
    "a card": lambda r: r[0]["hands"][0].__setitem__(0, "AC"),
    "the seed": lambda r: r[0].__setitem__("server_seed", "11" * 32),
    "the beacon value": lambda r: r[0].__setitem__(
        "cut", "drand:3:" + "0" * 64
    ),  # the deal changes with it, and the relay's value differs
    "the message id": lambda r: [
        x.__setitem__("message", str(int(x["message"]) + (9000 << 22))) for x in r
    ],
    "a chain link": lambda r: r[1].__setitem__("previous_commitment", "22" * 32),
}


@pytest.mark.parametrize("what", sorted(CHANGES))
def test_the_checker_fails_on_a_changed_value(tmp_path: Path, what: str) -> None:
    recs = records()
    CHANGES[what](recs)
    done = run(game_file(tmp_path, recs), "--offline", "--beacon", str(ROUND_3), "--allow-weak")
    assert done.returncode == 1, done.stdout
    assert "RESULT: FAILED" in done.stdout


def test_the_checker_fails_when_the_message_is_not_the_one_copied(tmp_path: Path) -> None:
    other = str(int(examples()[0]["message"]) + 1)
    done = run(
        game_file(tmp_path, records()), "--offline", "--beacon", str(ROUND_3), "--message", other
    )
    assert done.returncode == 1 and "names message" in done.stdout


def test_a_beacon_value_that_only_the_record_changed_is_caught(tmp_path: Path) -> None:
    """The record's cut is kept (so the deal checks) but the relay serves another value."""
    fake = tmp_path / "round.json"
    fake.write_text(json.dumps({"round": 3, "randomness": "ab" * 32}))
    done = run(game_file(tmp_path, records()), "--offline", "--beacon", str(fake), "--allow-weak")
    assert done.returncode == 1 and "the cut used" in done.stdout


def test_one_hand_from_the_values_shown_and_nothing_has_a_default() -> None:
    ex = examples()[0]
    args = [
        "--version", "2", "--game", "truco", "--deck", "40", "--players", *ex["players"],
        "--hand", "1", "--dealer", "0", "--cut", ex["cut"],
        "--previous", ex["previous_commitment"], "--seed", ex["server_seed"],
        "--commitment", ex["commitment"], "--message", ex["message"],
        "--hands", *(",".join(h) for h in ex["hands"]),
        "--randomness", f"3={ex['randomness']}", "--offline",
    ]  # fmt: skip
    assert run(*args).returncode == 0
    without_previous = [a for a in args if a != "--previous" and a != ex["previous_commitment"]]
    done = run(*without_previous)
    assert done.returncode == 1 and "missing --previous" in done.stdout
    weak = examples()[1]
    hexed = run(
        "--version", "2", "--game", "truco", "--deck", "40", "--players", *weak["players"],
        "--hand", "2", "--dealer", "3", "--cut-hex", weak["cut"].encode().hex(),
        "--previous", weak["previous_commitment"], "--seed", weak["server_seed"],
        "--commitment", weak["commitment"], "--message", weak["message"],
        "--hands", *(",".join(h) for h in weak["hands"]), "--offline",
    )  # fmt: skip
    assert hexed.returncode == 3 and "WEAK" in hexed.stdout


class _Relay(http.server.BaseHTTPRequestHandler):
    rounds: ClassVar[dict[str, Any]] = {}

    def do_GET(self) -> None:
        found = self.rounds.get(self.path)
        body = json.dumps(found).encode() if found else b"{}"
        self.send_response(200 if found else 404)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def relay() -> Iterator[str]:
    _Relay.rounds = {
        f"/{fair_deal.QUICKNET_HASH}/public/3": json.loads(ROUND_3.read_text())["round"]
    }
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Relay)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


def test_the_checker_fetches_the_round_online_with_urllib(tmp_path: Path, relay: str) -> None:
    path = game_file(tmp_path, records(), examples()[0]["game_secret"])
    dead = "http://127.0.0.1:9"  # nothing listens: the next relay is asked
    done = run(path, "--relay", dead, "--relay", relay, "--allow-weak")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{relay}/{fair_deal.QUICKNET_HASH}/public/3" in done.stdout


@pytest.mark.parametrize(
    "text",
    [
        "drand:7:" + "0123456789abcdef" * 4,
        "drand:123456:" + "f" * 64 + ":Olá ♠",
        "drand:1:" + "a" * 64 + ":x:y:z",
        "weak:0:none",
        "weak:99:1300000000000000000",
        "weak:5:none:typed:with:colons",
    ],
)
def test_a_checked_cut_reads_as_the_parser_reads_it(text: str) -> None:
    parsed = fair_deal.parse_cut_v2(text)
    assert fair_deal.cut_fields(text) == (
        parsed["round"],
        parsed["kind"] == fair_deal.WEAK_CUT,
        parsed.get("randomness"),
        parsed["typed"],
    )
