"""Interactions: creation, the 3-second deadline, callbacks and the 15-minute token.

The rules enforced here (each breach answered with Discord's error and recorded as a violation):
- the first response must arrive within `response_deadline` seconds (10062 after that; the user
  sees "This interaction failed");
- one interaction is acknowledged once (40060);
- the callback type must suit the interaction (no 6/7 for a slash command, modals first only);
- follow-ups and edits of the original go through the token for `token_lifetime` seconds on the
  emulator clock (401 / 50027 after that), and only once the interaction was acknowledged;
- ephemeral (flag 64) messages exist only here, visible to the interacting user alone.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any, Protocol

from emulator import limits, payloads
from emulator.errors import (
    INTERACTION_ALREADY_ACKNOWLEDGED,
    INVALID_WEBHOOK_TOKEN,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    ApiError,
    EmulatorUsageError,
    FormErrors,
    Violation,
    invalid_form,
)
from emulator.ids import new_token
from emulator.limits import EPHEMERAL, INTERACTION_MESSAGE_FLAGS, LOADING
from emulator.messages import Messages, Upload
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
)

if TYPE_CHECKING:
    from emulator.clock import Clock
    from emulator.gateway import Gateway
    from emulator.ids import Snowflakes
    from emulator.notifier import Notifier

CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE,
        UPDATE_MESSAGE,
        MODAL,
    },
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
}
FAILED = "This interaction failed"
DID_NOT_RESPOND = "The application did not respond"


class InteractionWorld(Protocol):
    """What the interaction service needs of the emulator: its clock and deadlines, the gateway
    that delivers an interaction, the message service that shows its answers."""

    @property
    def bot(self) -> Account: ...
    @property
    def application_id(self) -> int: ...
    @property
    def response_deadline(self) -> float: ...
    @property
    def token_lifetime(self) -> float: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def snowflakes(self) -> Snowflakes: ...
    @property
    def notifier(self) -> Notifier: ...
    @property
    def gateway(self) -> Gateway: ...
    @property
    def message_service(self) -> Messages: ...

    def record_violation(self, violation: Violation) -> None: ...


class Interactions:
    def __init__(self, emu: InteractionWorld) -> None:
        self._emu = emu
        self.all: list[Interaction] = []
        self.by_id: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        emu.clock.on_advance(self.recheck)

    # -- creation --------------------------------------------------------------------------

    def create(
        self,
        *,
        kind: int,
        user: Person,
        channel: Channel,
        data: dict[str, Any],
        source_message: Message | None = None,
        opened_by: Interaction | None = None,
    ) -> Interaction:
        emu = self._emu
        guild_id = channel.guild.id if channel.guild is not None else None
        if not emu.gateway.connected_to(guild_id):
            raise EmulatorUsageError(
                "no bot session of this guild's shard is connected to the emulator's gateway"
            )
        inter = Interaction(
            id=emu.snowflakes.next(),
            token=new_token(),
            type=kind,
            user=user,
            channel=channel,
            data=data,
            created_at=emu.clock.now(),
            source_message=source_message,
            opened_by=opened_by,
        )
        inter.payload = payloads.interaction(inter)

        def written() -> None:
            inter.dispatched_at = time.perf_counter()

        self.all.append(inter)
        self.by_id[inter.id] = inter
        self.by_token[inter.token] = inter
        emu.gateway.dispatch(
            "INTERACTION_CREATE", inter.payload, on_written=written, guild_id=guild_id
        )
        inter.timer = asyncio.get_running_loop().call_later(
            emu.response_deadline, self._deadline_passed, inter
        )
        return inter

    # -- timed rules -----------------------------------------------------------------------

    def _fail(self, inter: Interaction, shown: str) -> None:
        inter.failed = True
        inter.failure = shown
        inter.settled = True
        inter.settled_event.set()
        inter.user.failures.append(inter)
        self._emu.notifier.changed()

    def _deadline_passed(self, inter: Interaction) -> None:
        if inter.acknowledged or inter.failed:
            return
        self._fail(inter, FAILED)
        self._emu.record_violation(
            Violation(
                code=UNKNOWN_INTERACTION,
                status=0,
                message="Unknown interaction",
                detail=(
                    f"no response within {self._emu.response_deadline:g} s: the user saw {FAILED!r}"
                ),
                method="-",
                path="(no response)",
                interaction_id=inter.id,
                at=self._emu.clock.now(),
            )
        )

    def recheck(self) -> None:
        """After the clock jumps: missed deadlines fail; expired "thinking" responses fail."""
        now = self._emu.clock.now()
        for inter in self.all:
            if inter.settled and not (inter.original and inter.original.loading):
                continue
            age = now - inter.created_at
            if not inter.acknowledged and age > self._emu.response_deadline:
                self._deadline_passed(inter)
            elif (
                inter.response_type == DEFERRED_CHANNEL_MESSAGE
                and age > self._emu.token_lifetime
                and not inter.failed
            ):
                self._fail(inter, DID_NOT_RESPOND)

    def _settle(self, inter: Interaction) -> None:
        inter.settled = True
        inter.settled_event.set()
        self._emu.notifier.changed()

    # -- the callback ----------------------------------------------------------------------

    def callback(
        self,
        interaction_id: int,
        token: str,
        body: dict[str, Any],
        uploads: list[Upload],
        arrived: float,
    ) -> tuple[Interaction, Message | None]:
        inter = self.by_id.get(interaction_id)
        if inter is None or inter.token != token:
            raise ApiError(
                404,
                UNKNOWN_INTERACTION,
                "Unknown interaction",
                detail="no interaction with this id and token",
            )
        late = self._emu.clock.now() - inter.created_at
        if inter.acknowledged:
            raise self._tag(
                ApiError(
                    400,
                    INTERACTION_ALREADY_ACKNOWLEDGED,
                    "Interaction has already been acknowledged",
                    detail=f"first response was type {inter.response_type}",
                ),
                inter,
            )
        if inter.failed or late > self._emu.response_deadline:
            self._deadline_passed(inter)
            raise self._tag(
                ApiError(
                    404,
                    UNKNOWN_INTERACTION,
                    "Unknown interaction",
                    detail=f"first response {late:.3f} s after the interaction "
                    f"(deadline {self._emu.response_deadline:g} s)",
                ),
                inter,
            )
        kind = body.get("type")
        data = body.get("data") or {}
        if kind not in ALLOWED_CALLBACKS[inter.type] or (
            kind in (DEFERRED_UPDATE, UPDATE_MESSAGE) and inter.source_message is None
        ):
            errors = FormErrors()
            errors.add(
                ("type",),
                "INTERACTION_CALLBACK_TYPE_INVALID",
                f"Callback type {kind} is not valid for interaction type {inter.type}",
            )
            raise self._tag(invalid_form(errors), inter)
        resource = self._respond(inter, kind, data, uploads)
        inter.response_type = kind
        inter.acked_at = arrived
        if inter.timer is not None:
            inter.timer.cancel()
        if kind != DEFERRED_CHANNEL_MESSAGE:
            self._settle(inter)
        self._emu.notifier.changed()
        return inter, resource

    def _respond(
        self, inter: Interaction, kind: int, data: dict[str, Any], uploads: list[Upload]
    ) -> Message | None:
        emu = self._emu
        message_kind = 20 if inter.type == APPLICATION_COMMAND else 0
        try:
            if kind == CHANNEL_MESSAGE:
                flags = int(data.get("flags") or 0)
                inter.original = emu.message_service.create(
                    channel=inter.channel,
                    author=emu.bot,
                    body=data,
                    uploads=uploads,
                    allowed_flags=INTERACTION_MESSAGE_FLAGS,
                    ephemeral_for=inter.user if flags & EPHEMERAL else None,
                    interaction=inter,
                    webhook_id=emu.application_id,
                    kind=message_kind,
                )
                return inter.original
            if kind == DEFERRED_CHANNEL_MESSAGE:
                flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
                inter.original = emu.message_service.create(
                    channel=inter.channel,
                    author=emu.bot,
                    body={},
                    allowed_flags=0,
                    ephemeral_for=inter.user if flags & EPHEMERAL else None,
                    interaction=inter,
                    webhook_id=emu.application_id,
                    kind=message_kind,
                    force_flags=flags,
                )
                return inter.original
            if kind == DEFERRED_UPDATE:
                inter.original = inter.source_message
                return None
            if kind == UPDATE_MESSAGE:
                target = inter.source_message
                assert target is not None
                if target.deleted:
                    raise ApiError(404, UNKNOWN_MESSAGE, "Unknown Message", violation=False)
                inter.original = emu.message_service.edit(
                    target, data, uploads, allowed_flags=INTERACTION_MESSAGE_FLAGS
                )
                return inter.original
            errors = limits.validate_modal(data)
            if errors:
                raise invalid_form(errors)
            inter.modal = Modal(data["custom_id"], data["title"], data["components"], inter)
            inter.user.modals.append(inter.modal)
            return None
        except ApiError as error:
            raise self._tag(error, inter) from None

    @staticmethod
    def _tag(error: ApiError, inter: Interaction) -> ApiError:
        error.interaction_id = inter.id
        return error

    # -- the webhook (follow-ups, the original response) -----------------------------------

    def by_webhook(self, application_id: int, token: str) -> Interaction:
        if application_id != self._emu.application_id:
            raise ApiError(404, UNKNOWN_WEBHOOK, "Unknown Webhook", detail="wrong application id")
        inter = self.by_token.get(token)
        if inter is None:
            raise ApiError(404, UNKNOWN_WEBHOOK, "Unknown Webhook", detail="unknown token")
        if self._emu.clock.now() - inter.created_at > self._emu.token_lifetime:
            raise self._tag(
                ApiError(
                    401,
                    INVALID_WEBHOOK_TOKEN,
                    "Invalid Webhook Token",
                    detail=f"interaction tokens are valid {self._emu.token_lifetime:g} s",
                ),
                inter,
            )
        if not inter.acknowledged:
            reason = "the interaction failed" if inter.failed else "not acknowledged yet"
            raise self._tag(
                ApiError(
                    404,
                    UNKNOWN_WEBHOOK,
                    "Unknown Webhook",
                    detail=f"the token works only after the first response ({reason})",
                ),
                inter,
            )
        return inter

    def followup(
        self, application_id: int, token: str, body: dict[str, Any], uploads: list[Upload]
    ) -> Message:
        inter = self.by_webhook(application_id, token)
        emu = self._emu
        try:
            original = inter.original
            if (
                inter.response_type == DEFERRED_CHANNEL_MESSAGE
                and original is not None
                and original.loading
                and not inter.followups
            ):
                # The first follow-up after a "thinking" defer replaces it, keeping its privacy.
                fill = {
                    **body,
                    "flags": (int(body.get("flags") or 0) & ~EPHEMERAL)
                    | (original.flags & EPHEMERAL),
                }
                message = emu.message_service.edit(
                    original, fill, uploads, allowed_flags=INTERACTION_MESSAGE_FLAGS
                )
                self._settle(inter)
                return message
            flags = int(body.get("flags") or 0)
            message = emu.message_service.create(
                channel=inter.channel,
                author=emu.bot,
                body=body,
                uploads=uploads,
                allowed_flags=INTERACTION_MESSAGE_FLAGS,
                ephemeral_for=inter.user if flags & EPHEMERAL else None,
                interaction=inter,
                webhook_id=emu.application_id,
            )
        except ApiError as error:
            raise self._tag(error, inter) from None
        inter.followups.append(message)
        return message

    def webhook_message(
        self, application_id: int, token: str, message_ref: str
    ) -> tuple[Interaction, Message]:
        inter = self.by_webhook(application_id, token)
        if message_ref == "@original":
            message = inter.original
        elif not message_ref.isdigit():
            raise self._tag(ApiError(404, UNKNOWN_MESSAGE, "Unknown Message"), inter)
        else:
            wanted = int(message_ref)
            candidates = [inter.original, *inter.followups]
            message = next((m for m in candidates if m is not None and m.id == wanted), None)
        if message is None:
            raise self._tag(
                ApiError(
                    404,
                    UNKNOWN_MESSAGE,
                    "Unknown Message",
                    detail=f"{message_ref} is not a message of this interaction",
                ),
                inter,
            )
        if message.deleted or message.dismissed:
            # The user dismissed it or it was deleted: a legitimate race, not a broken rule.
            raise ApiError(404, UNKNOWN_MESSAGE, "Unknown Message", violation=False)
        return inter, message

    def edit_webhook_message(
        self,
        application_id: int,
        token: str,
        message_ref: str,
        body: dict[str, Any],
        uploads: list[Upload],
    ) -> Message:
        inter, message = self.webhook_message(application_id, token, message_ref)
        was_loading = message.loading
        body = dict(body)
        if body.get("flags") is not None:
            # Ephemerality is fixed by the first response; discord.py may echo the flag.
            body["flags"] = (int(body["flags"]) & ~EPHEMERAL) | (message.flags & EPHEMERAL)
        try:
            edited = self._emu.message_service.edit(
                message, body, uploads, allowed_flags=INTERACTION_MESSAGE_FLAGS
            )
        except ApiError as error:
            raise self._tag(error, inter) from None
        if was_loading:
            self._settle(inter)
        return edited

    def delete_webhook_message(self, application_id: int, token: str, message_ref: str) -> None:
        inter, message = self.webhook_message(application_id, token, message_ref)
        self._emu.message_service.delete(message)
        self._settle(inter)
