"""Issue 21's rough edges (items 4, 5, 6, 9, 10, 11) and the coberta buttons (T15), on the real
renderers; each test failed on the code before the fix."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine.truco import Options
from bot.pictures import samples
from bot.pictures import table as picture
from bot.pictures.scene import scene_of
from bot.texts import n, t
from bot.ui.kit.custom_ids import parse_game_action
from bot.ui.table import render
from bot.ui.words.cards import FACE_DOWN_TEXT, cards_text, suit_text
from tests.support.render import buttons, make_table, play_out


def finished(game_name: str, seed: int) -> Any:
    table = make_table(game_name, {"target": 6} if game_name == "truco" else {"target": 5}, seed)
    rng = random.Random(seed)
    game = table.game
    while not game.is_over:
        seat = rng.choice(game.to_act)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    table.record.status = "finished"
    return table


def test_item4_the_play_again_field_does_not_repeat_its_title() -> None:
    table = finished("truco", 4)
    embed = render.table_message(table).embed
    assert embed is not None
    [field] = [f for f in embed.fields if f.name == t("result.button.again")]
    assert not (field.value or "").startswith(t("result.button.again"))


def test_item6_the_deadline_speaks_to_the_player() -> None:
    table = make_table("truco", {}, seed=6)
    table.record.turn_deadline = 2_000_000_000.0
    line = render.deadline_line(table, None)
    assert "for you" in line and "they" not in line
    assert f"<@{table.player_at(table.game.to_act[0]).user_id}>" in line


def test_item9_pt_br_counts_zero_points_in_the_plural_and_a_leader_begins() -> None:
    assert n("plural.points", "pt-BR", 0) == "0 pontos"
    assert n("plural.points", "pt-BR", 1) == "1 ponto"
    assert n("plural.points", "fr", 0) == "0 point"  # French keeps the singular
    dealt = t("event.truco.hand_dealt", "pt-BR", number=1, dealer="Ana", leader="Bia")
    assert " sai" not in dealt and ("começa" in dealt or "joga primeiro" in dealt)


@pytest.mark.parametrize("locale", [None, "pt-BR", "fr", "es", "tr", "hi"])
def test_item10_the_score_box_texts_do_not_touch(
    locale: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every text of the score box drawn alone on a blank image: their ink boxes must not meet
    and must stay inside the box."""
    drawn: list[tuple[Any, ...]] = []
    original = picture._text

    def spy(draw: Any, xy: Any, text: str, size: int, **kw: Any) -> None:
        drawn.append((xy, text, size, kw))
        original(draw, xy, text, size, **kw)

    monkeypatch.setattr(picture, "_text", spy)
    scene = scene_of(samples.stages("truco")["trick"], locale)
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (picture.WIDTH, picture.HEIGHT))
    picture._score_box(ImageDraw.Draw(image), scene)
    boxes = []
    for xy, text, size, kw in drawn:
        alone = Image.new("L", (picture.WIDTH, picture.HEIGHT))
        original(ImageDraw.Draw(alone), xy, text, size, **{**kw, "fill": 255})
        box = alone.getbbox()
        assert box is not None
        left, top, right, bottom = box
        assert left > 22 and right < 226 and top > 18 and bottom < 114, (text, box)
        boxes.append((text, box))
    for i, (a, (l1, t1, r1, b1)) in enumerate(boxes):
        for b, (l2, t2, r2, b2) in boxes[i + 1 :]:
            apart = r1 < l2 or r2 < l1 or b1 < t2 or b2 < t1
            assert apart, f"{a!r} touches {b!r}"


def test_item10_the_game_over_picture_has_no_hand_worth_and_no_dealer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts: list[str] = []
    original = picture._text

    def spy(draw: Any, xy: Any, text: str, size: int, **kw: Any) -> None:
        texts.append(text)
        original(draw, xy, text, size, **kw)

    monkeypatch.setattr(picture, "_text", spy)
    for game in ("truco", "euchre"):
        scene = scene_of(samples.stages(game)["game_end"])
        assert scene.stage == "over"
        picture.draw_table(scene)
    joined = " | ".join(texts)
    assert t("picture.worth") not in joined and t("picture.dealer") not in joined
    assert t("picture.trump") not in joined
    # While a hand is played both are there.
    texts.clear()
    picture.draw_table(scene_of(samples.stages("truco")["trick"]))
    assert t("picture.worth") in texts and any(t("picture.dealer") in x for x in texts)


