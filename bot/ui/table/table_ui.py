"""The Discord side of the tables: every click and table command ends here, and is answered.

- Every interaction is acknowledged in time: quick work answers directly; work that might wait
  (a table lock held by a bot move, a slow disk) is given `ack_deadline` seconds, after which the
  interaction is deferred and answered when the work is done.
- One error path: a refusal of the table service (TableError) becomes one short ephemeral
  sentence; anything unexpected is logged with the table id and answered with an apology. The
  user never sees "This interaction failed".
- Hand messages are answers to the player's own click: "Show my hand" answers with a new
  ephemeral message; a click on it (a card, a decision, Refresh) updates that message in place
  (callback type 7) with the new state. A click on a button drawn for an older version of the
  table changes nothing and shows the current hand with a one-line note.
- The public table message is edited through `PublicMessages` (coalesced, paced per channel).
- Hand messages are live (`LiveHands`): each answer that shows a player's hand is remembered,
  and after every change of the table the hand is edited through that answer's token.
- A hand message carries that player's own picture (`SeatPictures`), drawn in the picture
  worker while the answer waits (within the acknowledgement deadline, like any slow work).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, TypeVar

import discord

from bot.storage.house_rules import HouseRulesStore
from bot.tables.bot_moves import DEFAULT_LEVEL
from bot.tables.errors import (
    ChannelBusy,
    NoSuchTable,
    NotAway,
    NotPlaying,
    NotSeated,
    StaleVersion,
    TableError,
)
from bot.tables.records import HouseRules
from bot.tables.service import CHANGE_RESTORED, Table, TableService
from bot.texts import t
from bot.ui.fair.deals import FAIR_VERBS, on_fair_button
from bot.ui.kit import rest
from bot.ui.kit.answer import failed, in_time, locale_of, say
from bot.ui.kit.budget import GlobalBudget, Priority
from bot.ui.kit.buttons import parsed_click
from bot.ui.kit.card_emojis import CardEmojis
from bot.ui.kit.components import Buttons
from bot.ui.kit.custom_ids import parse_game_action, parse_table_button, table_button_id
from bot.ui.kit.discord_internals import template_of
from bot.ui.kit.message_parts import MessageParts, detach, send_kwargs
from bot.ui.kit.outage import OutageLog, is_storage_outage
from bot.ui.table import render
from bot.ui.table.buttons import DYNAMIC_ITEMS
from bot.ui.table.live_hands import LiveHands
from bot.ui.table.public import PublicMessages
from bot.ui.table.seat_picture import SeatPictures, Shown
from bot.ui.table.table_pens import TablePens

log = logging.getLogger(__name__)

# Answers after which an interaction's first follow-up is a new message of its own (after a
# "thinking" deferral it would replace the thinking message, private as it was).
TOKEN_READY_ANSWERS = frozenset(
    {
        discord.InteractionResponseType.message_update,
        discord.InteractionResponseType.deferred_message_update,
        discord.InteractionResponseType.channel_message,
    }
)

T = TypeVar("T")

ACK_DEADLINE = 2.0  # seconds of work before deferring; Discord's limit is 3
REQUIRED_PERMISSIONS = ("view_channel", "send_messages", "embed_links")


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
        parts = render.hand_message(table, seat, locale, note=note, emojis=emojis.by_card)
        if pictures is not None:
            parts.seat_scene = pictures.take(table, seat, locale)
        return parts


class TableUI:
    def __init__(
        self,
        client: discord.Client,
        service: TableService,
        *,
        ack_deadline: float = ACK_DEADLINE,
        max_edits: int | None = None,
        per_seconds: float | None = None,
        clock: Callable[[], float] = time.time,
        budget: GlobalBudget | None = None,
        house_rules: HouseRulesStore | None = None,
        button_families: Sequence[type[discord.ui.DynamicItem[Any]]] = DYNAMIC_ITEMS,
    ) -> None:
        self.client = client
        # Every button family the bot registers (bot/client.py): a click on any other id is
        # answered as not valid by `on_interaction`.
        self._templates = [template_of(item) for item in button_families]
        self.service = service
        # The servers' house rules (/settings): what new tables start with (None: none).
        self.house_rules = house_rules
        self.ack_deadline = ack_deadline
        pacing: dict[str, Any] = {}
        if max_edits is not None:
            pacing["max_edits"] = max_edits
        if per_seconds is not None:
            pacing["per_seconds"] = per_seconds
        # The token's budget for global-bound routes (bot/ui/kit/budget.py): channel posts, edits
        # and deletes; answers to interactions are exempt and never wait on it.
        self.budget = budget if budget is not None else GlobalBudget()
        self.public = PublicMessages(
            client, service, budget=self.budget, pens=TablePens(clock), **pacing
        )
        self.card_emojis = CardEmojis(self.budget)
        self.seat_pictures = SeatPictures(clock)  # the table service's clock: time left
        self.live_hands = LiveHands(client, service, self.card_emojis, pictures=self.seat_pictures)
        self._background: set[asyncio.Task[None]] = set()
        self.outage = OutageLog()
        service.add_listener(self._on_table_change)

    def _on_table_change(self, table: Table, change: str) -> None:
        if change == CHANGE_RESTORED and table.message_id is None:
            # Restored before its message id was stored: post it again (old buttons still
            # work, their ids carry the table id).
            task = asyncio.get_running_loop().create_task(self.public.repost(table))
            self._background.add(task)
            task.add_done_callback(self._background.discard)
        else:
            self.public.schedule(table)
        self.live_hands.on_change(table, change)

    async def close(self) -> None:
        for task in list(self._background):
            task.cancel()
        await self.card_emojis.close()
        await self.live_hands.close()
        await self.public.close()

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

    # --- clicks ---------------------------------------------------------------------------------

    async def on_game_action(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        parsed = await parsed_click(interaction, custom_id, parse_game_action)
        if parsed is None:
            return

        async def work(locale: str) -> None:
            if not self._in_its_place(interaction, parsed.table_id):
                await say(interaction, t("button.invalid", locale))
                return
            acquired = self.live_hands.now()

            shown = self._picture_on(interaction, parsed.table_id)

            async def act() -> MessageParts:
                try:
                    result = await self.service.act(
                        parsed.table_id,
                        interaction.user.id,
                        parsed.action,
                        parsed.version,
                        click=interaction.id,  # the next hand's cut, if this ends one
                    )
                except StaleVersion as stale:
                    assert stale.table is not None
                    note_key = "hand.note.answered" if stale.partner_answered else "hand.note.stale"
                    return await self._hand_parts(
                        stale.table, stale.seat, locale, shown, t(note_key, locale)
                    )
                return await self._hand_parts(result.table, result.seat, locale, shown)

            with self.live_hands.answering(parsed.table_id, interaction.user.id):
                parts = await self.in_time(interaction, act())
                await self.update_message(interaction, parts)
                self._remember_hand(interaction, parsed.table_id, parts, acquired)

        await self.guarded(interaction, parsed.table_id, work)

    async def on_table_button(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        parsed = await parsed_click(interaction, custom_id, parse_table_button)
        if parsed is None:
            return
        table_id, verb = parsed.table_id, parsed.verb
        user = interaction.user
        service = self.service

        async def work(locale: str) -> None:
            if not self._in_its_place(interaction, table_id):
                await say(interaction, t("button.invalid", locale))
                return
            # Any click on the table may cut a fair hand waiting for its cut (Start: hand 1).
            service.fair_cuts.seen(table_id, interaction.id)
            if verb in FAIR_VERBS:
                await on_fair_button(interaction, service, table_id, verb)
                return
            if verb in ("hand", "refresh"):
                with self.live_hands.answering(table_id, user.id):
                    await self._show_hand(interaction, table_id, verb, locale)
                return
            if verb in ("alone", "stay"):  # euchre: "Go alone" switched in a hand
                await service.set_alone_intent(table_id, user.id, verb == "alone")
                with self.live_hands.answering(table_id, user.id):
                    await self._show_hand(interaction, table_id, "refresh", locale)
                return
            table = service.get(table_id)
            if verb == "log":  # what the compact table message leaves out, privately
                async with table.lock:
                    text = render.log_answer(table, locale)
                await say(interaction, text)
                return
            if verb == "leave" and table.status == "playing":
                # Issue 21 item 2: leaving a running game asks first (one more, private click).
                await self._confirm_leave(interaction, table, locale)
                return
            # Answered privately: what the click did to the clicker's own seat.
            private = {
                "back": "table.back",
                "again": "result.you_are_ready",
            }.get(verb)
            # Lobby and end-of-game buttons change the public message itself: a refusal is
            # answered privately; a change is acknowledged with a deferred update and shown by
            # the coalesced edit of the table message.
            name = getattr(user, "display_name", None) or user.name
            if verb == "join":
                change = service.join(table_id, user.id, name)
            elif verb == "seat":
                change = service.join(table_id, user.id, name, position=parsed.position)
            elif verb in ("leave", "quit"):
                change = service.leave(table_id, user.id)
            elif verb == "bot":
                level = parsed.level or DEFAULT_LEVEL
                change = service.add_bot(table_id, user.id, level=level)
            elif verb == "start":
                change = service.start(table_id, user.id)
            elif verb == "cancel":
                change = service.cancel(table_id, user.id)
            elif verb == "set":
                assert parsed.setting is not None
                # The lobby's menu sends the value picked; an old message's button, none.
                data: dict[str, Any] = dict(interaction.data or {})
                values = data.get("values") or []
                value = str(values[0]) if values else None
                change = service.change_setting(table_id, user.id, parsed.setting, value)
            elif verb == "back":
                change = service.back(table_id, user.id)
            elif verb == "go":
                change = service.start_now(table_id, user.id)
            else:  # "again"
                change = service.play_again(table_id, user.id)
            status = table.status
            changed = await self.in_time(interaction, change)
            if verb in ("leave", "quit") and status != "lobby":
                private = left_key(status, changed)
            if verb == "again" and changed.status != "finished":
                # This click was the last one needed: the game has started (issue 21 item 4).
                private = "result.everyone_ready"
            if private is not None:
                await say(interaction, t(private, locale))
            elif not interaction.response.is_done():
                await interaction.response.defer()

        await self.guarded(
            interaction, table_id, work, writes=verb not in ("hand", "refresh", "log")
        )

    @staticmethod
    async def _confirm_leave(
        interaction: discord.Interaction[Any], table: Table, locale: str
    ) -> None:
        """Ask before a player leaves a running game: the answer says what leaving does (a bot
        takes the seat, or — the last person seated — the table closes, the game uncounted)."""
        last = table.humans() == [interaction.user.id]
        buttons = Buttons()
        buttons.add(
            table_button_id(table.id, "quit"),
            label=t("table.leave.button", locale),
            style=discord.ButtonStyle.danger,
        )
        parts = MessageParts(
            content=t("table.leave.confirm_last" if last else "table.leave.confirm", locale),
            embed=None,
            view=buttons,
            files=[],
        )
        try:
            await interaction.response.send_message(ephemeral=True, **send_kwargs(parts))
        finally:
            detach(parts.view)

    def _in_its_place(self, interaction: discord.Interaction[Any], table_id: int) -> bool:
        """A table's buttons work only in the table's own server and channel (issue 13 item
        5): a click carrying its id anywhere else is not valid. An unknown or closed table
        raises NoSuchTable, as before."""
        table = self.service.get(table_id)
        return interaction.guild_id == table.guild_id and interaction.channel_id == table.channel_id

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every component interaction gets an answer (issue 13 item 4). discord.py hands a
        click to a DynamicItem only when its custom_id is a button of the clicked message AND
        matches a template; any other click (a forged or garbled id, a random one, an overlong
        one, one with whitespace) it drops silently, and the user would see "This interaction
        failed". Answer those here: the button is not valid."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        message = interaction.message
        if (
            message is not None
            and custom_id in _component_ids(message.components)
            and any(p.fullmatch(custom_id) for p in self._templates)
        ):
            return  # dispatched to the DynamicItem, which answers
        await say(interaction, t("button.invalid", locale_of(interaction)))

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
        """The seat's hand message with its picture, for a message that shows `shown` now."""
        pictures = self.seat_pictures
        parts = await locked_hand(table, seat, locale, self.card_emojis, note, pictures)
        try:
            await pictures.attach(parts, shown, pictures.wait)
        except BaseException:
            detach(parts.view)
            raise
        return parts

    def _picture_on(self, interaction: discord.Interaction[Any], table_id: int) -> Shown:
        """The picture the clicked hand message shows (unknown for a hand we do not follow)."""
        message = interaction.message
        message_id = message.id if message is not None else None
        return self.live_hands.picture_on(table_id, interaction.user.id, message_id)

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


def left_key(status: str, table: Table) -> str:
    """What leaving did, said truly (issue 21 item 1): `status` is the table's before."""
    if table.closed:
        return "table.left.closed"  # the last person left: nothing goes on, nothing counts
    if status == "playing":
        return "table.left"  # a bot plays the seat; the result counts for the others
    return "table.left.after_game"  # the ready check: the seat is free for the next game


def _component_ids(components: Any) -> set[str]:
    found: set[str] = set()
    for component in components or ():
        custom_id = getattr(component, "custom_id", None)
        if custom_id:
            found.add(custom_id)
        found |= _component_ids(getattr(component, "children", None))
    return found
