"""Discord's OpenAPI description as a contract: every request the bot made to the emulator and
every answer the emulator gave, checked against the vendored spec (tests/data/discord-openapi).

jsonschema is not among the pinned dependencies, so this is a small validator of the JSON Schema
subset the spec uses: $ref, type (a list, "null" included), const, enum, properties, required,
additionalProperties, items, min/maxItems, uniqueItems, maxProperties, min/maxLength, pattern,
minimum/maximum, format int32/int64, allOf, anyOf, oneOf (exactly one). Formats date-time, uri
and nonce are not checked.

Where the spec is stricter than Discord, the difference is listed in ACCEPTED with the reason
Discord accepts it; everything else is a contract violation.
"""

from __future__ import annotations

import functools
import gzip
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SPEC_FILE = Path(__file__).resolve().parent.parent / "data" / "discord-openapi" / "openapi.json.gz"
API_PREFIX = "/api/v10"
INT32 = (-(2**31), 2**31 - 1)


@dataclass(frozen=True)
class Accepted:
    """A place where Discord accepts what its own description refuses."""

    direction: str  # "request" or "response"
    where: str  # regex on the JSON path of the value (e.g. `\.embeds\[\d+\]\.flags$`)
    problem: str  # regex on the problem found there
    reason: str


ACCEPTED: tuple[Accepted, ...] = (
    Accepted(
        "request",
        r".",
        r"^expected string",
        "Snowflakes sent as JSON integers (emoji.id, allowed_mentions.users[], a new attachment's "
        "id 0): Discord parses a snowflake from an integer or a string; discord.py sends ints.",
    ),
    Accepted(
        "request",
        r"\.tts$",
        r"^unexpected property",
        "`tts` on a message edit: discord.py sends it, Discord ignores it.",
    ),
    Accepted(
        "request",
        r"\.embeds\[\d+\]\.flags$",
        r"^unexpected property",
        "`flags` on an embed: discord.py sends it, Discord ignores it.",
    ),
    Accepted(
        "request",
        r"\[\d+\]\.nsfw$",
        r"^unexpected property",
        "`nsfw` on a command: discord.py sends it on every command, Discord accepts it.",
    ),
    Accepted(
        "response",
        r"\._errors\[\d+\]\.code$",
        r"^expected integer",
        "Error codes inside `errors.*._errors[]` are strings such as BASE_TYPE_REQUIRED on "
        "Discord, though the description types them integer.",
    ),
)


@functools.cache
def load_spec() -> dict[str, Any]:
    with gzip.open(SPEC_FILE, "rt", encoding="utf-8") as f:
        spec: dict[str, Any] = json.load(f)
    return spec


