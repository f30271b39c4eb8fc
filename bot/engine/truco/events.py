"""Every event kind a Truco game emits, with its data keys. `Event.seat` is the seat that acted,
or None for what the table does (deal, round and hand results). No event ever names a card that
is still in someone's hand: events are public.

- `hand_dealt` (seat: the dealer): {"hand_number", "dealer", "leader"} -- a new hand; `leader` plays
  first (the player after the dealer, T3).
- `hand_of_ten` (seat None): {"team"} -- that pair is at 10 and must decide whether to play (T13).
- `iron_hand` (seat None): {"hand_number"} -- both pairs at 10: no truco, the winner of this hand
  wins the game (T14). Iron hands won: `hand_won` with "iron_hand": true.
- No event for a single card played: the view shows the round in progress, the action log has
  every `play:` action, and each round's event lists its four cards.
- `truco_asked`, `six_asked`, `ten_asked`, `twelve_asked` (the asking seat): {"team", "value"
  (the hand's worth if accepted), "run_value" (what the askers score if the other pair runs),
  "counter" (true when the ask answers an ask: it accepts that one, T9)}.
- `accepted` (the answering seat): {"team" (of the seat), "name" (the ask), "value" (new worth)}.
- `ran` (the answering seat): {"team" (of the seat), "name" (the ask refused), "points" (scored
  by the askers), "to_team" (the askers)}. A `hand_won` with reason "run" follows (T11).
- `hand_of_ten_played` (the deciding seat): {"team", "value"} -- the pair at 10 plays (T13).
- `hand_of_ten_refused` (the deciding seat): {"team", "points", "to_team"} -- it refuses; a
  `hand_won` with reason "hand_of_ten_refused" follows.
- `round_won` (seat None): {"round" (0-based), "team", "seat" (whose card won), "card",
  "leader" (who played first), "cards" ([{"seat", "card"}, ...] in play order)}.
  A card played face down (T15) is "??" (cards.FACE_DOWN) here and in every view until its
  hand ends.
- `round_tied` (seat None): {"round", "card" (the tied top card played first), "leader",
  "cards"} -- "empate" (T6).
- `hand_won` (seat None): {"team", "points", "reason", "scores" (after), "hand_number",
  "hand_of_ten" (team at 10 or null), "iron_hand" (bool), and with the coberta option (T15)
  "covered" ([{"seat", "card"}]: the hand's cards played face down, shown now)}. Reasons:
  "two_rounds", "tie_rule" (T8 decided it), "run" (T11), "hand_of_ten_refused" (T13).
- `game_won` (seat None): {"team", "scores"} (T12); under a match (option `match` 3 or 5) also
  "game_number" (0-based) and "games_won" ([t0, t1] after this game).
- `game_started` (seat None): {"game_number"} -- the next game of a match begins at 0-0, right
  after the hand that won the last one (the deal keeps passing).
- `match_won` (seat None): {"team", "games_won", "match"} -- a pair won the majority of games.

Statistics for storage, per player: asks = the `*_asked` events by seat (with "value", and
"counter" for counter-raises, which also accept the ask they answer); accepts = `accepted` by
seat; runs = `ran` by seat; hands of ten played / refused = `hand_of_ten_played` /
`hand_of_ten_refused` by seat (the pair in "team"); iron hands won = `hand_won` with "iron_hand"
true, for both players of "team"; hands and points won = `hand_won` by team.
"""

from __future__ import annotations

from typing import Final

HAND_DEALT: Final = "hand_dealt"
HAND_OF_TEN: Final = "hand_of_ten"
IRON_HAND: Final = "iron_hand"
ACCEPTED: Final = "accepted"
RAN: Final = "ran"
HAND_OF_TEN_PLAYED: Final = "hand_of_ten_played"
HAND_OF_TEN_REFUSED: Final = "hand_of_ten_refused"
ROUND_WON: Final = "round_won"
ROUND_TIED: Final = "round_tied"
HAND_WON: Final = "hand_won"
GAME_WON: Final = "game_won"
GAME_STARTED: Final = "game_started"
MATCH_WON: Final = "match_won"

# The asks, in ladder order (T9): kind of the event is f"{name}_asked".
ASK_KINDS: Final[dict[str, str]] = {
    name: f"{name}_asked" for name in ("truco", "six", "ten", "twelve")
}

REASON_TWO_ROUNDS: Final = "two_rounds"
REASON_TIE_RULE: Final = "tie_rule"
REASON_RUN: Final = "run"
REASON_HAND_OF_TEN_REFUSED: Final = "hand_of_ten_refused"

ALL_KINDS: Final[frozenset[str]] = frozenset(
    {
        HAND_DEALT,
        HAND_OF_TEN,
        IRON_HAND,
        ACCEPTED,
        RAN,
        HAND_OF_TEN_PLAYED,
        HAND_OF_TEN_REFUSED,
        ROUND_WON,
        ROUND_TIED,
        HAND_WON,
        GAME_WON,
        GAME_STARTED,
        MATCH_WON,
        *ASK_KINDS.values(),
    }
)
