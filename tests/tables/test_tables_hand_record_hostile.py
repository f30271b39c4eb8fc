"""Issue 33, defect 2: a hand record file is anyone's upload (/replay record). Whatever it holds,
reading it either replays a game or raises HandRecordError, whose text is the short "this
record doesn't replay" answer; nothing else escapes (no RecursionError, TypeError or ValueError
from the options line, the engine or the parser).

Run counts (hypothesis, derandomized): 150 examples each of the three fuzz tests by default, 3000
each under `-m slow` (`test_..._long`)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.tables.games import rules_for
from bot.tables.hand_record import HEADER, HandRecordError, export_text, import_text

# The answer quotes the error's first 300 characters (bot/ui/after_game/replay.py): it must be
# one short sentence, whatever the file holds.
MAX_ANSWER = 300
QUICK = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
LONG = settings(QUICK, max_examples=3000)


def game_text(game: str, seed: int) -> str:
    """The record of a whole game played at random (the rule players are not needed)."""
    rules = rules_for(game)
    options = rules.normalise_options(None)
    played = rules.new_game(options, seed)
    rng = random.Random(seed)
    while not played.is_over:
        seat = played.to_act[0]
        played.apply(seat, rng.choice(played.legal_actions(seat)))
    return export_text(game, options, seed, played.first_dealer, list(played.actions))


RECORDS = [game_text("euchre", 3), game_text("truco", 4)]


def with_options(line: str, game: str = "euchre") -> str:
    return f"{HEADER}\ngame: {game}\nseed: 5\nfirst_dealer: 0\noptions: {line}\n"


def read(text: str) -> Any:
    """The game, or None when the record is refused as it should be (a short HandRecordError);
    anything else propagates and fails the test."""
    for play_deals in (False, True):
        try:
            import_text(text, play_deals=play_deals)
        except HandRecordError as error:
            assert str(error) and len(str(error)[:MAX_ANSWER]) <= MAX_ANSWER
            assert "Traceback" not in str(error)
    return None


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deep"),
        ('{"a":' * 100_000 + "1" + "}" * 100_000, "nested too deep"),
        ("null", "not a JSON object"),
        ("[1,2]", "not a JSON object"),
        ('"x"', "not a JSON object"),
        ("[]", "not a JSON object"),
        ("1", "not a JSON object"),
        ("true", "not a JSON object"),
        ("NaN", "not a JSON object"),
        ("1e999", "not a JSON object"),
        ("{", "line"),  # not JSON at all: the JSON error's own words
        ('{"deck": {"x": [null]}}', "does not replay"),
        ('{"target": NaN}', "does not replay"),
        ('{"deck": 1e999}', "does not replay"),
    ],
    ids=lambda v: v[:16],
)
def test_hostile_options_lines_are_refused_as_records_that_do_not_replay(
    line: str, says: str
) -> None:
    with pytest.raises(HandRecordError) as refused:
        import_text(with_options(line))
    assert says in str(refused.value)
    assert len(str(refused.value)) < 200


def test_a_valid_record_still_replays() -> None:
    for text in RECORDS:
        assert import_text(text).is_over


# --- fuzz ---------------------------------------------------------------------------------------

TOKENS = [
    "",
    " ",
    ":",
    "-",
    "9" * 40,
    "9" * 5000,  # past Python's int() digit limit
    "-1",
    "4",
    "null",
    "{",
    "[",
    '"',
    "play:",
    "play:ZZ",
    "hand",
    "seat 9:",
    "kitty:",
    ": dealer ",
    "٣",
    "²",
    "\x00",
    "\u202e",
    "é",
    "1e9",
    "game: truco",
    "options: null",
    "result: 99-1",
    "#",
]


@st.composite
def mutated_records(draw: st.DrawFn) -> str:
    """A real record with lines deleted, duplicated, swapped or cut and spliced with tokens."""
    lines = draw(st.sampled_from(RECORDS)).splitlines()
    for _ in range(draw(st.integers(1, 5))):
        at = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["delete", "splice", "duplicate", "swap", "token line"]))
        if how == "delete" and len(lines) > 1:
            del lines[at]
        elif how == "splice":
            line = lines[at]
            cut = draw(st.integers(0, len(line)))
            lines[at] = (
                line[:cut] + draw(st.sampled_from(TOKENS)) + line[cut + draw(st.integers(0, 3)) :]
            )
        elif how == "duplicate":
            lines.insert(at, lines[draw(st.integers(0, len(lines) - 1))])
        elif how == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
        else:
            lines.insert(at, draw(st.text(max_size=40)))
    return "\n".join(lines)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def option_lines(draw: st.DrawFn) -> str:
    """A record whose options line is any JSON: a real game's options with keys changed, or
    anything at all."""
    game = draw(st.sampled_from(["euchre", "truco"]))
    if draw(st.booleans()):
        options: Any = dict(rules_for(game).normalise_options(None))
        key = draw(st.sampled_from([*options, "zz"]))
        options[key] = draw(JSON)
    else:
        options = draw(JSON)
    return with_options(json.dumps(options), game)


@QUICK
@given(mutated_records())
def test_fuzz_mutated_records_replay_or_are_refused(text: str) -> None:
    read(text)


@QUICK
@given(option_lines())
def test_fuzz_any_options_line_replays_or_is_refused(text: str) -> None:
    read(text)


@QUICK
@given(st.text(max_size=400))
def test_fuzz_any_text_replays_or_is_refused(text: str) -> None:
    read(text)
    read(f"{HEADER}\ngame: euchre\nseed: 1\n{text}")


@pytest.mark.slow
@LONG
@given(mutated_records() | option_lines() | st.text(max_size=2000))
def test_fuzz_hand_records_long(text: str) -> None:
    read(text)
