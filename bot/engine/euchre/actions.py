"""Action codes of Euchre (the same strings in the engine, the buttons, the log and the tests).

`pass`; `order` (round 1: order up / assist / take; `order:alone` under alone=maker);
`call:H` (round 2; `call:H:alone`); `discard:9C` (the dealer; the turned card itself = leaving
it); `name:H` (the dealer names a suit for a turned-up joker); `alone` / `stay` (the going-alone
question under alone=anyone); `play:JH`.
"""

from __future__ import annotations

from bot.engine.euchre.cards import CODES, SUITS, cards_in

PASS = "pass"
ORDER = "order"
ORDER_ALONE = "order:alone"
GO_ALONE = "alone"
STAY = "stay"

PLAY_ACTION: tuple[str, ...] = tuple("play:" + code for code in CODES)
DISCARD_ACTION: tuple[str, ...] = tuple("discard:" + code for code in CODES)
CARD_OF_PLAY: dict[str, int] = {a: i for i, a in enumerate(PLAY_ACTION)}
CARD_OF_DISCARD: dict[str, int] = {a: i for i, a in enumerate(DISCARD_ACTION)}
NAME_ACTIONS: tuple[str, ...] = tuple("name:" + s for s in SUITS)
# "call:H" -> (suit, alone), "call:H:alone" -> (suit, True), "name:H" -> (suit, False)
SUIT_ACTION: dict[str, tuple[int, bool]] = (
    {f"call:{s}": (i, False) for i, s in enumerate(SUITS)}
    | {f"call:{s}:alone": (i, True) for i, s in enumerate(SUITS)}
    | {f"name:{s}": (i, False) for i, s in enumerate(SUITS)}
)

# Round 1 bids, keyed by alone=maker.
BID1 = {False: (PASS, ORDER), True: (PASS, ORDER, ORDER_ALONE)}


def _bid2(turned_down: int, may_pass: bool, maker_alone: bool) -> tuple[str, ...]:
    suits = [s for i, s in enumerate(SUITS) if i != turned_down]
    calls = [f"call:{s}" for s in suits]
    if maker_alone:
        calls += [f"call:{s}:alone" for s in suits]
    return (PASS, *calls) if may_pass else tuple(calls)


# Round 2 bids, keyed by (turned-down suit, may pass, alone=maker).
BID2 = {(t, p, m): _bid2(t, p, m) for t in range(4) for p in (False, True) for m in (False, True)}
ALONE_ANSWERS = (GO_ALONE, STAY)


# The play (or discard) actions of a set of cards, a mask of 33 bits, read from three tables of
# 11 bits: LOW[m & 2047] + MID[m >> 11 & 2047] + HIGH[m >> 22], lowest card id first.
def _action_table(actions: tuple[str, ...], shift: int) -> tuple[tuple[str, ...], ...]:
    return tuple(
        tuple(actions[c + shift] for c in cards_in(m) if c + shift < len(actions))
        for m in range(2048)
    )


PLAYS_LOW, PLAYS_MID, PLAYS_HIGH = (_action_table(PLAY_ACTION, k) for k in (0, 11, 22))
DISCARDS_LOW, DISCARDS_MID, DISCARDS_HIGH = (_action_table(DISCARD_ACTION, k) for k in (0, 11, 22))
