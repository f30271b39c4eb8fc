"""Picture speed and size: ms per render (p50 / p99) and PNG bytes, per stage, both games: the
table picture, then each seat's own picture (bot/pictures/seat.py, issue 21).

A render is what the bot does for each new table version: take the scene (under the table's
lock, in the event loop) and draw + encode the PNG (in a worker thread). Both are timed, each
stage many times with the card sprites already drawn (as in a running bot: they are cached
after the first picture); the very first picture of a process, which draws its card sprites,
is timed on its own. The budget is 30 ms a render and 150 KB a picture. Times are CPU time of
this process (time.process_time), which a shared machine disturbs less than wall time.

A seat picture is drawn for every seat of each stage (its own hand and playable cards differ);
"before" is the table picture alone per table update, "after" the table picture and one seat
picture (each hand update sends that player's one picture).

Uploads per hand update: a whole game of each, one person and three bots, played by the real bot
through the emulator (tests/support/seat_pictures.py); every version of the person's hand
messages is a hand update. Before issue 21 a hand update uploaded nothing; now it uploads its
picture when the picture changed (at most one), and keeps the one it shows otherwise.

    .venv/bin/python scripts/bench_pictures.py [--repeats 200] [--locale hi] [--skip-hands]

Issue 31: pictures are written from cached bands (bot/pictures/layers.py), so the stage tables
above, drawn again and again, measure a picture whose bands are all cached. What a click costs
is measured "along a game": each version of a seeded game in turn (the seat picture of the
player, then the table picture), the cache warm from the versions before, as in the picture
worker; and "cold", every band drawn (the cache emptied first). Then size against speed: the
cold pictures at each zlib level of a band.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.pictures import layers, samples
from bot.pictures.cards import card_back, card_face, deck_codes, emoji_png
from bot.pictures.scene import scene_of, seat_scene_of
from bot.pictures.seat import seat_png
from bot.pictures.table import table_png


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--locale", default=None, help="guild locale of the pictures (e.g. hi)")
    parser.add_argument("--skip-hands", action="store_true", help="no emulated games")
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
    all_times: list[float] = []
    for game, stages in tables.items():
        for stage, table in stages.items():
            times = []
            data = b""
            for _ in range(args.repeats):
                start = time.process_time()
                data = table_png(scene_of(table, locale))
                times.append((time.process_time() - start) * 1000)
            worst = max(worst, percentile(times, 0.99))
            all_times += times
            sizes.append(len(data))
            print(
                f"{game:7} {stage:12} {statistics.median(times):7.2f} "
                f"{percentile(times, 0.99):7.2f} {max(times):7.2f} {len(data):7d}"
            )
    print(
        f"worst p99 {worst:.2f} ms (budget 30 ms); largest picture {max(sizes)} bytes "
        f"(budget 150000)"
    )
    table_all = all_times

    print("seat pictures (every seat of each stage):")
    print(f"{'game':7} {'stage':12} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'bytes':>7}")
    seat_all: list[float] = []
    seat_sizes = []
    start = time.process_time()
    seat_png(samples.seat_samples()["euchre"])
    print(f"first seat picture (its sprites): {(time.process_time() - start) * 1000:.1f} ms")
    # As in a running worker, the sprites of these cards are drawn before the timing starts.
    for stages in tables.values():
        for table in stages.values():
            for seat in range(4):
                warm = seat_scene_of(table, seat, locale, now=0.0)
                if warm is not None:
                    seat_png(warm)
    for game, stages in tables.items():
        for stage, table in stages.items():
            if table.game is None:
                continue  # the lobby: no hand to draw
            times = []
            largest = 0
            for _ in range(max(1, args.repeats // 4)):
                for seat in range(4):
                    began = time.process_time()
                    scene = seat_scene_of(table, seat, locale, now=0.0)
                    assert scene is not None
                    data = seat_png(scene)
                    times.append((time.process_time() - began) * 1000)
                    largest = max(largest, len(data))
            seat_all += times
            seat_sizes.append(largest)
            print(
                f"{game:7} {stage:12} {statistics.median(times):7.2f} "
                f"{percentile(times, 0.99):7.2f} {max(times):7.2f} {largest:7d}"
            )
    print(
        f"seat pictures: p50 {statistics.median(seat_all):.2f} ms, p99 "
        f"{percentile(seat_all, 0.99):.2f} ms, largest {max(seat_sizes)} bytes"
    )
    # An update's cost: each measured table render paired with a measured seat render.
    both = [a + b for a, b in zip(table_all, itertools.cycle(seat_all))]
    print(
        f"per update, before (table picture): p50 {statistics.median(table_all):.2f} ms, "
        f"p99 {percentile(table_all, 0.99):.2f} ms; after (table + one seat picture): "
        f"p50 {statistics.median(both):.2f} ms, p99 {percentile(both, 0.99):.2f} ms"
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
    along_a_game(locale, args.repeats)
    if not args.skip_hands:
        asyncio.run(hand_uploads())


def _versions(game: str, count: int) -> list[Any]:
    """The tables of a seeded game after each of its first `count` actions."""
    tables = []
    for steps in range(1, count + 1):
        calls = itertools.count()
        try:
            table = samples.played_table(game, 3, lambda _v, c=calls, n=steps: next(c) >= n)
        except ValueError:  # the game is over: its versions are all here
            break
        tables.append(table)
    return tables


def along_a_game(locale: str | None, repeats: int) -> None:
    print("along a game (issue 31): each version in turn, the cache warm from the ones before")
    print(f"{'game':7} {'picture':8} {'p50 ms':>7} {'p99 ms':>7} {'cold p50':>8} {'bytes':>7}")
    cold_scenes: list[tuple[Any, Callable[[Any], bytes]]] = []
    for game in ("euchre", "truco"):
        tables = _versions(game, 60 if game == "euchre" else 30)
        for name, draw, scene_at in (
            ("seat", seat_png, lambda table: seat_scene_of(table, 0, locale, now=0.0)),
            ("table", table_png, lambda table: scene_of(table, locale)),
        ):
            scenes = [scene_at(table) for table in tables]
            scenes = [scene for scene in scenes if scene is not None]
            layers.clear_cache()
            warm, sizes = [], []
            for scene in scenes:
                began = time.process_time()
                data = draw(scene)
                warm.append((time.process_time() - began) * 1000)
                sizes.append(len(data))
            cold = []
            for scene in scenes[:: max(1, len(scenes) // 10)]:
                layers.clear_cache()
                began = time.process_time()
                draw(scene)
                cold.append((time.process_time() - began) * 1000)
                cold_scenes.append((scene, draw))
            print(
                f"{game:7} {name:8} {statistics.median(warm):7.2f} {percentile(warm, 0.99):7.2f} "
                f"{statistics.median(cold):8.2f} {statistics.mean(sizes):7.0f}"
            )
    print("size against speed, the cold pictures above at each zlib level of a band:")
    kept = layers.LEVEL
    try:
        for level in (0, 1, 3, 6, 9):
            layers.LEVEL = level
            times, sizes = [], []
            for scene, draw in cold_scenes:
                layers.clear_cache()
                began = time.process_time()
                sizes.append(len(draw(scene)))
                times.append((time.process_time() - began) * 1000)
            print(
                f"  level {level}: p50 {statistics.median(times):6.2f} ms, "
                f"mean {statistics.mean(sizes) / 1024:6.1f} KB"
            )
    finally:
        layers.LEVEL = kept


async def hand_uploads() -> None:
    from bot.settings import Settings
    from emulator import Emulator, run_bot
    from tests.support.seat_pictures import hand_requests, play_alone_with_pictures
    from tests.support.world import build_world

    print("hand updates of a whole game, one person and three bots, through the emulator:")
    games = (("euchre new", 5, {"target": 5}), ("truco new", 4, {"target": 6}))
    for command, seed, options in games:
        emu = Emulator()
        await emu.start()
        try:
            world = build_world(emu)
            with tempfile.TemporaryDirectory() as folder:
                settings = Settings(
                    token=None,
                    database_path=Path(folder) / "bench.sqlite3",
                    dev_guild_id=world.guild.id,
                    log_level="WARNING",
                    bot_move_delay=0.0,
                )
                async with run_bot(emu, settings) as bot:
                    _, seen = await play_alone_with_pictures(world, bot, command, seed, **options)
            sent = [r for r in hand_requests(emu) if r.status < 300]
            sizes = [len(emu.message_service.files[int(i)].data) for i in seen.checked]
        finally:
            await emu.stop()
        uploads = sum(r.uploads for r in sent)
        print(
            f"{command.split()[0]:7} {seen.updates} hand updates, {uploads} pictures uploaded "
            f"({uploads / seen.updates:.2f} per update, at most {max(r.uploads for r in sent)} "
            f"per request), {seen.kept} kept without an upload; "
            f"{sum(sizes) / max(1, len(sizes)) / 1024:.1f} KB per picture, "
            f"{sum(sizes) / seen.updates / 1024:.1f} KB uploaded per update"
        )


if __name__ == "__main__":
    main()
