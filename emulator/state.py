"""What Discord stores and users see: accounts, guilds, channels, messages, interactions.

These objects are live: a `Message` always shows its latest state and keeps every earlier one in
`versions`. Tests read them directly; the REST handlers change them through the emulator.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from emulator import permissions as perms
from emulator.errors import EmulatorUsageError
from emulator.json_copy import copy_json
from emulator.limits import (
    BUTTON,
    EPHEMERAL,
    LOADING,
    SELECT_TYPES,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from emulator.clock import Clock
    from emulator.ids import Snowflakes

GUILD_TEXT, DM = 0, 1
T = TypeVar("T")


class Account:
    """A Discord user account: the bot's or a simulated person's."""

    def __init__(self, user_id: int, name: str, *, bot: bool = False) -> None:
        self.id = user_id
        self.name = name
        self.global_name: str | None = None if bot else name.capitalize()
        self.bot = bot

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} {self.id}>"


class Person(Account):
    """A person's account and what Discord keeps for them; `users.Person` adds what they
    do. The records live here so guilds, messages and interactions need not know the actions."""

    def __init__(self, user_id: int, name: str, *, locale: str) -> None:
        super().__init__(user_id, name)
        self.locale = locale
        self.guilds: dict[int, Guild] = {}
        self.failures: list[Interaction] = []  # interactions that showed "This interaction failed"
        self.modals: list[Modal] = []  # modals the bot opened for this user
        self.own_ephemerals: list[Message] = []


class World(Protocol):
    """What guilds and channels need of the emulator that holds them (server.Emulator is one):
    named here so this module never imports the server back."""

    @property
    def bot(self) -> Account: ...
    @property
    def application_id(self) -> int: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def snowflakes(self) -> Snowflakes: ...

    def register_channel(self, channel: Channel) -> None: ...
    def dispatch_guild_event(self, guild: Guild, event: str, channel: Channel) -> None: ...
    async def wait_for(
        self,
        predicate: Callable[[], T | None],
        *,
        timeout: float = 5.0,  # noqa: ASYNC109
        what: str = "condition",
    ) -> T: ...


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False


class Guild:
    def __init__(self, emu: World, guild_id: int, name: str, *, locale: str, owner_id: int):
        self._emu = emu
        self.id = guild_id
        self.name = name
        self.locale = locale
        self.owner_id = owner_id
        self.channels: dict[int, Channel] = {}
        self.members: dict[int, Person] = {}
        self.joined_at = emu.clock.time()
        self.roles: dict[int, Role] = {
            guild_id: Role(guild_id, "@everyone", perms.DEFAULT_EVERYONE),
        }
        self.bot_role = Role(emu.snowflakes.next(), emu.bot.name, perms.DEFAULT_BOT_ROLE, 1, True)
        self.roles[self.bot_role.id] = self.bot_role

    def __repr__(self) -> str:
        return f"<Guild {self.name} {self.id}>"

    def add_channel(
        self,
        name: str,
        *,
        bot_can_view: bool = True,
        bot_can_send: bool = True,
        topic: str | None = None,
    ) -> Channel:
        """A text channel; `bot_can_view/send=False` deny the bot those permissions there."""
        channel = Channel(self._emu, self._emu.snowflakes.next(), name, guild=self, topic=topic)
        channel.position = len(self.channels)
        self.channels[channel.id] = channel
        self._emu.register_channel(channel)
        # Only a denial needs an overwrite; otherwise the bot's role decides, as in a new channel.
        channel.set_bot_permissions(
            view=None if bot_can_view else False,
            send=None if bot_can_send else False,
            announce=False,
        )
        self._emu.dispatch_guild_event(self, "CHANNEL_CREATE", channel)
        return channel

    def channel(self, name: str) -> Channel:
        for channel in self.channels.values():
            if channel.name == name:
                return channel
        raise EmulatorUsageError(f"no channel #{name} in {self.name}")

    def add_member(self, user: Person) -> None:
        # No GUILD_MEMBER_ADD event: it needs the privileged members intent, which the bot lacks.
        self.members[user.id] = user
        user.guilds[self.id] = self

    def member_roles(self, user_id: int) -> list[int]:
        return [self.bot_role.id] if user_id == self._emu.bot.id else []

    def permissions(self, user_id: int, channel: Channel | None = None) -> int:
        return perms.compute(
            guild_id=self.id,
            owner_id=self.owner_id,
            member_id=user_id,
            member_roles=self.member_roles(user_id),
            role_permissions={r.id: r.permissions for r in self.roles.values()},
            overwrites=channel.overwrites if channel else [],
        )


class Channel:
    def __init__(
        self,
        emu: World,
        channel_id: int,
        name: str,
        *,
        guild: Guild | None = None,
        recipient: Person | None = None,
        topic: str | None = None,
    ) -> None:
        self._emu = emu
        self.id = channel_id
        self.name = name
        self.guild = guild
        self.recipient = recipient  # the other side of a DM
        self.topic = topic
        self.type = GUILD_TEXT if guild else DM
        self.position = 0
        self.overwrites: list[dict[str, Any]] = []
        self._public: dict[int, Message] = {}  # id -> message, in creation order

    def __repr__(self) -> str:
        return f"<Channel #{self.name} {self.id}>"

    @property
    def is_dm(self) -> bool:
        return self.guild is None

    @property
    def messages(self) -> list[Message]:
        """Public messages in the channel, oldest first, latest state (deleted ones left out)."""
        return [m for m in self._public.values() if not m.deleted]

    @property
    def last_message(self) -> Message | None:
        messages = self.messages
        return messages[-1] if messages else None

    @property
    def last_message_id(self) -> int | None:
        return next(reversed(self._public), None) if self._public else None

    def add_public(self, message: Message) -> None:
        self._public[message.id] = message

    def public(self, message_id: int) -> Message | None:
        return self._public.get(message_id)

    def history(self) -> Iterator[Message]:
        """Newest first, as the history endpoint pages."""
        return (m for m in reversed(self._public.values()) if not m.deleted)

    @property
    def bot_permissions(self) -> int:
        if self.guild is None:
            return perms.DM_PERMISSIONS
        return self.guild.permissions(self._emu.bot.id, self)

    def permissions_for(self, user: Account) -> int:
        if self.guild is None:
            return perms.DM_PERMISSIONS if user is self.recipient or user.bot else 0
        if user.id != self._emu.bot.id and user.id not in self.guild.members:
            return 0
        return self.guild.permissions(user.id, self)

    def set_bot_permissions(
        self,
        *,
        view: bool | None = None,
        send: bool | None = None,
        read_history: bool | None = None,
        embed_links: bool | None = None,
        attach_files: bool | None = None,
        announce: bool = True,
    ) -> None:
        """Allow (True), deny (False) or leave (None) the bot's permissions in this channel,
        through a member overwrite, as a server admin would; announced by CHANNEL_UPDATE."""
        if self.guild is None:
            raise EmulatorUsageError("a DM has no permission overwrites")
        bot_id = self._emu.bot.id
        overwrite = next((o for o in self.overwrites if int(o["id"]) == bot_id), None)
        if overwrite is None:
            overwrite = {"id": str(bot_id), "type": 1, "allow": "0", "deny": "0"}
            self.overwrites.append(overwrite)
        allow, deny = int(overwrite["allow"]), int(overwrite["deny"])
        for flag, value in (
            (perms.VIEW_CHANNEL, view),
            (perms.SEND_MESSAGES, send),
            (perms.READ_MESSAGE_HISTORY, read_history),
            (perms.EMBED_LINKS, embed_links),
            (perms.ATTACH_FILES, attach_files),
        ):
            if value is True:
                allow, deny = allow | flag, deny & ~flag
            elif value is False:
                allow, deny = allow & ~flag, deny | flag
        overwrite["allow"], overwrite["deny"] = str(allow), str(deny)
        if allow == 0 and deny == 0:
            self.overwrites.remove(overwrite)
        if announce:
            self._emu.dispatch_guild_event(self.guild, "CHANNEL_UPDATE", self)

    async def wait_for_message(
        self,
        predicate: Callable[[Message], bool] | None = None,
        *,
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> Message:
        """The newest public message matching `predicate`, waiting for one to appear."""

        def find() -> Message | None:
            return next((m for m in self.history() if predicate is None or predicate(m)), None)

        return await self._emu.wait_for(find, timeout=timeout, what=f"a message in #{self.name}")


@dataclass(frozen=True)
class Button:
    """A button as a user sees it on a message."""

    id: int
    custom_id: str | None
    label: str | None
    style: int
    disabled: bool
    emoji: dict[str, Any] | None
    url: str | None
    row: int

    @classmethod
    def from_dict(cls, data: dict[str, Any], row: int) -> Button:
        return cls(
            id=data.get("id", 0),
            custom_id=data.get("custom_id"),
            label=data.get("label"),
            style=data.get("style", 2),
            disabled=bool(data.get("disabled")),
            emoji=data.get("emoji"),
            url=data.get("url"),
            row=row,
        )


@dataclass(frozen=True)
class MessageVersion:
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    flags: int
    at: float
    attachments: list[dict[str, Any]] = field(default_factory=list)


def iter_components(components: list[dict[str, Any]]) -> Iterator[tuple[int, dict[str, Any]]]:
    """(top-level index, component) for every component, depth first."""

    def walk(items: list[Any], row: int) -> Iterator[tuple[int, dict[str, Any]]]:
        for item in items:
            if isinstance(item, dict):
                yield row, item
                yield from walk(item.get("components") or [], row)
                for key in ("accessory", "component"):
                    if isinstance(item.get(key), dict):
                        yield from walk([item[key]], row)

    for index, top in enumerate(components):
        yield from walk([top], index)


class Message:
    """A message as Discord stores it; public, or ephemeral for exactly one user."""

    def __init__(
        self,
        *,
        message_id: int,
        channel: Channel,
        author: Account,
        content: str,
        embeds: list[dict[str, Any]],
        components: list[dict[str, Any]],
        flags: int,
        attachments: list[dict[str, Any]],
        created_at: float,
        kind: int = 0,
        ephemeral_for: Person | None = None,
        interaction: Interaction | None = None,
        webhook_id: int | None = None,
        reference: dict[str, Any] | None = None,
    ) -> None:
        self.id = message_id
        self.channel = channel
        self.author = author
        self.content = content
        self.embeds = embeds
        self.components = components
        self.flags = flags
        self.attachments = attachments
        self.created_at = created_at
        self.edited_at: float | None = None
        self.kind = kind
        self.ephemeral_for = ephemeral_for
        self.interaction = interaction
        self.webhook_id = webhook_id
        self.reference = reference
        self.deleted = False
        self.dismissed = False
        self.notified: list[int] = []  # users this message notified when it was created
        # Whether its creation notified @everyone / @here (allowed_mentions permitting).
        self.notified_everyone = False
        # The `allowed_mentions` of each request that set its content or embeds (create and
        # edits, interaction answers included), None where the request carried none.
        self.allowed_mentions: list[dict[str, Any] | None] = []
        self.versions: list[MessageVersion] = []
        self.snapshot_version()

    def __repr__(self) -> str:
        kind = f"ephemeral for {self.ephemeral_for.name}" if self.ephemeral_for else "public"
        return f"<Message {self.id} {kind} in #{self.channel.name}: {self.text[:60]!r}>"

    def snapshot_version(self) -> None:
        self.versions.append(
            MessageVersion(
                self.content,
                copy_json(self.embeds),
                copy_json(self.components),
                self.flags,
                self.edited_at or self.created_at,
                copy_json(self.attachments),
            )
        )

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred response still "thinking"."""
        return bool(self.flags & LOADING)

    @property
    def edits(self) -> int:
        return len(self.versions) - 1

    @property
    def embed(self) -> dict[str, Any] | None:
        return self.embeds[0] if self.embeds else None

    @property
    def text(self) -> str:
        """Everything readable: content, embed titles, descriptions, fields, footers and the
        text displays of layout components, one per line (for assertions)."""
        parts = [self.content] if self.content else []
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            for field_ in embed.get("fields") or []:
                parts += [field_.get("name") or "", field_.get("value") or ""]
            parts.append((embed.get("footer") or {}).get("text") or "")
        parts += [
            c.get("content") or ""
            for _, c in iter_components(self.components)
            if c.get("type") == 10
        ]
        return "\n".join(p for p in parts if p)

    @property
    def buttons(self) -> list[Button]:
        return [
            Button.from_dict(c, row)
            for row, c in iter_components(self.components)
            if c.get("type") == BUTTON
        ]

    def button(self, target: str) -> Button:
        """The button whose custom_id or label is `target` (custom_id first)."""
        buttons = self.buttons
        by_id = [b for b in buttons if b.custom_id == target]
        if by_id:
            return by_id[0]
        by_label = [b for b in buttons if b.label == target]
        if len(by_label) == 1:
            return by_label[0]
        if by_label:
            raise EmulatorUsageError(
                f"{len(by_label)} buttons are labelled {target!r} on {self!r}; use a custom_id: "
                + ", ".join(str(b.custom_id) for b in by_label)
            )
        raise EmulatorUsageError(
            f"no button {target!r} on {self!r}; buttons: "
            + ", ".join(f"{b.label!r} ({b.custom_id})" for b in buttons)
        )

    def select_menu(self, target: str) -> dict[str, Any]:
        for _, component in iter_components(self.components):
            if component.get("type") in SELECT_TYPES and target in (
                component.get("custom_id"),
                component.get("placeholder"),
            ):
                return component
        raise EmulatorUsageError(f"no select menu {target!r} on {self!r}")

    def visible_to(self, account: Account) -> bool:
        if self.deleted:
            return False
        if self.ephemeral_for is not None:
            return self.ephemeral_for is account and not self.dismissed
        return bool(self.channel.permissions_for(account) & perms.VIEW_CHANNEL)

    async def wait_until(
        self,
        predicate: Callable[[Message], bool],
        *,
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> Message:
        """Wait until this message (its latest state) satisfies `predicate`."""
        emu = self.channel._emu
        return await emu.wait_for(
            lambda: self if predicate(self) else None, timeout=timeout, what=f"{self!r} to change"
        )


@dataclass
class Modal:
    """A modal the bot opened for a user (callback type 9)."""

    custom_id: str
    title: str
    components: list[dict[str, Any]]
    interaction: Interaction

    @property
    def fields(self) -> list[dict[str, Any]]:
        """The text inputs and selects, whether in action rows or labels."""
        found: list[dict[str, Any]] = []
        for top in self.components:
            if top.get("type") == 1:
                found += top.get("components") or []
            elif isinstance(top.get("component"), dict):
                found.append(top["component"])
        return found


APPLICATION_COMMAND, MESSAGE_COMPONENT, MODAL_SUBMIT = 2, 3, 5


@dataclass(eq=False)
class Interaction:
    """One interaction, from the user's action to its responses."""

    id: int
    token: str
    type: int
    user: Person
    channel: Channel
    data: dict[str, Any]
    created_at: float  # emulator clock (deadline and token lifetime count from here)
    source_message: Message | None = None  # the message whose component was used
    opened_by: Interaction | None = None  # a modal submit: the interaction that opened the modal
    payload: dict[str, Any] = field(default_factory=dict)
    dispatched_at: float | None = None  # time.perf_counter() when the frame was written
    acked_at: float | None = None  # time.perf_counter() when the first callback arrived
    response_type: int | None = None
    failed: bool = False
    failure: str | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    modal: Modal | None = None
    settled: bool = False
    timer: Any = None
    settled_event: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    def __repr__(self) -> str:
        what = self.data.get("name") or self.data.get("custom_id")
        return f"<Interaction {self.id} type={self.type} {what!r} by {self.user.name}>"

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None

    @property
    def ack_latency(self) -> float | None:
        """Seconds from the INTERACTION_CREATE frame leaving to the first callback arriving."""
        if self.dispatched_at is None or self.acked_at is None:
            return None
        return self.acked_at - self.dispatched_at

    @property
    def command(self) -> str | None:
        return self.data.get("name")

    @property
    def custom_id(self) -> str | None:
        return self.data.get("custom_id")

    async def wait_settled(self, timeout: float = 5.0) -> Interaction:  # noqa: ASYNC109
        """Wait until the user sees an outcome: a message, an update, a modal or a failure.
        A deferred message (type 5) settles once its "thinking" state is replaced."""
        # One event per interaction, not a predicate on every state change: 200 users waiting
        # at once must not make each change cost 200 checks.
        try:
            await asyncio.wait_for(self.settled_event.wait(), timeout)
        except TimeoutError:
            raise TimeoutError(
                f"timed out after {timeout:g} s waiting for a response to {self!r}"
            ) from None
        return self

    async def response(self, timeout: float = 5.0) -> Message:  # noqa: ASYNC109
        """The message the user sees as the outcome; InteractionFailed if it failed."""
        from emulator.errors import InteractionFailed

        await self.wait_settled(timeout)
        if self.failed:
            raise InteractionFailed(f"{self!r}: the user saw {self.failure!r}")
        if self.modal is not None:
            raise EmulatorUsageError(
                f"{self!r} was answered with a modal ({self.modal.title!r}); "
                "use interaction.modal and user.submit_modal()"
            )
        message = self.original if self.response_type in (4, 5) else self.source_message
        if message is None:
            message = self.original
        assert message is not None, f"{self!r} settled without a message"
        return message


def now_iso(timestamp: float | None = None) -> str:
    """Discord's ISO-8601 timestamps with microseconds and +00:00."""
    stamp = time.time() if timestamp is None else timestamp
    seconds = int(stamp)
    micros = round((stamp - seconds) * 1_000_000)
    if micros == 1_000_000:
        seconds, micros = seconds + 1, 0
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{micros:06d}+00:00"
