"""Creating, editing and deleting messages, with Discord's checks and gateway echoes.

Used by the channel endpoints and by interaction responses alike; the callers decide which flags
are allowed (EPHEMERAL only through an interaction) and who may see the result.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from emulator import limits, payloads
from emulator.clock import Clock
from emulator.errors import (
    CANNOT_SEND_EMPTY_MESSAGE,
    OLD_MESSAGE_EDITS_EXHAUSTED,
    REQUEST_TOO_LARGE,
    ApiError,
    FormErrors,
    invalid_form,
)
from emulator.gateway import DIRECT_MESSAGES, GUILD_MESSAGES
from emulator.json_copy import copy_json
from emulator.limits import (
    CONTAINER,
    EPHEMERAL,
    IS_COMPONENTS_V2,
    LOADING,
    SELECT_TYPES,
    SUPPRESS_EMBEDS,
)
from emulator.payloads import ATTACHMENT_SIZE_LIMIT
from emulator.state import Account, Channel, Interaction, Message, Person, iter_components

if TYPE_CHECKING:
    from collections.abc import Container, Mapping

    from emulator.gateway import Gateway
    from emulator.ids import Snowflakes
    from emulator.notifier import Notifier

MESSAGE_CONTENT_INTENT = 1 << 15
USER_MENTION = re.compile(r"<@!?(\d{1,20})>")


EVERYONE_MENTION = re.compile(r"@(?:everyone|here)")


def notifies_everyone(content: str, allowed_mentions: dict[str, Any] | None) -> bool:
    """Whether a NEW message pings @everyone / @here: the text is in its content (an escaped
    one, `@\u200beveryone`, is not) and `allowed_mentions` permits it (absent: it does)."""
    if not EVERYONE_MENTION.search(content):
        return False
    return allowed_mentions is None or "everyone" in (allowed_mentions.get("parse") or ())


MAX_FILES = 10  # files (attachments) per message
REQUEST_SIZE_LIMIT = 25 * 1024 * 1024  # the whole multipart request
MENTION_KINDS = ("roles", "users", "everyone")
MAX_MENTION_IDS = 100


def check_allowed_mentions(rule: Any, errors: FormErrors) -> None:
    """Discord's allowed_mentions rules: `parse` names only roles, users and everyone; a kind is
    either parsed or listed by id, never both; at most 100 ids of each."""
    if not isinstance(rule, dict):
        return
    parse = rule.get("parse") or []
    for index, kind in enumerate(parse):
        if kind not in MENTION_KINDS:
            errors.add(
                ("allowed_mentions", "parse", index),
                "BASE_TYPE_CHOICES",
                f"Value must be one of {MENTION_KINDS}.",
            )
    for kind in ("users", "roles"):
        listed = rule.get(kind) or []
        if listed and kind in parse:
            errors.add(
                ("allowed_mentions",),
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.',
            )
        if len(listed) > MAX_MENTION_IDS:
            errors.add(
                ("allowed_mentions", kind),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_MENTION_IDS} or fewer in length.",
            )


def record_allowed_mentions(message: Message, body: dict[str, Any]) -> None:
    """Keep what a request that sets text said about mentions (tests assert on it)."""
    if "content" in body or "embeds" in body:
        rule = body.get("allowed_mentions")
        message.allowed_mentions.append(copy_json(rule) if rule is not None else None)


def notified_users(content: str, allowed_mentions: dict[str, Any] | None) -> list[int]:
    """Who a NEW message notifies: the users mentioned in its content (mentions in embeds never
    notify), as `allowed_mentions` permits — absent: all; `parse` with "users": all; else only
    those in its `users` list. Discord notifies nobody for a mention added by an edit, so only
    message creation calls this."""
    mentioned = list(dict.fromkeys(int(m) for m in USER_MENTION.findall(content)))
    if allowed_mentions is None or "users" in (allowed_mentions.get("parse") or ()):
        return mentioned
    allowed = {int(u) for u in allowed_mentions.get("users") or ()}
    return [u for u in mentioned if u in allowed]


@dataclass
class Upload:
    """A file sent in a multipart request (`files[n]`)."""

    field: str
    filename: str
    content_type: str
    data: bytes


@dataclass
class OldMessageRefusal:
    """An edit refused with 30046 (for assertions)."""

    channel_id: int
    message_id: int
    at: float  # the emulator's clock.now()


@dataclass
class OldMessageEdits:
    """Discord's tighter limit on edits of channel messages older than an hour (error 30046,
    "Maximum number of edits to messages older than 1 hour reached. Try again later.").

    Discord publishes no numbers, so the rule is off unless a test enables it
    (`Emulator.set_old_message_edits`). Enabled, each channel allows `limit` edits of messages
    older than `age` seconds within any `per` seconds (the emulator's clock: a test ages a
    message with `clock.advance`); the next such edit answers 400 30046. A refusal is recorded
    in `refusals`, not as a violation: no bot can know the limit beforehand, it must handle the
    answer. Edits of younger messages are neither limited nor counted.
    """

    clock: Clock
    enabled: bool = False
    limit: int = 3
    per: float = 3600.0
    age: float = 3600.0
    recent: dict[int, deque[float]] = field(default_factory=dict)  # channel -> edit times
    refusals: list[OldMessageRefusal] = field(default_factory=list)

    def configure(
        self,
        enabled: bool,
        limit: int | None = None,
        per: float | None = None,
        age: float | None = None,
    ) -> None:
        self.enabled = enabled
        self.limit = limit if limit is not None else self.limit
        self.per = per if per is not None else self.per
        self.age = age if age is not None else self.age
        self.recent.clear()

    def check(self, message: Message) -> None:
        """Count one edit of `message` through the channel endpoint, or refuse it."""
        if not self.enabled or self.clock.time() - message.created_at < self.age:
            return
        now = self.clock.now()
        window = self.recent.setdefault(message.channel.id, deque())
        while window and now - window[0] >= self.per:
            window.popleft()
        if len(window) >= self.limit:
            self.refusals.append(OldMessageRefusal(message.channel.id, message.id, now))
            raise ApiError(
                400,
                OLD_MESSAGE_EDITS_EXHAUSTED,
                "Maximum number of edits to messages older than 1 hour reached. Try again later.",
                violation=False,
            )
        window.append(now)


def stored_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Components as Discord keeps and echoes them: a custom emoji's id is a string, though
    discord.py sends it as a JSON integer, and a select menu has its min_values and max_values
    (1 and 1 when not given)."""
    stored = copy_json(components)
    for _, component in iter_components(stored):
        emoji = component.get("emoji")
        if isinstance(emoji, dict) and isinstance(emoji.get("id"), int):
            emoji["id"] = str(emoji["id"])
        if component.get("type") in SELECT_TYPES:
            component.setdefault("min_values", 1)
            component.setdefault("max_values", 1)
        if component.get("type") == CONTAINER:  # Discord echoes a layout's defaults
            component.setdefault("accent_color", None)
            component.setdefault("spoiler", False)
        for item in component.get("items") or []:  # a media gallery's
            item.setdefault("description", None)
            item.setdefault("spoiler", False)
    return stored


