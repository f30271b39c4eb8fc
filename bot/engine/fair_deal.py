"""Provably fair deals, version 1 ("fair-v1"): docs/fair-deals.md is the specification.

Before a hand is dealt the table shows a commitment, the SHA-256 of that hand's secret server
seed. The deal then depends on the server seed AND on inputs the server cannot choose when it
commits (the cut, taken after the commitment is shown; the players; the hand number). When the
hand ends the server seed is revealed, and anyone can recompute the deal with
scripts/verify_deal.py, which re-implements this module from the document alone.

Standard library only. Every byte that goes into a hash is produced by `encode`, so the
derivation is exact on any machine; nothing here depends on Python's `random` or `hash()`.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import Any, Final

from bot.engine.common import EngineError, IllegalAction, InvalidOptions

VERSION: Final = 1
DEAL_OPTION: Final = "fair-v1"  # the value of the games' `deal` option that selects this
SEEDED: Final = "seeded"  # the old dealing (SplitMix64 from the seed), the default
DEAL_CHOICES: Final = (SEEDED, DEAL_OPTION)

SEED_BYTES: Final = 32  # the game secret: the game's seed, 32 bytes big-endian
ZERO_COMMITMENT: Final = bytes(32)  # the "previous commitment" of hand 1
CUT_PREFIX: Final = "cut:"
MAX_CUT: Final = 100  # characters of cut text (a Discord text input holds up to 4000)
MAX_PLAYER_ID: Final = 100

# The documented card order of each deck, before the shuffle (docs/fair-deals.md, "Decks").
_EUCHRE_SUITS: Final = "CDHS"
_EUCHRE_LOWEST: Final = {24: "9TJQKA", 28: "89TJQKA", 32: "789TJQKA"}
_TRUCO_RANKS: Final = "A234567JQK"


def euchre_deck(size: int, joker: bool) -> tuple[str, ...]:
    """Clubs, diamonds, hearts, spades; in each suit the ranks from low to high; the joker last."""
    cards = tuple(rank + suit for suit in _EUCHRE_SUITS for rank in _EUCHRE_LOWEST[size])
    return (*cards, "JO") if joker else cards


TRUCO_DECK: Final[tuple[str, ...]] = tuple(r + s for s in "CDHS" for r in _TRUCO_RANKS)


# --- the derivation ------------------------------------------------------------------------------


def encode(*fields: str | int | bytes) -> bytes:
    """Each field as a 4-byte big-endian length, then its bytes: text as UTF-8, a (non-negative)
    integer as its decimal digits in ASCII, bytes as they are. Lengths make it unambiguous."""
    out = bytearray()
    for value in fields:
        if isinstance(value, bytes):
            raw = value
        elif isinstance(value, bool):
            raise TypeError("booleans are not fields")
        elif isinstance(value, int):
            if value < 0:
                raise ValueError("integer fields are non-negative")
            raw = str(value).encode("ascii")
        else:
            raw = value.encode("utf-8")
        out += len(raw).to_bytes(4, "big") + raw
    return bytes(out)


def game_secret(seed: int) -> bytes:
    """The key every hand's server seed is derived from: the game's seed as 32 bytes."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 256:
        raise InvalidOptions(f"a fair-v1 game's seed is an integer in [0, 2**256), not {seed!r}")
    return seed.to_bytes(SEED_BYTES, "big")


def server_seed(secret: bytes, hand: int) -> bytes:
    """Hand `hand`'s (1-based) server seed. HMAC keeps every other hand's seed secret when this
    one is revealed."""
    return hmac.digest(secret, encode("hand", hand), "sha256")


def commitment(seed: bytes) -> bytes:
    return hashlib.sha256(seed).digest()


def hand_commitment(game_seed: int, hand: int) -> str:
    """What the table shows before hand `hand` is cut (hex): usable before the game exists (the
    lobby shows hand 1's)."""
    return commitment(server_seed(game_secret(game_seed), hand)).hex()


def previous_commitment(secret: bytes, hand: int) -> bytes:
    """The chain: hand n's record holds hand n-1's commitment (hand 1: 32 zero bytes)."""
    return ZERO_COMMITMENT if hand == 1 else commitment(server_seed(secret, hand - 1))


