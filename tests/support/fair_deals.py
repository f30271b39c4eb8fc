"""Helpers of the fair-deal e2e tests (issue 24): a watcher that no message shows a seed before
its hand ends, play that waits out the cut phase, and scripts/verify_deal.py as a subprocess."""

from __future__ import annotations

import asyncio
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

from bot.engine import fair_deal
from bot.tables.service import Table
from bot.ui.fair.verify import verify_command
from emulator import Emulator
from tests.support.play_driver import TableDriver, message_texts

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "verify_deal.py"
REVEAL = re.compile(r"🔓 Hand (\d+) revealed: seed `([0-9a-f]{64})`, cut `([^`]*)`")


class SeedWatch:
    """After every change of the table, every message version the emulator recorded since the
    last look is scanned for the seeds of the hands not yet over (this one and the next two):
    a version holding one was shown before its hand ended."""

    def __init__(self, emu: Emulator, table: Table) -> None:
        self.emu = emu
        self.table = table
        self.seen: dict[int, int] = {}  # message id -> versions scanned
        self.leaks: list[str] = []
        self.scans = 0

    def __call__(self, table: Table, change: str) -> None:
        if table is self.table:
            self.scan()

    def secrets(self) -> list[str]:
        table = self.table
        if table.game is None or table.record.seed is None:
            return []
        revealed = len(table.game.fair_records())
        secret = fair_deal.game_secret(table.record.seed)
        return [fair_deal.server_seed(secret, n).hex() for n in range(revealed + 1, revealed + 4)]

    def scan(self) -> None:
        secrets = self.secrets()
        self.scans += 1
        for message_id, message in list(self.emu.messages.items()):
            start = self.seen.get(message_id, 0)
            for version in message.versions[start:]:
                text = "\n".join(message_texts(version))
                self.leaks += [f"{message_id}: {s}" for s in secrets if s in text]
            self.seen[message_id] = len(message.versions)


async def cut_done(driver: TableDriver, timeout: float = 10.0) -> None:  # noqa: ASYNC109
    """Until the hand waiting for its cut (if any) is cut: the table cuts by itself."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        await driver.service.wait_for_bots(driver.table.id)
        game = driver.table.game
        if game is None or game.is_over or game.phase != "cut":
            return
        assert loop.time() < end, "the table stalled in the cut phase"
        await asyncio.sleep(0.02)


async def play_fair_to_end(driver: TableDriver, rng: Any, max_steps: int = 3000) -> None:
    for _ in range(max_steps):
        await cut_done(driver)
        if not await driver.step(rng):
            break
    else:
        raise AssertionError("the game did not end")
    await driver.settle()


def run_verifier(tmp: Path, records: list[dict[str, Any]]) -> subprocess.CompletedProcess[str]:
    path = tmp / "hands.json"
    path.write_text(json.dumps({"records": records}))
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(path)], capture_output=True, text=True, check=False
    )


def run_verifier_args(record: dict[str, Any], seed: str, cut: str) -> int:
    """The command a player runs with the values shown (the table's reveal line: seed, cut; the
    hand's record: players, dealer, commitments, cards): the one /verify prints (issue 32: it
    compares the deal with the cards shown; nothing has a default)."""
    shown = {**record, "server_seed": seed, "cut": cut}
    args = shlex.split(verify_command(shown))[2:]  # without "python3 scripts/verify_deal.py"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=False
    )
    return done.returncode


def reveals_shown(driver: TableDriver) -> dict[int, tuple[str, str]]:
    """Hand -> (seed, cut) as the table message's versions showed them when hands ended."""
    found: dict[int, tuple[str, str]] = {}
    for message in driver.emu.messages.values():
        for version in message.versions:
            for text in message_texts(version):
                for hand, seed, cut in REVEAL.findall(text.replace("\\n", "\n")):
                    found[int(hand)] = (seed, cut)
    return found
