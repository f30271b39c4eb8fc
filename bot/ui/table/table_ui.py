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
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import discord

from bot.pictures import render_pool
from bot.storage.house_rules import HouseRulesStore
from bot.tables.bot_moves import DEFAULT_LEVEL
from bot.tables.errors import (
    StaleVersion,
)
from bot.tables.service import CHANGE_RESTORED, Table, TableService
from bot.texts import t
from bot.ui.fair.deals import FAIR_VERBS, on_fair_button
from bot.ui.kit.answer import locale_of, say
from bot.ui.kit.budget import GlobalBudget
from bot.ui.kit.buttons import parsed_click
from bot.ui.kit.card_emojis import CardEmojis
from bot.ui.kit.components import Buttons
from bot.ui.kit.custom_ids import parse_game_action, parse_table_button, table_button_id
from bot.ui.kit.discord_internals import template_of
from bot.ui.kit.message_parts import MessageParts, detach, send_kwargs
from bot.ui.kit.outage import OutageLog
from bot.ui.table import render
from bot.ui.table.buttons import DYNAMIC_ITEMS
from bot.ui.table.commands import TableCommands
from bot.ui.table.hands import HandAnswers
from bot.ui.table.live_hands import LiveHands
from bot.ui.table.public import PublicMessages
from bot.ui.table.seat_picture import SeatPictures
from bot.ui.table.table_pens import TablePens

log = logging.getLogger(__name__)

T = TypeVar("T")

ACK_DEADLINE = 2.0  # seconds of work before deferring; Discord's limit is 3
REQUIRED_PERMISSIONS = ("view_channel", "send_messages", "embed_links")


class TableUI(TableCommands, HandAnswers):
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
        # Pictures of this table's older states that no worker has begun are not drawn: the
        # table message and the live hands draw this state instead (issue 31).
        render_pool.supersede(table.id, table.version)
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
