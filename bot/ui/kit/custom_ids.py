"""The custom_id formats of every table button: keys, never state; at most 100 characters.

- Game actions, on a player's hand message: `t:{table}:{version}:{action}`, e.g.
  `t:42:17:play:JH`, `t:42:17:call:H:alone`, `t:42:17:raise`. The version is the table's when
  the hand was drawn: a click on an older one applies nothing (see TableService.act).
- Table buttons, version-free: `tb:{table}:{verb}` with verb one of `hand` (Show my hand, on the
  table message), `refresh` (on a hand message), `join`, `leave`, `bot`, `start`, `cancel`,
  `again` (Play again: ready), `go` (the host starts the next game now), `back` (I'm back),
  `quit` (the confirmed Leave of a running game), `alone` / `stay` (euchre: switch "Go alone"
  on or off in a hand, bot/tables/alone.py);
  `tb:{table}:seat:{position}` (sit at a lobby position 0..3), `tb:{table}:set:{setting}`
  (the host moves a table setting to its next value; on the lobby's turn-timer menu, to the
  value picked) and `tb:{table}:bot:{level}` (add a bot of
  level easy, normal or hard; a bare `bot`, on lobby messages older than the levels, adds a
  normal one).

- After a game (issue 22), keys of a finished game, version-free: `ag:{game}:{verb}` with verb
  `hand` (the replay's hand picker, a select whose value is the step), `export` (send the hand
  record file), `review` (review my play), `post` (post the game's summary to the channel); and
  `ag:{game}:open:{step}` (open the replay at a step in a new private message) or
  `ag:{game}:step:{step}` (turn the replay to a step, in place; `jump:{step}` the same for ⏮ ⏭,
  so that the four buttons' ids differ at either end). `{game}` is the finished game's
  id. The end-of-game message is drawn before that id exists, so its buttons carry the table
  and the moment the game started instead: `ge:{table}:t{ms}:{verb}` (verb `open`, `review`,
  `export`; `ms` the game's started_at in milliseconds, which with the table names one game),
  which storage turns into the game id. Ids drawn before that carried the game's seed,
  `ge:{table}:{seed}:{verb}` (up to 20 digits), and still work; a seed no longer fits (fair
  deals' seeds are 256-bit). `ps:{user}:{game}` posts a player's /stats (game `euchre`,
  `truco` or `all`) to the channel.

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
    {
        "hand",
        "refresh",
        "join",
        "leave",
        "quit",
        "bot",
        "start",
        "cancel",
        "again",
        "go",
        "back",
        "alone",
        "stay",
        "deal",  # fair deals (bot/ui/fair/deals.py)
        "cut",
        "log",  # the compact table message's "Log & rules" (issue 30)
    }
)
TABLE_BUTTON_ID = re.compile(
    rf"tb:(?P<table>{_NUMBER}):(?:(?P<verb>[a-z]{{1,10}})|seat:(?P<position>[0-3])"
    r"|set:(?P<setting>[a-z_]{1,20})"
    rf"|bot:(?P<level>{'|'.join(LEVELS)}))"
)

AFTER_VERBS = frozenset({"hand", "export", "review", "post"})
AFTER_GAME_ID = re.compile(
    rf"ag:(?P<game>{_NUMBER}):(?:(?P<verb>[a-z]{{1,10}})|(?P<move>open|step|jump):(?P<step>[0-9]{{1,5}}))"
)
ENDED_VERBS = frozenset({"open", "review", "export"})
ENDED_GAME_ID = re.compile(
    rf"ge:(?P<table>{_NUMBER}):(?:t(?P<started>{_NUMBER})|(?P<seed>[0-9]{{1,20}}))"
    r":(?P<verb>open|review|export)"
)
POST_STATS_ID = re.compile(rf"ps:(?P<user>{_NUMBER}):(?P<game>euchre|truco|all)")

# The DynamicItem templates: broad on purpose (see the module docstring).
GAME_ACTION_TEMPLATE = r"t:(?P<rest>.{0,98})"
TABLE_BUTTON_TEMPLATE = r"tb:(?P<rest>.{0,97})"
AFTER_GAME_TEMPLATE = r"ag:(?P<rest>.{0,97})"
ENDED_GAME_TEMPLATE = r"ge:(?P<rest>.{0,97})"
POST_STATS_TEMPLATE = r"ps:(?P<rest>.{0,97})"


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


# --- after a game (issue 22) ----------------------------------------------------------------


@dataclass(frozen=True)
class AfterGameId:
    game_id: int
    verb: str  # one of AFTER_VERBS, "open", "step" or "jump"
    step: int | None = None  # with "open" and "step"

    def __str__(self) -> str:
        if self.step is not None:
            return f"ag:{self.game_id}:{self.verb}:{self.step}"
        return f"ag:{self.game_id}:{self.verb}"


@dataclass(frozen=True)
class EndedGameId:
    table_id: int
    seed: int | None  # ids drawn before `started_ms`: the game's seed
    verb: str  # one of ENDED_VERBS
    started_ms: int | None = None  # the game's started_at in whole milliseconds

    def __str__(self) -> str:
        if self.started_ms is not None:
            return f"ge:{self.table_id}:t{self.started_ms}:{self.verb}"
        return f"ge:{self.table_id}:{self.seed}:{self.verb}"


@dataclass(frozen=True)
class PostStatsId:
    user_id: int
    game: str | None  # None: every game kind

    def __str__(self) -> str:
        return f"ps:{self.user_id}:{self.game or 'all'}"


def after_game_id(game_id: int, verb: str, step: int | None = None) -> str:
    custom_id = str(AfterGameId(game_id, verb, step))
    if parse_after_game(custom_id) != AfterGameId(game_id, verb, step):
        raise ValueError(f"cannot make an after-game id for {verb!r}")
    return custom_id


def ended_game_id(table_id: int, seed: int, verb: str) -> str:
    """The older form, by seed (kept for the ids of messages drawn before `ended_game_at`)."""
    custom_id = str(EndedGameId(table_id, seed, verb))
    if parse_ended_game(custom_id) is None:
        raise ValueError(f"cannot make an end-of-game id for {verb!r}")
    return custom_id


def started_ms(started_at: float) -> int:
    """A game's started_at as the whole milliseconds an end-of-game id carries."""
    return int(started_at * 1000)


