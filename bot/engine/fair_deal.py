"""Provably fair deals, versions 1 ("fair-v1") and 2 ("fair-v2"): docs/fair-deals.md is the
specification.

Version 2 cuts each hand with a public drand round fixed relative to the Discord message that
carries the game's commitment (`beacon_round`); the cut action is `cut:drand:<round>:<randomness>`
or, when no relay answered, `cut:weak:<round>:<fallback>`, and the game's first action in the cut
phase, `cut:msg:<message id>`, records which message that is.

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
import sys
from collections.abc import Sequence
from typing import Any, Final

from bot.engine.common import EngineError, IllegalAction, InvalidOptions

VERSION: Final = 1
DEAL_OPTION: Final = "fair-v1"  # the value of the games' `deal` option that selects this
DEAL_V2: Final = "fair-v2"  # version 2: the drand beacon cuts (docs/fair-deals.md)
SEEDED: Final = "seeded"  # the old dealing (SplitMix64 from the seed), the default
DEAL_CHOICES: Final = (SEEDED, DEAL_OPTION, DEAL_V2)
VERSION_OF: Final = {DEAL_OPTION: 1, DEAL_V2: 2}

# Version 2's beacon: drand's "quicknet" chain of the League of Entropy (unchained, a round every
# 3 s). Fixed by the version, so that a record names no chain a server could pick afterwards.
QUICKNET_HASH: Final = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"
QUICKNET_GENESIS: Final = 1692803367  # seconds (Unix time) of round 1
QUICKNET_PERIOD: Final = 3  # seconds between rounds
DISCORD_EPOCH_MS: Final = 1_420_070_400_000
MSG_CUT: Final = "msg:"  # v2: `cut:msg:<id>` records the game's commitment message
BEACON_CUT: Final = "drand"
WEAK_CUT: Final = "weak"
MAX_CUT_V2: Final = 250  # "drand:<round>:<64 hex>" (~80) + ":" + the typed flourish (<= 100)

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
    """Clubs, diamonds, hearts, spades; in each suit the ranks from low to high; the joker last.
    One tuple per deck, its card strings shared by every game (issue 31: each fair game held
    its own ~25 strings, ~1.2 KB a table)."""
    deck = _EUCHRE_DECKS.get((size, joker))
    if deck is None:
        cards = tuple(
            sys.intern(rank + suit) for suit in _EUCHRE_SUITS for rank in _EUCHRE_LOWEST[size]
        )
        deck = _EUCHRE_DECKS[(size, joker)] = (*cards, "JO") if joker else cards
    return deck


_EUCHRE_DECKS: dict[tuple[int, bool], tuple[str, ...]] = {}  # at most six: sizes x joker


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


def game_commitment(game_seed: int) -> str:
    """Version 2's commitment to the whole game (hex): SHA-256 of the game secret. It is in the
    game's commitment message, created before any beacon round that cuts one of its hands."""
    return hashlib.sha256(game_secret(game_seed)).hexdigest()


def message_ms(message_id: int) -> int:
    """A Discord snowflake's time: milliseconds since 1970 (its first 42 bits + Discord's epoch)."""
    return (message_id >> 22) + DISCORD_EPOCH_MS


def beacon_round(message_id: int, hand: int) -> int:
    """The quicknet round that cuts hand `hand` (1-based) of the game whose commitment is in
    message `message_id`: the round current at the message's millisecond, plus `hand`. Round r
    is published at genesis + (r - 1) * period, so round (current + 1) is the first after it."""
    current = (message_ms(message_id) - QUICKNET_GENESIS * 1000) // (QUICKNET_PERIOD * 1000) + 1
    return current + hand


def round_time(round_number: int) -> int:
    """The Unix second at which a quicknet round is published."""
    return QUICKNET_GENESIS + (round_number - 1) * QUICKNET_PERIOD


