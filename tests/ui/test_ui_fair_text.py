"""Issue 32: a typed cut is anyone's text. Wherever the bot shows it (a reveal line of either
version, 🔒 Deal's detail, /verify's command line) no markdown, masked link, mention or code
fence can form from it; and the table's one small line."""

from __future__ import annotations

import re
import shlex

import pytest

from bot.ui.fair.deals import beacon_detail
from bot.ui.fair.verify import verify_command
from bot.ui.words.fair_lines import in_code, plain, reveal_line, short_line

HOSTILE = [
    "```\n@everyone",  # (a modal allows no newline; the escaping holds anyway)
    "[free chips](https://evil.example)",
    "`[x](https://evil.example)`",
    "<@123456789012345678> <@&1> <#2> @here",
    "**bold** __u__ ~~s~~ ||spoiler|| > quote # heading -# small :smile:",
    "\\*still escaped\\*",
]
MASKED_LINK = re.compile(r"(?<!\\)\[[^\]]*(?<!\\)\]\((?!\\)")
MENTION = re.compile(r"(?<!\\)<(?!\\)[@#]")


def v2_record(typed: str) -> dict[str, object]:
    return {
        "version": 2,
        "hand": 3,
        "server_seed": "ab" * 32,
        "commitment": "cd" * 32,
        "round": 12345,
        "randomness": "ef" * 32,
        "weak": False,
        "typed": typed,
        "cut": f"drand:12345:{'ef' * 32}:{typed}",
        "game": "truco",
        "deck": 40,
        "players": ["1", "2", "3", "bot:3"],
        "dealer": 0,
        "previous_commitment": "00" * 32,
        "message": "1143924991197315072",
        "hands": [["AC", "2C", "3C"], ["4C", "5C", "6C"], ["7C", "JC", "QC"], ["KC", "AD", "2D"]],
    }


def safe(text: str) -> None:
    assert not MASKED_LINK.search(text), text
    assert not MENTION.search(text), text
    assert "@everyone" not in text.replace("\\@everyone", ""), text
    assert "@here" not in text.replace("\\@here", ""), text
    assert "**bold**" not in text and "||spoiler||" not in text, text


@pytest.mark.parametrize("typed", HOSTILE)
def test_plain_text_forms_no_markdown(typed: str) -> None:
    shown = plain(typed)
    safe(shown)
    # every markdown character is escaped once: removing the escapes gives the text back
    assert re.sub(r"\\(.)", r"\1", shown) == typed


@pytest.mark.parametrize("typed", HOSTILE)
def test_every_place_a_typed_cut_is_shown(typed: str) -> None:
    record = v2_record(typed)
    safe(reveal_line(record, "en-US"))
    safe(beacon_detail(record, "en-US"))
    v1 = {"version": 1, "hand": 2, "server_seed": "ab" * 32, "commitment": "cd" * 32, "cut": typed}
    line = reveal_line(v1, "en-US")
    # version 1 shows the cut inside `…`: no backtick of the text can close it
    assert line.count("`") == 6 and in_code(typed) in line
    command = verify_command(record)
    assert "`" not in command and "--cut-hex" in command
    words = shlex.split(command)
    cut_hex = words[words.index("--cut-hex") + 1]
    assert bytes.fromhex(cut_hex).decode() == record["cut"]


def test_a_plain_cut_is_written_as_it_is() -> None:
    record = {**v2_record("x"), "typed": None, "cut": f"drand:12345:{'ef' * 32}"}
    assert f"--cut drand:12345:{'ef' * 32}" in verify_command(record)


def test_the_short_line_is_small_and_marks_a_weak_hand() -> None:
    fair = {
        "game_commitment": "5558592b122c" + "0" * 52,
        "hand": 2,
        "round": 4,
        "revealed": {"hand": 1, "weak": True},
    }
    line = short_line(fair, False, "en-US")
    assert line.startswith("-# 🔒 Game `5558592b122c`")
    assert "hand 2 · drand round 4" in line and "⚠️ hand 1: weak cut" in line
    assert "\n" not in line
