"""Table settings that are not game rules: what each may be, and its default.

One row per setting. The lobby shows a button per two-valued row (a click moves to the other
value), a menu of the values for a longer one (one pick, issue 21 item 7), and
`/euchre new` / `/truco new` take each as an option, so a new setting is one new row here plus
its catalog keys (`settings.{name}` for the name, `settings.{name}.{value}` for each value).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Setting:
    name: str
    values: tuple[Any, ...]
    default: Any

    def next_value(self, current: Any) -> Any:
        index = self.values.index(current) if current in self.values else -1
        return self.values[(index + 1) % len(self.values)]


SETTINGS: tuple[Setting, ...] = (
    # Seconds a human has for a turn before a bot plays it; 0: no timer.
    Setting("turn_timer", (0, 30, 60, 120, 300), 120),
    # A short channel message mentioning the player whose turn it is.
    Setting("pings", (True, False), True),
    # Seconds a human may sit on their turn before the ping goes out (0: at once, on every
    # turn). Most turns are played within seconds, so a ping at once is mostly noise and a
    # request on the token's global budget; 15 s still pings an idle player well within 30 s.
    Setting("ping_after", (0, 15, 30, 60), 15),
    # A picture of the table on the table message (off: text only).
    Setting("pictures", (True, False), True),
)
BY_NAME = {setting.name: setting for setting in SETTINGS}


def normalise_settings(given: dict[str, Any] | None) -> dict[str, Any]:
    """Every setting with its value (defaults filled in); an unknown name or value is refused
    with a ValueError (the lobby answers it as BadOptions)."""
    given = dict(given or {})
    out: dict[str, Any] = {}
    for setting in SETTINGS:
        value = given.pop(setting.name, setting.default)
        if value not in setting.values or type(value) is not type(setting.default):
            raise ValueError(f"{setting.name}={value!r}")
        out[setting.name] = value
    if given:
        raise ValueError(", ".join(sorted(given)))
    return out


def setting_of(settings: dict[str, Any], name: str) -> Any:
    """A table's value of a setting (a table stored before the setting existed: its default)."""
    return settings.get(name, BY_NAME[name].default)
