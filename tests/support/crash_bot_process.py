"""The real bot as a process of its own, pointed at a Discord emulator (for the crash test).

    python -m tests.support.crash_bot_process http://127.0.0.1:PORT

Settings come from the environment as for `python -m bot` (DISCORD_TOKEN: the emulator's token,
DATABASE_PATH, DEV_GUILD_ID, BOT_MOVE_DELAY, LOG_LEVEL). Exactly what the in-process harness
does is done here: discord.py's REST base and default gateway are pointed at the emulator, and
the bot's ready delay after the last GUILD_CREATE is shortened (a public constructor option that
`bot.__main__.run_bot` does not expose). Then `bot.__main__.run_bot` runs the unmodified bot.
The process is meant to be killed (SIGKILL) at any moment.
"""

from __future__ import annotations

import asyncio
import sys

import discord.gateway
import discord.http
import yarl

from bot.__main__ import configure_logging, run_bot
from bot.client import CardTableBot
from bot.settings import Settings

GUILD_READY_TIMEOUT = 0.05  # as emulator.harness.run_bot uses


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(
            "usage: python -m tests.support.crash_bot_process http://127.0.0.1:PORT",
            file=sys.stderr,
        )
        return 2
    url = argv[0].rstrip("/")
    port_part = yarl.URL(url)
    discord.http.Route.BASE = f"{url}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
        f"ws://{port_part.host}:{port_part.port}/gateway/"
    )
    defaults = CardTableBot.__init__.__kwdefaults__
    assert defaults is not None and "guild_ready_timeout" in defaults
    defaults["guild_ready_timeout"] = GUILD_READY_TIMEOUT
    settings = Settings.load()
    configure_logging(settings.log_level)
    asyncio.run(run_bot(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
