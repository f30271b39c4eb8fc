"""Lines of text per message and wall seconds per hand, for one person and three bots (issue 30).

    .venv/bin/python scripts/bench_pace.py [--euchre-target 5] [--truco-target 6]

One whole game of each, played at the same time in two channels of the Discord emulator by the
real bot at its default settings (bot delay, channel edit pacing, pictures on): a simulated
person with three bot seats, who clicks as soon as the hand message offers the move (so the
figure is the bots' and the table's pace, not a person's). Prints, per game:
- the median and maximum non-empty lines of text per version of the table message (its
  content, embed texts and Components V2 text displays), from Start to the end of the game;
- the same for the person's private hand messages;
- the median and maximum wall seconds per hand.

The script reads only what the emulator recorded and the table's hand counter, so it runs
unchanged on older commits: copy it into a worktree of 06afc71 for the "before" figures.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord

from bot.settings import Settings
from demo.play import DemoGame, DemoPlayer, people_names
from demo.transcript import Transcript
from emulator import Emulator, run_bot
from emulator.state import MessageVersion


class BenchPlayer(DemoPlayer):
    """Acts as soon as the hand message offers the move: a person reads their own hand, which
    the bot keeps up to date by itself; the demo's player also waits for the table message,
    which the channel's edit bucket (5 per 5 s) may hold back."""

    async def _shown(self, table: Any, message: Any) -> None:
        game = table.game
        if game is not None and game.is_over:
            await super()._shown(table, message)

    async def _play_game(self, table: Any, message: Any) -> None:
        """Click as soon as it is this person's turn and their hand offers it (the demo's
        player waits for the bots' task to end, which may sleep a bot delay first)."""
        seat = table.seat_of(self.user.id)
        hand = None
        while True:
            game = table.game
            if game.is_over:
                return
            if seat not in game.to_act:
                await asyncio.sleep(0.01)
                continue
            if hand is None:
                await message.wait_until(
                    lambda m: any(b.label == "Show my hand" for b in m.buttons), timeout=30
                )
                hand = await self.user.click(message, "Show my hand")
            elif not await self._offers(hand, table, 2.0):
                hand = await self.user.click(hand, f"tb:{table.id}:refresh")
            if not await self._offers(hand, table, 30.0):
                continue  # the state moved on meanwhile (a bot answered for the pair)
            if seat in table.game.to_act:
                await self._act(table, hand)


def lines_of(version: MessageVersion) -> int:
    parts = [version.content]
    for embed in version.embeds:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        for field in embed.get("fields") or []:
            parts += [field.get("name") or "", field.get("value") or ""]
        parts.append((embed.get("footer") or {}).get("text") or "")

    def walk(items: list[Any]) -> None:
        for item in items:
            if item.get("type") == 10:
                parts.append(str(item.get("content") or ""))
            walk(item.get("components") or [])

    walk(version.components)
    return sum(1 for part in parts for line in part.splitlines() if line.strip())


async def one_game(
    emu: Emulator, guild: Any, bot: Any, demo: DemoGame, index: int
) -> dict[str, Any]:
    channel = guild.add_channel(f"{demo.game}-bench")
    user = emu.add_user(f"person{index}")
    guild.add_member(user)
    # A loaded machine may take seconds to draw the first picture: wait for the answer.
    user.slash = functools.partial(user.slash, timeout=60.0)  # type: ignore[method-assign]
    names = people_names(emu)
    player = BenchPlayer(bot, user, Transcript(names, lambda line: None), 0.0)
    hands: list[float] = []
    stop = asyncio.Event()

    async def clock() -> None:
        # The wall time of each hand: from its deal to the next one's (or the game's end).
        service = bot.table_service
        table = None
        last_hand, started = None, time.monotonic()
        while not stop.is_set():
            table = table or service.in_channel(channel.id)
            game = table.game if table is not None else None
            if game is not None:
                number = (getattr(table.record, "started_at", None), game.hand_number)
                if last_hand is None:
                    last_hand, started = number, time.monotonic()
                elif number != last_hand or game.is_over:
                    hands.append(time.monotonic() - started)
                    last_hand, started = number, time.monotonic()
                    if game.is_over:
                        return
            await asyncio.sleep(0.02)

    await asyncio.sleep(8 * index)  # one start at a time: a loaded machine answers late
    watcher = asyncio.create_task(clock())
    table = await player.play(channel, demo)
    stop.set()
    await asyncio.wait([watcher], timeout=1)
    message = next(m for m in channel.messages if not m.ephemeral and m.versions)
    # From the first version showing the game (after Start) to the end.
    start = next(
        (i for i, v in enumerate(message.versions) if "Show my hand" in str(v.components)), 0
    )
    table_lines = [lines_of(v) for v in message.versions[start:]]
    hand_lines = [lines_of(v) for m in user.own_ephemerals for v in m.versions if v.components]
    return {
        "game": demo.game,
        "hands": hands,
        "table": table_lines,
        "hand": hand_lines,
        "score": list(table.game.scores) if table.game is not None else None,
    }


async def main(euchre_target: int, truco_target: int) -> None:
    for name in ("", "bot", "cogs", "discord"):
        logging.getLogger(name).setLevel(logging.ERROR)
    discord.VoiceClient.warn_nacl = False
    emu = Emulator()
    await emu.start()
    try:
        guild = emu.add_guild("bench")
        with tempfile.TemporaryDirectory() as folder:
            settings = Settings(
                token=None,
                database_path=Path(folder) / "bench.sqlite3",
                dev_guild_id=guild.id,
                log_level="ERROR",
            )
            async with run_bot(emu, settings) as bot:
                emu.set_rate_limits(True, limit=5, per=5.0)
                games = (
                    DemoGame("euchre", "euchre new", {"target": euchre_target}, "euchre"),
                    DemoGame("truco", "truco new", {"target": truco_target}, "truco"),
                )
                results = await asyncio.gather(
                    *(one_game(emu, guild, bot, g, i) for i, g in enumerate(games))
                )
    finally:
        await emu.stop()
    print(f"bot delay {settings.bot_move_delay} s (default), edits 5 per 5 s, pictures on")
    for r in results:
        hands = r["hands"]
        print(
            f"{r['game']:7} {len(hands)} hands, score {r['score']}: "
            f"table message lines median {statistics.median(r['table']):.0f} max {max(r['table'])}"
            f" ({len(r['table'])} versions); hand message lines median "
            f"{statistics.median(r['hand']):.0f} max {max(r['hand'])} ({len(r['hand'])} versions);"
            f" seconds per hand median {statistics.median(hands):.1f} max {max(hands):.1f}"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--euchre-target", type=int, default=5)
    parser.add_argument("--truco-target", type=int, default=6)
    args = parser.parse_args()
    asyncio.run(main(args.euchre_target, args.truco_target))
