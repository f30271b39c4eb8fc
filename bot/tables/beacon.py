"""drand rounds for fair-v2's cuts (docs/fair-deals.md, "The beacon").

The bot asks public relays (configurable, several: BEACON_RELAYS) for a quicknet round with
aiohttp, keeps the rounds it got (a hand's cut and every later look at it use the same value),
and is only ever called from the fair cuts' background task, never while a click waits for its
acknowledgement. A relay that is down, slow or answers anything but a well-formed round of the
asked number is skipped; when none answers the caller deals a weak hand, marked as such.

The BLS signature is not checked here (no pairing library in the bot's dependencies); what is
checked is the shape, the round number and that the randomness is SHA-256 of the signature, as
drand defines it. A player checks the signature with drand's own tools (docs/fair-deals.md).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.engine.fair_deal import QUICKNET_HASH

log = logging.getLogger(__name__)

DEFAULT_RELAYS = (
    "https://api.drand.sh",
    "https://api2.drand.sh",
    "https://api3.drand.sh",
    "https://drand.cloudflare.com",
)
REQUEST_TIMEOUT = 2.0  # seconds one relay gets before the next is asked
KEEP = 512  # rounds kept (a busy process cuts a few hands a second; a round serves them all)
_HEX = frozenset("0123456789abcdef")


@dataclass(frozen=True)
class BeaconRound:
    round: int
    randomness: str  # 64 hex digits: SHA-256 of the signature
    signature: str
    previous_signature: str | None = None  # chained networks only (drand's "default")


def _hex(value: object, name: str, size: int | None = None) -> str:
    if not isinstance(value, str) or not value or set(value) - _HEX or len(value) % 2:
        raise ValueError(f"{name} is not lowercase hex")
    if size is not None and len(value) != size:
        raise ValueError(f"{name} is not {size} hex digits")
    return value


def parse_round(data: Any, expected: int) -> BeaconRound:
    """A relay's JSON answer for round `expected` (drand's HTTP API: round, randomness,
    signature, and previous_signature on a chained network). Raises ValueError otherwise."""
    if not isinstance(data, dict):
        raise ValueError("a round is a JSON object")
    number = data.get("round")
    if isinstance(number, bool) or not isinstance(number, int) or number != expected:
        raise ValueError(f"round {number!r} is not the round asked for ({expected})")
    randomness = _hex(data.get("randomness"), "randomness", 64)
    signature = _hex(data.get("signature"), "signature")
    if hashlib.sha256(bytes.fromhex(signature)).hexdigest() != randomness:
        raise ValueError("the randomness is not SHA-256 of the signature")
    previous = data.get("previous_signature")
    return BeaconRound(
        number,
        randomness,
        signature,
        None if previous is None else _hex(previous, "previous_signature"),
    )


class Beacon:
    """Rounds of one drand chain from a list of relays, first answer wins, cached."""

    def __init__(
        self,
        relays: Sequence[str] = DEFAULT_RELAYS,
        *,
        chain: str = QUICKNET_HASH,
        timeout: float = REQUEST_TIMEOUT,
    ) -> None:
        self.relays = tuple(relay.rstrip("/") for relay in relays)
        self.chain = chain
        self.timeout = timeout
        self._rounds: OrderedDict[int, BeaconRound] = OrderedDict()
        self._session: aiohttp.ClientSession | None = None
        self.failures = 0  # relay answers that were not a round (tests, logs)

    def cached(self, number: int) -> BeaconRound | None:
        return self._rounds.get(number)

    async def fetch(self, number: int) -> BeaconRound | None:
        """Round `number`, from the cache or the first relay that answers it in time; None when
        none does (not published yet, down, slow or garbage): the caller may ask again."""
        kept = self._rounds.get(number)
        if kept is not None:
            return kept
        for relay in self.relays:
            found = await self._ask(relay, number)
            if found is not None:
                self._rounds[number] = found
                while len(self._rounds) > KEEP:
                    self._rounds.popitem(last=False)
                return found
        return None

    async def _ask(self, relay: str, number: int) -> BeaconRound | None:
        url = f"{relay}/{self.chain}/public/{number}"
        try:
            session = self._session
            if session is None or session.closed:
                session = self._session = aiohttp.ClientSession()
            async with asyncio.timeout(self.timeout), session.get(url) as response:
                if response.status != 200:
                    return None  # 404/425: not published yet; 5xx: the relay's trouble
                return parse_round(await response.json(content_type=None), number)
        except (TimeoutError, aiohttp.ClientError, ValueError, OSError) as error:
            self.failures += 1
            log.info("beacon relay %s, round %s: %r", relay, number, error)
            return None

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
