"""How the table room answers: the one error path of its clicks and commands (a refusal as its
sentence, an outage counted, anything else with an apology, through bot/ui/kit/answer.py), the
deadline, and a click's message updated in place. The base of `TableUI` and its parts."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import discord

from bot.tables.errors import (
    ChannelBusy,
    TableError,
)
from bot.tables.service import TableService
from bot.texts import t
from bot.ui.kit import rest
from bot.ui.kit.answer import failed, in_time, locale_of, say
from bot.ui.kit.message_parts import MessageParts, detach
from bot.ui.kit.outage import OutageLog, is_storage_outage
from bot.ui.table import render
from bot.ui.table.public import PublicMessages

log = logging.getLogger(__name__)
T = TypeVar("T")

# Answers after which an interaction's first follow-up is a new message of its own (after a
# "thinking" deferral it would replace the thinking message, private as it was).
TOKEN_READY_ANSWERS = frozenset(
    {
        discord.InteractionResponseType.message_update,
        discord.InteractionResponseType.deferred_message_update,
        discord.InteractionResponseType.channel_message,
    }
)


class TableAnswering:
    """What every part of `TableUI` answers with; `TableUI` sets these attributes."""

    service: TableService
    public: PublicMessages
    outage: OutageLog
    ack_deadline: float

    # --- the one error path -------------------------------------------------------------------

    def error_text(self, error: TableError, locale: str) -> str:
        if isinstance(error, ChannelBusy) and error.table is not None:
            url = render.jump_url(error.table)
            if url:
                return t("table.error.channel_busy_link", locale, url=url)
        return t(error.key, locale, **error.values)

    async def guarded(
        self,
        interaction: discord.Interaction[Any],
        table_id: int | None,
        work: Callable[[str], Awaitable[None]],
        *,
        writes: bool = True,
    ) -> None:
        """Run `work` and answer whatever happens. `writes`: the work writes to the database
        when it succeeds, so its success ends an outage."""
        locale = locale_of(interaction)
        received = self.public.pens.clock()
        try:
            await work(locale)
            if writes:
                self.outage.worked()
            if table_id is not None:
                self._offer_token(interaction, table_id, received)
        except TableError as error:
            await say(interaction, self.error_text(error, locale))
        except Exception as error:
            outage = is_storage_outage(error)
            if outage:  # logged as one outage (start, a count, end), not a traceback per click
                self.outage.refused(error, f"interaction at table {table_id}")
            await failed(interaction, error, f"table {table_id}", logged=outage)

    def _offer_token(
        self, interaction: discord.Interaction[Any], table_id: int, received: float
    ) -> None:
        """An answered click brings a token that can post the table message again, so that
        its edits go off the global budget (bot/ui/table/table_pens.py)."""
        if interaction.type is not discord.InteractionType.component:
            return
        if interaction.response.type not in TOKEN_READY_ANSWERS:
            return  # unanswered, or a "thinking" whose first follow-up would replace it
        table = self.service.find(table_id)
        if table is not None and table.channel_id == interaction.channel_id:
            self.public.offer(table, interaction.token, received)

    async def in_time(
        self,
        interaction: discord.Interaction[Any],
        work: Coroutine[Any, Any, T],
        *,
        ephemeral_thinking: bool = False,
        by: float | None = None,
    ) -> T:
        """Run `work`; if it is not done within the deadline (`ack_deadline` from now, or the
        event loop's time `by` when several steps share one deadline), acknowledge first (a
        deferred update for a click, or a private "thinking" for a command) and wait for it.

        The work runs in this task, with a timer for the deadline, rather than in a task of its
        own: under load every hop between tasks waits a full turn of the event loop, and the
        answer to a click is what must not wait."""
        return await in_time(
            interaction,
            work,
            deadline=self.ack_deadline,
            by=by,
            thinking="private" if ephemeral_thinking else None,
        )

    @staticmethod
    async def update_message(interaction: discord.Interaction[Any], parts: MessageParts) -> None:
        """Show `parts` in the message whose button was clicked (type 7, or an edit through the
        token after a deferral)."""
        try:
            if interaction.response.is_done():
                await rest.edit_original(interaction, parts)
            else:
                await rest.update_clicked(interaction, parts)
        finally:
            detach(parts.view)
