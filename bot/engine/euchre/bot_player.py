"""A simple rule-based Euchre player: deterministic, and it decides from the seat's view only.

`choose_action(game, seat)` reads `game.view(seat)` and nothing else (`decide(view)` is the
whole policy), so it can never use a card it may not see. The rules of thumb:
- bids: count the hand's strength in the proposed trump (bowers and the joker high, off-suit
  aces a little); the dealer counts the turned card he would pick up, his partner counts it as
  help, an opponent counts it against; order, call or name the best suit past a threshold, go
  alone past a higher one (a stuck dealer calls his best suit);
- the dealer discards his lowest plain card (or leaves the turned card if it is his worst);
- play: a maker with trumps leads his best trump, otherwise an off-suit ace, otherwise his
  lowest card; following, he lets a partner's winning card stand, else wins as cheaply as he
  can, else throws his lowest card.
"""

from __future__ import annotations

from typing import Any

from bot.engine.common import NotYourTurn, partner_of
from bot.engine.euchre.cards import (
    CARD_OF_CODE,
    CODES,
    EFFECTIVE_SUIT,
    SUIT_OF_CODE,
    TRICK_POWER,
    rank_of,
)
from bot.engine.protocol import GameProtocol

ORDER_AT = 17  # e.g. right bower + ace + king of trump, or both bowers
ALONE_AT = 31  # e.g. the joker or both bowers with the ace, king and queen of trump
ACE = 7


def _trump_value(card: int, trump: int) -> float:
    """A card's worth for making `trump`."""
    if EFFECTIVE_SUIT[trump][card] == trump:
        power = TRICK_POWER[trump][trump][card]  # 20 (7) .. 30 (joker)
        return {30: 12, 29: 10, 28: 9}.get(power, power - 21)
    return 2.5 if rank_of(card) == ACE else 0.0


def strength(cards: list[int], trump: int) -> float:
    return sum(_trump_value(c, trump) for c in cards)


def _keep_value(card: int, trump: int) -> float:
    """How much a card is worth keeping (lowest goes first when discarding or throwing)."""
    if EFFECTIVE_SUIT[trump][card] == trump:
        return 100 + TRICK_POWER[trump][trump][card]
    return rank_of(card)


def _bid_strength(view: dict[str, Any], cards: list[int], trump: int) -> float:
    seat, dealer = view["seat"], view["dealer"]
    turned = CARD_OF_CODE[view["turned_card"]]
    if view["phase"] == "bidding1":
        if seat == dealer:  # he would pick it up and discard his worst
            with_turned = [*cards, turned]
            worst = min(with_turned, key=lambda c: _keep_value(c, trump))
            return strength([c for c in with_turned if c != worst], trump)
        help_ = _trump_value(turned, trump) / 2
        return strength(cards, trump) + (help_ if seat == partner_of(dealer) else -help_)
    return strength(cards, trump)


def decide(view: dict[str, Any]) -> str:
    legal: list[str] = view["legal_actions"]
    if not legal:
        raise NotYourTurn(f"seat {view['seat']} has nothing to do now")
    cards = [CARD_OF_CODE[c] for c in view["hand"]]
    phase = view["phase"]
    if phase == "name_suit":  # E6: name the suit this hand is strongest in
        return max(legal, key=lambda a: strength(cards, SUIT_OF_CODE[a[-1]]))
    if phase == "bidding1":
        proposed = view["named_suit"] or view["turned_card"][1]  # E6: a turned-up joker
        trump = SUIT_OF_CODE[proposed]
        value = _bid_strength(view, cards, trump)
        if value >= ALONE_AT and "order:alone" in legal:
            return "order:alone"
        return "order" if value >= ORDER_AT else "pass"
    if phase == "bidding2":
        calls = [a for a in legal if a.startswith("call:") and not a.endswith(":alone")]
        best = max(calls, key=lambda a: strength(cards, SUIT_OF_CODE[a[5]]))
        value = strength(cards, SUIT_OF_CODE[best[5]])
        if value >= ALONE_AT and best + ":alone" in legal:
            return best + ":alone"
        return best if value >= ORDER_AT or "pass" not in legal else "pass"
    trump = SUIT_OF_CODE[view["trump"]]
    if phase == "discard":
        return min(legal, key=lambda a: _keep_value(CARD_OF_CODE[a[8:]], trump))
    if phase == "alone":
        ours = view["makers"] == view["seat"] % 2
        return "alone" if ours and strength(cards, trump) >= ALONE_AT else "stay"
    return _play(view, legal, trump)


def _play(view: dict[str, Any], legal: list[str], trump: int) -> str:
    playable = [CARD_OF_CODE[a[5:]] for a in legal]
    trick = view["trick"]
    effective = EFFECTIVE_SUIT[trump]
    if not trick:
        trumps = [c for c in playable if effective[c] == trump]
        if view["makers"] == view["seat"] % 2 and trumps:
            best = max(trumps, key=lambda c: _keep_value(c, trump))
        else:
            aces = [c for c in playable if effective[c] != trump and rank_of(c) == ACE]
            best = aces[0] if aces else min(playable, key=lambda c: _keep_value(c, trump))
        return "play:" + _code(best)
    led = effective[CARD_OF_CODE[trick[0]["card"]]]
    power = TRICK_POWER[trump][led]
    winning = max(trick, key=lambda t: power[CARD_OF_CODE[t["card"]]])
    best_power = power[CARD_OF_CODE[winning["card"]]]
    cheapest = min(playable, key=lambda c: _keep_value(c, trump))
    if winning["seat"] == partner_of(view["seat"]) and (
        effective[CARD_OF_CODE[winning["card"]]] == trump or best_power >= ACE
    ):
        return "play:" + _code(cheapest)
    winners = [c for c in playable if power[c] > best_power]
    if winners:
        return "play:" + _code(min(winners, key=lambda c: power[c]))
    return "play:" + _code(cheapest)


def _code(card: int) -> str:
    return CODES[card]


def choose_action(game: GameProtocol, seat: int) -> str:
    """One of `game.legal_actions(seat)`, decided from `game.view(seat)` alone."""
    return decide(game.view(seat))
