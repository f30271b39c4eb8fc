"""How a card code looks in a message ("JH" -> "J♥", "TS" -> "10♠", "JO" -> "🃏") and back.

The inverse (`cards_in_text`) lets tests check that no message shows a card its reader may not
see: every card the UI writes goes through `card_text`, so every card a reader sees is found.
"""

from __future__ import annotations

import re

SUIT_SYMBOLS: dict[str, str] = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SYMBOL_SUITS: dict[str, str] = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}
JOKER_CODE = "JO"
JOKER_TEXT = "🃏"
FACE_DOWN_CODE = "??"  # a truco card played face down (T15), as views and events show it
FACE_DOWN_TEXT = "🂠"

# Ranks of both games: euchre 7 8 9 T J Q K A, truco A 2 3 4 5 6 7 J Q K.
_RANK_TEXT = {"T": "10"}
_TEXT_RANK = {"10": "T"}
_CARD_PATTERN = re.compile(r"(10|[2-9AJQK])([♣♦♥♠])|🃏")


def card_text(code: str) -> str:
    if code == JOKER_CODE:
        return JOKER_TEXT
    if code == FACE_DOWN_CODE:
        return FACE_DOWN_TEXT
    rank, suit = code[:-1], code[-1]
    return _RANK_TEXT.get(rank, rank) + SUIT_SYMBOLS[suit]


def cards_text(codes: list[str]) -> str:
    return " ".join(card_text(c) for c in codes)


def suit_text(suit: str) -> str:
    return SUIT_SYMBOLS[suit]


def cards_in_text(text: str) -> set[str]:
    """Every card code written in `text` (the inverse of `card_text`)."""
    found = set()
    for match in _CARD_PATTERN.finditer(text):
        if match.group(0) == JOKER_TEXT:
            found.add(JOKER_CODE)
        else:
            rank, symbol = match.group(1), match.group(2)
            found.add(_TEXT_RANK.get(rank, rank) + SYMBOL_SUITS[symbol])
    return found
