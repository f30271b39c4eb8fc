"""A finished game's `GameResult`, with per-player statistics counted from the engine's events.

Statistics (keys of `PlayerResult.stats`; every key is present, zero included):

Euchre (events of bot/engine/euchre/events.py)
- `made_trump`: ordered up, assisted, took (picked up) or called trump.
- `made_it`: the player who made trump, when the makers scored (made, march, lone march).
- `marches`: each player of the making side who played a hand where it took all five tricks.
- `lone_marches`: a player alone who took all five tricks as a maker.
- `euchred_others`: each defender who played a hand where the makers were euchred.
- `got_euchred`: the player who made trump, when the makers were euchred.
- `alone_calls`: went alone (maker or defender).

Truco (events of bot/engine/truco/events.py)
- `truco_asks`: asked truco, or raised to six, ten or twelve.
- `accepted`: accepted an ask.
- `ran`: ran from an ask.
- `hands_of_ten_played` / `hands_of_ten_refused`: both players of the pair at ten, whichever
  partner answered (the decision is the pair's, T13).
- `iron_hands_won`: both players of the pair that won an iron hand (T14).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.engine.common import team_of
from bot.engine.protocol import GameProtocol
from bot.tables.records import GameResult, PlayerResult, TableRecord

EUCHRE_STATS: tuple[str, ...] = (
    "made_trump",
    "made_it",
    "marches",
    "lone_marches",
    "euchred_others",
    "got_euchred",
    "alone_calls",
)
TRUCO_STATS: tuple[str, ...] = (
    "truco_asks",
    "accepted",
    "ran",
    "hands_of_ten_played",
    "hands_of_ten_refused",
    "iron_hands_won",
    # Games of a best-of-3/5 match won by the player's pair (the match itself is the result).
    "match_games_won",
)
STATS: dict[str, tuple[str, ...]] = {"euchre": EUCHRE_STATS, "truco": TRUCO_STATS}

_EUCHRE_BIDS = frozenset({"ordered_up", "assisted", "picked_up", "called"})
_MAKERS_SCORED = frozenset({"made", "march", "lone_march"})
_TRUCO_ASKS = frozenset({"truco_asked", "six_asked", "ten_asked", "twelve_asked"})


def euchre_stats(events: Iterable[Any]) -> list[dict[str, int]]:
    stats = [dict.fromkeys(EUCHRE_STATS, 0) for _ in range(4)]
    sitting_out: set[int] = set()
    for event in events:
        kind, seat, data = event.kind, event.seat, event.data
        if kind == "hand_dealt":
            sitting_out = set()
        elif kind in _EUCHRE_BIDS:
            stats[seat]["made_trump"] += 1
        elif kind == "went_alone":
            stats[seat]["alone_calls"] += 1
            sitting_out.add(int(data["partner"]))
        elif kind == "hand_scored":
            maker = int(data["maker"])
            makers = int(data["makers"])
            reason = data["reason"]
            alone = {int(s) for s in data.get("alone") or ()}
            playing = [s for s in range(4) if s not in sitting_out]
            if reason in _MAKERS_SCORED:
                stats[maker]["made_it"] += 1
            if reason in ("march", "lone_march"):
                for s in playing:
                    if team_of(s) == makers:
                        stats[s]["marches"] += 1
            if reason == "lone_march":
                for s in alone:
                    if team_of(s) == makers:
                        stats[s]["lone_marches"] += 1
            if data.get("euchre"):
                stats[maker]["got_euchred"] += 1
                for s in playing:
                    if team_of(s) != makers:
                        stats[s]["euchred_others"] += 1
    return stats


def truco_stats(events: Iterable[Any]) -> list[dict[str, int]]:
    stats = [dict.fromkeys(TRUCO_STATS, 0) for _ in range(4)]
    for event in events:
        kind, seat, data = event.kind, event.seat, event.data
        if kind in _TRUCO_ASKS:
            stats[seat]["truco_asks"] += 1
        elif kind == "accepted":
            stats[seat]["accepted"] += 1
        elif kind == "ran":
            stats[seat]["ran"] += 1
        elif kind in ("hand_of_ten_played", "hand_of_ten_refused"):
            key = "hands_of_ten_played" if kind == "hand_of_ten_played" else "hands_of_ten_refused"
            for s in range(4):
                if team_of(s) == int(data["team"]):
                    stats[s][key] += 1
        elif kind == "hand_won" and data.get("iron_hand"):
            for s in range(4):
                if team_of(s) == int(data["team"]):
                    stats[s]["iron_hands_won"] += 1
        elif kind == "game_won" and "games_won" in data:  # a game of a match
            for s in range(4):
                if team_of(s) == int(data["team"]):
                    stats[s]["match_games_won"] += 1
    return stats


def player_stats(game_name: str, events: Iterable[Any]) -> list[dict[str, int]]:
    """Statistics per game seat."""
    if game_name == "euchre":
        return euchre_stats(events)
    if game_name == "truco":
        return truco_stats(events)
    raise ValueError(f"no statistics for game {game_name!r}")


def rubber_margin(events: Iterable[Any]) -> int | None:
    margin = None
    for event in events:
        if event.kind == "rubber_won":
            margin = int(event.data["margin"])
    return margin


def build_result(
    record: TableRecord,
    seat_of_position: list[int],
    game: GameProtocol,
    ended_at: float,
    *,
    since_left: bool = False,
) -> GameResult:
    """The result of the finished game `game` played at `record`'s table. `since_left`: the
    result of a finished table rebuilt from the store, whose players may have left since the
    game ended (their seats are empty; the stored result, written when it ended, names them):
    their positions are left out rather than refused."""
    if not game.is_over or game.winner is None:
        raise ValueError("the game is not over")
    stats = player_stats(record.game, game.events)
    players = []
    for position, seat_record in enumerate(record.seats):
        if seat_record is None:
            if since_left:
                continue
            raise ValueError(f"table {record.id}: position {position} is empty")
        seat = seat_of_position[position]
        players.append(
            PlayerResult(
                seat=seat,
                team=team_of(seat),
                user_id=None if seat_record.is_bot else seat_record.user_id,
                name=seat_record.name,
                is_bot=seat_record.is_bot,
                stats=stats[seat],
            )
        )
    players.sort(key=lambda p: p.seat)
    assert record.seed is not None
    scores = game.scores
    return GameResult(
        guild_id=record.guild_id,
        channel_id=record.channel_id,
        table_id=record.id,
        game=record.game,
        options=dict(record.options),
        seed=record.seed,
        first_dealer=record.first_dealer,
        actions=list(game.actions),
        started_at=record.started_at if record.started_at is not None else ended_at,
        ended_at=ended_at,
        hands_played=int(game.hand_number) + 1,
        scores=(int(scores[0]), int(scores[1])),
        winner_team=int(game.winner),
        margin=rubber_margin(game.events) if record.game == "euchre" else None,
        players=players,
        game_winners=tuple(int(e.data["team"]) for e in game.events if e.kind == "game_won"),
    )
