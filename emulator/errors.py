"""Errors: Discord's API errors (answered to the bot) and the emulator's own assertions.

`ApiError` is what the emulator answers the bot with, in Discord's JSON shape. When the request
broke one of Discord's rules the error is also recorded as a `Violation` (a bot that would fail on
Discord fails here). `EmulatorUsageError` and `InteractionFailed` are raised to the *test*: they
subclass AssertionError so pytest shows them as plain failures.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Discord's JSON error codes used by the emulator.
UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
UNKNOWN_APPLICATION_COMMAND = 10063
MAX_DAILY_COMMAND_CREATES = 30034
OLD_MESSAGE_EDITS_EXHAUSTED = 30046
INTERACTION_ALREADY_ACKNOWLEDGED = 40060
REQUEST_TOO_LARGE = 40005
MISSING_ACCESS = 50001
CANNOT_SEND_EMPTY_MESSAGE = 50006
CANNOT_EDIT_OTHERS_MESSAGE = 50005
MISSING_PERMISSIONS = 50013
INVALID_WEBHOOK_TOKEN = 50027
INVALID_FORM_BODY = 50035


class FormErrors:
    """Discord's nested `errors` object for 50035 Invalid Form Body."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}
        self.flat: list[str] = []

    def add(self, path: tuple[str | int, ...], code: str, message: str) -> None:
        node = self.tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
        self.flat.append(f"{'.'.join(map(str, path)) or '(body)'}: {message}")

    def __bool__(self) -> bool:
        return bool(self.flat)


class ApiError(Exception):
    """An error response. `violation=True` records it as a broken Discord rule."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: FormErrors | None = None,
        violation: bool = True,
        detail: str = "",
    ) -> None:
        super().__init__(f"{status} {code} {message}" + (f": {detail}" if detail else ""))
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.violation = violation
        self.detail = detail or (", ".join(errors.flat) if errors else "")
        self.interaction_id: int | None = None

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors.tree
        return body


def invalid_form(errors: FormErrors) -> ApiError:
    return ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", errors=errors)


@dataclass
class Violation:
    """A request the emulator refused because it breaks one of Discord's rules."""

    code: int
    status: int
    message: str
    detail: str
    method: str
    path: str
    interaction_id: int | None = None
    at: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        where = f" (interaction {self.interaction_id})" if self.interaction_id else ""
        return f"{self.status} {self.code} {self.message} on {self.method} {self.path}{where}" + (
            f": {self.detail}" if self.detail else ""
        )


class EmulatorUsageError(AssertionError):
    """A test asked for something a Discord user cannot do (click a hidden message...)."""


class InteractionFailed(AssertionError):
    """The user saw "This interaction failed" (no first response in time)."""
