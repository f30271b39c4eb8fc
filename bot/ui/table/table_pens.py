"""The interaction token that posted a table's message: while it lives, the table's edits go
through it and cost nothing of the token's global budget.

Discord's global limit (50 requests a second per bot token, bot/ui/kit/budget.py) binds every
channel route, and a busy table changes several times a minute: at a few hundred tables the
table messages alone would want more than the whole budget. But "interaction endpoints are not
bound to the bot's Global Rate Limit" (https://discord.com/developers/docs/topics/rate-limits),
and an interaction's token may edit the messages that interaction posted - its answer and its
follow-ups - for 15 minutes (https://discord.com/developers/docs/interactions/receiving-and-responding,
"Followup Messages"). So:

- the table message is the answer to `/euchre new` (or `/table show`): its pen is that
  command's token;
- while the pen is younger than USE_FOR, the table's edits go through it
  (`PATCH /webhooks/{application}/{token}/messages/{id}`), on no budget;
- once the message is RENEW_AFTER old, the next click at the table brings a fresh token: the
  table is posted again as that click's public follow-up (at the bottom of the channel, where
  people look) and the old message is deleted - one request on the budget every 12 minutes
  instead of one per change;
- a table with no live pen (after a restart, a table nobody clicked for 14 minutes, a message
  posted by the channel route: a `/euchre new` that had to be deferred, a repost) is edited
  through the channel route, on the budget, as before, until its message is old enough for a
  click to renew it. A young message keeps its place: people (and their clients) hold on to
  the lobby they just saw, and a restored table's message stays where it is.

Nothing here is stored: a restart loses the pens and the tables fall back to the channel route
until their next click.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

TOKEN_LIFETIME = 15 * 60.0  # Discord: interaction tokens are valid for 15 minutes
USE_FOR = TOKEN_LIFETIME - 60.0  # a minute's margin for clocks and a slow edit
RENEW_AFTER = 12 * 60.0  # from here on a click's token replaces the pen (a repost)
DISCORD_EPOCH = 1_420_070_400.0  # snowflakes count milliseconds from here


def posted_at(message_id: int) -> float:
    """The Unix time a message was posted, from its snowflake id."""
    return (message_id >> 22) / 1000 + DISCORD_EPOCH


@dataclass(frozen=True)
class Pen:
    token: str
    message_id: int  # the message this token posted (and so may edit)
    acquired: float  # clock time the token was received


class TablePens:
    def __init__(self, clock: Callable[[], float]) -> None:
        # Unix time: the table service's clock (tests give the emulator's, so token ages move
        # with its jumps), comparable with a message's snowflake time.
        self.clock = clock
        self._pens: dict[int, Pen] = {}

    def remember(self, table_id: int, token: str, message_id: int, acquired: float) -> None:
        self._pens[table_id] = Pen(token, message_id, acquired)

    def forget(self, table_id: int) -> None:
        self._pens.pop(table_id, None)

    def usable(self, table_id: int, message_id: int) -> str | None:
        """The token that may edit `message_id` now, if there is one."""
        pen = self._pens.get(table_id)
        if pen is None or pen.message_id != message_id:
            return None
        if self.clock() - pen.acquired >= USE_FOR:
            del self._pens[table_id]
            return None
        return pen.token

    def wants_fresh(self, table_id: int, message_id: int) -> bool:
        """Whether a click's token should post the table again: its pen is old, or it has none
        and its message is old (a young message keeps its place: the channel route edits it)."""
        pen = self._pens.get(table_id)
        if pen is not None and pen.message_id == message_id:
            since = pen.acquired
        else:
            since = posted_at(message_id)
        return self.clock() - since >= RENEW_AFTER

    def __len__(self) -> int:
        return len(self._pens)
