"""The custom_id formats of every table button: keys, never state; at most 100 characters.

- Game actions, on a player's hand message: `t:{table}:{version}:{action}`, e.g.
  `t:42:17:play:JH`, `t:42:17:call:H:alone`, `t:42:17:raise`. The version is the table's when
  the hand was drawn: a click on an older one applies nothing (see TableService.act).
- Table buttons, version-free: `tb:{table}:{verb}` with verb one of `hand` (Show my hand, on the
  table message), `refresh` (on a hand message), `join`, `leave`, `bot`, `start`, `cancel`,
  `again` (Play again: ready), `go` (the host starts the next game now), `back` (I'm back);
  `tb:{table}:seat:{position}` (sit at a lobby position 0..3), `tb:{table}:set:{setting}`
  (the host moves a table setting to its next value) and `tb:{table}:bot:{level}` (add a bot of
  level easy, normal or hard; a bare `bot`, on lobby messages older than the levels, adds a
  normal one).

Parsing is strict: anything else — a forged or garbled id — is None, and the user is told the
button is not valid. The DynamicItem templates match the prefixes broadly (`t:.*`, `tb:.*`) so
that such ids still reach a callback that can say so instead of failing silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.tables.bot_moves import LEVELS

MAX_CUSTOM_ID = 100
MAX_ID = 2**63 - 1

# An action is the engine's short string: a word, then up to two short arguments
# ("play:JH", "call:H:alone", "discard:9C", "name:S"). The engine validates it fully.
_ACTION = r"[a-z]{1,10}(?::[A-Za-z0-9]{1,6}){0,2}"
_NUMBER = r"(?:0|[1-9][0-9]{0,18})"
GAME_ACTION_ID = re.compile(rf"t:(?P<table>{_NUMBER}):(?P<version>{_NUMBER}):(?P<action>{_ACTION})")
TABLE_VERBS = frozenset(
    {"hand", "refresh", "join", "leave", "bot", "start", "cancel", "again", "go", "back"}
    | {"deal", "cut"}  # fair deals (bot/ui/fair_deal.py)
)
TABLE_BUTTON_ID = re.compile(
    rf"tb:(?P<table>{_NUMBER}):(?:(?P<verb>[a-z]{{1,10}})|seat:(?P<position>[0-3])"
    r"|set:(?P<setting>[a-z_]{1,20})"
    rf"|bot:(?P<level>{'|'.join(LEVELS)}))"
)

# The DynamicItem templates: broad on purpose (see the module docstring).
GAME_ACTION_TEMPLATE = r"t:(?P<rest>.{0,98})"
TABLE_BUTTON_TEMPLATE = r"tb:(?P<rest>.{0,97})"


@dataclass(frozen=True)
class GameActionId:
    table_id: int
    version: int
    action: str

    def __str__(self) -> str:
        return f"t:{self.table_id}:{self.version}:{self.action}"


@dataclass(frozen=True)
class TableButtonId:
    table_id: int
    verb: str  # one of TABLE_VERBS, "seat" or "set"
    position: int | None = None
    setting: str | None = None
    level: str | None = None  # verb "bot": the bot's level (None: a bare `bot`, the default)

    def __str__(self) -> str:
        if self.verb == "seat":
            return f"tb:{self.table_id}:seat:{self.position}"
        if self.verb == "set":
            return f"tb:{self.table_id}:set:{self.setting}"
        if self.level is not None:
            return f"tb:{self.table_id}:{self.verb}:{self.level}"
        return f"tb:{self.table_id}:{self.verb}"


def game_action_id(table_id: int, version: int, action: str) -> str:
    custom_id = str(GameActionId(table_id, version, action))
    if len(custom_id) > MAX_CUSTOM_ID or parse_game_action(custom_id) is None:
        raise ValueError(f"cannot make a button id for action {action!r}")
    return custom_id


def table_button_id(
    table_id: int,
    verb: str,
    position: int | None = None,
    setting: str | None = None,
    level: str | None = None,
) -> str:
    custom_id = str(TableButtonId(table_id, verb, position, setting, level))
    if parse_table_button(custom_id) is None:
        raise ValueError(f"cannot make a table button id for {verb!r}")
    return custom_id


def parse_game_action(custom_id: str) -> GameActionId | None:
    match = GAME_ACTION_ID.fullmatch(custom_id)
    if match is None or len(custom_id) > MAX_CUSTOM_ID:
        return None
    table, version = int(match["table"]), int(match["version"])
    if table > MAX_ID or version > MAX_ID:
        return None
    return GameActionId(table, version, match["action"])


def parse_table_button(custom_id: str) -> TableButtonId | None:
    match = TABLE_BUTTON_ID.fullmatch(custom_id)
    if match is None or len(custom_id) > MAX_CUSTOM_ID:
        return None
    table = int(match["table"])
    if table > MAX_ID:
        return None
    if match["position"] is not None:
        return TableButtonId(table, "seat", int(match["position"]))
    if match["setting"] is not None:
        return TableButtonId(table, "set", setting=match["setting"])
    if match["level"] is not None:
        return TableButtonId(table, "bot", level=match["level"])
    verb = match["verb"]
    if verb not in TABLE_VERBS:
        return None
    return TableButtonId(table, verb)
