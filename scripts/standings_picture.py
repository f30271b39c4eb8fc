"""Draw the standings picture of a sample progressive euchre night (12 places, 3 rounds) to
docs/tournament-standings.png and print its text standings: what players see after the last
round. Run: .venv/bin/python scripts/standings_picture.py"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.ui.tournament.standings import standings_picture, standings_text  # noqa: E402
from tests.support.tournaments import paper_night  # noqa: E402


def main() -> None:
    night = paper_night(3)
    out = ROOT / "docs" / "tournament-standings.png"
    out.write_bytes(standings_picture(night))
    print(standings_text(night))
    print(f"wrote {out.relative_to(ROOT)} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
