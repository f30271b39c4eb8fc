"""Live hands: a player's private hand message follows the table without their clicking.

A hand message is ephemeral: only the token of the interaction it answered can edit it, for 15
minutes. So for each (table, user) we remember the latest interaction whose response IS that
user's hand message (a "Show my hand" answer, or a click on the hand that updated it in place):
its token, the message id and when the token was acquired. After every change of the table (a
service listener), each remembered hand is edited through that token with the current state and
version — when the token is young enough and the hand would look different.

- Coalesced per player: one edit in flight per (table, user); changes meanwhile mark the hand
  dirty and the worker draws the LATEST state once its edit is back.
- Never on the act path: the listener only marks and starts a background task; errors are
  logged, never shown. A 10008 Unknown Message (dismissed by the user) or a dead token forgets
  the hand.
- While a click on the player's hand is being answered, the worker leaves that hand alone (the
  answer shows the new state); when the answer is out, the new token replaces the old one.
- Tokens: none is used after `usable_for` (14 min; Discord refuses them at 15, error 50027).
  From `note_after` (13 min) each edit says the hand may need a Refresh, and a periodic sweep
  makes that last edit for a hand nobody changed; the Refresh button is always on the hand, and
  a click on it (or any click on the hand) brings a fresh token.
- Paced while the player cannot act: a hand whose seat is not to act is redrawn at most once
  per `pace` seconds (the table message shows the plays meanwhile); when the turn comes to it,
  at once. Bots at zero delay play three cards in a few milliseconds: one edit, not three.
- Identical renders are skipped: buttons that are disabled cannot be clicked, so their version
  does not matter; anything else that differs (text, labels, an enabled button's version) does.
- The version in the custom ids is untouched: a click on an old render is still refused by
  `TableService.act` and answered with the current hand.
- The hand's own picture (bot/ui/table/seat_picture.py) is part of what it shows: a new picture goes
  with the edit that carries the text (one upload), an unchanged one is kept, not sent again. An
  answer that went without its picture (a click is answered at once) is followed, as soon as the
  picture is drawn and whatever the pace, by an edit bringing it; a picture older than the text
  beside it is taken away after `STALE_FOR` seconds if the new one is still not drawn.
- A picture of a state the table left before a worker began it is not drawn (issue 31): the
  edit takes the newest state at once; after `SUPERSEDED_AT_MOST` in a row, one is drawn anyway.

Memory: one small `_Hand` per player who opened a hand in the last 14 minutes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import discord

from bot.pictures.render_pool import Superseded
from bot.tables.service import CHANGE_CLOSED, Table, TableService
from bot.tables.table import CHANGE_PING
from bot.texts import t
from bot.ui.kit import rest
from bot.ui.kit.card_emojis import CardEmojis
from bot.ui.kit.layout import CONTAINER, TEXT_DISPLAY, flat
from bot.ui.kit.message_parts import MessageParts, detach
from bot.ui.table import render
from bot.ui.table.seat_picture import STALE_FOR, UNKNOWN, SeatPictures, Shown

log = logging.getLogger(__name__)

USABLE_FOR = 14 * 60.0  # seconds a token is used for; Discord's limit is 15 minutes
NOTE_AFTER = 13 * 60.0  # from here on, edits say the hand may need a Refresh
SWEEP_EVERY = 30.0  # seconds between sweeps (the last edit of idle hands, forgetting old ones)
PACE = 1.0  # seconds between two edits of a hand whose seat cannot act
# Seconds a live edit waits for the hand's picture (it answers no click; past this the text
# goes alone and the next change tries again).
PICTURE_WAIT = 20.0
SUPERSEDED_AT_MOST = 3  # a hand's pictures taken back in a row before one is drawn anyway

Key = tuple[int, int]  # (table id, user id)
Drawn = tuple[int, bool]  # (table version, with the "may need a Refresh" note)


def seat_parts(
    table: Table,
    seat: int,
    locale: str | None,
    emojis: CardEmojis,
    note: str | None = None,
    pictures: SeatPictures | None = None,
) -> MessageParts:
    """The hand message of the table's current state and, with `pictures`, its picture's
    scene, both from one `game.view(seat)` (issue 31: each built its own). Call with the
    table's lock held."""
    game = table.game
    assert game is not None
    view = game.view(seat)
    parts = render.hand_message(table, seat, locale, note=note, emojis=emojis.by_card, view=view)
    if pictures is not None:
        parts.seat_scene = pictures.take(table, seat, locale, view)
    return parts


