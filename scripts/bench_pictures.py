"""Table picture speed and size: ms per render (p50 / p99) and PNG bytes, per stage, both games.

A render is what the bot does for each new table version: take the scene (under the table's
lock, in the event loop) and draw + encode the PNG (in a worker thread). Both are timed, each
stage many times with the card sprites already drawn (as in a running bot: they are cached
after the first picture); the very first picture of a process, which draws its card sprites,
is timed on its own. The budget is 30 ms a render and 150 KB a picture. Times are CPU time of
this process (time.process_time), which a shared machine disturbs less than wall time.

    .venv/bin/python scripts/bench_pictures.py [--repeats 200] [--locale hi]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.pictures import samples
from bot.pictures.cards import card_back, card_face, deck_codes, emoji_png
from bot.pictures.scene import scene_of
from bot.pictures.table import table_png


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--locale", default=None, help="guild locale of the pictures (e.g. hi)")
    args = parser.parse_args()
    locale = args.locale

    tables = {game: samples.stages(game) for game in ("euchre", "truco")}
    first = tables["euchre"]["trick"]
    start = time.process_time()
    table_png(scene_of(first, locale))
    print(
        f"first picture of the process (draws its card sprites): "
        f"{(time.process_time() - start) * 1000:.1f} ms"
    )

    print(f"{'game':7} {'stage':12} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'bytes':>7}")
    worst = 0.0
    sizes = []
    for game, stages in tables.items():
        for stage, table in stages.items():
            times = []
            data = b""
            for _ in range(args.repeats):
                start = time.process_time()
                data = table_png(scene_of(table, locale))
                times.append((time.process_time() - start) * 1000)
            worst = max(worst, percentile(times, 0.99))
            sizes.append(len(data))
            print(
                f"{game:7} {stage:12} {statistics.median(times):7.2f} "
                f"{percentile(times, 0.99):7.2f} {max(times):7.2f} {len(data):7d}"
            )
    print(
        f"worst p99 {worst:.2f} ms (budget 30 ms); largest picture {max(sizes)} bytes "
        f"(budget 150000)"
    )

    start = time.process_time()
    for code in deck_codes():
        card_face.cache_clear()
        card_back.cache_clear()
        emoji_png.cache_clear()
        emoji_png(code)
    emoji_ms = (time.process_time() - start) * 1000
    largest = max(len(emoji_png(code)) for code in deck_codes())
    print(
        f"card emojis: {len(deck_codes())} drawn in {emoji_ms:.0f} ms, largest {largest} bytes "
        f"(Discord's limit 262144)"
    )


if __name__ == "__main__":
    main()
