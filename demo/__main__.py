"""`python -m demo` (what `python3 dev.py run --demo` runs): print the demo's transcript."""

from __future__ import annotations

import sys

from bot import event_loop
from demo.play import run_demo

if __name__ == "__main__":
    sys.exit(event_loop.run(run_demo(verbose="--verbose" in sys.argv[1:])))