def parse_cut_v2(text: str) -> dict[str, Any]:
    """A version-2 cut text: `drand:<round>:<randomness hex>[:<typed>]` (the beacon cut) or
    `weak:<round>:<fallback>[:<typed>]` (no relay answered; round 0 when no commitment message
    could be posted). Raises ValueError when it is neither."""
    kind, _, rest = text.partition(":")
    parts = rest.split(":", 2)
    if kind not in (BEACON_CUT, WEAK_CUT) or len(parts) < 2 or not parts[0].isdigit():
        raise ValueError(f"not a version-2 cut: {text!r}")
    value = parts[1]
    if kind == BEACON_CUT:
        if len(value) != 64 or value.strip("0123456789abcdef"):
            raise ValueError("a beacon cut's randomness is 64 lowercase hex digits")
    elif not (value.isdigit() or value == "none"):
        raise ValueError("a weak cut's fallback is an interaction id or 'none'")
    typed = parts[2] if len(parts) == 3 else None
    if typed == "":
        raise ValueError("a typed cut is not empty")
    return {
        "kind": kind,
        "round": int(parts[0]),
        "randomness" if kind == BEACON_CUT else "fallback": value,
        "typed": typed,
    }


def cut_fields(text: str) -> tuple[int, bool, str | None, str | None]:
    """A version-2 cut text already checked (`check_cut_v2`, as every cut of a game is before
    it deals) as its record's round, weak, randomness and typed: `parse_cut_v2`'s values
    without its checks (a view rebuilds the last hand's record: issue 31)."""
    kind, _, rest = text.partition(":")
    parts = rest.split(":", 2)
    beacon = kind == BEACON_CUT
    return (
        int(parts[0]),
        not beacon,
        parts[1] if beacon else None,
        parts[2] if len(parts) == 3 else None,
    )


def deal_of(game: str, shuffled: Sequence[str], dealer: int) -> dict[str, Any]:
    """A hand as dealt from the shuffled deck (docs/fair-deals.md, "Dealing"): euchre (E8) five
    each from the dealer's left, then the turned card and the rest under it; truco (T3) three
    each from the player after the dealer in turn order (counter-clockwise)."""
    if game == "truco":
        hands, _ = deal_packets(shuffled, [(dealer - k) % 4 for k in (1, 2, 3, 4)], 3)
        return {"hands": hands}
    hands, rest = deal_packets(shuffled, [(dealer + k) % 4 for k in (1, 2, 3, 4)], 5)
    return {"hands": hands, "turned": rest[0], "kitty": rest[1:]}


def hand_commitment(game_seed: int, hand: int) -> str:
    """What the table shows before hand `hand` is cut (hex): usable before the game exists (the
    lobby shows hand 1's)."""
    return commitment(server_seed(game_secret(game_seed), hand)).hex()


def previous_commitment(secret: bytes, hand: int) -> bytes:
    """The chain: hand n's record holds hand n-1's commitment (hand 1: 32 zero bytes)."""
    return ZERO_COMMITMENT if hand == 1 else commitment(server_seed(secret, hand - 1))


def _next_commitment(secret: bytes, hand: int) -> str:
    return commitment(server_seed(secret, hand + 1)).hex()


def deal_key(
    seed: bytes,
    game: str,
    deck_size: int,
    players: Sequence[str],
    hand: int,
    cut: str,
    previous: bytes,
    version: int = VERSION,
) -> bytes:
    """HMAC-SHA256 keyed with the server seed over everything the deal depends on (version 2
    differs only in the version field, and its cut text carries the beacon round)."""
    if len(players) != 4:
        raise ValueError("four players, in seat order")
    message = encode("fair-deal", version, game, deck_size, *players, hand, cut, previous)
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


def check_cut_v2(action: str) -> str:
    """A version-2 `cut:` action's text: the commitment message (`msg:<id>`) or a cut."""
    text = action[len(CUT_PREFIX) :] if action.startswith(CUT_PREFIX) else ""
    try:
        if text.startswith(MSG_CUT):
            if not text[len(MSG_CUT) :].isdigit():
                raise ValueError("a message id is digits")
        else:
            parse_cut_v2(text)
    except ValueError as error:
        raise IllegalAction(f"not a fair-v2 cut action: {action!r} ({error})") from None
    if len(text) > MAX_CUT_V2 or not text.isprintable():
        raise IllegalAction(f"a fair-v2 cut is at most {MAX_CUT_V2} printable characters")
    return text


