"""A player's private hand message answered from the table: "Show my hand" (a new private
message) and Refresh (the hand updated in place), drawn under the table's lock with the seat's
picture, and followed by the live hands (bot/ui/table/live_hands.py). A part of `TableUI`
(bot/ui/table/table_ui.py), which inherits it."""

from __future__ import annotations

import contextlib
from typing import Any

import discord

from bot.tables.errors import (
    NotAway,
    NotPlaying,
    NotSeated,
)
from bot.tables.service import Table
from bot.ui.kit.card_emojis import CardEmojis
from bot.ui.kit.message_parts import MessageParts, detach, send_kwargs
from bot.ui.table.answering import TableAnswering
from bot.ui.table.live_hands import LiveHands, seat_parts
from bot.ui.table.seat_picture import SeatPictures, Shown


async def locked_hand(
    table: Table,
    seat: int,
    locale: str,
    emojis: CardEmojis,
    note: str | None = None,
    pictures: SeatPictures | None = None,
) -> MessageParts:
    """A hand message drawn under the table's lock: never a state whose write is on its way
    (a bot may be moving at this very moment). With `pictures`, the scene of the seat's picture
    is taken under the same lock (drawn afterwards, by `SeatPictures.attach`)."""
    async with table.lock:
        return seat_parts(table, seat, locale, emojis, note, pictures)


class HandAnswers(TableAnswering):
    """The hand answers of `TableUI` (it inherits them); what else they use of it, declared."""

    card_emojis: CardEmojis
    seat_pictures: SeatPictures
    live_hands: LiveHands

    async def _show_hand(
        self, interaction: discord.Interaction[Any], table_id: int, verb: str, locale: str
    ) -> None:
        """Show my hand answers with a new private message; Refresh updates the hand."""
        acquired = self.live_hands.now()
        table = self.service.get(table_id)
        # "Show my hand" answers with a new message: no picture on it yet.
        shown = self._picture_on(interaction, table_id) if verb == "refresh" else None
        hand = self._hand_for(table, interaction.user.id, locale, shown, verb == "hand")
        if verb == "refresh":
            parts = await self.in_time(interaction, hand)
            await self.update_message(interaction, parts)
            self._remember_hand(interaction, table_id, parts, acquired)
            return
        parts = await self.in_time(interaction, hand, ephemeral_thinking=True)
        try:
            if interaction.response.is_done():  # deferred: the hand replaces "thinking"
                message_id: int | None = (
                    await interaction.edit_original_response(**parts.kwargs())
                ).id
            else:
                response = await interaction.response.send_message(
                    ephemeral=True, **send_kwargs(parts)
                )
                message_id = response.message_id if response is not None else None
        finally:
            detach(parts.view)
        if message_id is None:
            message_id = (await interaction.original_response()).id
        self.live_hands.remember(interaction, table_id, message_id, parts, acquired=acquired)

    def _remember_hand(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        parts: MessageParts,
        acquired: float,
    ) -> None:
        """The clicked message (a hand) now shows `parts`: its token keeps it live."""
        if interaction.message is not None:
            self.live_hands.remember(
                interaction, table_id, interaction.message.id, parts, acquired=acquired
            )

    async def _hand_for(
        self, table: Table, user_id: int, locale: str, shown: Shown, coming_back: bool = False
    ) -> MessageParts:
        """The player's hand; "Show my hand" from a player a bot covers for takes the seat back
        (one click)."""
        if table.game is None:
            raise NotPlaying(table)
        seat = table.seat_of(user_id)
        if seat is None:
            raise NotSeated(table)
        if coming_back and table.player_at(seat).covered:
            with contextlib.suppress(NotAway):  # back already (a racing click)
                await self.service.back(table.id, user_id)
        return await self._hand_parts(table, seat, locale, shown)

    async def _hand_parts(
        self, table: Table, seat: int, locale: str, shown: Shown, note: str | None = None
    ) -> MessageParts:
        """The seat's hand message with its picture, for a message that shows `shown` now. A
        message that shows a picture is answered at once and keeps it until the live hand
        brings the new one (bot/ui/table/seat_picture.py)."""
        pictures = self.seat_pictures
        parts = await locked_hand(table, seat, locale, self.card_emojis, note, pictures)
        keep = isinstance(shown, tuple)
        try:
            await pictures.attach(
                parts, shown, pictures.answer_wait if keep else pictures.wait, keep=keep
            )
        except BaseException:
            detach(parts.view)
            raise
        return parts

    def _picture_on(self, interaction: discord.Interaction[Any], table_id: int) -> Shown:
        """The picture the clicked hand message shows (unknown for a hand we do not follow)."""
        message = interaction.message
        message_id = message.id if message is not None else None
        return self.live_hands.picture_on(table_id, interaction.user.id, message_id)
