"""Simulated users: people in guilds who run slash commands, click buttons, pick options and
fill modals, and see exactly what Discord would show them (public messages of channels they can
view, and their own ephemeral messages, nobody else's)."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any, Protocol

from emulator import permissions as perms
from emulator.commands import (
    ATTACHMENT,
    BOOLEAN,
    CHANNEL,
    INTEGER,
    NUMBER,
    STRING,
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
    USER,
)
from emulator.errors import EmulatorUsageError
from emulator.limits import CHANNEL_MESSAGE_FLAGS, LINK_STYLE, PREMIUM_STYLE, STRING_SELECT
from emulator.payloads import member as member_payload
from emulator.payloads import user as user_payload
from emulator.state import (
    APPLICATION_COMMAND,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    Account,
    Channel,
    Interaction,
    Message,
    Modal,
    Person,
    World,
)

if TYPE_CHECKING:
    from emulator.commands import CommandRegistry
    from emulator.interactions import Interactions
    from emulator.messages import Messages
    from emulator.notifier import Notifier

BOT_DM_CONTEXT, GUILD_CONTEXT = 1, 0


class UserWorld(World, Protocol):
    """What a simulated user needs of the emulator: the services their actions go through."""

    @property
    def notifier(self) -> Notifier: ...
    @property
    def commands(self) -> CommandRegistry: ...
    @property
    def interaction_service(self) -> Interactions: ...
    @property
    def message_service(self) -> Messages: ...
    @property
    def url(self) -> str:
        """Where the emulator serves (attachments a user uploads are fetched from it)."""
        ...


class SimulatedUser(Person):
    def __init__(self, emu: UserWorld, user_id: int, name: str, *, locale: str) -> None:
        super().__init__(user_id, name, locale=locale)
        self._emu = emu
        self._dm: Channel | None = None

    # -- what the user sees ----------------------------------------------------------------

    @property
    def dm(self) -> Channel:
        """The DM channel between this user and the bot."""
        if self._dm is None:
            self._dm = Channel(
                self._emu, self._emu.snowflakes.next(), f"dm-{self.name}", recipient=self
            )
            self._emu.register_channel(self._dm)
        return self._dm

    @property
    def ephemerals(self) -> list[Message]:
        """This user's ephemeral messages still on screen (latest state), oldest first."""
        return [m for m in self.own_ephemerals if not m.deleted and not m.dismissed]

    @property
    def last_ephemeral(self) -> Message | None:
        shown = self.ephemerals
        return shown[-1] if shown else None

    def sees(self, message: Message) -> bool:
        return message.visible_to(self)

    def visible_messages(self, channel: Channel) -> list[Message]:
        """What this user's client shows in `channel`: public messages and their own
        ephemeral ones, in order."""
        if not channel.permissions_for(self) & perms.VIEW_CHANNEL:
            return []
        mine = [m for m in self.ephemerals if m.channel is channel]
        return sorted([*channel.messages, *mine], key=lambda m: m.id)

    def dismiss(self, message: Message) -> None:
        """Click "Dismiss message" on an ephemeral message: it is gone for good."""
        if message.ephemeral_for is not self:
            raise EmulatorUsageError("only your own ephemeral messages can be dismissed")
        message.dismissed = True
        self._emu.notifier.changed()

    # -- slash commands --------------------------------------------------------------------

    def _check_channel(self, channel: Channel) -> None:
        if channel.guild is not None:
            if self.id not in channel.guild.members:
                raise EmulatorUsageError(f"{self.name} is not a member of {channel.guild.name}")
            if not channel.permissions_for(self) & perms.VIEW_CHANNEL:
                raise EmulatorUsageError(f"{self.name} cannot see #{channel.name}")
        elif channel.recipient is not self:
            raise EmulatorUsageError(f"{channel!r} is not {self.name}'s DM with the bot")

    def _find_command(self, channel: Channel, name: str) -> tuple[dict[str, Any], bool]:
        registry = self._emu.commands
        if channel.guild is not None:
            found = registry.find(channel.guild.id, name)
            if found is not None:
                return found, True
        found = registry.find(None, name)
        if found is None:
            where = f"in {channel.guild.name}" if channel.guild else "in DMs"
            known = sorted(
                {c["name"] for c in registry.registered(None)}
                | (
                    {c["name"] for c in registry.registered(channel.guild.id)}
                    if channel.guild
                    else set()
                )
            )
            raise EmulatorUsageError(
                f"/{name} is not a command Discord knows {where} (synced: {known or 'none'})"
            )
        contexts = found.get("contexts")
        context = GUILD_CONTEXT if channel.guild else BOT_DM_CONTEXT
        if (contexts is not None and context not in contexts) or (
            channel.guild is None and found.get("dm_permission") is False
        ):
            raise EmulatorUsageError(
                f"/{name} is not available {'here' if channel.guild else 'in DMs'}"
            )
        return found, False

    def _option_value(
        self,
        option: dict[str, Any],
        value: Any,
        resolved: dict[str, dict[str, Any]],
        channel: Channel,
    ) -> Any:
        kind, name = option["type"], option["name"]
        if kind == STRING:
            if not isinstance(value, str):
                raise EmulatorUsageError(f"option {name} takes a string, not {value!r}")
            low, high = option.get("min_length", 0) or 0, option.get("max_length", 6000) or 6000
            if not low <= len(value) <= high:
                raise EmulatorUsageError(f"option {name} must be {low}..{high} characters")
        elif kind == INTEGER:
            if isinstance(value, bool) or not isinstance(value, int):
                raise EmulatorUsageError(f"option {name} takes an integer, not {value!r}")
        elif kind == NUMBER:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise EmulatorUsageError(f"option {name} takes a number, not {value!r}")
        elif kind == BOOLEAN:
            if not isinstance(value, bool):
                raise EmulatorUsageError(f"option {name} takes True or False, not {value!r}")
        elif kind == USER:
            if not isinstance(value, Account):
                raise EmulatorUsageError(f"option {name} takes a user")
            resolved.setdefault("users", {})[str(value.id)] = user_payload(value)
            if channel.guild is not None and value.id in channel.guild.members:
                resolved.setdefault("members", {})[str(value.id)] = {
                    **member_payload(channel.guild, value, with_user=False),
                    "permissions": str(channel.permissions_for(value)),
                }
            return str(value.id)
        elif kind == CHANNEL:
            if not isinstance(value, Channel):
                raise EmulatorUsageError(f"option {name} takes a channel")
            resolved.setdefault("channels", {})[str(value.id)] = {
                "id": str(value.id),
                "name": value.name,
                "type": value.type,
                "permissions": str(value.permissions_for(self)),
                "flags": 0,
            }
            return str(value.id)
        elif kind == ATTACHMENT:
            # A file the user attaches to the command: (filename, bytes), served like any upload.
            if not (isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], bytes)):
                raise EmulatorUsageError(f"option {name} takes (filename, bytes)")
            from emulator.messages import Upload

            filename, data = value
            attachment_id = self._emu.snowflakes.next()
            self._emu.message_service.files[attachment_id] = Upload(
                "file", filename, "text/plain", data
            )
            url = f"{self._emu.url}/attachments/{attachment_id}/{filename}"
            resolved.setdefault("attachments", {})[str(attachment_id)] = {
                "id": str(attachment_id),
                "filename": filename,
                "size": len(data),
                "url": url,
                "proxy_url": url,
                "content_type": "text/plain",
            }
            return str(attachment_id)
        else:
            raise EmulatorUsageError(
                f"option type {kind} ({name}) is not supported by the emulator"
            )
        choices = option.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise EmulatorUsageError(
                f"{value!r} is not a choice of option {name}: {[c['value'] for c in choices]}"
            )
        for key, check in (("min_value", operator.ge), ("max_value", operator.le)):
            if (
                option.get(key) is not None
                and kind in (INTEGER, NUMBER)
                and not check(value, option[key])
            ):
                raise EmulatorUsageError(f"option {name}={value!r} breaks {key}={option[key]}")
        return value

    def _options(
        self,
        declared: list[dict[str, Any]],
        given: dict[str, Any],
        resolved: dict[str, dict[str, Any]],
        channel: Channel,
        command: str,
    ) -> list[dict[str, Any]]:
        by_name = {o["name"]: o for o in declared}
        unknown = set(given) - set(by_name)
        if unknown:
            raise EmulatorUsageError(
                f"/{command} has no option {sorted(unknown)}; options: {sorted(by_name)}"
            )
        missing = [o["name"] for o in declared if o.get("required") and o["name"] not in given]
        if missing:
            raise EmulatorUsageError(f"/{command} needs options {missing}")
        return [
            {
                "name": name,
                "type": by_name[name]["type"],
                "value": self._option_value(by_name[name], value, resolved, channel),
            }
            for name, value in given.items()
        ]

    def _slash_data(
        self, channel: Channel, command: str, options: dict[str, Any]
    ) -> dict[str, Any]:
        self._check_channel(channel)
        top, *path = command.split()
        registered, in_guild = self._find_command(channel, top)
        if channel.guild is not None:
            granted = channel.permissions_for(self)
            if not granted & perms.USE_APPLICATION_COMMANDS:
                raise EmulatorUsageError(f"{self.name} may not use commands in #{channel.name}")
            needed = registered.get("default_member_permissions")
            if needed is not None and (int(needed) & granted) != int(needed):
                raise EmulatorUsageError(f"{self.name} lacks the permissions /{top} requires")
        resolved: dict[str, dict[str, Any]] = {}
        declared = registered.get("options") or []
        wrapper: list[dict[str, Any]] = []
        holder = wrapper
        for step in path:
            group = next(
                (
                    o
                    for o in declared
                    if o["name"] == step and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
                ),
                None,
            )
            if group is None:
                raise EmulatorUsageError(f"/{top} has no subcommand {step!r}")
            node: dict[str, Any] = {"name": step, "type": group["type"], "options": []}
            holder.append(node)
            holder = node["options"]
            declared = group.get("options") or []
        if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in declared):
            raise EmulatorUsageError(f"/{command} needs a subcommand")
        holder.extend(self._options(declared, options, resolved, channel, command))
        data: dict[str, Any] = {
            "id": registered["id"],
            "name": top,
            "type": 1,
            "options": wrapper,
        }
        if in_guild:
            data["guild_id"] = registered["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    async def send_slash(self, channel: Channel, command: str, /, **options: Any) -> Interaction:
        """Run `/command` with options (a subcommand as "group sub") without waiting for the
        answer; the returned Interaction records what follows."""
        data = self._slash_data(channel, command, options)
        return self._emu.interaction_service.create(
            kind=APPLICATION_COMMAND, user=self, channel=channel, data=data
        )

    async def slash(
        self,
        channel: Channel,
        command: str,
        /,
        *,
        timeout: float = 5.0,  # noqa: ASYNC109
        **options: Any,
    ) -> Message:
        """Run `/command` and return the message this user then sees (ephemeral or public).
        Raises InteractionFailed if the user saw "This interaction failed"."""
        inter = await self.send_slash(channel, command, **options)
        return await inter.response(timeout)

    # -- components ------------------------------------------------------------------------

    def _check_visible(self, message: Message) -> None:
        if message.deleted:
            raise EmulatorUsageError(f"{message!r} was deleted")
        if not message.visible_to(self):
            raise EmulatorUsageError(f"{self.name} cannot see {message!r}")

    async def send_click(self, message: Message, target: str, /) -> Interaction:
        """Click the button whose custom_id or label is `target`, without waiting."""
        self._check_visible(message)
        button = message.button(target)
        if button.disabled:
            raise EmulatorUsageError(f"button {target!r} on {message!r} is disabled")
        if button.style in (LINK_STYLE, PREMIUM_STYLE):
            raise EmulatorUsageError(f"button {target!r} is a link: clicking sends no interaction")
        data = {"custom_id": button.custom_id, "component_type": 2, "id": button.id}
        return self._emu.interaction_service.create(
            kind=MESSAGE_COMPONENT,
            user=self,
            channel=message.channel,
            data=data,
            source_message=message,
        )

    async def click(self, message: Message, target: str, /, *, timeout: float = 5.0) -> Message:  # noqa: ASYNC109
        """Click a button and return what the user sees next: the updated message (types 6 and
        7), or the new message the bot answered with (types 4 and 5)."""
        inter = await self.send_click(message, target)
        return await inter.response(timeout)

    async def send_select(self, message: Message, target: str, values: list[str]) -> Interaction:
        self._check_visible(message)
        menu = message.select_menu(target)
        if menu.get("disabled"):
            raise EmulatorUsageError(f"select {target!r} is disabled")
        if menu.get("type") != STRING_SELECT:
            raise EmulatorUsageError("only string selects are supported by the emulator")
        offered = [o["value"] for o in menu.get("options") or []]
        if any(v not in offered for v in values):
            raise EmulatorUsageError(f"{values} are not all among the options {offered}")
        low, high = menu.get("min_values", 1), menu.get("max_values", 1)
        if not low <= len(values) <= high:
            raise EmulatorUsageError(f"pick between {low} and {high} options")
        data = {
            "custom_id": menu["custom_id"],
            "component_type": STRING_SELECT,
            "values": list(values),
            "id": menu.get("id"),
        }
        return self._emu.interaction_service.create(
            kind=MESSAGE_COMPONENT,
            user=self,
            channel=message.channel,
            data=data,
            source_message=message,
        )

    async def select(
        self,
        message: Message,
        target: str,
        values: list[str],
        *,
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> Message:
        """Pick `values` in the select menu whose custom_id or placeholder is `target`."""
        inter = await self.send_select(message, target, values)
        return await inter.response(timeout)

    # -- modals ----------------------------------------------------------------------------

    async def send_modal(self, modal: Modal, values: dict[str, Any]) -> Interaction:
        if modal not in self.modals:
            raise EmulatorUsageError(f"{self.name} was not shown the modal {modal.title!r}")
        rows: list[dict[str, Any]] = []
        used: set[str] = set()
        for top in modal.components:
            inner = (
                (top.get("components") or [None])[0]
                if top.get("type") == 1
                else top.get("component")
            )
            if not isinstance(inner, dict):
                rows.append({"type": top.get("type"), "id": top.get("id")})
                continue
            key = str(inner.get("custom_id"))
            used.add(key)
            if inner.get("type") == 4:
                value = values.get(key, inner.get("value") or "")
                if inner.get("required", True) and not value:
                    raise EmulatorUsageError(f"the modal field {key!r} is required")
                answer: dict[str, Any] = {
                    "type": 4,
                    "custom_id": key,
                    "value": value,
                    "id": inner.get("id"),
                }
            else:
                picked = values.get(key, [])
                answer = {
                    "type": inner.get("type"),
                    "custom_id": key,
                    "values": picked if isinstance(picked, list) else [picked],
                    "id": inner.get("id"),
                }
            if top.get("type") == 1:
                rows.append({"type": 1, "id": top.get("id"), "components": [answer]})
            else:
                rows.append({"type": top.get("type"), "id": top.get("id"), "component": answer})
        unknown = set(values) - used
        if unknown:
            raise EmulatorUsageError(f"the modal has no fields {sorted(unknown)}")
        self.modals.remove(modal)
        opener = modal.interaction
        return self._emu.interaction_service.create(
            kind=MODAL_SUBMIT,
            user=self,
            channel=opener.channel,
            data={"custom_id": modal.custom_id, "components": rows},
            source_message=opener.source_message,
            opened_by=opener,
        )

    async def submit_modal(
        self,
        modal: Modal,
        values: dict[str, Any],
        *,
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> Message:
        """Fill the modal's fields by custom_id and submit; returns what the user sees next."""
        inter = await self.send_modal(modal, values)
        return await inter.response(timeout)

    # -- plain messages --------------------------------------------------------------------

    async def say(self, channel: Channel, content: str) -> Message:
        """Post an ordinary message (the bot receives MESSAGE_CREATE as its intents allow)."""
        self._check_channel(channel)
        if channel.guild is not None and not channel.permissions_for(self) & perms.SEND_MESSAGES:
            raise EmulatorUsageError(f"{self.name} cannot write in #{channel.name}")
        return self._emu.message_service.create(
            channel=channel,
            author=self,
            body={"content": content},
            allowed_flags=CHANNEL_MESSAGE_FLAGS,
        )