def check_deal_options(deal: object, players: object) -> tuple[str, ...] | None:
    """Both games' `deal` and `players` options: players (one id string per lobby position,
    bots as "bot:<seat>") are needed by fair-v1 and meaningless without it."""
    if not isinstance(deal, str) or deal not in DEAL_CHOICES:
        raise InvalidOptions(f"option deal={deal!r}: must be one of {', '.join(DEAL_CHOICES)}")
    if deal == SEEDED:
        if players is not None:
            raise InvalidOptions("option players goes with deal='fair-v1' or 'fair-v2'")
        return None
    if not isinstance(players, list | tuple) or len(players) != 4:
        raise InvalidOptions(f"deal={deal!r} needs players: four id strings")
    for player in players:
        if not isinstance(player, str) or not 0 < len(player) <= MAX_PLAYER_ID:
            raise InvalidOptions(f"a player id is 1 to {MAX_PLAYER_ID} characters: {player!r}")
    return tuple(players)


def deal_options_dict(deal: str, players: tuple[str, ...] | None) -> dict[str, Any]:
    """The options' dict entries: none for the old dealing, so old records stay byte for byte."""
    if deal == SEEDED:
        return {}
    return {"deal": deal, "players": list(players or ())}


# --- one game's fair dealing ---------------------------------------------------------------------


# A revealed hand's shuffled deck, server seed, commitment and previous commitment.
Revealed = tuple[tuple[str, ...], bytes, bytes, bytes]


