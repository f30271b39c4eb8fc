"""Helpers for tests that start processes: the project's root, and whether a process lives."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone too (it only waits for its new parent to reap it).
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(") ", 1)[1].startswith("Z"))


def kill_and_see_worker_go(bot: subprocess.Popen[str], worker: int, seconds: float = 10) -> bool:
    """SIGKILL a bot stand-in, then wait up to `seconds` for its worker `worker` to go; whether
    it went."""
    bot.send_signal(signal.SIGKILL)
    bot.wait(seconds)
    deadline = time.monotonic() + seconds
    while alive(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not alive(worker)
