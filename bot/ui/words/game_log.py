"""The readable hand-by-hand log of a finished game, in pages that fit an embed.

The log is not stored as text: the game is replayed from its stored options, seed, first dealer
and actions with the engine, and its events are rendered by the same sentences as the table's
own log (bot.ui.words.events). Each hand is one block (its deal in bold, every bid, each trick or
round with its cards in play order, the result) ending with the score; pages hold whole hands.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.engine.common import EngineError, team_of
from bot.storage import FinishedGame
from bot.tables.games import rules_for
from bot.tables.records import bot_number
from bot.texts import n, t
from bot.ui.words.events import cards_line, event_sentence, team_name
from bot.ui.words.fair_lines import reveal_line
from bot.ui.words.names import shown_name
from bot.ui.words.seats import game_title

# A page's description: under the embed's 4096, leaving room for the title and footer within
# the 6000 of a whole message.
LOG_PAGE_CHARS = 3800


def timestamp(seconds: float, style: str = "f") -> str:
    """A Discord timestamp: each reader sees it in their own time zone and language."""
    return f"<t:{int(seconds)}:{style}>"


_HAND_END = {"euchre": "hand_scored", "truco": "hand_won"}
_WITH_CARDS = {"trick_won", "round_won", "round_tied"}
# Left out of the log: "X stays." is asked of every player in every euchre hand (may anyone go
# alone?) and says nothing once the hand is over; the table's own log still shows it.
_SKIPPED = {"stayed"}


class UnreadableGame(Exception):
    """The stored game does not replay with this version of the engine."""


def replay(game: FinishedGame) -> Any:
    rules = rules_for(game.game)
    try:
        return rules.replay(game.options, game.seed, game.first_dealer, game.actions)
    except (EngineError, KeyError, ValueError, TypeError) as error:
        raise UnreadableGame(f"game {game.id}: {error!r}") from error


NameOf = Callable[[int], str]


def seat_namer(game: FinishedGame, played: Any, locale: str | None = None) -> NameOf:
    """Names game seats as the table did: a person by name, a bot by its lobby position."""
    seat_of_position = rules_for(game.game).seat_of_position(played)
    by_seat = {p.seat: p for p in game.players}

    def name_of(seat: int) -> str:
        player = by_seat.get(seat)
        if player is None:
            return "?"
        if player.is_bot:
            number = bot_number(player.name, seat_of_position.index(seat))
            return t("table.bot_name", locale, number=number)
        return shown_name(player.name)

    return name_of


def log_blocks(
    game_name: str, played: Any, name_of: NameOf, locale: str | None = None
) -> list[list[str]]:
    """The replayed game's log, one block of lines per hand, each hand ending with the score (a
    new game of a rubber and the draw for partners open the block of the hand after them)."""
    seat_of_position = rules_for(game_name).seat_of_position(played)

    def position_name(position: int) -> str:
        return name_of(seat_of_position[position])

    blocks: list[list[str]] = [[]]
    in_hand = False
    for event in played.events:
        if event.kind in _SKIPPED:
            continue
        if event.kind in ("hand_dealt", "game_started") and in_hand:
            blocks.append([])
            in_hand = False
        line = event_sentence(game_name, event, name_of, locale, position_name)
        if line and event.kind == "hand_dealt":
            line = f"**{line}**"
            in_hand = True
        elif line and event.kind in _WITH_CARDS and event.data.get("cards"):
            line = t(
                "history.log.cards",
                locale,
                sentence=line,
                cards=cards_line(event.data["cards"], name_of),
            )
        if line:
            blocks[-1].append(line)
        if event.data.get("covered"):  # truco coberta (T15): the hand is over, faces shown
            covered = cards_line(event.data["covered"], name_of)
            blocks[-1].append(t("event.truco.covered", locale, cards=covered))
        if event.kind == _HAND_END[game_name] and "scores" in event.data:
            scores = event.data["scores"]
            blocks[-1].append(t("history.log.score", locale, team0=scores[0], team1=scores[1]))
    return [block for block in blocks if block]


def with_reveals(blocks: list[list[str]], played: Any, locale: str | None) -> list[list[str]]:
    """A fair game's log (issue 24): each hand's block ends with its revealed seed, cut and
    commitment (one block per hand dealt, thrown-in hands too)."""
    records = played.fair_records()
    if not records:
        return blocks
    lines = [reveal_line(r, locale) for r in records]  # typed cut text escaped there
    if len(lines) != len(blocks):  # never expected: keep every line, at the end
        return [*blocks, lines]
    return [[*block, line] for block, line in zip(blocks, lines, strict=True)]


def paginate(blocks: list[list[str]], budget: int) -> list[str]:
    """Whole hands per page while they fit in `budget` characters; a hand longer than a page
    (never seen in practice) is cut between lines."""
    pages: list[str] = []
    current: list[str] = []
    size = 0
    for block in blocks:
        text = "\n".join(block)
        if current and size + 2 + len(text) > budget:
            pages.append("\n\n".join(current))
            current, size = [], 0
        if len(text) > budget:
            chunk: list[str] = []
            for line in block:
                line = line[:budget]
                if chunk and len("\n".join(chunk)) + 1 + len(line) > budget:
                    pages.append("\n".join(chunk))
                    chunk = []
                chunk.append(line)
            text = "\n".join(chunk)
        current.append(text)
        size += len(text) + (2 if size else 0)
    if current:
        pages.append("\n\n".join(current))
    return pages or [""]


def log_header(game: FinishedGame, name_of: NameOf, locale: str | None = None) -> str:
    teams = []
    for team in (0, 1):
        players = t("table.and", locale).join(
            name_of(p.seat) for p in game.players if team_of(p.seat) == team
        )
        teams.append(t("history.team", locale, team=team_name(team, locale), players=players))
    header = t(
        "history.log.header",
        locale,
        team0=teams[0],
        team1=teams[1],
        date=timestamp(game.ended_at),
        hands=n("plural.hands", locale, game.hands_played),
    )
    if game.margin is not None:
        header += "\n" + t("result.margin", locale, margin=game.margin)
    return header


def log_pages(game: FinishedGame, locale: str | None = None) -> tuple[str, list[str]]:
    """(header, pages of the log) of a finished game, replayed."""
    played = replay(game)
    name_of = seat_namer(game, played, locale)
    header = log_header(game, name_of, locale)
    blocks = with_reveals(log_blocks(game.game, played, name_of, locale), played, locale)
    return header, paginate(blocks, LOG_PAGE_CHARS - len(header) - 2)


def log_title(game: FinishedGame, locale: str | None) -> str:
    """A finished game's title: its game, who won and the score."""
    winner = game.winner_team
    return t(
        "history.log.title",
        locale,
        game=game_title(game.game, locale),
        team=team_name(winner, locale),
        winner_score=game.scores[winner],
        loser_score=game.scores[1 - winner],
    )
