"""After the game (issue 22): seconds per reviewed game, and CPU per picture of a replay step.

Review: games played to the end by the rule players (seeds 1..N), each reviewed for seat 0 the
way the bot does it (bot.tables.review.review_game: the review's pool of 2 worker processes, the
review's budget); wall-clock seconds per game, p50 / p99, and the decisions judged per game.
Pictures: every step of those games drawn (table picture plus, after a hand, the face-up hands),
CPU time of this process per picture (time.process_time), p50 / p99, and bytes; then the charts.

    .venv/bin/python scripts/bench_review.py [--games 6] [--game euchre|truco|both]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.pictures.charts import score_chart, stats_chart
from bot.pictures.replay import step_png
from bot.tables.games import rules_for
from bot.tables.replay import replay_steps
from bot.tables.review import REVIEW_ITERATIONS, review_game, review_pool


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def played(game_name: str, seed: int) -> Any:
    rules = rules_for(game_name)
    game = rules.new_game({}, seed)
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(seat, rules.bot_action(game, seat))
    return game


async def bench_reviews(game_name: str, games: list[Any]) -> None:
    pool = review_pool()
    # Start the workers (spawned interpreters) before timing: a running bot has them warm.
    await asyncio.gather(
        *(asyncio.get_running_loop().run_in_executor(pool, sum, []) for _ in range(2))
    )
    seconds: list[float] = []
    counts: list[int] = []
    for game in games:
        start = time.perf_counter()
        review = await review_game(
            game_name, game.options.to_dict(), game.seed, game.first_dealer, game.actions, 0
        )
        seconds.append(time.perf_counter() - start)
        counts.append(len(review.decisions))
    print(
        f"{game_name:7} review ({REVIEW_ITERATIONS[game_name]} per decision, {len(games)} games): "
        f"p50 {percentile(seconds, 0.5):.1f} s, p99 {percentile(seconds, 0.99):.1f} s, "
        f"max {max(seconds):.1f} s; decisions per game {statistics.mean(counts):.0f} "
        f"({statistics.mean(s / c for s, c in zip(seconds, counts, strict=True)) * 1000:.0f} ms "
        f"each, wall)"
    )


def bench_pictures(game_name: str, games: list[Any]) -> None:
    names = ["Ana", "Bot 2", "Cy", "Bot 4"]
    times: list[float] = []
    sizes: list[int] = []
    steps = 0
    for game in games:
        replay = replay_steps(
            game_name, game.options.to_dict(), game.seed, game.first_dealer, game.actions
        )
        for step in replay.steps:
            start = time.process_time()
            data = step_png(game_name, step, names)
            times.append((time.process_time() - start) * 1000)
            sizes.append(len(data))
            steps += 1
    print(
        f"{game_name:7} replay step picture ({steps} steps): p50 {percentile(times, 0.5):.1f} ms, "
        f"p99 {percentile(times, 0.99):.1f} ms CPU; {statistics.mean(sizes) / 1024:.0f} KB mean"
    )


def bench_charts(repeats: int = 50) -> None:
    ratings = [1000 + 7 * i - 9 * (i % 5) for i in range(200)]
    months = [(f"2026-{m:02}", m * 2, m * 3 + 1) for m in range(1, 13)]
    scores = [(min(10, i), min(8, i // 2)) for i in range(1, 12)]
    for name, draw in (
        ("stats chart", lambda: stats_chart(ratings, months)),
        ("score chart", lambda: score_chart(scores, 10, ("Ana & Cy", "Bo & Di"))),
    ):
        draw()  # fonts loaded once per process
        times = []
        for _ in range(repeats):
            start = time.process_time()
            data = draw()
            times.append((time.process_time() - start) * 1000)
        print(
            f"{name} (Pillow): p50 {percentile(times, 0.5):.1f} ms, "
            f"p99 {percentile(times, 0.99):.1f} ms CPU, {len(data) / 1024:.0f} KB"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--game", choices=("euchre", "truco", "both"), default="both")
    args = parser.parse_args()
    names = ("euchre", "truco") if args.game == "both" else (args.game,)
    for game_name in names:
        games = [played(game_name, seed) for seed in range(1, args.games + 1)]
        asyncio.run(bench_reviews(game_name, games))
        bench_pictures(game_name, games)
    bench_charts()
    review_pool().shutdown()


if __name__ == "__main__":
    main()
