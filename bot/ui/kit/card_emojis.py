"""Card faces on the hand buttons: one application emoji per card, uploaded once.

At start-up (in the background: the bot plays meanwhile, with text-only card buttons) the
application's emojis are listed; a card whose emoji ("card_JH", ...) is missing is drawn and
uploaded through the application-emoji API, and every later start finds it by name. A card
without an emoji (not uploaded yet, or the upload failed) keeps its text label only.

Sharded (several processes, one application): only the process that runs shard 0 uploads; the
others look again now and then until the emojis are there, so two processes never race to
create the same name.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord

from bot.pictures import render_pool
from bot.pictures.cards import deck_codes, emoji_png
from bot.ui.kit.budget import GlobalBudget, Priority

log = logging.getLogger(__name__)

PREFIX = "card_"
LOOK_AGAIN_AFTER = 10.0  # seconds between two lists of a process that does not upload
LOOK_AGAIN_TIMES = 30


def emoji_name(code: str) -> str:
    return PREFIX + code


class CardEmojis:
    def __init__(self, budget: GlobalBudget | None = None) -> None:
        # The first start uploads 53 emojis: they take their turn in the token's global budget
        # (bot/ui/kit/budget.py), behind pings and table messages, instead of bursting past 50/s.
        self._budget = budget if budget is not None else GlobalBudget()
        self.by_card: dict[str, discord.PartialEmoji] = {}
        self.uploaded = 0  # emojis created by this process, for tests
        self._task: asyncio.Task[None] | None = None

    def start(self, client: discord.Client, *, upload: bool = True) -> None:
        """Load the emojis in the background; `upload=False`: never create one, look again
        until another process has uploaded them all."""
        work = self.load(client) if upload else self.wait_for_uploads(client)
        self._task = asyncio.create_task(work, name="card-emojis")

    async def wait_for_uploads(self, client: discord.Client) -> None:
        codes = deck_codes()
        for attempt in range(LOOK_AGAIN_TIMES):
            if attempt:
                await asyncio.sleep(LOOK_AGAIN_AFTER)
            try:
                existing = {e.name: e for e in await client.fetch_application_emojis()}
            except discord.HTTPException as error:
                log.warning("cannot list the application's emojis (%s)", error)
                continue
            for code in codes:
                emoji = existing.get(emoji_name(code))
                if emoji is not None:
                    self.by_card[code] = discord.PartialEmoji(name=emoji.name, id=emoji.id)
            if len(self.by_card) == len(codes):
                log.info("card emojis ready (uploaded by shard 0)")
                return
        log.warning("card emojis incomplete: shard 0 has not uploaded them; cards stay text")

    async def load(self, client: discord.Client) -> None:
        try:
            existing = {emoji.name: emoji for emoji in await client.fetch_application_emojis()}
        except discord.HTTPException as error:
            log.warning("cannot list the application's emojis (%s): cards stay text", error)
            return
        for code in deck_codes():
            name = emoji_name(code)
            emoji = existing.get(name)
            if emoji is None:
                # Drawn by the pictures' worker, not a thread here: 53 drawings right after
                # a start took the GIL from the first commands' answers on a loaded machine.
                image = await render_pool.render_job(emoji_png, code)
                await self._budget.take(Priority.REST)
                try:
                    emoji = await client.create_application_emoji(name=name, image=image)
                except discord.HTTPException as error:
                    log.warning("cannot upload emoji %s (%s): cards stay text", name, error)
                    return
                self.uploaded += 1
            self.by_card[code] = discord.PartialEmoji(name=name, id=emoji.id)
        log.info("card emojis ready (%d uploaded now)", self.uploaded)

    async def ready(self) -> None:
        """Until loading is over (tests)."""
        if self._task is not None:
            await asyncio.shield(self._task)

    async def close(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
