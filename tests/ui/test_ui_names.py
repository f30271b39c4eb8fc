"""Hostile display names (issue 25 fault 3): a name shows as its own characters on one line and
can change nothing around it — no bidi reordering, no line break, no link, no list or heading."""

from __future__ import annotations

import re

import pytest

from bot.ui.words.names import shown_name

# Every character that changes the direction of the text after it (or isolates it).
BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"


@pytest.mark.parametrize("control", list(BIDI_CONTROLS))
def test_a_bidi_control_in_a_name_cannot_reverse_the_rest_of_the_line(control: str) -> None:
    shown = shown_name(f"ab{control}cd")
    assert not set(shown) & set(BIDI_CONTROLS)
    assert "ab" in shown and "cd" in shown


@pytest.mark.parametrize("breaker", ["\n", "\r", "\r\n", "\u2028", "\u2029", "\x0b", "\x85", "\t"])
def test_a_name_stays_on_one_line(breaker: str) -> None:
    shown = shown_name(f"first{breaker}second")
    assert shown.splitlines() == [shown]
    assert "\t" not in shown and "first" in shown and "second" in shown


@pytest.mark.parametrize(
    "name", ["https://evil.example/free", "see http://x.example", "HTTPS://CAPS.example"]
)
def test_a_bare_url_in_a_name_is_not_a_link(name: str) -> None:
    shown = shown_name(name)
    # Discord links a scheme followed directly by "://": that sequence must not survive.
    assert not re.search(r"(?i)https?://", shown), shown


@pytest.mark.parametrize("name", ["1. first", "12) twelve", "- dash", "* star", "+ plus", "# big"])
def test_a_name_cannot_start_a_list_or_a_heading(name: str) -> None:
    shown = shown_name(name)
    # Discord's markdown: an unescaped marker at the start of a line makes a list or heading.
    assert not re.match(r"\d+[.)]\s|[-*+]\s|#{1,3}\s", shown), shown


def test_a_plain_name_with_accents_emoji_and_joiners_is_unchanged() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # joined by ZERO WIDTH JOINER
    for name in ("Zoë Müller", "João 🃏 Дмитрий", f"Ana {family}", "شريف", "Ravi शर्मा"):
        assert shown_name(name) == name


def test_a_name_of_only_controls_shows_as_a_question_mark() -> None:
    assert shown_name("\u202e\u2066\n") == "?"