class FairDealer:
    """The fair state of one game: the current hand's server seed (secret until the hand ends),
    its commitment and cut, and what is needed to rebuild the records of the hands revealed.

    The game calls `begin` when a hand waits for its cut, `check_cut` and `cut` with the cut
    action's text (`cut` returns the shuffled deck, or None for version 2's `msg:` action, which
    only records the commitment message), and `reveal` when the hand ends.

    Memory: a revealed hand is kept as (hand, dealer, cut text), not as its record (issue 31:
    records held ~100 B per action); `records()` rebuilds them. Of the last one its shuffled
    deck and seeds are kept, the record built from them at each view."""

    __slots__ = (
        "_done",
        "_game_commitment",
        "_last",
        "_next",
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
        "message",
        "players",
        "previous",
        "version",
    )

    def __init__(
        self,
        game: str,
        deck: Sequence[str],
        players: Sequence[str],
        seed: int,
        deal: str = DEAL_OPTION,
    ) -> None:
        self.game = game
        self.version = VERSION_OF[deal]
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
        self.message: int | None = None  # v2: the id of the game's commitment message
        self._done: tuple[tuple[int, int, str], ...] = ()  # revealed: (hand, dealer, cut)
        # What the last revealed hand's record is built from, made once: the record is built
        # from it at each view (a record kept whole held ~2 KB a table, issue 31). Its seeds
        # are kept too (about 200 B): with their HMACs redone at every view, fair views took
        # 13% of the bot's main thread at 200 busy tables, 7% without.
        self._last: Revealed | None = None
        # The next hand's commitment (hex), made once a hand: every view shows it, and an HMAC
        # per view was the bot's largest own cost at 200 busy tables (issue 31).
        self._next = _next_commitment(self._secret, self.hand)
        # Version 2's game commitment (its digest, 65 B; b"" for version 1): every view and
        # record shows it, and a SHA-256 per view and record was 12% of a view (issue 31).
        self._game_commitment = hashlib.sha256(self._secret).digest() if self.version == 2 else b""

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
        self._next = _next_commitment(self._secret, hand)

    def check_cut(self, action: str) -> str:
        """The text of a cut action, checked for this game's version (raises IllegalAction)."""
        if self.version == 1:
            return check_cut(action)
        text = check_cut_v2(action)
        if text.startswith(MSG_CUT):
            if self.message is not None or self.hand != 1:
                raise IllegalAction("the commitment message is recorded once, before hand 1")
            return text
        expected = 0 if self.message is None else beacon_round(self.message, self.hand)
        if parse_cut_v2(text)["round"] != expected:
            raise IllegalAction(f"hand {self.hand} is cut by round {expected}: {action!r}")
        return text

    def cut(self, text: str) -> list[str] | None:
        """The deck of this hand, shuffled: the cut is the last input of the deal. Version 2's
        `msg:<id>` only records the commitment message (None: the hand still waits)."""
        if self.version == 2 and text.startswith(MSG_CUT):
            self.message = int(text[len(MSG_CUT) :])
            return None
        self.cut_text = text
        return shuffle(self._key(self.hand, self._seed, text, self.previous), self.deck)

    def _key(self, hand: int, seed: bytes, cut: str, previous: bytes) -> bytes:
        return deal_key(
            seed, self.game, self.deck_size, self.players, hand, cut, previous, self.version
        )

    def reveal(self) -> None:
        """The hand is over: its record (server seed included) becomes public."""
        if self.cut_text is None or self.deal is None:
            raise EngineError("a hand is revealed after its deal")
        self._done = (*self._done, (self.hand, self.dealer, self.cut_text))
        self._last = None

    def _record(self, hand: int, dealer: int, cut: str) -> dict[str, Any]:
        return self._record_of(hand, dealer, cut, *self._revealed(hand, cut))

    def _revealed(self, hand: int, cut: str) -> Revealed:
        """What a revealed hand's record is built from: its shuffled deck, server seed, its
        commitment and the previous hand's (two HMACs, a hash and a shuffle)."""
        seed = server_seed(self._secret, hand)
        previous = previous_commitment(self._secret, hand)
        shuffled = tuple(shuffle(self._key(hand, seed, cut, previous), self.deck))
        return shuffled, seed, commitment(seed), previous

    def _record_of(
        self,
        hand: int,
        dealer: int,
        cut: str,
        shuffled: Sequence[str],
        seed: bytes,
        committed: bytes,
        previous: bytes,
    ) -> dict[str, Any]:
        record: dict[str, Any] = {
            "version": self.version,
            "game": self.game,
            "deck": self.deck_size,
            "players": list(self.players),
            "hand": hand,
            "dealer": dealer,
            "cut": cut,
            "previous_commitment": previous.hex(),
            "commitment": committed.hex(),
            "server_seed": seed.hex(),
        }
        if self.version == 2:
            record["message"] = None if self.message is None else str(self.message)
            record["game_commitment"] = self._game_commitment.hex()
            record["round"], record["weak"], record["randomness"], record["typed"] = cut_fields(cut)
        return record | deal_of(self.game, shuffled, dealer)

    def view(self) -> dict[str, Any]:
        """The public part: never the current hand's server seed (it is in `revealed` once the
        hand is over). `next_commitment` is shown early so that (version 1) a click made
        during this hand (the one that ends it) can be the next hand's cut."""
        revealed = None
        if self._done:
            hand, dealer, cut = self._done[-1]
            if self._last is None:
                self._last = self._revealed(hand, cut)
            revealed = self._record_of(hand, dealer, cut, *self._last)
        out = {
            "version": self.version,
            "hand": self.hand,
            "dealer": self.dealer,
            "cutter": self.cutter,
            "commitment": self.commitment.hex(),
            "previous_commitment": self.previous.hex(),
            "cut": self.cut_text,
            "next_commitment": self._next,
            "revealed": revealed,
        }
        if self.version == 2:
            out["game_commitment"] = self._game_commitment.hex()
            out["message"] = None if self.message is None else str(self.message)
            out["round"] = None if self.message is None else beacon_round(self.message, self.hand)
        return out

    def records(self) -> list[dict[str, Any]]:
        """Every revealed hand's record, in order (what scripts/verify_deal.py checks)."""
        return [self._record(*done) for done in self._done]

    def copy(self) -> FairDealer:
        twin = FairDealer.__new__(FairDealer)
        for name in FairDealer.__slots__:
            setattr(twin, name, getattr(self, name))  # _done is a tuple: shared, never changed
        return twin

    def _state(self) -> tuple[Any, ...]:
        derived = ("_game_commitment", "_last", "_next")
        return tuple(getattr(self, name) for name in FairDealer.__slots__ if name not in derived)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FairDealer):
            return NotImplemented
        return self._state() == other._state()

    __hash__ = None  # type: ignore[assignment]
