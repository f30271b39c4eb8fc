"""`python -m bot`: start the bot. Also `python -m bot sync` (publish slash commands globally once)
and `python -m bot backup PATH` (a consistent copy of the database while the bot runs)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys

from bot import event_loop
from bot.settings import Settings, SettingsError

log = logging.getLogger("bot")

NO_TOKEN = (
    "No bot token: set DISCORD_TOKEN in the environment or in a .env file (see .env.example); "
    "get one at https://discord.com/developers/applications -> your app -> Bot -> Reset Token. "
    "No Discord account yet? See it play: python3 dev.py run --demo"
)


def configure_logging(level: str) -> None:
    logging.basicConfig(
        level=getattr(logging, level, logging.INFO),
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
    )
    logging.getLogger("discord.gateway").setLevel(logging.WARNING)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument("command", nargs="?", choices=["run", "sync", "backup"], default="run")
    parser.add_argument("path", nargs="?", help="for backup: where to write the copy")
    parser.add_argument(
        "--demo",
        action="store_true",
        help="no token needed: play against bots on a local Discord emulator",
    )
    parser.add_argument("--verbose", action="store_true", help="with --demo: the whole transcript")
    return parser.parse_args(argv)


async def run_bot(settings: Settings, *, sync_only: bool = False) -> None:
    from bot.client import make_bot  # imported late: `python -m bot` without a token stays fast

    bot = make_bot(settings)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
    if sync_only:

        async def sync_and_close() -> None:
            await bot.wait_until_ready()
            synced = await bot.tree.sync()
            log.info("synced %d global commands", len(synced))
            await bot.close()

        sync_task = asyncio.ensure_future(sync_and_close())
    async with bot:
        await bot.start(settings.token or "")
    if sync_only and not sync_task.done():
        sync_task.cancel()
    log.info("stopped")


def settings_problem(argv: list[str]) -> str | None:
    """The one sentence that stops a start before anything else happens (standard library only:
    `dev.py run` asks it before installing anything, so a missing token is said at once)."""
    args = parse_args(argv)
    try:
        settings = Settings.load()
    except SettingsError as error:
        return str(error)
    if args.command in ("run", "sync") and not args.demo and not settings.token:
        return NO_TOKEN
    return None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    problem = settings_problem(argv)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    args = parse_args(argv)
    settings = Settings.load()
    configure_logging(settings.log_level)
    if args.demo:  # the demo lives beside the product (demo/), not in it
        print("The demo runs from a checkout: python3 dev.py run --demo", file=sys.stderr)
        return 2
    if args.command == "backup":
        if not args.path:
            print("Say where to write the copy: python -m bot backup PATH", file=sys.stderr)
            return 2
        from bot.storage import backup_database

        try:
            event_loop.run(backup_database(settings.database_path, args.path))
        except FileNotFoundError:
            print(f"There is no database at {settings.database_path} to back up.", file=sys.stderr)
            return 2
        print(f"Backup written to {args.path}")
        return 0
    try:
        event_loop.run(run_bot(settings, sync_only=args.command == "sync"))
    except KeyboardInterrupt:
        pass
    except Exception as error:  # a bad token and the like: one sentence, no traceback
        import discord

        if isinstance(error, discord.LoginFailure):
            print(
                "Discord refused the token: check DISCORD_TOKEN (reset it if needed).",
                file=sys.stderr,
            )
            return 2
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main())
