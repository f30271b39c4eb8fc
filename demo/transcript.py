"""The demo's transcript: what people in the channel saw, flattened to plain text.

Each distinct state of a public table message becomes a short block: a header (the embed title
and footer, then the state's number among the message's distinct states, e.g. "Euchre — hand 2 ·
first to 5 · Table 1 · hand 2 · state 31") and the content (whose turn it is, or the result), then
the description and the fields as `Name: value` lines. A state that
starts something (the lobby, a new hand, the result) is shown in full; the states in between
show only the lines that changed since the previous block. The "Latest" field (the last few
events) scrolls, so a block lists only the events not shown before, as `+` lines: read top to
bottom, the blocks tell the game as a story. When more events happened between two edits than
the field holds, a `…` marks the gap.

Mentions become `@Name`, Markdown emphasis and escapes are dropped: no `<@123>`, `**` or `\\_`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from bot.texts import t

MENTION = re.compile(r"<@!?(\d+)>")
ESCAPED = re.compile(r"\\([^\w\s]|_)")
EMPHASIS = re.compile(r"\*\*|__|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])")
LOG_FIELD = t("table.field.log")  # the scrolling list of latest events


def plain(text: str, names: Mapping[int, str]) -> str:
    """Discord Markdown as a person reads it: mentions by name, no emphasis marks, no escapes."""
    text = MENTION.sub(lambda m: "@" + names.get(int(m.group(1)), "someone"), text)
    # Emphasis first: an escaped `\*` in a name must survive as a literal `*`.
    parts = ESCAPED.split(text)
    out = []
    for index, part in enumerate(parts):
        out.append(part if index % 2 else EMPHASIS.sub("", part))
    return "".join(out)


def log_overlap(previous: list[str], current: list[str]) -> int:
    """How many leading lines of `current` are the trailing lines of `previous`."""
    for size in range(min(len(previous), len(current)), 0, -1):
        if previous[-size:] == current[:size]:
            return size
    return 0


class Transcript:
    """Collects the demo's lines and writes each at once to `write` (stdout in the demo)."""

    def __init__(self, names: Mapping[int, str], write: Callable[[str], None]) -> None:
        self.names = names
        self.lines: list[str] = []
        self._write = write
        # Per message id: the previous state's title, lines and events, and how many distinct
        # states it showed (the footer counts hands, so the blocks are numbered here).
        self._title: dict[int, str] = {}
        self._states: dict[int, int] = {}
        self._lines: dict[int, list[str]] = {}
        self._log: dict[int, list[str]] = {}

    def say(self, line: str = "") -> None:
        self.lines.append(line)
        self._write(line)

    def text(self) -> str:
        return "\n".join(self.lines)

    def public_state(
        self, message_id: int, content: str, embeds: list[dict[str, Any]]
    ) -> int | None:
        """Print one state of a public message, unless it reads exactly like the previous one.
        Returns the state's number (1 for the message's first), None when nothing was printed."""
        header, title, turn, body, events = self._block(content, embeds)
        lines = [header, *turn, *body]
        previous_lines = self._lines.get(message_id)
        previous_events = self._log.get(message_id, [])
        if previous_lines == lines and previous_events == events:
            return None
        number = self._states.get(message_id, 0) + 1
        self._states[message_id] = number
        full = previous_lines is None or self._title.get(message_id) != title
        self._title[message_id] = title
        self._lines[message_id] = lines
        self._log[message_id] = events
        before = set(previous_lines or ())
        shown = [*turn, *(body if full else [line for line in body if line not in before])]
        overlap = log_overlap(previous_events, events)
        new = events[overlap:]
        if new and previous_events and overlap == 0:
            shown.append("  …")  # events scrolled out between two edits
        shown += [f"  + {event}" for event in new]
        self.say()
        self.say(header.removesuffix(" ──") + f" · state {number} ──")
        for line in shown:
            self.say(line)
        return number

    def _block(
        self, content: str, embeds: list[dict[str, Any]]
    ) -> tuple[str, str, list[str], list[str], list[str]]:
        """(header, title, content lines, description and field lines, events)."""
        names = self.names
        titles: list[str] = []
        footers: list[str] = []
        turn = []
        for line in content.splitlines():
            if not line.strip():
                continue
            # A layout (Components V2): its heading is the title, its small text the footer.
            if not embeds and line.startswith("### "):
                titles.append(plain(line.removeprefix("### "), names))
            elif not embeds and line.startswith("-# "):
                footers.append(plain(line.removeprefix("-# "), names))
            else:
                turn.append(plain(line, names))
        body: list[str] = []
        events: list[str] = []
        for embed in embeds:
            titles.append(plain(embed.get("title") or "", names))
            footer = plain((embed.get("footer") or {}).get("text") or "", names)
            if footer:
                footers.append(footer)
            if embed.get("description"):
                body.append("  " + plain(embed["description"], names))
            for field in embed.get("fields") or []:
                name = plain(field.get("name") or "", names)
                values = [plain(v, names) for v in (field.get("value") or "").splitlines()]
                if name == LOG_FIELD:
                    events = values
                else:
                    body.append(f"  {name}: " + "; ".join(v for v in values if v))
        title = " · ".join(titles)
        header = "── " + " · ".join([*titles, *footers]) + " ──"
        return header, title, turn, body, events
