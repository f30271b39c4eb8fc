"""Every Euchre event kind and its data keys (the UI's catalog renders them; storage counts them).

Events are `bot.engine.common.Event(kind, seat, data)`. Every event is PUBLIC: none carries a
card that some seat may not see (no hand, no kitty, never the dealer's discard), so the table
service may show any of them to everybody. Seats are game seats (0..3), teams 0 (seats 0 & 2)
and 1 (seats 1 & 3), suits one letter of "CDHS", cards two-character codes.

Playing a card that does not end a trick emits nothing: the trick in progress is in the view,
and `trick_won` lists every card of the trick with its seat.

kind              seat          data
----------------  ------------  --------------------------------------------------------------
seating_drawn     None          rounds: [[{position, card}, ...], ...] (the draw, re-draws of
                                ties included, E2), seat_of_position: [seat per lobby
                                position], first_dealer: 0
game_started      None          game_number (0-based; several under match=rubber), dealer
hand_dealt        dealer        hand_number, game_number, dealer, turned_card
suit_named        dealer        suit — the dealer names a suit for a turned-up joker (E6)
passed            the bidder    round: 1 | 2
ordered_up        the bidder    suit, card (the turned card), alone: bool — an opponent of
                                the dealer accepted the turned card (E9)
assisted          the bidder    suit, card, alone — the dealer's partner accepted it
picked_up         the dealer    suit, card, alone — the dealer accepted it himself ("takes")
turned_down       None          card, suit — all four passed in round 1 (E11)
called            the bidder    suit, style: "next" (same colour as the turned-down suit) |
                                "cross", alone: bool — trump named in round 2 (E11)
dealer_discarded  dealer        {} — the dealer discarded face down; which card (and so
                                whether he left the turned card) stays hidden (E10)
went_alone        the loner     side: "makers" | "defenders", partner: the seat sitting out
                                (E14; under alone=maker it follows the bid that said alone)
stayed            the seat      {} — answered "stay" to the going-alone question (alone=anyone)
trick_won         the winner    number: 1..5, leader, cards: [{seat, card}, ...] in play order,
                                tricks: [team 0, team 1] taken so far this hand (E17)
hand_scored       None          hand_number, trump, maker (seat), makers (team), alone: [seats
                                alone], tricks: [t0, t1], points, scoring_team, reason: "made"
                                | "march" | "lone_march" | "euchred" | "defended_alone" |
                                "defended_alone_march", euchre: bool (the makers were
                                euchred), scores: [t0, t1] after the hand (E18–E20)
redeal            dealer        hand_number, next_dealer — all passed twice, the hand is
                                thrown in (E12)
game_won          None          team, scores: [t0, t1] final, game_number, rubber_points: the
                                rubber points this game counts (E22) or None under match=game,
                                games_won: [t0, t1]
rubber_won        None          team, games_won: [t0, t1], rubber_points: [t0, t1], margin (E22)

Statistics for storage: a seat "made trump" on ordered_up / assisted / picked_up / called;
hand_scored names the maker, the makers' team, who was alone and the reason (made it, march,
lone march, euchred, defended alone), so made-it / marches / lone marches / euchred others /
got euchred / alone calls all follow from it and from went_alone.
"""

from __future__ import annotations

SEATING_DRAWN = "seating_drawn"
GAME_STARTED = "game_started"
HAND_DEALT = "hand_dealt"
SUIT_NAMED = "suit_named"
PASSED = "passed"
ORDERED_UP = "ordered_up"
ASSISTED = "assisted"
PICKED_UP = "picked_up"
TURNED_DOWN = "turned_down"
CALLED = "called"
DEALER_DISCARDED = "dealer_discarded"
WENT_ALONE = "went_alone"
STAYED = "stayed"
TRICK_WON = "trick_won"
HAND_SCORED = "hand_scored"
REDEAL = "redeal"
GAME_WON = "game_won"
RUBBER_WON = "rubber_won"

ALL_KINDS = (
    SEATING_DRAWN,
    GAME_STARTED,
    HAND_DEALT,
    SUIT_NAMED,
    PASSED,
    ORDERED_UP,
    ASSISTED,
    PICKED_UP,
    TURNED_DOWN,
    CALLED,
    DEALER_DISCARDED,
    WENT_ALONE,
    STAYED,
    TRICK_WON,
    HAND_SCORED,
    REDEAL,
    GAME_WON,
    RUBBER_WON,
)

# hand_scored reasons
MADE = "made"
MARCH = "march"
LONE_MARCH = "lone_march"
EUCHRED = "euchred"
DEFENDED_ALONE = "defended_alone"
DEFENDED_ALONE_MARCH = "defended_alone_march"
