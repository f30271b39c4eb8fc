"""The text of fair deals (docs/fair-deals.md): the short `-# 🔒 …` line of the table message, the
commitment message of a fair-v2 game, a hand's reveal line, and the escaping of typed cut text.

A cut's typed text is anyone's text. Wherever it is shown it goes through `plain` (outside code:
each markdown character is backslash-escaped, so no formatting, masked link, mention, emoji or
heading can form) or `in_code` (inside `…`: a backtick cannot close the span). It is
never put in a code block: /verify's command line passes such a cut as `--cut-hex`.
"""

from __future__ import annotations

import string
from typing import Any

from bot.texts import t

SHORT = 12  # hex digits of a commitment in a short line
# Every character that starts or ends markdown, a link, a mention, an emoji or a heading in
# Discord (a backslash before it shows it as itself); commas, dots and the like stay as they are.
_ESCAPED = frozenset("\\*_~|`>#-[]()<@:")
_SAFE_WORD = frozenset(string.ascii_letters + string.digits + ":._-")


def plain(text: str) -> str:
    """Typed text shown as itself in markdown: no formatting, link, mention or code can form."""
    return "".join("\\" + c if c in _ESCAPED else c for c in text)


def in_code(text: str) -> str:
    """Typed text inside an inline code span: a backtick (which would end it) is shown as ˋ."""
    return text.replace("`", "ˋ")


def shell_safe(text: str) -> bool:
    """Whether a cut can be written as it is on a command line shown in a code block."""
    return bool(text) and set(text) <= _SAFE_WORD


def short(value: str) -> str:
    return value[:SHORT]


def reveal_line(record: dict[str, Any], locale: str | None) -> str:
    """A revealed hand in one line (the game's log, the result message)."""
    if int(record.get("version", 1)) == 1:
        return t(
            "fair.reveal",
            locale,
            hand=record["hand"],
            seed=record["server_seed"],
            cut=in_code(record["cut"]),
            short=short(record["commitment"]),
        )
    line = t(
        "fair.v2.reveal",
        locale,
        hand=record["hand"],
        seed=record["server_seed"],
        round=record["round"],
        short=short(record["commitment"]),
    )
    if record.get("weak"):
        line += " · " + t("fair.v2.weak", locale)
    if record.get("typed"):
        line += " · " + t("fair.v2.typed", locale, typed=plain(record["typed"]))
    return line


def short_line(fair: dict[str, Any], over: bool, locale: str | None) -> str:
    """The one small line a fair-v2 table message carries: the game commitment (short), the
    hand and its round, and a mark when the last hand revealed was weak. Everything else is one
    click away (🔒 Deal, /verify)."""
    parts = [t("fair.v2.line", locale, short=short(fair["game_commitment"]))]
    if not over and fair.get("round"):
        parts.append(t("fair.v2.line_hand", locale, hand=fair["hand"], round=fair["round"]))
    revealed = fair.get("revealed")
    if revealed is not None and revealed.get("weak"):
        parts.append(t("fair.v2.line_weak", locale, hand=revealed["hand"]))
    return "-# " + " · ".join(parts)


def commitment_message(game_name: str, commitment: str, locale: str | None) -> str:
    """The message created for a fair-v2 game: its id fixes the beacon rounds of every hand."""
    return "-# " + t("fair.v2.message", locale, game=game_name, commitment=commitment)
