"""Discord's validation rules for message payloads: content, embeds, components, flags, modals.

Each check adds to a `FormErrors` with Discord's error paths and codes, so the bot receives the
same 50035 "Invalid Form Body" it would get from Discord (discord.py flattens it into text like
"In components.0.components: Must be between 1 and 5 in length.").
"""

from __future__ import annotations

from typing import Any

from emulator.errors import FormErrors

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER = 2048
MAX_AUTHOR_NAME = 256
MAX_ROWS = 5
MAX_ROW_WIDTH = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_OPTION_TEXT = 100
MAX_PLACEHOLDER = 150
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
MAX_GALLERY_ITEMS = 10
MAX_MEDIA_DESCRIPTION = 1024

# Message flags.
SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_COMPONENTS_V2 = 1 << 15
# What a bot may set when it creates a channel message; EPHEMERAL is not among them.
CHANNEL_MESSAGE_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2
# What an interaction response or follow-up may set.
INTERACTION_MESSAGE_FLAGS = CHANNEL_MESSAGE_FLAGS | EPHEMERAL

# Component types.
ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
SELECT_TYPES = {3, 5, 6, 7, 8}
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = (
    9,
    10,
    11,
    12,
    13,
    14,
    17,
)
LABEL = 18
V2_TOP_LEVEL = {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER}
LINK_STYLE, PREMIUM_STYLE = 5, 6

Path = tuple[str | int, ...]


def _length(errors: FormErrors, path: Path, value: Any, low: int, high: int) -> None:
    if value is None:
        if low > 0:
            errors.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return
    if not isinstance(value, str):
        errors.add(path, "BASE_TYPE_STRING", "Must be a string.")
        return
    if not low <= len(value) <= high:
        if low == 0:
            errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")
        else:
            errors.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")


def validate_message(
    payload: dict[str, Any], *, allowed_flags: int, errors: FormErrors | None = None
) -> FormErrors:
    """Check the fields present in a create or edit payload (absent fields are not checked)."""
    errors = errors if errors is not None else FormErrors()
    flags = payload.get("flags") or 0
    if not isinstance(flags, int):
        errors.add(("flags",), "NUMBER_TYPE_COERCE", "Value is not int.")
        flags = 0
    elif flags & ~allowed_flags:
        bad = flags & ~allowed_flags
        reason = (
            "EPHEMERAL (64) is only valid on interaction responses and follow-ups"
            if bad & EPHEMERAL
            else f"Flags {bad} cannot be set here"
        )
        errors.add(("flags",), "MESSAGE_FLAGS_INVALID", reason)
    if payload.get("content") is not None:
        _length(errors, ("content",), payload["content"], 0, MAX_CONTENT)
    if payload.get("embeds") is not None:
        validate_embeds(payload["embeds"], errors)
    v2 = bool(flags & IS_COMPONENTS_V2)
    if v2 and (payload.get("content") or payload.get("embeds")):
        errors.add(
            ("content" if payload.get("content") else "embeds",),
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            "The 'content' and 'embeds' fields cannot be used when using the IS_COMPONENTS_V2 flag",
        )
    if payload.get("components") is not None:
        validate_components(payload["components"], errors, v2=v2)
    return errors


