"""Truco's sinais on the screen (issue 35): the partner's hand message and seat picture show a
signal, the opponents' messages and pictures never do; the six buttons, once a hand; the lobby
switch (on by default) and the /rules text."""

from __future__ import annotations

from bot.pictures.scene import seat_scene_of
from bot.pictures.seat import draw_seat
from bot.texts import t
from bot.ui.kit.custom_ids import parse_game_action
from bot.ui.kit.message_parts import MessageParts
from bot.ui.table import render
from bot.ui.words.rules_text import rules_text
from bot.ui.words.seats import seat_name
from tests.support.render import buttons, make_table, texts_of


def _signal_actions(parts: MessageParts) -> list[str]:
    out = []
    for button in buttons(parts):
        parsed = parse_game_action(button.custom_id or "")
        if parsed is not None and parsed.action.startswith("signal:"):
            out.append(parsed.action)
    return out


def _written(table: object, seat: int) -> str:
    scene = seat_scene_of(table, seat)  # type: ignore[arg-type]
    assert scene is not None
    return " ".join(w.text for w in draw_seat(scene).written)


def test_only_the_partner_sees_a_signal_in_the_hand_message_and_the_picture() -> None:
    table = make_table("truco", {}, 11)
    game = table.game
    sender = game.to_act[0]
    partner = (sender + 2) % 4
    assert len(_signal_actions(render.hand_message(table, sender))) == 6
    opponents = ((sender + 1) % 4, (sender + 3) % 4)
    before = {s: texts_of(render.hand_message(table, s)) for s in opponents}
    pictures = {s: _written(table, s) for s in opponents}
    public_before = texts_of(render.game_message(table))
    game.apply(sender, "signal:espada")
    name = t("signal.espada", None)  # "espadilha"
    partner_text = " ".join(texts_of(render.hand_message(table, partner)))
    who = seat_name(table, sender, None)
    assert t("hand.signal.partner", None, partner=who, signal=name) in partner_text
    assert t("picture.signal", None, signal=name) in _written(table, partner)
    # The sender sees that he sent it, and has no signal left to send this hand.
    sent = render.hand_message(table, sender)
    assert _signal_actions(sent) == []
    assert name in sent.content
    # The opponents' messages and pictures are exactly as they were: nothing of it shows.
    for opponent in opponents:
        assert texts_of(render.hand_message(table, opponent)) == before[opponent]
        assert _written(table, opponent) == pictures[opponent]
    # The public table message neither.
    assert texts_of(render.game_message(table)) == public_before


def test_a_table_without_signals_has_no_buttons_and_the_rules_say_so() -> None:
    table = make_table("truco", {"signals": False}, 11)
    assert _signal_actions(render.hand_message(table, table.game.to_act[0])) == []
    assert t("rules.truco.signals.off", None) in rules_text("truco", {"signals": False}, None)
    on = rules_text("truco", {}, None)
    assert t("rules.truco.signals", None) in on
    assert t("rules.truco.signals.off", None) not in on
