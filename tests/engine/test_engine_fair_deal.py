"""Fair deals, version 1 (bot/engine/fair_deal.py, docs/fair-deals.md): the derivation pinned by
the document's worked examples, the standalone checker (scripts/verify_deal.py) run on them,
the documented card orders, the options, and the uniformity of the shuffle by a chi-square
test (the 100,000-deal figures come from scripts/fair_deal_stats.py).

Whole games dealt this way are in tests/test_engine_fair_games.py."""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bot.engine import fair_deal
from bot.engine.common import InvalidOptions
from bot.engine.euchre import Options as EuchreOptions
from bot.engine.euchre import new_game as new_euchre
from bot.engine.euchre.cards import CODES, deck_for
from bot.engine.truco import cards as truco_cards
from bot.engine.truco.game import new_game as new_truco
from bot.engine.truco.options import Options as TrucoOptions

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "fair-deals.md"
SCRIPT = ROOT / "scripts" / "verify_deal.py"
PLAYERS = ("111", "bot:1", "222", "bot:3")


def load_script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def run_script(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    # Run from outside the repository: the checker must need nothing of it but itself.
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        cwd=cwd or Path("/"),
        timeout=60,
    )


def doc_examples() -> list[dict[str, Any]]:
    blocks = re.findall(r"```json\n(.*?)\n```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    examples = [json.loads(block) for block in blocks]
    assert len(examples) >= 3
    return examples


def deck_of(game: str, size: int) -> tuple[str, ...]:
    if game == "truco":
        return fair_deal.TRUCO_DECK
    return fair_deal.euchre_deck(size - size % 2, bool(size % 2))


# --- the document's worked examples --------------------------------------------------------------


def test_the_worked_examples_of_the_document_are_what_the_engine_computes() -> None:
    for ex in doc_examples():
        secret = fair_deal.game_secret(int(ex["game_seed"]))
        seed = fair_deal.server_seed(secret, ex["hand"])
        assert seed.hex() == ex["server_seed"], ex["example"]
        assert fair_deal.commitment(seed).hex() == ex["commitment"]
        assert fair_deal.hand_commitment(int(ex["game_seed"]), ex["hand"]) == ex["commitment"]
        previous = fair_deal.previous_commitment(secret, ex["hand"])
        assert previous.hex() == ex["previous_commitment"]
        if ex["hand"] > 1:
            before = fair_deal.server_seed(secret, ex["hand"] - 1)
            assert previous == fair_deal.commitment(before)
        key = fair_deal.deal_key(
            seed, ex["game"], ex["deck"], ex["players"], ex["hand"], ex["cut"], previous
        )
        assert key.hex() == ex["deal_key"]
        stream = fair_deal.DrawStream(key)
        assert [stream.next32() for _ in range(8)] == ex["first_block"]
        shuffled = fair_deal.shuffle(key, deck_of(ex["game"], ex["deck"]))
        assert shuffled == ex["shuffled"]
        assert sorted(shuffled) == sorted(deck_of(ex["game"], ex["deck"]))


def test_the_worked_examples_deal_as_the_games_deal() -> None:
    """The examples' hands are what a game with those inputs deals: the engine's own deal
    order (its dealer, its seats), not only the document's."""
    for ex in doc_examples():
        game: Any
        if ex["game"] == "euchre":
            options = EuchreOptions(
                deck=ex["deck"] - ex["deck"] % 2,
                joker=bool(ex["deck"] % 2),
                deal="fair-v1",
                players=tuple(ex["players"]),
                stick_the_dealer=True,  # no hand is thrown in while we reach hand n
            )
            first = (ex["dealer"] - ex["hand"] + 1) % 4  # the deal passes to the left
            game = new_euchre(options, int(ex["game_seed"]), first_dealer=first)
        else:
            truco_options = TrucoOptions(deal="fair-v1", players=tuple(ex["players"]))
            first = (ex["dealer"] + ex["hand"] - 1) % 4  # T3: it passes counter-clockwise
            game = new_truco(truco_options, int(ex["game_seed"]), first_dealer=first)
        while game.view(None)["fair"]["hand"] < ex["hand"]:
            if game.phase == "cut":
                game.apply(game.view(None)["fair"]["cutter"], "cut:x")
            else:
                seat = game.to_act[0]
                game.apply(seat, game.legal_actions(seat)[0])
        fair = game.view(None)["fair"]
        assert fair["dealer"] == ex["dealer"] and fair["hand"] == ex["hand"]
        assert fair["commitment"] == ex["commitment"]
        game.apply(fair["cutter"], "cut:" + ex["cut"])
        for seat in range(4):
            assert sorted(game.view(seat)["hand"]) == sorted(ex["hands"][seat])
        if ex["game"] == "euchre":
            assert game.view(None)["turned_card"] == ex["turned"]


def test_the_standalone_checker_computes_the_worked_examples() -> None:
    for ex in doc_examples():
        done = run_script(
            "--game",
            ex["game"],
            "--deck",
            str(ex["deck"]),
            "--players",
            *ex["players"],
            "--hand",
            str(ex["hand"]),
            "--dealer",
            str(ex["dealer"]),
            "--cut",
            ex["cut"],
            "--previous",
            ex["previous_commitment"],
            "--seed",
            ex["server_seed"],
            "--commitment",
            ex["commitment"],
            # issue 32: the deal is compared with the cards shown, not only printed
            "--hands",
            *(" ".join(h) for h in ex["hands"]),
            *(("--turned", ex["turned"]) if ex["game"] == "euchre" else ()),
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "commitment shown: matches" in done.stdout
        for seat in range(4):
            hand = " ".join(ex["hands"][seat])
            assert f"seat {seat} ({ex['players'][seat]}): {hand}" in done.stdout
        if ex["game"] == "euchre":
            assert f"turned card: {ex['turned']}" in done.stdout
        wrong = run_script(
            "--game",
            ex["game"],
            "--players",
            *ex["players"],
            "--hand",
            str(ex["hand"]),
            "--dealer",
            str(ex["dealer"]),
            "--cut",
            ex["cut"],
            "--seed",
            ex["server_seed"],
            "--commitment",
            ex["previous_commitment"],
        )
        assert wrong.returncode == 1 and "DOES NOT MATCH" in wrong.stdout


def test_the_command_the_document_gives_a_player_checks_its_deal() -> None:
    text = DOC.read_text(encoding="utf-8")
    command = re.search(r"```\n(python3 scripts/verify_deal\.py --game.*?)\n```", text, re.DOTALL)
    assert command is not None
    args = command.group(1).replace("\\\n", " ").split()[2:]
    done = run_script(*args)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "commitment shown: matches" in done.stdout


def test_encode_writes_length_prefixed_fields() -> None:
    assert fair_deal.encode("hand", 1) == bytes.fromhex("0000000468616e640000000131")
    assert fair_deal.encode("ab", "c") != fair_deal.encode("a", "bc")
    assert fair_deal.encode(b"\x00" * 2, 10, "é") == bytes.fromhex(
        "00000002000000000002313000000002c3a9"
    )
    with pytest.raises(ValueError):
        fair_deal.encode(-1)


def test_the_documented_deck_orders_are_the_engines_and_the_checkers() -> None:
    checker = load_script("verify_deal")
    for size in (24, 28, 32):
        for joker in (False, True):
            engine = [CODES[c] for c in deck_for(size, joker)]
            assert list(fair_deal.euchre_deck(size, joker)) == engine
            assert checker.deck_of("euchre", size + joker) == engine
    assert list(fair_deal.TRUCO_DECK) == list(truco_cards.DECK)
    assert checker.deck_of("truco", 40) == list(truco_cards.DECK)
    assert fair_deal.euchre_deck(24, False)[:3] == ("9C", "TC", "JC")


def test_the_checker_imports_nothing_but_the_standard_library() -> None:
    tree = ast.parse(SCRIPT.read_text(encoding="utf-8"))
    modules = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {
        (node.module or "").split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
    }
    assert modules <= sys.stdlib_module_names | {"__future__"}, modules


def test_draws_are_unbiased_by_rejection() -> None:
    """A 32-bit value at or above the largest multiple of m is never used: with m = 3 the
    limit is 2**32 - 1, so the value 2**32 - 1 must be skipped, not folded to 0."""

    class Fixed(fair_deal.DrawStream):
        def __init__(self, values: list[int]) -> None:
            super().__init__(b"")
            self.values = values

        def next32(self) -> int:
            return self.values.pop(0)

    assert Fixed([2**32 - 1, 7]).below(3) == 1
    assert Fixed([2**32 - 2, 7]).below(3) == (2**32 - 2) % 3
    assert Fixed([2**32 - 1, 2**32 - 1, 5]).below(2**31 + 1) == 5


# --- options -------------------------------------------------------------------------------------


def test_seeded_options_keep_their_old_dict() -> None:
    assert "deal" not in EuchreOptions().to_dict() and "players" not in EuchreOptions().to_dict()
    assert TrucoOptions().to_dict() == {"target": 12}
    assert EuchreOptions.from_dict(EuchreOptions().to_dict()) == EuchreOptions()


@pytest.mark.parametrize("options_class", [EuchreOptions, TrucoOptions])
def test_fair_options_round_trip_and_are_checked(options_class: Any) -> None:
    fair = options_class(deal="fair-v1", players=list(PLAYERS))
    assert fair.players == PLAYERS
    data = fair.to_dict()
    assert data["deal"] == "fair-v1" and data["players"] == list(PLAYERS)
    assert options_class.from_dict(json.loads(json.dumps(data))) == fair
    for bad in (
        {"deal": "fair-v1"},
        {"deal": "fair-v1", "players": ["1", "2", "3"]},
        {"deal": "fair-v1", "players": ["1", "2", "3", ""]},
        {"deal": "fair-v1", "players": ["1", "2", "3", 4]},
        {"deal": "fair-v3", "players": list(PLAYERS)},
        {"players": list(PLAYERS)},
    ):
        with pytest.raises(InvalidOptions):
            options_class.from_dict(bad)


def test_a_fair_game_takes_no_hand_built_deals_and_a_256_bit_seed_at_most() -> None:
    options = EuchreOptions(deal="fair-v1", players=PLAYERS)
    with pytest.raises(InvalidOptions):
        new_euchre(options, 1, deals=lambda _n, _d: ([], []))
    with pytest.raises(InvalidOptions):
        new_truco(TrucoOptions(deal="fair-v1", players=PLAYERS), 1, deals=lambda _n, _d: [])
    with pytest.raises(InvalidOptions):
        new_euchre(options, 2**256)
    with pytest.raises(InvalidOptions):
        new_euchre(options, -1)
    assert new_euchre(options, 2**256 - 1).phase == "cut"


# --- uniformity ----------------------------------------------------------------------------------


@pytest.mark.parametrize("game, size", [("euchre", 24), ("truco", 40)])
def test_each_cards_position_is_uniform_by_chi_square_at_1_percent(game: str, size: int) -> None:
    """3,000 deals from fixed seeds (so the result never changes); every card's position over
    the deck passes at the 1% level for the deck as a whole (Bonferroni), and so does the whole
    table. scripts/fair_deal_stats.py runs 100,000 deals per deck."""
    stats = load_script("fair_deal_stats")
    report = stats.chi_square_report(stats.position_counts(game, deck_of(game, size), 3000))
    assert report.deals == 3000 and report.cards == size
    assert report.passes(0.01), report


def test_the_chi_square_test_catches_a_biased_shuffle() -> None:
    """The test above can fail: Sattolo's variant (j below i, not i + 1) never leaves a card
    where it was, and the same 3,000 deals reject it."""
    stats = load_script("fair_deal_stats")

    def sattolo(key: bytes, deck: Any) -> list[str]:
        cards = list(deck)
        stream = fair_deal.DrawStream(key)
        for i in range(len(cards) - 1, 0, -1):
            j = stream.below(i)
            cards[i], cards[j] = cards[j], cards[i]
        return cards

    counts = stats.position_counts("euchre", deck_of("euchre", 24), 3000, shuffle=sattolo)
    assert not stats.chi_square_report(counts).passes(0.01)


def test_the_chi_square_tail_is_right() -> None:
    stats = load_script("fair_deal_stats")
    # Critical values at 1% from the tables: 6.635 (1 dof), 41.638 (23), 62.428 (39).
    for x, dof in ((6.635, 1), (41.638, 23), (62.428, 39)):
        assert stats.chi2_sf(x, dof) == pytest.approx(0.01, rel=1e-3)
    assert stats.chi2_sf(22.0, 22) == pytest.approx(0.4608, abs=1e-3)
