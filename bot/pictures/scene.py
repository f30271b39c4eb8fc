"""What a table picture shows, taken from a table under its lock: plain data, so the drawing can
run in a worker thread while the table moves on.

The game part comes from `game.view(None)` and the game's public events only: a picture can
show nothing a spectator may not see. A SeatScene (one player's own picture, sent to that player
alone) comes from `game.view(seat)`: that seat's hand, never another's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.tables import pace
from bot.tables.records import bot_number
from bot.tables.service import Table
from bot.texts import t

# The events that close one trick / round, and those that close a hand.
TRICK_EVENTS = ("trick_won", "round_won", "round_tied")
# A thrown-in euchre hand (E12, "redeal") ends a hand too: it took no trick, so the next deal's
# picture shows no older hand's tricks (issue 13 item 6).
HAND_END_EVENTS = ("hand_scored", "hand_won", "redeal")
HAND_START_EVENTS = ("hand_dealt",)


@dataclass(frozen=True)
class Trick:
    cards: list[tuple[int, str]]  # (seat, card) in play order
    winner: int | None  # the winning seat; None for a tied truco round


@dataclass(frozen=True)
class Scene:
    table_id: int
    version: int
    game: str  # "euchre" | "truco"
    stage: str  # "lobby" | "play" | "over"
    locale: str | None
    names: list[str]  # by game seat (in the lobby: by position)
    view: dict[str, Any] | None = None  # the public view of the game
    # The latest finished hand, shown until the next one has its first card on the table.
    last_hand: list[Trick] = field(default_factory=list)
    last_hand_points: tuple[int, int] | None = None  # (team, points)

    @property
    def key(self) -> tuple[int, int, str | None]:
        """What the picture depends on: a table's version changes with everything it shows."""
        return (self.table_id, self.version, self.locale)


def _player_name(table: Table, position: int, locale: str | None) -> str:
    seat = table.seats[position]
    if seat is None:
        return t("table.empty_seat", locale)
    if seat.is_bot:
        return t("picture.bot_name", locale, number=bot_number(seat.name, position))
    return seat.name


def _last_hand(events: list[Any]) -> tuple[list[Trick], tuple[int, int] | None]:
    """The tricks of the latest finished hand, and who scored how much in it."""
    end = None
    for index in range(len(events) - 1, -1, -1):
        kind = events[index].kind
        if kind in HAND_END_EVENTS:
            end = index
            break
    if end is None:
        return [], None
    scored = events[end].data
    team = scored.get("scoring_team", scored.get("team"))
    points = (int(team), int(scored["points"])) if team is not None else None
    tricks: list[Trick] = []
    for event in reversed(events[:end]):
        if event.kind in HAND_START_EVENTS:
            break
        if event.kind in TRICK_EVENTS:
            data = event.data
            winner = None if event.kind == "round_tied" else data.get("seat", event.seat)
            cards = [(c["seat"], c["card"]) for c in data["cards"]]
            tricks.append(Trick(cards, winner))
    tricks.reverse()
    return tricks, points


def scene_of(table: Table, locale: str | None = None, view: dict[str, Any] | None = None) -> Scene:
    """Call with the table's lock held. `view`: the game's public view of the current state,
    where the caller has one (the table message drawn with the picture, issue 31); the scene
    keeps it, so nobody may change it."""
    if table.status == "lobby" or table.game is None:
        names = [_player_name(table, p, locale) for p in range(4)]
        return Scene(table.id, table.version, table.game_name, "lobby", locale, names)
    game = table.game
    if view is None:
        view = game.view(None)
    names = [_player_name(table, table.position_of_seat(seat), locale) for seat in range(4)]
    over = bool(view["is_over"])
    # A hand has started once a card is down or one of its tricks ended (a tied first truco
    # round leaves both pairs at 0 rounds won, yet it is this hand's, T8); between two hands
    # (the next deal may still wait for its cut) the picture shows the last hand's result.
    events = game.events
    hand_started = bool(view["trick"]) or (
        pace.trick_of_this_hand(events) and not pace.between_hands(events, cards_down=False)
    )
    tricks: list[Trick] = []
    points = None
    if over or not hand_started:
        tricks, points = _last_hand(game.events)
    elif not view["trick"] and view.get("last_trick") and view.get("phase") == "play":
        # Issue 30 item 2: a finished trick stays on the table until the next card is led
        # (a bot leads after about 1.5 s, bot/tables/pace.py), as at a real table.
        view = {**view, "trick": view["last_trick"]["cards"]}
    return Scene(
        table.id,
        table.version,
        table.game_name,
        "over" if over else "play",
        locale,
        names,
        view,
        tricks,
        points,
    )


@dataclass(frozen=True)
class SeatScene:
    """What one player's own picture shows: `game.view(seat)` (their hand, nobody else's) and
    the table's names, taken under the table's lock like a Scene."""

    table_id: int
    version: int
    game: str  # "euchre" | "truco"
    locale: str | None
    seat: int  # the game seat whose view this is
    names: list[str]  # by game seat
    view: dict[str, Any]  # game.view(seat)
    # Seconds the player(s) to act had left when the scene was taken (None: no turn timer).
    # A picture cannot count down: the hand's text keeps Discord's live countdown.
    seconds_left: int | None = None

    @property
    def key(self) -> tuple[int, int, int, str | None, int | None]:
        return (self.table_id, self.version, self.seat, self.locale, self.seconds_left)


def seat_scene_of(
    table: Table,
    seat: int,
    locale: str | None = None,
    now: float | None = None,
    view: dict[str, Any] | None = None,
) -> SeatScene | None:
    """Call with the table's lock held; None while there is no game. `now` (the service's
    clock) turns the table's turn deadline into the seconds left shown by the turn marker.
    `view`: `game.view(seat)` of the current state, where the caller has it (the hand message
    drawn with the picture, issue 31); the scene keeps it, so nobody may change it."""
    game = table.game
    if game is None or table.status == "lobby":
        return None
    names = [_player_name(table, table.position_of_seat(s), locale) for s in range(4)]
    # Issue 30 item 4: a picture cannot count down, so none shows the time left (it froze at
    # the value of the moment it was drawn); the hand's text carries Discord's live
    # countdown (`<t:…:R>`). `now` is kept for callers.
    seconds_left = None
    if view is None:
        view = game.view(seat)
    if not pace.trick_of_this_hand(game.events):
        # Issue 30 item 3: the last hand's trick is not this hand's "last trick".
        view = {**view, "last_trick": None}
    return SeatScene(
        table.id,
        table.version,
        table.game_name,
        locale,
        seat,
        names,
        view,
        seconds_left,
    )