def deal_key(
    seed: bytes,
    game: str,
    deck_size: int,
    players: Sequence[str],
    hand: int,
    cut: str,
    previous: bytes,
) -> bytes:
    """HMAC-SHA256 keyed with the server seed over everything the deal depends on."""
    if len(players) != 4:
        raise ValueError("four players, in seat order")
    message = encode("fair-deal", VERSION, game, deck_size, *players, hand, cut, previous)
    return hmac.digest(seed, message, "sha256")


class DrawStream:
    """Counter mode: block i = HMAC-SHA256(deal key, encode("draw", i)), i = 0, 1, ...; each block
    is read as eight 32-bit big-endian unsigned integers, in order."""

    __slots__ = ("_block", "_counter", "_key", "_words")

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._counter = 0
        self._words: list[int] = []
        self._block = 0

    def next32(self) -> int:
        if self._block == len(self._words):
            raw = hmac.digest(self._key, encode("draw", self._counter), "sha256")
            self._counter += 1
            self._words = [int.from_bytes(raw[i : i + 4], "big") for i in range(0, 32, 4)]
            self._block = 0
        value = self._words[self._block]
        self._block += 1
        return value

    def below(self, n: int) -> int:
        """Uniform in [0, n): values at or above the largest multiple of n that fits in 32 bits
        are rejected (and the next one read), so there is no modulo bias."""
        limit = (1 << 32) - (1 << 32) % n
        value = self.next32()
        while value >= limit:
            value = self.next32()
        return value % n


def shuffle(key: bytes, deck: Sequence[str]) -> list[str]:
    """Fisher-Yates from the end: for i = n-1 down to 1, swap card i with card below(i + 1).
    The result's first card is the top of the deck (dealt first)."""
    cards = list(deck)
    stream = DrawStream(key)
    for i in range(len(cards) - 1, 0, -1):
        j = stream.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def deal_packets(
    shuffled: Sequence[str], order: Sequence[int], size: int
) -> tuple[list[list[str]], list[str]]:
    """Consecutive packets of `size` cards from the top to the seats of `order`: (hands by seat,
    the cards left, in deck order)."""
    hands: list[list[str]] = [[], [], [], []]
    for k, seat in enumerate(order):
        hands[seat] = list(shuffled[k * size : (k + 1) * size])
    return hands, list(shuffled[len(order) * size :])


# --- the options ---------------------------------------------------------------------------------


def check_cut(action: str) -> str:
    """The cut text of a `cut:<text>` action: 1 to MAX_CUT characters, no control characters
    (the text is shown and typed back into the verifier)."""
    text = action[len(CUT_PREFIX) :] if action.startswith(CUT_PREFIX) else None
    if not text or len(text) > MAX_CUT or not text.isprintable():
        raise IllegalAction(
            f"a cut is 'cut:' and 1 to {MAX_CUT} printable characters, not {action!r}"
        )
    return text


def check_deal_options(deal: object, players: object) -> tuple[str, ...] | None:
    """Both games' `deal` and `players` options: players (one id string per lobby position,
    bots as "bot:<seat>") are needed by fair-v1 and meaningless without it."""
    if not isinstance(deal, str) or deal not in DEAL_CHOICES:
        raise InvalidOptions(f"option deal={deal!r}: must be one of {', '.join(DEAL_CHOICES)}")
    if deal == SEEDED:
        if players is not None:
            raise InvalidOptions("option players goes with deal='fair-v1'")
        return None
    if not isinstance(players, list | tuple) or len(players) != 4:
        raise InvalidOptions("deal='fair-v1' needs players: four id strings")
    for player in players:
        if not isinstance(player, str) or not 0 < len(player) <= MAX_PLAYER_ID:
            raise InvalidOptions(f"a player id is 1 to {MAX_PLAYER_ID} characters: {player!r}")
    return tuple(players)


def deal_options_dict(deal: str, players: tuple[str, ...] | None) -> dict[str, Any]:
    """The options' dict entries: none for the old dealing, so old records stay byte for byte."""
    if deal == SEEDED:
        return {}
    return {"deal": deal, "players": list(players or ())}