class Validator:
    """Validates values against the spec's schemas; `accept(path, problem)` may forgive one."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self._patterns: dict[str, re.Pattern[str]] = {}
        self._kinds: dict[int, tuple[Any, ...] | None] = {}

    def resolve(self, node: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in node:
            target: Any = self.spec
            for part in node["$ref"].removeprefix("#/").split("/"):
                target = target[part]
            node = target
        return node

    def errors(
        self, schema: dict[str, Any], value: Any, path: str, accept: Callable[[str, str], bool]
    ) -> list[str]:
        schema = self.resolve(schema)
        found: list[str] = []

        def problem(at: str, text: str) -> None:
            if not accept(at, text):
                found.append(f"{at or '$'}: {text}")

        for sub in schema.get("allOf", ()):
            found += self.errors(sub, value, path, accept)
        for key in ("anyOf", "oneOf"):
            if key in schema:
                # Alternatives told apart by a `type` constant (components, callback answers):
                # only those that admit the value's type are checked, or a message costs
                # seconds. One that does not admit it simply does not match.
                options = [s for s in schema[key] if self._admits(s, value)] or schema[key]
                results = [self.errors(s, value, path, accept) for s in options]
                matched = sum(1 for r in results if not r)
                if matched == 0:
                    best = min(results, key=len)
                    problem(path, f"matches none of {key} ({len(results)}): " + "; ".join(best[:3]))
                elif key == "oneOf" and matched > 1 and schema.get("x-discord-union") != "anyOf":
                    problem(path, f"matches {matched} alternatives of oneOf")
        if "const" in schema and value != schema["const"]:
            problem(path, f"expected {schema['const']!r}, got {value!r}")
        if "enum" in schema and value not in schema["enum"]:
            problem(path, f"expected one of {schema['enum']!r}, got {value!r}")
        if "type" in schema and not self._type_ok(schema["type"], value):
            problem(path, f"expected {schema['type']}, got {type(value).__name__} {value!r:.60}")
            return found
        if isinstance(value, dict):
            found += self._object(schema, value, path, accept, problem)
        elif isinstance(value, list):
            found += self._array(schema, value, path, accept, problem)
        elif isinstance(value, str):
            if len(value) > schema.get("maxLength", len(value)):
                problem(path, f"longer than {schema['maxLength']}")
            if len(value) < schema.get("minLength", 0):
                problem(path, f"shorter than {schema['minLength']}")
            if "pattern" in schema and not self._pattern(schema["pattern"]).search(value):
                problem(path, f"does not match {schema['pattern']}: {value!r:.60}")
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            if "minimum" in schema and value < schema["minimum"]:
                problem(path, f"below {schema['minimum']}")
            if "maximum" in schema and value > schema["maximum"]:
                problem(path, f"above {schema['maximum']}")
            if schema.get("format") == "int32" and not INT32[0] <= value <= INT32[1]:
                problem(path, "outside int32")
        return found

    def _object(
        self,
        schema: dict[str, Any],
        value: dict[str, Any],
        path: str,
        accept: Callable[[str, str], bool],
        problem: Callable[[str, str], None],
    ) -> list[str]:
        found: list[str] = []
        properties = schema.get("properties", {})
        for name in schema.get("required", ()):
            if name not in value:
                problem(f"{path}.{name}", "required property missing")
        extra = schema.get("additionalProperties", True)
        for name, item in value.items():
            at = f"{path}.{name}"
            if name in properties:
                found += self.errors(properties[name], item, at, accept)
            elif extra is False and properties:
                problem(at, "unexpected property")
            elif isinstance(extra, dict):
                found += self.errors(extra, item, at, accept)
        if len(value) > schema.get("maxProperties", len(value)):
            problem(path, f"more than {schema['maxProperties']} properties")
        return found

    def _array(
        self,
        schema: dict[str, Any],
        value: list[Any],
        path: str,
        accept: Callable[[str, str], bool],
        problem: Callable[[str, str], None],
    ) -> list[str]:
        found: list[str] = []
        if len(value) > schema.get("maxItems", len(value)):
            problem(path, f"more than {schema['maxItems']} items")
        if len(value) < schema.get("minItems", 0):
            problem(path, f"fewer than {schema['minItems']} items")
        if schema.get("uniqueItems"):
            seen = [json.dumps(v, sort_keys=True) for v in value]
            if len(set(seen)) != len(seen):
                problem(path, "items are not unique")
        if "items" in schema:
            for i, item in enumerate(value):
                found += self.errors(schema["items"], item, f"{path}[{i}]", accept)
        return found

    def _admits(self, schema: dict[str, Any], value: Any) -> bool:
        if not isinstance(value, dict) or "type" not in value:
            return True
        key = id(schema)
        if key not in self._kinds:
            kind = self.resolve(schema).get("properties", {}).get("type")
            allowed: tuple[Any, ...] | None = None
            if isinstance(kind, dict):
                kind = self.resolve(kind)
                if "const" in kind:
                    allowed = (kind["const"],)
                elif "enum" in kind:
                    allowed = tuple(kind["enum"])
            self._kinds[key] = allowed
        allowed = self._kinds[key]
        return allowed is None or value["type"] in allowed

    def _pattern(self, pattern: str) -> re.Pattern[str]:
        if pattern not in self._patterns:
            self._patterns[pattern] = re.compile(pattern)
        return self._patterns[pattern]

    @staticmethod
    def _type_ok(expected: str | list[str], value: Any) -> bool:
        kinds = [expected] if isinstance(expected, str) else expected
        for kind in kinds:
            if (
                (kind == "null" and value is None)
                or (kind == "boolean" and isinstance(value, bool))
                or (kind == "string" and isinstance(value, str))
                or (kind == "object" and isinstance(value, dict))
                or (kind == "array" and isinstance(value, list))
                or (kind == "integer" and isinstance(value, int) and not isinstance(value, bool))
                or (
                    kind == "number"
                    and isinstance(value, (int, float))
                    and not isinstance(value, bool)
                )
            ):
                return True
        return False


@dataclass
class Operation:
    template: str
    method: str
    spec: dict[str, Any]


class Contract:
    """Requests and responses of recorded traffic checked against Discord's description."""

    def __init__(self, spec: dict[str, Any] | None = None) -> None:
        self.spec = spec if spec is not None else load_spec()
        self.validator = Validator(self.spec)
        self._paths: list[tuple[int, re.Pattern[str], str]] = []
        for template in self.spec["paths"]:
            regex = re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template))
            literal = sum(1 for part in template.split("/") if part and not part.startswith("{"))
            self._paths.append((literal, re.compile(f"^{regex}$"), template))
        self._paths.sort(key=lambda entry: -entry[0])  # /messages/@original before /{message_id}
        self.accepted_seen: set[str] = set()

    def operation(self, method: str, path: str) -> Operation | None:
        path = path.removeprefix(API_PREFIX)
        for _, regex, template in self._paths:
            if regex.match(path):
                op = self.spec["paths"][template].get(method.lower())
                if op is not None:
                    return Operation(template, method.upper(), op)
        return None

    def _accept(self, direction: str) -> Callable[[str, str], bool]:
        def accept(path: str, problem: str) -> bool:
            for rule in ACCEPTED:
                if (
                    rule.direction == direction
                    and re.search(rule.where, path)
                    and re.search(rule.problem, problem)
                ):
                    self.accepted_seen.add(rule.reason)
                    return True
            return False

        return accept

    def request_errors(self, method: str, path: str, body: Any) -> list[str]:
        op = self.operation(method, path)
        if op is None:
            return [f"{method} {path}: no such operation in Discord's API"]
        content = (op.spec.get("requestBody") or {}).get("content", {})
        if body is None:
            return []
        schema = (content.get("application/json") or {}).get("schema")
        if schema is None:
            return [f"{method} {op.template}: Discord takes no JSON body here"]
        found = self.validator.errors(schema, body, "", self._accept("request"))
        return [f"{method} {op.template} request{e}" for e in found]

    def response_errors(self, method: str, path: str, status: int, body: Any) -> list[str]:
        op = self.operation(method, path)
        if op is None:
            return []  # already reported as a request
        responses = op.spec.get("responses", {})
        answer = responses.get(str(status)) or responses.get(f"{str(status)[0]}XX")
        if answer is None:
            return [f"{method} {op.template}: Discord never answers {status}"]
        answer = self.validator.resolve(answer)
        schema = (answer.get("content", {}).get("application/json") or {}).get("schema")
        if schema is None:
            return [] if body is None else [f"{method} {op.template} {status}: body not expected"]
        if body is None:
            return [f"{method} {op.template} {status}: a JSON body is expected"]
        found = self.validator.errors(schema, body, "", self._accept("response"))
        return [f"{method} {op.template} {status} response{e}" for e in found]

    def traffic_errors(self, records: Iterable[Any]) -> list[str]:
        """Every problem in recorded HttpRecords (method, path, body, status, response)."""
        found: list[str] = []
        for record in records:
            if record.status in (0, 499) or not record.path.startswith(API_PREFIX):
                continue  # never answered (client gone), or not the REST API (attachments)
            found += self.request_errors(record.method, record.path, record.body)
            found += self.response_errors(
                record.method, record.path, record.status, record.response
            )
        return sorted(set(found))
