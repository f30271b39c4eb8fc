"""Application commands: Discord's validation rules and the registry a sync writes into.

The registry is what users can invoke: a guild's commands (synced to that guild) and the global
ones. Command ids stay stable across syncs of the same name, as on Discord; each *new* name
counts against the 200-a-day creation quota of its scope (error 30034).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from emulator.clock import Clock
from emulator.errors import MAX_DAILY_COMMAND_CREATES, ApiError, FormErrors, invalid_form
from emulator.ids import Snowflakes
from emulator.json_copy import copy_json

# Discord's 32 locales (no pt-PT).
LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)
CHAT_INPUT, USER_COMMAND, MESSAGE_COMMAND = 1, 2, 3
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)
NAME_PATTERN = re.compile(r"^[-_'\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")
MAX_CHAT_INPUT_COMMANDS = 100
MAX_CONTEXT_MENU_COMMANDS = 15
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_COMMAND_CHARACTERS = 4000
DAILY_CREATES = 200

Path = tuple[str | int, ...]


def _check_name(errors: FormErrors, path: Path, name: Any, *, chat_input: bool) -> None:
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        errors.add(path, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")
    elif chat_input and (not NAME_PATTERN.match(name) or name != name.lower()):
        errors.add(
            path,
            "APPLICATION_COMMAND_INVALID_NAME",
            "Command name is invalid (lower case letters, digits, - and _ only)",
        )


def _check_description(errors: FormErrors, path: Path, text: Any) -> None:
    if not isinstance(text, str) or not 1 <= len(text) <= 100:
        errors.add(path, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")


def _check_localizations(
    errors: FormErrors, path: Path, values: Any, *, name: bool, chat_input: bool = True
) -> None:
    for locale, text in (values or {}).items():
        if locale not in LOCALES:
            errors.add((*path, locale), "LOCALE_INVALID", f"{locale!r} is not a valid locale")
        elif name:
            _check_name(errors, (*path, locale), text, chat_input=chat_input)
        else:
            _check_description(errors, (*path, locale), text)


def _characters(item: dict[str, Any]) -> int:
    total = len(item.get("name") or "") + len(item.get("description") or "")
    for choice in item.get("choices") or []:
        total += len(str(choice.get("name") or "")) + len(str(choice.get("value") or ""))
    return total + sum(_characters(option) for option in item.get("options") or [])


def _check_options(errors: FormErrors, path: Path, options: Any, depth: int) -> None:
    if options is None:
        return
    if not isinstance(options, list) or len(options) > MAX_OPTIONS:
        errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_OPTIONS} or fewer in length.")
        return
    names: set[str] = set()
    seen_optional = False
    for index, option in enumerate(options):
        o_path = (*path, index)
        kind = option.get("type")
        if kind not in range(1, 12):
            errors.add((*o_path, "type"), "BASE_TYPE_CHOICES", "Value must be one of 1-11.")
            continue
        _check_name(errors, (*o_path, "name"), option.get("name"), chat_input=True)
        _check_description(errors, (*o_path, "description"), option.get("description"))
        _check_localizations(
            errors, (*o_path, "name_localizations"), option.get("name_localizations"), name=True
        )
        _check_localizations(
            errors,
            (*o_path, "description_localizations"),
            option.get("description_localizations"),
            name=False,
        )
        if option.get("name") in names:
            errors.add(
                (*o_path, "name"),
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                "Option names must be unique",
            )
        names.add(option.get("name"))
        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            if depth >= (1 if kind == SUB_COMMAND_GROUP else 2):
                errors.add((*o_path, "type"), "APPLICATION_COMMAND_TOO_DEEP", "Nested too deep")
            _check_options(errors, (*o_path, "options"), option.get("options"), depth + 1)
            continue
        if option.get("required"):
            if seen_optional:
                errors.add(
                    (*o_path, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            seen_optional = True
        choices = option.get("choices")
        if choices is not None:
            if kind not in (STRING, INTEGER, NUMBER):
                errors.add((*o_path, "choices"), "CHOICES_NOT_ALLOWED", "Choices not allowed")
            elif len(choices) > MAX_CHOICES:
                errors.add(
                    (*o_path, "choices"),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_CHOICES} or fewer in length.",
                )
            for c_index, choice in enumerate(choices or []):
                c_path = (*o_path, "choices", c_index)
                name = choice.get("name")
                if not isinstance(name, str) or not 1 <= len(name) <= 100:
                    errors.add(
                        (*c_path, "name"),
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 100 in length.",
                    )
                _check_localizations(
                    errors,
                    (*c_path, "name_localizations"),
                    choice.get("name_localizations"),
                    name=False,  # a choice's name is free text of 1-100 characters
                )
                value = choice.get("value")
                if kind == STRING and (not isinstance(value, str) or len(value) > 100):
                    errors.add(
                        (*c_path, "value"),
                        "BASE_TYPE_MAX_LENGTH",
                        "Must be 100 or fewer in length.",
                    )
        for key in ("min_length", "max_length"):
            if option.get(key) is not None and not 0 <= option[key] <= 6000:
                errors.add((*o_path, key), "NUMBER_TYPE_MAX", "Must be between 0 and 6000.")


def validate_command(command: Any, path: Path, errors: FormErrors) -> None:
    if not isinstance(command, dict):
        errors.add(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return
    kind = command.get("type", CHAT_INPUT)
    chat_input = kind == CHAT_INPUT
    _check_name(errors, (*path, "name"), command.get("name"), chat_input=chat_input)
    _check_localizations(
        errors,
        (*path, "name_localizations"),
        command.get("name_localizations"),
        name=True,
        chat_input=chat_input,
    )
    if chat_input:
        _check_description(errors, (*path, "description"), command.get("description"))
        _check_localizations(
            errors,
            (*path, "description_localizations"),
            command.get("description_localizations"),
            name=False,
        )
        _check_options(errors, (*path, "options"), command.get("options"), 0)
        if _characters(command) > MAX_COMMAND_CHARACTERS:
            errors.add(
                path,
                "APPLICATION_COMMAND_TOO_LARGE",
                f"Command exceeds maximum size ({MAX_COMMAND_CHARACTERS})",
            )
    elif command.get("description"):
        errors.add((*path, "description"), "BASE_TYPE_MAX_LENGTH", "Must be 0 in length.")


def validate_commands(commands: Any) -> FormErrors:
    errors = FormErrors()
    if not isinstance(commands, list):
        errors.add((), "LIST_TYPE_CONVERT", "Must be a list.")
        return errors
    seen: set[tuple[int, str]] = set()
    counts = {CHAT_INPUT: 0, USER_COMMAND: 0, MESSAGE_COMMAND: 0}
    for index, command in enumerate(commands):
        validate_command(command, (index,), errors)
        if not isinstance(command, dict):
            continue
        key = (command.get("type", CHAT_INPUT), command.get("name"))
        if key in seen:
            errors.add(
                (index, "name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                f"Application command names must be unique: {key[1]}",
            )
        seen.add(key)  # type: ignore[arg-type]
        counts[key[0]] = counts.get(key[0], 0) + 1
    if (
        counts[CHAT_INPUT] > MAX_CHAT_INPUT_COMMANDS
        or max(counts[USER_COMMAND], counts[MESSAGE_COMMAND]) > MAX_CONTEXT_MENU_COMMANDS
    ):
        errors.add((), "BASE_TYPE_MAX_LENGTH", "Too many application commands")
    return errors


@dataclass
class CommandScope:
    """The commands of one scope: global (guild_id None) or one guild."""

    guild_id: int | None
    commands: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict)
    creates: list[float] = field(default_factory=list)  # clock times of creations, for the quota


class CommandRegistry:
    def __init__(self, clock: Clock, snowflakes: Snowflakes, application_id: int) -> None:
        self._clock = clock
        self._snowflakes = snowflakes
        self._application_id = application_id
        self.scopes: dict[int | None, CommandScope] = {None: CommandScope(None)}
        self.sync_count = 0

    def scope(self, guild_id: int | None) -> CommandScope:
        return self.scopes.setdefault(guild_id, CommandScope(guild_id))

    def registered(self, guild_id: int | None) -> list[dict[str, Any]]:
        return [copy_json(c) for c in self.scope(guild_id).commands.values()]

    def find(self, guild_id: int | None, name: str) -> dict[str, Any] | None:
        return self.scope(guild_id).commands.get((CHAT_INPUT, name))

    def by_id(self, guild_id: int | None, command_id: int) -> dict[str, Any] | None:
        for command in self.scope(guild_id).commands.values():
            if int(command["id"]) == command_id:
                return command
        return None

    def _take_quota(self, scope: CommandScope, new: int) -> None:
        day_ago = self._clock.now() - 86_400
        scope.creates = [t for t in scope.creates if t > day_ago]
        if len(scope.creates) + new > DAILY_CREATES:
            raise ApiError(
                400,
                MAX_DAILY_COMMAND_CREATES,
                "Max number of daily application command creates has been reached (200)",
            )
        scope.creates.extend([self._clock.now()] * new)

    def _stored(
        self, guild_id: int | None, data: dict[str, Any], old: dict[str, Any] | None
    ) -> dict[str, Any]:
        stored = copy_json(data)
        stored.setdefault("type", CHAT_INPUT)
        stored.setdefault("description", "")
        stored["id"] = old["id"] if old else str(self._snowflakes.next())
        stored["application_id"] = str(self._application_id)
        stored["version"] = str(self._snowflakes.next())
        if guild_id is not None:
            stored["guild_id"] = str(guild_id)
        stored.setdefault("default_member_permissions", None)
        if stored.get("default_member_permissions") is not None:
            stored["default_member_permissions"] = str(stored["default_member_permissions"])
        stored.setdefault("dm_permission", True)
        stored.setdefault("nsfw", False)
        stored.setdefault("contexts", None)
        # discord.py sends null for "not set"; Discord answers the default, guild install.
        if stored.get("integration_types") is None:
            stored["integration_types"] = [0]
        return stored

    def overwrite(self, guild_id: int | None, commands: Any) -> list[dict[str, Any]]:
        """PUT: replace the scope's commands; unchanged names keep their ids."""
        errors = validate_commands(commands)
        if errors:
            raise invalid_form(errors)
        scope = self.scope(guild_id)
        keys = [(c.get("type", CHAT_INPUT), c["name"]) for c in commands]
        self._take_quota(scope, sum(1 for k in keys if k not in scope.commands))
        scope.commands = {
            key: self._stored(guild_id, data, scope.commands.get(key))
            for key, data in zip(keys, commands, strict=True)
        }
        self.sync_count += 1
        return self.registered(guild_id)

    def upsert(self, guild_id: int | None, command: Any) -> dict[str, Any]:
        """POST: create one command, or update the one with the same name."""
        errors = FormErrors()
        validate_command(command, (), errors)
        if errors:
            raise invalid_form(errors)
        scope = self.scope(guild_id)
        key = (command.get("type", CHAT_INPUT), command["name"])
        if key not in scope.commands:
            self._take_quota(scope, 1)
        scope.commands[key] = self._stored(guild_id, command, scope.commands.get(key))
        return copy_json(scope.commands[key])

    def edit(
        self, guild_id: int | None, command_id: int, changes: dict[str, Any]
    ) -> dict[str, Any]:
        scope = self.scope(guild_id)
        for key, command in list(scope.commands.items()):
            if int(command["id"]) == command_id:
                merged = {**command, **changes}
                errors = FormErrors()
                validate_command(merged, (), errors)
                if errors:
                    raise invalid_form(errors)
                del scope.commands[key]
                new_key = (merged.get("type", CHAT_INPUT), merged["name"])
                scope.commands[new_key] = self._stored(guild_id, merged, command)
                return copy_json(scope.commands[new_key])
        raise ApiError(404, 10063, "Unknown application command", violation=False)

    def delete(self, guild_id: int | None, command_id: int) -> None:
        scope = self.scope(guild_id)
        for key, command in list(scope.commands.items()):
            if int(command["id"]) == command_id:
                del scope.commands[key]
                return
        raise ApiError(404, 10063, "Unknown application command", violation=False)