def validate_embeds(embeds: Any, errors: FormErrors) -> None:
    if not isinstance(embeds, list):
        errors.add(("embeds",), "LIST_TYPE_CONVERT", "Must be a list.")
        return
    if len(embeds) > MAX_EMBEDS:
        errors.add(("embeds",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length.")
    total = 0
    for index, embed in enumerate(embeds):
        path: Path = ("embeds", index)
        if not isinstance(embed, dict):
            errors.add(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        for key, limit in (("title", MAX_EMBED_TITLE), ("description", MAX_EMBED_DESCRIPTION)):
            if embed.get(key) is not None:
                _length(errors, (*path, key), embed[key], 0, limit)
                total += len(str(embed[key]))
        fields = embed.get("fields") or []
        if len(fields) > MAX_EMBED_FIELDS:
            errors.add(
                (*path, "fields"),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_EMBED_FIELDS} or fewer in length.",
            )
        for f_index, field in enumerate(fields):
            _length(
                errors, (*path, "fields", f_index, "name"), field.get("name"), 1, MAX_FIELD_NAME
            )
            _length(
                errors, (*path, "fields", f_index, "value"), field.get("value"), 1, MAX_FIELD_VALUE
            )
            total += len(str(field.get("name") or "")) + len(str(field.get("value") or ""))
        footer = embed.get("footer") or {}
        if footer.get("text") is not None:
            _length(errors, (*path, "footer", "text"), footer["text"], 0, MAX_FOOTER)
            total += len(str(footer["text"]))
        author = embed.get("author") or {}
        if author.get("name") is not None:
            _length(errors, (*path, "author", "name"), author["name"], 0, MAX_AUTHOR_NAME)
            total += len(str(author["name"]))
    if total > MAX_EMBED_TOTAL:
        errors.add(
            ("embeds",),
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}",
        )


class _ComponentCheck:
    """State shared while walking one message's component tree."""

    def __init__(self, errors: FormErrors) -> None:
        self.errors = errors
        self.custom_ids: set[str] = set()
        self.ids: set[int] = set()
        self.count = 0
        self.text = 0
        self.text_too_long = False  # one text display over the limit (said on its own path)

    def common(self, component: dict[str, Any], path: Path) -> None:
        self.count += 1
        number = component.get("id")
        if number is not None:
            if not isinstance(number, int) or not 0 <= number < 2**31:
                self.errors.add((*path, "id"), "NUMBER_TYPE_COERCE", "Value is not int.")
            elif number in self.ids and number != 0:
                self.errors.add(
                    (*path, "id"), "COMPONENT_ID_DUPLICATED", "Component ids must be unique"
                )
            else:
                self.ids.add(number)

    def custom_id(self, component: dict[str, Any], path: Path) -> None:
        value = component.get("custom_id")
        _length(self.errors, (*path, "custom_id"), value, 1, MAX_CUSTOM_ID)
        if isinstance(value, str):
            if value in self.custom_ids:
                self.errors.add(
                    (*path, "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            self.custom_ids.add(value)

    def interactive(self, component: dict[str, Any], path: Path) -> None:
        kind = component.get("type")
        self.common(component, path)
        if kind == BUTTON:
            self.button(component, path)
        elif kind in SELECT_TYPES:
            self.select(component, path)
        else:
            self.errors.add(
                (*path, "type"),
                "COMPONENT_TYPE_INVALID",
                f"Component type {kind} is not valid inside an action row of a message",
            )

    def button(self, button: dict[str, Any], path: Path) -> None:
        style = button.get("style")
        if style not in (1, 2, 3, 4, LINK_STYLE, PREMIUM_STYLE):
            self.errors.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of 1-6.")
        if style == LINK_STYLE:
            if not button.get("url"):
                self.errors.add((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required")
            if button.get("custom_id") is not None:
                self.errors.add(
                    (*path, "custom_id"),
                    "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                    "A link button cannot have a custom id",
                )
        elif style != PREMIUM_STYLE:
            self.custom_id(button, path)
        if button.get("label") is not None:
            _length(self.errors, (*path, "label"), button["label"], 0, MAX_BUTTON_LABEL)
        if style != PREMIUM_STYLE and not button.get("label") and not button.get("emoji"):
            self.errors.add(
                path, "BUTTON_COMPONENT_INVALID", "A button must have a label or an emoji"
            )

    def select(self, select: dict[str, Any], path: Path) -> None:
        self.custom_id(select, path)
        if select.get("placeholder") is not None:
            _length(self.errors, (*path, "placeholder"), select["placeholder"], 0, MAX_PLACEHOLDER)
        low, high = select.get("min_values", 1), select.get("max_values", 1)
        if not (isinstance(low, int) and 0 <= low <= 25):
            self.errors.add((*path, "min_values"), "NUMBER_TYPE_MAX", "Must be between 0 and 25.")
        if not (isinstance(high, int) and 1 <= high <= 25):
            self.errors.add((*path, "max_values"), "NUMBER_TYPE_MAX", "Must be between 1 and 25.")
        if select.get("type") != STRING_SELECT:
            return
        options = select.get("options")
        if not isinstance(options, list) or not 1 <= len(options) <= MAX_SELECT_OPTIONS:
            self.errors.add(
                (*path, "options"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_SELECT_OPTIONS} in length.",
            )
            return
        values: set[str] = set()
        for index, option in enumerate(options):
            o_path = (*path, "options", index)
            _length(self.errors, (*o_path, "label"), option.get("label"), 1, MAX_OPTION_TEXT)
            _length(self.errors, (*o_path, "value"), option.get("value"), 1, MAX_OPTION_TEXT)
            if option.get("description") is not None:
                _length(
                    self.errors,
                    (*o_path, "description"),
                    option["description"],
                    0,
                    MAX_OPTION_TEXT,
                )
            if option.get("value") in values:
                self.errors.add(
                    (*o_path, "value"),
                    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    "Select options must have unique values",
                )
            values.add(option.get("value"))
        if isinstance(high, int) and high > len(options):
            self.errors.add(
                (*path, "max_values"),
                "SELECT_COMPONENT_MAX_VALUES_TOO_HIGH",
                "max_values cannot exceed the number of options",
            )

    def row(self, row: dict[str, Any], path: Path) -> None:
        self.common(row, path)
        children = row.get("components")
        if not isinstance(children, list) or not 1 <= len(children) <= MAX_ROW_WIDTH:
            self.errors.add(
                (*path, "components"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_ROW_WIDTH} in length.",
            )
            children = children if isinstance(children, list) else []
        if len(children) > 1 and any(c.get("type") in SELECT_TYPES for c in children):
            self.errors.add(
                (*path, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        for index, child in enumerate(children):
            self.interactive(child, (*path, "components", index))

    def gallery(self, gallery: dict[str, Any], path: Path) -> None:
        items = gallery.get("items")
        if not isinstance(items, list) or not 1 <= len(items) <= MAX_GALLERY_ITEMS:
            self.errors.add(
                (*path, "items"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_GALLERY_ITEMS} in length.",
            )
            return
        for index, item in enumerate(items):
            media = item.get("media") if isinstance(item, dict) else None
            url = media.get("url") if isinstance(media, dict) else None
            _length(self.errors, (*path, "items", index, "media", "url"), url, 1, 2048)
            description = item.get("description") if isinstance(item, dict) else None
            _length(
                self.errors,
                (*path, "items", index, "description"),
                description,
                0,
                MAX_MEDIA_DESCRIPTION,
            )

    def v2(self, component: dict[str, Any], path: Path) -> None:
        kind = component.get("type")
        if kind == ACTION_ROW:
            self.row(component, path)
            return
        self.common(component, path)
        if kind == TEXT_DISPLAY:
            content = component.get("content")
            if isinstance(content, str) and len(content) > MAX_V2_TEXT:
                self.text_too_long = True
            _length(self.errors, (*path, "content"), content, 1, MAX_V2_TEXT)
            self.text += len(str(content or ""))
        elif kind == MEDIA_GALLERY:
            self.gallery(component, path)
        elif kind == SECTION:
            for index, child in enumerate(component.get("components") or []):
                self.v2(child, (*path, "components", index))
            accessory = component.get("accessory")
            if isinstance(accessory, dict):
                if accessory.get("type") == BUTTON:
                    self.interactive(accessory, (*path, "accessory"))
                else:
                    self.common(accessory, (*path, "accessory"))
        elif kind == CONTAINER:
            for index, child in enumerate(component.get("components") or []):
                self.v2(child, (*path, "components", index))
        elif kind not in (THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR):
            self.errors.add(
                (*path, "type"), "COMPONENT_TYPE_INVALID", f"Component type {kind} is not valid"
            )


def validate_components(components: Any, errors: FormErrors, *, v2: bool) -> None:
    if not isinstance(components, list):
        errors.add(("components",), "LIST_TYPE_CONVERT", "Must be a list.")
        return
    check = _ComponentCheck(errors)
    if not v2:
        if len(components) > MAX_ROWS:
            errors.add(
                ("components",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ROWS} or fewer in length."
            )
        for index, row in enumerate(components):
            if not isinstance(row, dict) or row.get("type") != ACTION_ROW:
                errors.add(
                    ("components", index, "type"),
                    "COMPONENT_TYPE_INVALID",
                    "Top-level components of a message must be action rows "
                    "(set IS_COMPONENTS_V2 for layout components)",
                )
                continue
            check.row(row, ("components", index))
        return
    for index, component in enumerate(components):
        if not isinstance(component, dict) or component.get("type") not in V2_TOP_LEVEL:
            errors.add(("components", index, "type"), "COMPONENT_TYPE_INVALID", "Invalid type")
            continue
        check.v2(component, ("components", index))
    if check.count > MAX_V2_COMPONENTS:
        errors.add(
            ("components",),
            "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
            f"Must be {MAX_V2_COMPONENTS} or fewer components in total.",
        )
    if check.text > MAX_V2_TEXT and not check.text_too_long:
        errors.add(
            ("components",),
            "COMPONENT_MAX_TEXT_EXCEEDED",
            f"Text displays must hold {MAX_V2_TEXT} or fewer characters in total.",
        )


def validate_modal(data: dict[str, Any]) -> FormErrors:
    errors = FormErrors()
    _length(errors, ("data", "custom_id"), data.get("custom_id"), 1, MAX_CUSTOM_ID)
    _length(errors, ("data", "title"), data.get("title"), 1, 45)
    components = data.get("components")
    if not isinstance(components, list) or not 1 <= len(components) <= 5:
        errors.add(
            ("data", "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
        )
        return errors
    custom_ids: set[str] = set()
    for index, top in enumerate(components):
        path: Path = ("data", "components", index)
        if top.get("type") == ACTION_ROW:
            inner = top.get("components") or []
            if len(inner) != 1:
                errors.add((*path, "components"), "BASE_TYPE_BAD_LENGTH", "Must be 1 in length.")
                continue
            child, c_path = inner[0], (*path, "components", 0)
        elif top.get("type") == LABEL:
            _length(errors, (*path, "label"), top.get("label"), 1, 45)
            child, c_path = top.get("component") or {}, (*path, "component")
        elif top.get("type") == TEXT_DISPLAY:
            continue
        else:
            errors.add((*path, "type"), "COMPONENT_TYPE_INVALID", "Invalid modal component")
            continue
        _length(errors, (*c_path, "custom_id"), child.get("custom_id"), 1, MAX_CUSTOM_ID)
        if child.get("custom_id") in custom_ids:
            errors.add(
                (*c_path, "custom_id"),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        custom_ids.add(child.get("custom_id"))
        if child.get("type") == TEXT_INPUT and child.get("label") is not None:
            _length(errors, (*c_path, "label"), child.get("label"), 1, 45)
    return errors


def is_empty(message: dict[str, Any]) -> bool:
    """Discord refuses a message with nothing to show (50006)."""
    return not (
        message.get("content")
        or message.get("embeds")
        or message.get("components")
        or message.get("attachments")
        or message.get("sticker_ids")
        or message.get("poll")
    )


def number_components(components: list[dict[str, Any]]) -> None:
    """Give every component without an id the next free number, depth first, as Discord does."""
    used: set[int] = set()
    order: list[dict[str, Any]] = []

    def walk(items: list[Any]) -> None:
        for item in items:
            if not isinstance(item, dict):
                continue
            order.append(item)
            if isinstance(item.get("id"), int) and item["id"] > 0:
                used.add(item["id"])
            walk(item.get("components") or [])
            for key in ("accessory", "component"):
                if isinstance(item.get(key), dict):
                    walk([item[key]])

    walk(components)
    next_id = 1
    for item in order:
        if isinstance(item.get("id"), int) and item["id"] > 0:
            continue
        while next_id in used:
            next_id += 1
        item["id"] = next_id
        used.add(next_id)
