"""Rows of buttons as Discord's own JSON, for the messages the bot redraws on every move.

A `discord.ui.View` builds an Item, a Button and a DynamicItem per button and checks each on the
way; the table and hand messages are redrawn after every move (hundreds a second at 200 tables),
so they write the rows' JSON directly. `Buttons` stands in for a View wherever discord.py takes
one (`view=`): it is never dispatchable, because clicks reach the DynamicItem templates of
bot/ui/kit/buttons.py by their custom_id, whatever object drew the button.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.ui.kit.discord_internals import RawView

ROWS = 5
PER_ROW = 5


class Buttons(RawView):
    def __init__(self) -> None:
        self._rows: list[list[dict[str, Any]]] = [[] for _ in range(ROWS)]

    def add(
        self,
        custom_id: str,
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        emoji: discord.PartialEmoji | None = None,
        row: int | None = None,
    ) -> None:
        """Place a button as a View would: in `row`, or the first row with room."""
        if row is None:
            row = next((i for i, r in enumerate(self._rows) if len(r) < PER_ROW), ROWS)
        if row >= ROWS or len(self._rows[row]) >= PER_ROW or self._has_select(row):
            raise ValueError(f"no room for button {custom_id!r} in row {row}")
        button: dict[str, Any] = {
            "type": 2,
            "style": style.value,
            "disabled": disabled,
            "label": label,
            "custom_id": custom_id,
        }
        if emoji is not None:
            button["emoji"] = emoji.to_dict()
        self._rows[row].append(button)

    def add_select(
        self, custom_id: str, *, options: list[tuple[str, str, bool]], row: int, placeholder: str
    ) -> None:
        """A string select alone in `row` (Discord's rule): one option per (label, value,
        chosen) — the chosen one shows as the menu's current value."""
        if row >= ROWS or self._rows[row]:
            raise ValueError(f"no room for select {custom_id!r} in row {row}")
        self._rows[row].append(
            {
                "type": 3,
                "custom_id": custom_id,
                "placeholder": placeholder,
                "min_values": 1,
                "max_values": 1,
                "options": [
                    {"label": label, "value": value, "default": chosen}
                    for label, value, chosen in options
                ],
            }
        )

    def _has_select(self, row: int) -> bool:
        return row < ROWS and any(item["type"] == 3 for item in self._rows[row])

    def to_components(self) -> list[dict[str, Any]]:
        return [{"type": 1, "components": row} for row in self._rows if row]

    @property
    def children(self) -> list[discord.ui.Button[Any] | discord.ui.Select[Any]]:
        """The items as discord.py objects (for tests and logs; sending never builds them)."""
        out: list[discord.ui.Button[Any] | discord.ui.Select[Any]] = []
        for index, row in enumerate(self._rows):
            for button in row:
                if button["type"] == 3:
                    out.append(
                        discord.ui.Select(
                            custom_id=button["custom_id"],
                            placeholder=button["placeholder"],
                            options=[
                                discord.SelectOption(
                                    label=o["label"], value=o["value"], default=o["default"]
                                )
                                for o in button["options"]
                            ],
                            row=index,
                        )
                    )
                    continue
                emoji = button.get("emoji")
                out.append(
                    discord.ui.Button(
                        custom_id=button["custom_id"],
                        label=button["label"],
                        style=discord.ButtonStyle(button["style"]),
                        disabled=button["disabled"],
                        emoji=discord.PartialEmoji.from_dict(emoji) if emoji else None,
                        row=index,
                    )
                )
        return out