@dataclass(slots=True, eq=False)
class _Hand:
    """What it takes to edit one player's hand message."""

    token: str
    message_id: int
    acquired: float  # clock time at which the token was received
    locale: str
    shown: int | None  # fingerprint of what the message shows (None: unknown)
    drawn: Drawn | None  # what it was last drawn for
    picture: Shown = UNKNOWN  # the key of the picture the message shows (None: none)
    dirty: bool = False
    edited: float = 0.0  # loop time of the last edit (or answer) of the message
    wake: asyncio.Event | None = None  # set while the worker rests between paced edits
    stale_since: float | None = None  # loop time since which its picture is older than its text
    superseded: int = 0  # its pictures taken back in a row (not drawn: the table moved on)


def fingerprint(parts: MessageParts) -> int:
    """What the reader sees and can do. A disabled button's custom id (its version) is left out:
    it cannot be clicked, so a new version of it changes nothing for the reader."""
    items: list[tuple[Any, ...]] = []
    rows = parts.view.to_components() if parts.view is not None else []
    for item in flat(rows):
        if item.get("type") == TEXT_DISPLAY:  # a layout's text (issue 30)
            items.append((item.get("content"),))
        elif item.get("type") not in (1, CONTAINER):
            disabled = bool(item.get("disabled"))
            custom_id = None if disabled else item.get("custom_id")
            items.append((custom_id, item.get("label"), item.get("style"), disabled))
    embed = parts.embed.to_dict() if parts.embed is not None else None
    return hash((parts.content, repr(embed), tuple(items), parts.picture))


