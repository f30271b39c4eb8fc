"""The table's slash commands (`/euchre new`, `/truco new`, `/table end`, `/table seat`,
`/table show`): a table created and its message posted, ended, a seat given, the message shown
again. A part of `TableUI` (bot/ui/table/table_ui.py), which answers every click."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.storage.house_rules import HouseRulesStore
from bot.tables.errors import (
    NoSuchTable,
)
from bot.tables.records import HouseRules
from bot.tables.service import Table
from bot.texts import t
from bot.ui.kit.answer import locale_of, say
from bot.ui.kit.budget import GlobalBudget, Priority
from bot.ui.kit.message_parts import detach, send_kwargs
from bot.ui.table import render
from bot.ui.table.answering import TableAnswering

log = logging.getLogger(__name__)
REQUIRED_PERMISSIONS = ("view_channel", "send_messages", "embed_links")


class TableCommands(TableAnswering):
    """The commands of `TableUI` (it inherits them); what else they use of it, declared."""

    client: discord.Client
    budget: GlobalBudget
    house_rules: HouseRulesStore | None

    # --- commands -------------------------------------------------------------------------------

    def _refusal_before_posting(self, interaction: discord.Interaction[Any]) -> str | None:
        """A command that posts in the channel: a server channel and the bot's permissions."""
        locale = locale_of(interaction)
        if interaction.guild_id is None or interaction.channel_id is None:
            return t("error.dm", locale)
        permissions = interaction.app_permissions
        missing = [p for p in REQUIRED_PERMISSIONS if not getattr(permissions, p, False)]
        if missing:
            names = ", ".join(t(f"permission.{p}", locale) for p in missing)
            return t("error.missing_permissions", locale, permissions=names)
        return None

    async def create_table(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        options: dict[str, Any],
        settings: dict[str, Any] | None = None,
    ) -> None:
        refusal = self._refusal_before_posting(interaction)
        if refusal is not None:
            await say(interaction, refusal)
            return
        user = interaction.user
        assert interaction.guild_id is not None and interaction.channel_id is not None
        guild_id, channel_id = interaction.guild_id, interaction.channel_id

        async def create() -> Table:
            # The server's house rules first; the options given to the command override them.
            house = HouseRules()
            if self.house_rules is not None:
                house = await self.house_rules.get(guild_id, game)
            return await self.service.create(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=user.id,
                host_name=getattr(user, "display_name", None) or user.name,
                game=game,
                options={**house.options, **options},
                settings={**house.settings, **(settings or {})},
            )

        async def work(locale: str) -> None:
            by = asyncio.get_running_loop().time() + self.ack_deadline
            # Issue 30 item 6: a slow start still answers with the table itself, so a late
            # acknowledgement is a public "thinking" that the table message then replaces.
            table = await self.in_time(interaction, create(), by=by)
            await self._post_table_message(interaction, table, locale, by, public=True)

        await self.guarded(interaction, None, work)

    async def _post_table_message(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        locale: str,
        by: float,
        *,
        public: bool = False,
    ) -> None:
        """Answer the command with the public table message and remember its id. If the
        command had to be deferred - its work, or drawing the picture, took too long - a
        `public` answer (a new table) replaces its public "thinking" with the table; otherwise
        (a private "thinking", /table show) the table is posted in the channel and the private
        answer says where."""
        received = self.public.pens.clock()  # near enough: the command came just now
        drawing = self.public.draw(table)
        key, parts = await self.in_time(interaction, drawing, ephemeral_thinking=not public, by=by)
        deferred = interaction.response.is_done()
        # `public`: a late answer was a public "thinking": the table replaces it, through the
        # command's token like any answer (and that token edits it afterwards).
        replaces_thinking = public and deferred
        try:
            if replaces_thinking:
                kwargs = send_kwargs(parts)
                kwargs["attachments"] = kwargs.pop("files", [])
                message_id: int | None = (await interaction.edit_original_response(**kwargs)).id
                deferred = False
            elif deferred:
                channel = self.client.get_partial_messageable(
                    table.channel_id, guild_id=table.guild_id
                )
                await self.budget.take(Priority.WATCHED)
                message_id = (await channel.send(**send_kwargs(parts))).id
            else:
                response = await interaction.response.send_message(**send_kwargs(parts))
                message_id = response.message_id
        except BaseException:
            if table.status == "lobby" and table.message_id is None:
                # Nobody can see this new table: do not let it hold the channel.
                await self.service.end(table.id, table.host_id, can_manage=True)
            raise
        finally:
            detach(parts.view)
        if message_id is None:
            message_id = (await interaction.original_response()).id
        await self.service.set_message(table.id, message_id)
        if deferred:  # posted by the channel route: no token may edit it
            self.public.pens.forget(table.id)
        else:  # the command's token edits its answer for the next 14 minutes
            self.public.pens.remember(table.id, interaction.token, message_id, received)
        if deferred:
            await say(interaction, t("table.posted", locale, url=render.jump_url(table) or ""))
        self.public.mark_shown(table, key)
        self.public.schedule(table)  # in case it changed while the message was on its way

    async def end_table(self, interaction: discord.Interaction[Any]) -> None:
        locale = locale_of(interaction)
        if interaction.guild_id is None or interaction.channel_id is None:
            await say(interaction, t("error.dm", locale))
            return
        channel_id = interaction.channel_id
        permissions = getattr(interaction, "permissions", None)
        can_manage = bool(permissions is not None and permissions.manage_guild)

        async def work(locale: str) -> None:
            table = self.service.in_channel(channel_id)
            if table is None:
                raise NoSuchTable()
            end = self.service.end(table.id, interaction.user.id, can_manage=can_manage)
            await self.in_time(interaction, end, ephemeral_thinking=True)
            await say(interaction, t("table.ended", locale))

        await self.guarded(interaction, None, work)

    async def seat_player(
        self, interaction: discord.Interaction[Any], player: discord.User | discord.Member
    ) -> None:
        """`/table seat player`: the host gives a bot's seat in the running game to `player`."""
        locale = locale_of(interaction)
        if interaction.guild_id is None or interaction.channel_id is None:
            await say(interaction, t("error.dm", locale))
            return
        if player.bot:
            await say(interaction, t("table.error.not_a_person", locale))
            return
        channel_id = interaction.channel_id

        async def work(locale: str) -> None:
            table = self.service.in_channel(channel_id)
            if table is None:
                raise NoSuchTable()
            seat = self.service.seat_player(
                table.id, interaction.user.id, player.id, player.display_name
            )
            position = await self.in_time(interaction, seat, ephemeral_thinking=True)
            await say(
                interaction,
                t("table.seated", locale, player=player.mention, number=position + 1),
            )

        await self.guarded(interaction, None, work)

    async def show_table(self, interaction: discord.Interaction[Any]) -> None:
        """Repost the table message at the bottom of the channel; the old one is deleted (or,
        failing that, says where the table went)."""
        refusal = self._refusal_before_posting(interaction)
        if refusal is not None:
            await say(interaction, refusal)
            return
        channel_id = interaction.channel_id
        assert channel_id is not None

        async def work(locale: str) -> None:
            table = self.service.in_channel(channel_id)
            if table is None:
                raise NoSuchTable()
            # One move at a time (issue 13 item 2): two shows at once would otherwise each
            # retire the message they saw and leave two live table messages.
            by = asyncio.get_running_loop().time() + self.ack_deadline
            lock = table.message_lock.acquire()
            await self.in_time(interaction, lock, ephemeral_thinking=True, by=by)
            try:
                old_message_id = table.message_id
                await self._post_table_message(interaction, table, locale, by)
                if old_message_id is not None and old_message_id != table.message_id:
                    await self._retire_message(table, old_message_id)
            finally:
                table.message_lock.release()

        await self.guarded(interaction, None, work)

    async def _retire_message(self, table: Table, message_id: int) -> None:
        old = self.client.get_partial_messageable(
            table.channel_id, guild_id=table.guild_id
        ).get_partial_message(message_id)
        await self.budget.take(Priority.REST)
        try:
            await old.delete()
            return
        except discord.NotFound:
            return
        except discord.HTTPException:
            log.info(
                "could not delete old message %s of table %s; neutralising it", message_id, table.id
            )
        parts = render.moved_message(table)
        await self.budget.take(Priority.REST)
        try:
            await old.edit(**parts.kwargs())
        except discord.HTTPException:
            log.warning("could not neutralise old message %s of table %s", message_id, table.id)