def ended_game_at(table_id: int, started_at: float, verb: str) -> str:
    """The end-of-game button of the game `table_id` started at `started_at` (epoch seconds)."""
    custom_id = str(EndedGameId(table_id, None, verb, started_ms(started_at)))
    if parse_ended_game(custom_id) is None:
        raise ValueError(f"cannot make an end-of-game id for {verb!r}")
    return custom_id


def parse_after_game(custom_id: str) -> AfterGameId | None:
    match = AFTER_GAME_ID.fullmatch(custom_id)
    if match is None or len(custom_id) > MAX_CUSTOM_ID:
        return None
    game = int(match["game"])
    if game > MAX_ID or game == 0:
        return None
    if match["move"] is not None:
        return AfterGameId(game, match["move"], int(match["step"]))
    if match["verb"] not in AFTER_VERBS:
        return None
    return AfterGameId(game, match["verb"])


def parse_ended_game(custom_id: str) -> EndedGameId | None:
    match = ENDED_GAME_ID.fullmatch(custom_id)
    if match is None or len(custom_id) > MAX_CUSTOM_ID:
        return None
    table = int(match["table"])
    if table > MAX_ID:
        return None
    if match["started"] is not None:
        started = int(match["started"])
        return None if started > MAX_ID else EndedGameId(table, None, match["verb"], started)
    seed = int(match["seed"])
    if seed >= 2**64:
        return None
    return EndedGameId(table, seed, match["verb"])


def parse_post_stats(custom_id: str) -> PostStatsId | None:
    match = POST_STATS_ID.fullmatch(custom_id)
    if match is None or int(match["user"]) > MAX_ID:
        return None
    game = match["game"]
    return PostStatsId(int(match["user"]), None if game == "all" else game)


# --- the boards: leaderboard pages, history pages, a game's log -------------------------------

_PAGE = r"(?P<page>0|[1-9][0-9]{0,4})"
BOARD_ID = re.compile(rf"lb:(?P<game>euchre|truco):(?P<period>all|month|week):{_PAGE}")
HISTORY_ID = re.compile(rf"hi:(?P<game>euchre|truco|all):{_PAGE}")
LOG_ID = re.compile(r"hl:(?P<game_id>[1-9][0-9]{0,18})(?::(?P<page>0|[1-9][0-9]{0,4}))?")

BOARD_TEMPLATE = r"lb:(?P<rest>.{0,97})"
HISTORY_TEMPLATE = r"hi:(?P<rest>.{0,97})"
LOG_TEMPLATE = r"hl:(?P<rest>.{0,97})"


@dataclass(frozen=True)
class BoardId:
    game: str
    period: str
    page: int

    def __str__(self) -> str:
        return f"lb:{self.game}:{self.period}:{self.page}"


@dataclass(frozen=True)
class HistoryId:
    game: str | None  # None: both games
    page: int

    def __str__(self) -> str:
        return f"hi:{self.game or 'all'}:{self.page}"


@dataclass(frozen=True)
class LogId:
    game_id: int
    page: int | None  # None: open the log in a new message

    def __str__(self) -> str:
        return f"hl:{self.game_id}" if self.page is None else f"hl:{self.game_id}:{self.page}"


def parse_board_id(custom_id: str) -> BoardId | None:
    match = BOARD_ID.fullmatch(custom_id)
    if match is None:
        return None
    return BoardId(match["game"], match["period"], int(match["page"]))


def parse_history_id(custom_id: str) -> HistoryId | None:
    match = HISTORY_ID.fullmatch(custom_id)
    if match is None:
        return None
    game = match["game"]
    return HistoryId(None if game == "all" else game, int(match["page"]))


def parse_log_id(custom_id: str) -> LogId | None:
    match = LOG_ID.fullmatch(custom_id)
    if match is None or int(match["game_id"]) > MAX_ID:
        return None
    page = match["page"]
    return LogId(int(match["game_id"]), None if page is None else int(page))