class MessageWorld(Protocol):
    """What the message service needs of the emulator: where messages are kept, who is told."""

    @property
    def bot(self) -> Account: ...
    @property
    def url(self) -> str: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def snowflakes(self) -> Snowflakes: ...
    @property
    def notifier(self) -> Notifier: ...
    @property
    def gateway(self) -> Gateway: ...
    @property
    def messages(self) -> dict[int, Message]: ...
    @property
    def users(self) -> Container[int]: ...
    @property
    def notifications(self) -> list[tuple[int, int]]: ...
    @property
    def application_emojis(self) -> Mapping[int, dict[str, Any]]: ...


class Messages:
    def __init__(self, emu: MessageWorld) -> None:
        self._emu = emu
        self.files: dict[int, Upload] = {}  # attachment id -> bytes, served at /attachments/

    # -- building blocks -------------------------------------------------------------------

    def _attachments(
        self,
        body: dict[str, Any],
        uploads: list[Upload],
        existing: list[dict[str, Any]],
        *,
        ephemeral: bool,
    ) -> list[dict[str, Any]]:
        for upload in uploads:
            if len(upload.data) > ATTACHMENT_SIZE_LIMIT:
                raise ApiError(413, REQUEST_TOO_LARGE, "Request entity too large")
        if sum(len(u.data) for u in uploads) > REQUEST_SIZE_LIMIT:
            raise ApiError(413, REQUEST_TOO_LARGE, "Request entity too large")
        if len(uploads) > MAX_FILES:
            errors = FormErrors()
            errors.add(
                ("files",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_FILES} or fewer in length."
            )
            raise invalid_form(errors)
        described = body.get("attachments")
        by_index = {
            int(u.field.removeprefix("files[").removesuffix("]")): u
            for u in uploads
            if u.field.startswith("files[")
        }
        result: list[dict[str, Any]] = []
        if described is None:
            result = copy_json(existing)
            for upload in uploads:
                result.append(self._stored_attachment(upload, {}, ephemeral))
            return result
        kept = {a["id"]: a for a in existing}
        for entry in described:
            key = entry.get("id")
            if isinstance(key, str) and key in kept:
                result.append(copy_json(kept[key]))
            elif key is not None and int(key) in by_index:
                result.append(self._stored_attachment(by_index[int(key)], entry, ephemeral))
        return result

    def _stored_attachment(
        self, upload: Upload, entry: dict[str, Any], ephemeral: bool
    ) -> dict[str, Any]:
        attachment_id = self._emu.snowflakes.next()
        self.files[attachment_id] = upload
        filename = entry.get("filename") or upload.filename
        url = f"{self._emu.url}/attachments/{attachment_id}/{filename}"
        data = {
            "id": str(attachment_id),
            "filename": filename,
            "size": len(upload.data),
            "url": url,
            "proxy_url": url,
            "content_type": upload.content_type,
        }
        if entry.get("description") is not None:  # Discord leaves out a description not given
            data["description"] = entry["description"]
        if ephemeral:
            data["ephemeral"] = True
        return data

    def _check_emojis(self, components: Any, errors: FormErrors) -> None:
        """A custom emoji on a component must exist (this emulator's guilds have none of their
        own: only the application's emojis can be shown)."""
        if not isinstance(components, list):
            return
        known = self._emu.application_emojis
        for index, component in iter_components(components):
            emoji = component.get("emoji")
            if not isinstance(emoji, dict) or emoji.get("id") is None:
                continue
            if int(emoji["id"]) not in known:
                errors.add(
                    ("components", index, "emoji", "id"),
                    "COMPONENT_INVALID_EMOJI",
                    f"Invalid emoji {emoji.get('name')}:{emoji['id']}",
                )

    @staticmethod
    def _normalise_embeds(embeds: list[dict[str, Any]]) -> list[dict[str, Any]]:
        result = copy_json(embeds)
        for embed in result:
            embed.setdefault("type", "rich")
            embed.setdefault("content_scan_version", 0)
        return result

    @staticmethod
    def _check_media(components: list[dict[str, Any]], attachments: list[dict[str, Any]]) -> None:
        """As Discord does for Components V2: media named `attachment://name` (a gallery item,
        a thumbnail, a file) must be an attachment of the message itself, and is stored as
        that attachment (its id and URLs)."""
        by_name = {a["filename"]: a for a in attachments}
        errors = FormErrors()
        for index, component in iter_components(components):
            media = [item.get("media") for item in component.get("items") or []]
            media += [component.get("media"), component.get("file")]
            for item in media:
                url = str((item or {}).get("url") or "") if isinstance(item, dict) else ""
                if not url.startswith("attachment://"):
                    continue
                attachment = by_name.get(url.removeprefix("attachment://"))
                if attachment is None:
                    errors.add(
                        ("components", index, "media", "url"),
                        "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                        f"Attachment {url[13:]!r} is not an attachment of this message",
                    )
                    continue
                assert isinstance(item, dict)
                item.update(
                    id=str(attachment["id"]),
                    url=attachment["url"],
                    proxy_url=attachment["proxy_url"],
                    width=attachment.get("width"),
                    height=attachment.get("height"),
                    content_type=attachment.get("content_type"),
                    attachment_id=str(attachment["id"]),
                )
        if errors:
            raise invalid_form(errors)

    @staticmethod
    def _resolve_attachment_images(
        embeds: list[dict[str, Any]], attachments: list[dict[str, Any]]
    ) -> None:
        """As Discord does: an embed image or thumbnail `attachment://name` becomes that
        attachment's URL; naming no attachment of the message, it is dropped (not shown)."""
        by_name = {a["filename"]: a for a in attachments}
        for embed in embeds:
            for key in ("image", "thumbnail"):
                url = str((embed.get(key) or {}).get("url") or "")
                if not url.startswith("attachment://"):
                    continue
                attachment = by_name.get(url.removeprefix("attachment://"))
                if attachment is None:
                    del embed[key]
                else:
                    embed[key] = {"url": attachment["url"], "proxy_url": attachment["proxy_url"]}

    # -- operations ------------------------------------------------------------------------

    def create(
        self,
        *,
        channel: Channel,
        author: Account,
        body: dict[str, Any],
        uploads: list[Upload] | None = None,
        allowed_flags: int,
        ephemeral_for: Person | None = None,
        interaction: Interaction | None = None,
        webhook_id: int | None = None,
        kind: int = 0,
        force_flags: int | None = None,
    ) -> Message:
        errors = limits.validate_message(body, allowed_flags=allowed_flags)
        self._check_emojis(body.get("components"), errors)
        check_allowed_mentions(body.get("allowed_mentions"), errors)
        if errors:
            raise invalid_form(errors)
        flags = int(body.get("flags") or 0) if force_flags is None else force_flags
        ephemeral = bool(flags & EPHEMERAL)
        attachments = self._attachments(body, uploads or [], [], ephemeral=ephemeral)
        fields: dict[str, Any] = {
            "content": body.get("content") or "",
            "embeds": self._normalise_embeds(body.get("embeds") or []),
            "components": stored_components(body.get("components") or []),
            "attachments": attachments,
            "sticker_ids": body.get("sticker_ids"),
            "poll": body.get("poll"),
        }
        self._resolve_attachment_images(fields["embeds"], attachments)
        self._check_media(fields["components"], attachments)
        if not flags & LOADING and limits.is_empty(fields):
            raise ApiError(400, CANNOT_SEND_EMPTY_MESSAGE, "Cannot send an empty message")
        limits.number_components(fields["components"])
        reference = body.get("message_reference")
        message = Message(
            message_id=self._emu.snowflakes.next(),
            channel=channel,
            author=author,
            content=fields["content"],
            embeds=fields["embeds"],
            components=fields["components"],
            flags=flags,
            attachments=attachments,
            created_at=self._emu.clock.time(),
            kind=19 if reference and kind == 0 else kind,
            ephemeral_for=ephemeral_for,
            interaction=interaction,
            webhook_id=webhook_id,
            reference=reference,
        )
        self._emu.messages[message.id] = message
        record_allowed_mentions(message, body)
        if ephemeral_for is None:
            message.notified_everyone = notifies_everyone(
                message.content, body.get("allowed_mentions")
            )
            message.notified = [
                u
                for u in notified_users(message.content, body.get("allowed_mentions"))
                if u in self._emu.users
            ]
            self._emu.notifications.extend((u, message.id) for u in message.notified)
            channel.add_public(message)
            self.echo("MESSAGE_CREATE", message)
        else:
            ephemeral_for.own_ephemerals.append(message)
        self._emu.notifier.changed()
        return message

    def edit(
        self,
        message: Message,
        body: dict[str, Any],
        uploads: list[Upload] | None = None,
        *,
        allowed_flags: int,
    ) -> Message:
        """PATCH semantics: only the fields present change; the result must still be valid."""
        errors = limits.validate_message(
            {**body, "flags": body.get("flags", message.flags) & ~(LOADING | EPHEMERAL)},
            allowed_flags=allowed_flags,
        )
        self._check_emojis(body.get("components"), errors)
        check_allowed_mentions(body.get("allowed_mentions"), errors)
        new_flags = message.flags
        if body.get("flags") is not None:
            wanted = int(body["flags"])
            # Discord keeps a message's EPHEMERAL bit: an edit that leaves it out (discord.py
            # sends only IS_COMPONENTS_V2 for a layout) changes nothing; one that would set it
            # on a public message is refused.
            if wanted & EPHEMERAL and not message.flags & EPHEMERAL and not message.loading:
                errors.add(
                    ("flags",), "MESSAGE_FLAGS_INVALID", "A message's EPHEMERAL flag is fixed"
                )
            if message.flags & IS_COMPONENTS_V2 and not wanted & IS_COMPONENTS_V2:
                errors.add(
                    ("flags",),
                    "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                    "The IS_COMPONENTS_V2 flag cannot be removed",
                )
            new_flags = (message.flags & ~SUPPRESS_EMBEDS) | (wanted & SUPPRESS_EMBEDS)
            new_flags |= wanted & IS_COMPONENTS_V2
        merged: dict[str, Any] = {
            "content": (body["content"] or "") if "content" in body else message.content,
            "embeds": (
                self._normalise_embeds(body["embeds"] or []) if "embeds" in body else message.embeds
            ),
            "components": (
                stored_components(body["components"] or [])
                if "components" in body
                else message.components
            ),
        }
        if new_flags & IS_COMPONENTS_V2 and (merged["content"] or merged["embeds"]):
            errors.add(
                ("content",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' and 'embeds' fields cannot be used with IS_COMPONENTS_V2",
            )
        if errors:
            raise invalid_form(errors)
        merged["attachments"] = self._attachments(
            body, uploads or [], message.attachments, ephemeral=message.ephemeral
        )
        self._resolve_attachment_images(merged["embeds"], merged["attachments"])
        self._check_media(merged["components"], merged["attachments"])
        if limits.is_empty(merged):
            raise ApiError(400, CANNOT_SEND_EMPTY_MESSAGE, "Cannot send an empty message")
        was_loading = message.loading
        limits.number_components(merged["components"])
        message.content = merged["content"]
        message.embeds = merged["embeds"]
        message.components = merged["components"]
        message.attachments = merged["attachments"]
        message.flags = new_flags & ~LOADING
        record_allowed_mentions(message, body)
        if not was_loading:  # filling a "thinking" response is not shown as an edit
            message.edited_at = self._emu.clock.time()
        message.snapshot_version()
        if message.ephemeral_for is None:
            self.echo("MESSAGE_UPDATE", message)
        self._emu.notifier.changed()
        return message

    def delete(self, message: Message) -> None:
        message.deleted = True
        if message.ephemeral_for is None:
            data: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.channel.guild is not None:
                data["guild_id"] = str(message.channel.guild.id)
            self._dispatch_message_event("MESSAGE_DELETE", message, data)
        self._emu.notifier.changed()

    def echo(self, event: str, message: Message) -> None:
        """MESSAGE_CREATE / MESSAGE_UPDATE for public messages, as the bot's intents allow."""
        data = payloads.message(message, gateway=True)
        bot = self._emu.bot
        mentioned = f"<@{bot.id}>" in message.content
        if (
            message.author is not bot
            and message.channel.guild is not None
            and not mentioned
            and not self._emu.gateway.wants(MESSAGE_CONTENT_INTENT, message.channel.guild.id)
        ):
            # Without the message-content intent Discord blanks other people's messages.
            data.update(content="", embeds=[], attachments=[], components=[])
        self._dispatch_message_event(event, message, data)

    def _dispatch_message_event(self, event: str, message: Message, data: dict[str, Any]) -> None:
        intent = DIRECT_MESSAGES if message.channel.is_dm else GUILD_MESSAGES
        guild = message.channel.guild
        guild_id = guild.id if guild is not None else None
        if self._emu.gateway.wants(intent, guild_id):
            self._emu.gateway.dispatch(event, data, guild_id=guild_id)