def test_item11_the_truco_hand_names_the_manilhas_and_those_it_holds() -> None:
    table = make_table("truco", {}, seed=11)
    game = table.game
    for seat in range(4):
        content = render.hand_message(table, seat).content
        assert render.manilhas_line(None) in content  # named with their cards (issue 30)
        assert "4♣" in render.manilhas_line(None)
        held = [c for c in ("4C", "7H", "AS", "7D") if c in game.view(seat)["hand"]]
        if held:
            assert t("hand.top_cards.mine", None, cards=cards_text(held)) in content
    assert any(c in game.view(s)["hand"] for s in range(4) for c in ("4C", "7H", "AS", "7D")), (
        "the deal has a manilha somewhere"
    )


def test_item11_the_euchre_hand_names_the_bowers_once_trump_is_made() -> None:
    table = make_table("euchre", {}, seed=3)
    game = table.game
    rng = random.Random(3)
    while game.view(None)["trump"] is None:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        game.apply(seat, next((a for a in legal if a != "pass"), rng.choice(legal)))
    trump = game.view(None)["trump"]
    left = {"H": "D", "D": "H", "S": "C", "C": "S"}[trump]
    line = t("hand.bowers", None, right=suit_text(trump), left=suit_text(left))
    for seat in range(4):
        assert line in render.hand_message(table, seat).content


def test_T15_the_hand_offers_covering_on_a_second_row_and_never_shows_a_covered_face() -> None:
    table = make_table("truco", {"coberta": True}, seed=15, bots={1})
    assert Options.from_dict(table.options).coberta
    assert t("options.coberta") in render.options_summary(table, None)
    game = table.game
    # The first round, face up; then the player on turn may cover.
    while not game.view(None)["rounds"]:
        seat = game.to_act[0]
        game.apply(seat, next(a for a in game.legal_actions(seat) if a.startswith("play:")))
        table.record.version += 1
    seat = game.to_act[0]
    mine = buttons(render.hand_message(table, seat))
    covers = [
        b for b in mine if (p := parse_game_action(b.custom_id or "")) and "cover:" in p.action
    ]
    assert len(covers) == len(game.view(seat)["hand"]) and {b.row for b in covers} == {1}
    game.apply(seat, parse_game_action(covers[0].custom_id or "").action)  # type: ignore[union-attr]
    table.record.version += 1
    public = render.table_message(table)
    assert FACE_DOWN_TEXT in repr(public.embed.to_dict())  # type: ignore[union-attr]
    # The picture draws it as a card back (the face is not in the public view at all).
    scene = scene_of(table)
    assert {"seat": seat, "card": "??"} in scene.view["trick"]  # type: ignore[index]
    picture.draw_table(scene)
    # Whole games with covers: no message ever shows a face it must not (check_step).
    for seed in (21, 22):
        play_out(make_table("truco", {"coberta": True}, seed=seed, bots={1}), random.Random(seed))


def test_T15_the_hands_log_shows_the_covered_cards_once_the_hand_is_over() -> None:
    from bot.ui.words.game_log import log_blocks
    from tests.support.coberta import FIRST_ROUND, coberta_game, play

    game = coberta_game()
    play(game, FIRST_ROUND)
    play(game, {0: "cover:4C", 3: "play:6D", 2: "play:5H", 1: "play:5D"})
    names = ["Ana", "Bia", "Cid", "Duda"]
    during = "\n".join(
        line for block in log_blocks("truco", game, names.__getitem__) for line in block
    )
    assert "4♣" not in during and FACE_DOWN_TEXT in during
    play(game, {3: "play:7D", 2: "play:AS", 1: "play:7H", 0: "play:6H"})
    blocks = log_blocks("truco", game, names.__getitem__)
    shown = t("event.truco.covered", None, cards="Ana 4♣")
    assert shown in blocks[0]
