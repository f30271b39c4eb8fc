"""The pace of a table (issue 30 items 2 and 3): how long a bot seat waits before its move, and
whether the table is between two hands (the last hand's result on show).

A bot at a human pace: a card or a bid follows quickly, but a finished trick stays on the table
about TRICK_PAUSE seconds before the next card gathers it, and a hand's result stays about
HAND_END_PAUSE seconds before a bot makes the first move of the next hand (a person who acts
first ends it at once: their click is the "deal"). Bots' going-alone answers take no time (they
are applied together with the move before them, bot/tables/bot_seats.py).

`between_hands` is read from the game's events only, so the table message, the hand messages
and the bot seats agree on it, and a restart changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

HAND_START = "hand_dealt"
# The events that end a hand: euchre scores it (or throws it in, E12), truco's is won.
HAND_ENDS = frozenset({"hand_scored", "hand_won", "redeal"})
TRICK_ENDS = frozenset({"trick_won", "round_won", "round_tied"})
# Events of a new hand that come before anyone acts in it.
BEFORE_ANYONE_ACTS = frozenset(
    {HAND_START, "hand_of_ten", "iron_hand", "game_started", "game_won", "seating_drawn"}
)

TRICK_PAUSE = 1.5  # seconds a finished trick stays on the table
HAND_END_PAUSE = 2.5  # seconds a hand's result stays before a bot opens the next hand
# A bot's move, as a share of the table's bot delay (BOT_MOVE_DELAY, 1 s by default): a card
# or a bid comes a little faster than a person's, never instantly.
MOVE_SHARE = 0.2


def last_hand_end(events: Sequence[Any], *, cards_down: bool) -> int | None:
    """The index of the event that ended the last hand while nobody has acted in the next one
    yet (or it is not dealt yet: a fair hand waiting for its cut); None otherwise.
    `cards_down`: a card is on the table (a card played is no event, and a truco hand may open
    with one, so the events alone cannot tell that someone has acted)."""
    if cards_down:
        return None
    for index in range(len(events) - 1, -1, -1):
        kind = events[index].kind
        if kind in HAND_ENDS:
            return index
        if kind not in BEFORE_ANYONE_ACTS:
            return None  # someone acted in this hand
    return None


def between_hands(events: Sequence[Any], *, cards_down: bool) -> bool:
    return last_hand_end(events, cards_down=cards_down) is not None


def cards_down(game: Any) -> bool:
    """Whether a card of the trick in progress is on the table (`view(None)["trick"]`, asked
    of the game without building a view: several times a click, issue 31)."""
    return not game.is_over and bool(game.cards_down)


def game_between_hands(game: Any) -> bool:
    """`between_hands` for a game: its events and the trick on the table."""
    return between_hands(game.events, cards_down=cards_down(game))


def bot_pause(events: Sequence[Any], phase: str, delay: float, *, trick_empty: bool) -> float:
    """Seconds a bot seat waits before its move, for a table whose bot delay is `delay` (0 in
    tests and benchmarks that want no waiting: then no pause at all). `trick_empty`: no card
    is on the table yet (a card played is no event: a finished trick is the last trick end
    of this hand with the table empty)."""
    if delay <= 0:
        return 0.0
    if phase == "alone":
        return 0.0
    # The pauses scale with the delay (a time-lapse demo runs at 0.2 s).
    if between_hands(events, cards_down=not trick_empty):
        return HAND_END_PAUSE * delay
    if trick_empty and phase == "play" and _last_trick_ended_this_hand(events):
        return TRICK_PAUSE * delay
    return delay * MOVE_SHARE


def _last_trick_ended_this_hand(events: Sequence[Any]) -> bool:
    for event in reversed(events):
        if event.kind in TRICK_ENDS:
            return True
        if event.kind == HAND_START:
            return False
    return False


def trick_of_this_hand(events: Sequence[Any]) -> bool:
    """Whether the game's last finished trick (round) belongs to the hand in play: False once a
    new hand is dealt and before its first trick ends (its "last trick" is the old hand's)."""
    for event in reversed(events):
        if event.kind in TRICK_ENDS:
            return True
        if event.kind == HAND_START:
            return False
    return True
