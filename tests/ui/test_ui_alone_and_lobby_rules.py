"""Issue 21 item 3 and the coberta toggle, on the real renderers: a euchre hand under
alone=anyone offers each bid also alone and the private "Go alone" switch (never during the play);
the truco lobby shows a Coberta button. Each failed on the code before."""

from __future__ import annotations

from bot.tables import alone
from bot.texts import t
from bot.ui.kit.custom_ids import parse_game_action, parse_table_button
from bot.ui.kit.message_parts import MessageParts
from bot.ui.table import render
from tests.support.render import buttons, make_table


def game_actions(parts: MessageParts) -> set[str]:
    out = set()
    for button in buttons(parts):
        parsed = parse_game_action(button.custom_id or "")
        if parsed is not None and not button.disabled:
            out.add(parsed.action)
    return out


def verbs(parts: MessageParts) -> set[str]:
    return {
        p.verb for b in buttons(parts) if (p := parse_table_button(b.custom_id or "")) is not None
    }


def test_E14_anyone_the_bidder_may_order_up_alone_and_anyone_may_switch_alone_on() -> None:
    table = make_table("euchre", {}, seed=3)
    game = table.game
    while game.phase != "bidding1":
        game.apply(game.to_act[0], game.legal_actions(game.to_act[0])[0])
    bidder = game.to_act[0]
    parts = render.hand_message(table, bidder)
    assert {"pass", "order", "order:alone"} <= game_actions(parts)
    assert "alone" in verbs(parts) and "stay" not in verbs(parts)
    other = (bidder + 1) % 4
    alone.set_intent(table, other, True)
    theirs = render.hand_message(table, other)
    assert "stay" in verbs(theirs)  # switched on: the button switches it off
    assert t("hand.alone_intent.on") in (theirs.content or "")
    # Once trump is made and the play begins, no switch is offered.
    game.apply(bidder, "order")
    while game.phase != "play":
        seat = game.to_act[0]
        game.apply(seat, game.legal_actions(seat)[-1])
    assert not {"alone", "stay"} & verbs(render.hand_message(table, game.to_act[0]))


def test_E14_maker_rule_offers_no_switch() -> None:
    table = make_table("euchre", {"alone": "maker"}, seed=3)
    game = table.game
    while game.phase != "bidding1":
        game.apply(game.to_act[0], game.legal_actions(game.to_act[0])[0])
    parts = render.hand_message(table, game.to_act[0])
    assert game_actions(parts) >= {"order", "order:alone"}
    assert not {"alone", "stay"} & verbs(parts)


def test_T15_the_truco_lobby_switches_coberta() -> None:
    table = make_table("truco", {}, seed=1)
    table.record.status = "lobby"
    table.game = None
    parts = render.lobby_message(table)
    labels = [b.label for b in buttons(parts)]
    assert t("settings.button", None, setting="Coberta", value="off") in labels
    table.record.options["coberta"] = True
    labels = [b.label for b in buttons(render.lobby_message(table))]
    assert t("settings.button", None, setting="Coberta", value="on") in labels
