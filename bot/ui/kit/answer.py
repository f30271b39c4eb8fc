"""The one way the bot answers an interaction: a click, a modal or a command.

- `say`: one private sentence, whether or not the interaction was acknowledged already.
- `in_time`: run the work; past the deadline, acknowledge first (a deferred update for a
  click, a "thinking" for a command), then let the work answer through the token.
- `respond`: `in_time` for work that returns what to show (a message or a sentence).
- `failed`: the one error answer. A refusal of the game (a `TableError`) is said as its
  sentence; an answer that came too late or could not travel is logged in one line; anything
  else is logged with its traceback and answered with an apology. Nobody ever sees "This
  interaction failed".
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any, TypeVar

import discord

from bot.tables.errors import TableError
from bot.texts import t
from bot.ui.kit.message_parts import MessageParts, detach, send_kwargs
from bot.ui.kit.rest import defer_update, is_too_late, is_transport_error

log = logging.getLogger(__name__)
T = TypeVar("T")

ACK_DEADLINE = 2.0  # seconds of work before deferring; Discord's limit is 3

# What work may return to be shown: a message, or one private sentence.
Answer = MessageParts | str


def locale_of(interaction: discord.Interaction[Any]) -> str:
    """Private answers speak the clicking user's language."""
    return str(interaction.locale)


def server_locale_of(interaction: discord.Interaction[Any]) -> str:
    """Public messages speak the server's language (the user's outside a server)."""
    return str(interaction.guild_locale or interaction.locale)


async def say(interaction: discord.Interaction[Any], text: str) -> None:
    """One private sentence, whether or not the interaction was already acknowledged."""
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True)
        elif interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
            # Deferred with a private "thinking": the sentence replaces it.
            await interaction.edit_original_response(content=text)
        else:
            await interaction.followup.send(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)
    except Exception as error:
        if not is_transport_error(error):
            raise
        # No HTTP answer at all (dropped connection, closed session): one line, no traceback.
        log.warning("could not answer interaction %s: %r", interaction.id, error)


def refusal_text(error: TableError, locale: str | None) -> str:
    return t(error.key, locale, **error.values)


async def failed(
    interaction: discord.Interaction[Any], error: Exception, where: str, *, logged: bool = False
) -> None:
    """Answer an interaction whose work raised. `logged`: the caller has logged it already (a
    storage outage, counted rather than traced)."""
    if is_too_late(error):  # past Discord's deadline: nothing can answer it now
        log.warning("interaction %s (%s) answered too late: %s", interaction.id, where, error)
        return
    if is_transport_error(error):  # no answer can travel: one line, no traceback
        log.warning("interaction %s (%s) not answered: %r", interaction.id, where, error)
        return
    locale = locale_of(interaction)
    if isinstance(error, TableError):
        await say(interaction, refusal_text(error, locale))
        return
    if not logged:
        log.error("interaction %s (%s) failed", interaction.id, where, exc_info=error)
    await say(interaction, t("error.unexpected", locale))


async def acknowledge(interaction: discord.Interaction[Any], thinking: str | None = None) -> None:
    """Acknowledge now: a "thinking" (`thinking`: "private" or "public"), else a deferred update
    for a click and a deferral (public) for a command or a modal."""
    if interaction.response.is_done():
        return
    try:
        if thinking is not None:
            await interaction.response.defer(ephemeral=thinking == "private", thinking=True)
        elif interaction.type is discord.InteractionType.component:
            await defer_update(interaction)
        else:
            await interaction.response.defer()
    except discord.HTTPException as error:
        # Too late (10062) is a known state, said in one line: a traceback per late click on
        # a loaded bot is noise, and formatting it loads source files into memory (linecache).
        log.warning(
            "could not defer interaction %s: %s",
            interaction.id,
            error,
            exc_info=not is_too_late(error),
        )


async def in_time(
    interaction: discord.Interaction[Any],
    work: Coroutine[Any, Any, T],
    *,
    deadline: float | None = None,
    by: float | None = None,
    thinking: str | None = None,
) -> T:
    """Run `work`; if it is not done within the deadline (`deadline` seconds from now, default
    ACK_DEADLINE, or the event loop's time `by` when several steps share one deadline),
    acknowledge first and wait for it.

    The work runs in this task, with a timer for the deadline, rather than in a task of its
    own: under load every hop between tasks waits a full turn of the event loop, and the
    answer to a click is what must not wait."""
    loop = asyncio.get_running_loop()
    if by is not None:
        timeout = max(0.0, by - loop.time())
    else:
        timeout = ACK_DEADLINE if deadline is None else deadline
    if timeout <= 0:
        # No time budget at all: acknowledge first, whatever the work (which may well finish
        # in the same turn of the event loop).
        try:
            await acknowledge(interaction, thinking)
        except BaseException:
            work.close()  # never started: not left unawaited
            raise
        return await work
    deferral: asyncio.Task[None] | None = None

    def late() -> None:
        nonlocal deferral
        if not interaction.response.is_done():
            deferral = asyncio.ensure_future(acknowledge(interaction, thinking))

    timer = loop.call_later(timeout, late)
    try:
        return await work
    finally:
        timer.cancel()
        if deferral is not None:
            await deferral  # the answer after it goes through the token


async def show(
    interaction: discord.Interaction[Any],
    answer: Answer,
    *,
    update: bool = False,
    private: bool = False,
) -> None:
    """Show an answer: a message (`update`: in place of the clicked one, callback 7; else a new
    one, private or public) or a private sentence."""
    if isinstance(answer, str):
        await say(interaction, answer)
        return
    try:
        if interaction.response.is_done():
            await interaction.edit_original_response(**answer.kwargs())
        elif update:
            await interaction.response.edit_message(**answer.kwargs())
        else:
            await interaction.response.send_message(ephemeral=private, **send_kwargs(answer))
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)
    finally:
        detach(answer.view)


async def respond(
    interaction: discord.Interaction[Any],
    work: Coroutine[Any, Any, Answer],
    *,
    update: bool = False,
    private: bool = False,
    deadline: float | None = None,
) -> None:
    """Run `work` and show what it returns (see `show`). Work slower than the deadline is
    acknowledged first (a deferred update for `update`, else a "thinking", private with
    `private`), then shown. Every failure goes through `failed`."""
    thinking = None if update else ("private" if private else "public")
    try:
        answer = await in_time(interaction, work, deadline=deadline, thinking=thinking)
    except Exception as error:
        await failed(interaction, error, "respond")
        return
    await show(interaction, answer, update=update, private=private)