class LiveHands:
    def __init__(
        self,
        client: discord.Client,
        service: TableService,
        card_emojis: CardEmojis,
        *,
        clock: Callable[[], float] = time.monotonic,
        usable_for: float = USABLE_FOR,
        note_after: float = NOTE_AFTER,
        sweep_every: float = SWEEP_EVERY,
        pace: float = PACE,
        pictures: SeatPictures | None = None,
    ) -> None:
        self._client = client
        self._service = service
        self._card_emojis = card_emojis
        self._pictures = pictures
        # Public so a test can run it on the emulator's clock (token ages move with it).
        self.clock = clock
        self.usable_for = usable_for
        self.note_after = note_after
        self.sweep_every = sweep_every
        self.pace = pace
        self.stale_for = STALE_FOR
        self._hands: dict[Key, _Hand] = {}
        self._by_table: dict[int, set[int]] = {}
        self._answering: dict[Key, int] = {}  # clicks on the hand being answered
        self._tasks: dict[Key, asyncio.Task[None]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._closed = False
        self.edits = 0  # hand edits sent, for tests and benchmarks

    # --- what the click handlers tell us --------------------------------------------------------

    def now(self) -> float:
        return self.clock()

    @contextlib.contextmanager
    def answering(self, table_id: int, user_id: int) -> Iterator[None]:
        """Around the answer to a click on a player's hand (or "Show my hand"): the worker keeps
        off that hand meanwhile; afterwards it catches up with any change the answer missed."""
        key = (table_id, user_id)
        self._answering[key] = self._answering.get(key, 0) + 1
        try:
            yield
        finally:
            left = self._answering[key] - 1
            if left:
                self._answering[key] = left
            else:
                del self._answering[key]
                self._mark(key)

    def remember(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        message_id: int,
        parts: MessageParts,
        *,
        acquired: float,
    ) -> None:
        """`interaction`'s response is now the user's hand message, showing `parts`."""
        if self._closed or parts.version is None:
            return
        key = (table_id, interaction.user.id)
        # Sent without the picture it should have (not drawn in time): not drawn yet, so the
        # worker's next look brings the picture.
        complete = parts.seat_scene is None or parts.picture == parts.seat_scene.key
        now = asyncio.get_running_loop().time()
        self._hands[key] = _Hand(
            token=interaction.token,
            message_id=message_id,
            acquired=acquired,
            locale=str(interaction.locale),
            shown=fingerprint(parts),
            drawn=(parts.version, False) if complete else None,
            picture=parts.picture,
            edited=now,
            stale_since=None if complete or parts.picture is None else now,
        )
        self._by_table.setdefault(table_id, set()).add(interaction.user.id)
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.create_task(self._sweep_forever(), name="live-hands-sweep")

    def is_live(self, table_id: int, user_id: int) -> bool:
        return (table_id, user_id) in self._hands

    def picture_on(self, table_id: int, user_id: int, message_id: int | None) -> Shown:
        """The picture the player's hand message `message_id` shows, as far as we know."""
        hand = self._hands.get((table_id, user_id))
        if hand is None or message_id is None or hand.message_id != message_id:
            return UNKNOWN
        return hand.picture

    def __len__(self) -> int:
        return len(self._hands)

    # --- what the table service tells us --------------------------------------------------------

    def on_change(self, table: Table, change: str) -> None:
        """A service listener: never blocks; the edits run in background tasks."""
        users = self._by_table.get(table.id)
        if not users or change == CHANGE_PING:
            return  # a ping changes nothing a hand shows
        if change == CHANGE_CLOSED:
            for user_id in list(users):
                self._forget((table.id, user_id))
            return
        for user_id in list(users):
            self._mark((table.id, user_id))

    def sweep(self) -> None:
        """Forget hands whose token is too old; give a hand about to go quiet its last edit,
        which says it may need a Refresh (run every `sweep_every` s; tests may call it)."""
        now = self.clock()
        for key, hand in list(self._hands.items()):
            age = now - hand.acquired
            if age >= self.usable_for:
                if key not in self._tasks:
                    self._forget(key)
            elif age >= self.note_after and not (hand.drawn and hand.drawn[1]):
                self._mark(key)

    # --- the workers ----------------------------------------------------------------------------

    def _mark(self, key: Key) -> None:
        hand = self._hands.get(key)
        if hand is None or self._closed:
            return
        hand.dirty = True
        if hand.wake is not None:
            hand.wake.set()  # perhaps its turn now: the resting worker looks again
        task = self._tasks.get(key)
        if task is None or task.done():
            self._tasks[key] = asyncio.create_task(self._work(key), name=f"live-hand-{key}")

    async def _work(self, key: Key) -> None:
        try:
            while True:
                hand = self._hands.get(key)
                # No await between this check and leaving the loop: a mark made after it
                # finds the task done and starts a new one.
                if hand is None or not hand.dirty or key in self._answering:
                    return
                rest = self._rest_before_edit(key, hand)
                if rest > 0:
                    hand.wake = asyncio.Event()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(hand.wake.wait(), rest)
                    hand.wake = None
                    continue
                hand.dirty = False
                try:
                    await self._update(key, hand)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("live edit of user %s's hand at table %s failed", key[1], key[0])
        finally:
            if self._tasks.get(key) is asyncio.current_task():
                del self._tasks[key]

    def _rest_before_edit(self, key: Key, hand: _Hand) -> float:
        """Seconds to wait before the next edit: 0 when the hand's seat may act (or the game is
        over, or anything else happened to the table); otherwise what is left of the pace."""
        if hand.drawn is None:
            return 0.0  # it lacks its picture (or we do not know what it shows): at once
        table = self._service.find(key[0])
        game = table.game if table is not None else None
        if table is None or table.closed or game is None or game.is_over:
            return 0.0
        seat = table.seat_of(key[1])
        if seat is None or seat in game.to_act:
            return 0.0
        return hand.edited + self.pace - asyncio.get_running_loop().time()

    async def _update(self, key: Key, hand: _Hand) -> None:
        table_id, user_id = key
        table = self._service.find(table_id)
        seat = table.seat_of(user_id) if table is not None else None
        if table is None or table.closed or table.game is None or seat is None:
            self._forget(key, hand)
            return
        age = self.clock() - hand.acquired
        if age >= self.usable_for:
            self._forget(key, hand)  # Discord may refuse it any moment: never try
            return
        expiring = age >= self.note_after
        if hand.drawn == (table.version, expiring):
            return
        note = t("hand.note.expiring", hand.locale) if expiring else None
        async with table.lock:  # never a state whose write is on its way
            parts = seat_parts(table, seat, hand.locale, self._card_emojis, note, self._pictures)
        try:
            if self._pictures is not None:
                wait = PICTURE_WAIT
                if hand.stale_since is not None:  # never a stale picture past `stale_for`
                    left = hand.stale_since + self.stale_for - asyncio.get_running_loop().time()
                    wait = max(0.0, left)
                supersedable = hand.superseded < SUPERSEDED_AT_MOST
                try:
                    await self._pictures.attach(
                        parts, hand.picture, wait, supersedable=supersedable
                    )
                except Superseded:  # the table moved on first: its newest state, at once
                    hand.superseded += 1
                    hand.dirty = True
                    return
                hand.superseded = 0
                if key in self._answering or self._hands.get(key) is not hand:
                    # A click on the hand came while its picture was drawn: the answer shows
                    # the newer state (and the picture it shows is no longer `hand.picture`);
                    # when it is out, the worker looks again.
                    return
            drawn = (table.version if parts.version is None else parts.version, expiring)
            shown = fingerprint(parts)
            if shown == hand.shown:
                hand.drawn = drawn
                return
            if parts.picture is None and isinstance(hand.picture, tuple):
                # This edit takes the picture away: a click answered while it is on its way
                # must not keep a picture the message may no longer have (Discord refuses an
                # answer that shows an attachment the message lacks); it draws its own.
                hand.picture = UNKNOWN
            try:
                await rest.edit_by_token(self._client, hand.token, hand.message_id, parts)
            except discord.NotFound:
                # 10008: the user dismissed it (or reloaded); 10015: the token is gone.
                log.debug("hand of user %s at table %s is gone; forgetting it", user_id, table_id)
                self._forget(key, hand)
                return
            except discord.HTTPException as error:
                if error.status == 401:  # 50027: the token died
                    self._forget(key, hand)
                log.info(
                    "live edit of user %s's hand at table %s refused: %s", user_id, table_id, error
                )
                return
        finally:
            detach(parts.view)
        self.edits += 1
        current = self._hands.get(key)
        if current is hand:
            hand.shown, hand.drawn, hand.picture = shown, drawn, parts.picture
            hand.edited = asyncio.get_running_loop().time()
            hand.stale_since = None
            scene = parts.seat_scene
            if self._pictures is not None and parts.files and scene is not None:
                self._pictures.delivered(scene)  # on the message now: its bytes are let go
            if scene is not None and parts.picture != scene.key:
                # The text went alone (its picture not drawn in time): the next look brings it.
                hand.drawn, hand.dirty = None, True
        elif current is not None and current.message_id == hand.message_id:
            # A click on this message was answered while our edit was on its way, which may
            # have landed after that answer: draw the latest state again with the new token.
            current.shown = current.drawn = None
            current.picture = UNKNOWN
            current.dirty = True

    async def _sweep_forever(self) -> None:
        while self._hands:
            await asyncio.sleep(self.sweep_every)
            self.sweep()

    def _forget(self, key: Key, hand: _Hand | None = None) -> None:
        if hand is not None and self._hands.get(key) is not hand:
            return  # replaced meanwhile by a newer answer: that one stays
        self._hands.pop(key, None)
        users = self._by_table.get(key[0])
        if users is not None:
            users.discard(key[1])
            if not users:
                del self._by_table[key[0]]

    # --- lifecycle ------------------------------------------------------------------------------

    async def idle(self) -> None:
        """Until no hand edit is in flight (tests)."""
        while True:
            tasks = [task for task in self._tasks.values() if not task.done()]
            if not tasks:
                return
            await asyncio.wait(tasks)

    async def close(self) -> None:
        self._closed = True
        tasks = list(self._tasks.values())
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._hands.clear()
        self._by_table.clear()