def copy_record(record: dict[str, Any]) -> dict[str, Any]:
    """A fresh copy of a hand record (its values are strings, ints, lists of strings and lists
    of lists of strings)."""
    return {
        key: [list(v) if isinstance(v, list) else v for v in value]
        if isinstance(value, list)
        else value
        for key, value in record.items()
    }


# --- one game's fair dealing ---------------------------------------------------------------------


class FairDealer:
    """The fair-v1 state of one game: the current hand's server seed (secret until the hand
    ends), its commitment and cut, and the records of the hands revealed so far.

    The game calls `begin` when a hand waits for its cut, `cut` with the cut action's text (it
    returns the shuffled deck), and `reveal` when the hand ends."""

    __slots__ = (
        "_secret",
        "_seed",
        "commitment",
        "cut_text",
        "cutter",
        "deal",
        "dealer",
        "deck",
        "deck_size",
        "game",
        "hand",
        "players",
        "previous",
        "revealed",
    )

    def __init__(self, game: str, deck: Sequence[str], players: Sequence[str], seed: int) -> None:
        self.game = game
        self.deck = tuple(deck)
        self.deck_size = len(self.deck)
        self.players = tuple(players)  # by game seat
        self._secret = game_secret(seed)
        self._seed = b""
        self.hand = 0
        self.dealer = -1
        self.cutter = -1
        self.commitment = b""
        self.previous = b""
        self.cut_text: str | None = None
        self.deal: dict[str, Any] | None = None
        self.revealed: list[dict[str, Any]] = []

    def begin(self, hand: int, dealer: int, cutter: int) -> None:
        """Hand `hand` (1-based) waits for its cut: its commitment is now public."""
        self.hand = hand
        self.dealer = dealer
        self.cutter = cutter
        self._seed = server_seed(self._secret, hand)
        self.commitment = commitment(self._seed)
        self.previous = previous_commitment(self._secret, hand)
        self.cut_text = None
        self.deal = None

    def cut(self, text: str) -> list[str]:
        """The deck of this hand, shuffled: the cut is the last input of the deal."""
        self.cut_text = text
        key = deal_key(
            self._seed,
            self.game,
            self.deck_size,
            self.players,
            self.hand,
            text,
            self.previous,
        )
        return shuffle(key, self.deck)

    def reveal(self) -> None:
        """The hand is over: its record, server seed and `deal` (set by the game when it dealt:
        hands by seat, and what else its deal shows) included, becomes public."""
        deal = self.deal
        if self.cut_text is None or deal is None:
            raise EngineError("a hand is revealed after its deal")
        self.revealed.append(
            {
                "version": VERSION,
                "game": self.game,
                "deck": self.deck_size,
                "players": list(self.players),
                "hand": self.hand,
                "dealer": self.dealer,
                "cut": self.cut_text,
                "previous_commitment": self.previous.hex(),
                "commitment": self.commitment.hex(),
                "server_seed": self._seed.hex(),
                **deal,
            }
        )

    def view(self) -> dict[str, Any]:
        """The public part: never the current hand's server seed (it is in `revealed` once the
        hand is over). `next_commitment` is shown early so that a click made during this hand
        (the one that ends it) can be the next hand's cut."""
        return {
            "version": VERSION,
            "hand": self.hand,
            "dealer": self.dealer,
            "cutter": self.cutter,
            "commitment": self.commitment.hex(),
            "previous_commitment": self.previous.hex(),
            "cut": self.cut_text,
            "next_commitment": commitment(server_seed(self._secret, self.hand + 1)).hex(),
            "revealed": copy_record(self.revealed[-1]) if self.revealed else None,
        }

    def records(self) -> list[dict[str, Any]]:
        """Every revealed hand's record, in order (what scripts/verify_deal.py checks)."""
        return [copy_record(record) for record in self.revealed]

    def copy(self) -> FairDealer:
        twin = FairDealer.__new__(FairDealer)
        for name in FairDealer.__slots__:
            setattr(twin, name, getattr(self, name))
        twin.revealed = list(self.revealed)  # records themselves are never changed
        return twin

    def _state(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in FairDealer.__slots__)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FairDealer):
            return NotImplemented
        return self._state() == other._state()

    __hash__ = None  # type: ignore[assignment]
