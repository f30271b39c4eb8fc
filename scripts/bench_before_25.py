"""A `--bot-hook` for scripts/bench_latency.py: the bot's channel traffic as it was before
issue 25, under the same Discord limits, for the capacity table's "before" rows.

    .venv/bin/python scripts/bench_latency.py --tables 200 --ping-after 0 \\
        --bot-hook scripts/bench_before_25.py:apply

Before issue 25 the bot had no budget of its own for the global limit (discord.py met 429s and
slept), pinged on every turn (`--ping-after 0` gives that), and edited every table message
through the channel route. This lifts the budget and stops the table messages' token edits;
everything else is today's code (the per-channel pacing, the coalesced edits were there before).
"""

from __future__ import annotations

from typing import Any

UNLIMITED = 1e9


def apply(bot: Any) -> None:
    table_ui = bot.table_ui
    table_ui.budget.per_second = UNLIMITED
    table_ui.budget.burst = UNLIMITED
    table_ui.public.use_tokens = False
