"""A local drand beacon in drand's HTTP shape, so that fair-v2 tests run offline.

Two relays, `/beacon/a` and `/beacon/b`, serve quicknet's paths:

    GET {relay}/{chain hash}/info            the chain's info (period, genesis_time, ...)
    GET {relay}/{chain hash}/public/{round}  {"round": r, "randomness": ..., "signature": ...}

Every round is served at once (tests do not wait for real rounds). Its signature is not a BLS
signature, only 48 bytes derived from the round (SHA-384), but its randomness is SHA-256 of the
signature, as drand's is. A test sets a relay's `mode`: "ok", "down" (503), "garbage" (a body
that is not a round), "wrong" (another round's value), "slow" (answers after `slow` seconds)
or "early" (404, as a relay answers a round not yet published).
"""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

QUICKNET_INFO: dict[str, Any] = {
    # drand's published quicknet chain info (https://api.drand.sh/<hash>/info).
    "public_key": (
        "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3a"
        "c6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5"
        "a6e9c76a4bc09e76eae8991ef5ece45a"
    ),
    "period": 3,
    "genesis_time": 1692803367,
    "hash": "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
    "schemeID": "bls-unchained-g1-rfc9380",
    "metadata": {"beaconID": "quicknet"},
}
RELAYS = ("a", "b")


def fake_round(number: int) -> dict[str, Any]:
    """The local beacon's round `number`, in drand's JSON shape."""
    signature = hashlib.sha384(b"emulator beacon %d" % number).hexdigest()
    randomness = hashlib.sha256(bytes.fromhex(signature)).hexdigest()
    return {"round": number, "randomness": randomness, "signature": signature}


@dataclass
class LocalBeacon:
    modes: dict[str, str] = field(default_factory=lambda: dict.fromkeys(RELAYS, "ok"))
    slow: float = 30.0
    asked: list[tuple[str, int]] = field(default_factory=list)  # (relay, round), in order

    def set_all(self, mode: str) -> None:
        for relay in RELAYS:
            self.modes[relay] = mode


def add_routes(app: web.Application, beacon: LocalBeacon) -> None:
    async def info(request: web.Request) -> web.StreamResponse:
        if request.match_info["chain"] != QUICKNET_INFO["hash"]:
            return web.json_response({"error": "unknown chain"}, status=404)
        return web.json_response(QUICKNET_INFO)

    async def public(request: web.Request) -> web.StreamResponse:
        relay = request.match_info["relay"]
        if relay not in beacon.modes or request.match_info["chain"] != QUICKNET_INFO["hash"]:
            return web.json_response({"error": "unknown chain"}, status=404)
        try:
            number = int(request.match_info["round"])
        except ValueError:
            return web.json_response({"error": "bad round"}, status=400)
        beacon.asked.append((relay, number))
        mode = beacon.modes[relay]
        if mode == "down":
            return web.Response(status=503, text="service unavailable")
        if mode == "early":
            return web.json_response({"error": "round not yet available"}, status=404)
        if mode == "garbage":
            return web.Response(status=200, text='{"round": "soon", "randomness": <html>')
        if mode == "wrong":
            return web.json_response(fake_round(number + 1))
        if mode == "slow":
            await asyncio.sleep(beacon.slow)
        return web.json_response(fake_round(number))

    app.router.add_get("/beacon/{relay}/{chain}/info", info)
    app.router.add_get("/beacon/{relay}/{chain}/public/{round}", public)
