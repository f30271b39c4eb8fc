"""Issue 30: a game that feels good. One whole game of each (one person, three bot seats, the
demo's flow: the real bot on the emulator), then what the person and the channel saw:

- item 1: the table and hand messages are Components V2 layouts (flag 1 << 15, no content or
  embeds, a Container with the picture as a MediaGallery of the message's own attachment); at
  most 6 lines of text beside the table picture and 4 beside the seat picture; the hand's log,
  the rules and the fair deal's reveals are one click away ("📜 Log & rules");
- item 2: bots' going-alone answers (E14) are never a public state of their own;
- item 3: between two hands, the table and hand messages show the last hand's result; the
  seat picture of a new hand never shows the last hand's trick;
- item 4: no picture shows a countdown; the hand's text carries Discord's `<t:…:R>`;
- item 5: the demo ends with a short summary and writes the pictures the players saw;
- item 6: the pictures of the states the game went through (taken at each state as the bot
  takes them, drawn afterwards with the bot's own drawing code, the texts they ask for spied):
  the winner's score first as in the text, truco's "Last round", the partner's turn marker
  clear of the partner's card, the small labels at least 22 px at 800 px wide.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Hashable
from typing import Any

import pytest

from bot.client import CardTableBot
from bot.pictures import seat, table
from bot.pictures.scene import scene_of, seat_scene_of
from bot.tables import pace
from bot.tables.service import Table, TableService
from bot.texts import t
from bot.ui.kit.layout import flat
from bot.ui.table import render, seat_picture, table_picture
from demo.play import PLAYER_NAME, DemoReport, play_demo
from emulator import Emulator
from emulator.limits import IS_COMPONENTS_V2
from emulator.state import Message, MessageVersion
from tests.support.live_hands import seat_and_start
from tests.support.picture_texts import spy_texts
from tests.support.play_driver import scale_rate_limits
from tests.support.shown import text_of
from tests.support.world import World

SEED = 30
TABLE_CARD = seat.TABLE_CARD


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> DemoReport:
    seen: list[tuple[str, bool, bool]] = []
    stale: list[int] = []
    shown_result: list[bool] = []
    kept: list[tuple[bool, float]] = []
    scenes: dict[str, list[Any]] = {"over": [], "last": [], "partner": [], "table": []}

    def take_scenes(table: Table) -> None:
        """Item 6: the scenes of this state the pictures are drawn from (a few of each kind)."""
        game = table.game
        assert game is not None
        view = game.view(None)
        if game.is_over:
            scenes["over"].append((scene_of(table, None), seat_scene_of(table, 0, None)))
            return

        def few(kind: str) -> bool:  # both games play at once: a few of each game's
            return sum(s.game == table.game_name for s in scenes[kind]) < 20

        if few("table"):
            scenes["table"].append(scene_of(table, None))
        seat_scene = seat_scene_of(table, 0, None)
        if seat_scene and seat_scene.view["last_trick"] and few("last"):
            scenes["last"].append(seat_scene)
        for mine in range(4):
            if (mine + 2) % 4 in view["to_act"] and few("partner"):
                scenes["partner"].append(seat_scene_of(table, mine, None))

    def watch(service: TableService) -> None:
        def listener(table: Table, change: str) -> None:
            game = table.game
            if game is not None and table.status != "lobby":
                take_scenes(table)
            if game is None or game.is_over:
                return
            view = game.view(None)
            bot_to_act = any(table.bot_plays(s) for s in view["to_act"])
            seen.append((str(view["phase"]), bot_to_act, pace.game_between_hands(game)))
            this_hand = pace.trick_of_this_hand(game.events)
            between = pace.game_between_hands(game)
            trick_ended = view["phase"] == "play" and not view["trick"] and view["last_trick"]
            if trick_ended and this_hand and not between:
                # A trick just ended within a hand (the hand's last one is its result, item 3,
                # shown while the next deal waits for its cut, however long that takes): it
                # stays in the table picture's centre, and a bot about to lead waits about
                # 1.5 s (at the default 1 s delay) first.
                scene = scene_of(table, None)
                wait = pace.bot_pause(game.events, "play", 1.0, trick_empty=True)
                kept.append((scene.view["trick"] == view["last_trick"]["cards"], wait))
            if pace.game_between_hands(game):  # the result, on the table and every hand
                texts = [render.table_message(table, None).content]
                texts += [render.hand_message(table, s, None).content for s in range(4)]
                shown_result.append(all("🏁" in text for text in texts))
            # The seat picture's last trick, when no trick of this hand has ended yet.
            kinds = [e.kind for e in game.events]
            dealt = max((i for i, k in enumerate(kinds) if k == "hand_dealt"), default=-1)
            if dealt >= 0 and not {"trick_won", "round_won", "round_tied"} & set(kinds[dealt:]):
                scene = seat_scene_of(table, 0, None)
                if scene is not None and scene.view["last_trick"] is not None:
                    stale.append(table.version)

        service.add_listener(listener)

    pictures = tmp_path_factory.mktemp("pictures")
    result = asyncio.run(
        play_demo(delay=0.0, seed=SEED, on_service=watch, edit_window=0.3, pictures=pictures)
    )
    result.states = seen  # type: ignore[attr-defined]
    result.stale = stale  # type: ignore[attr-defined]
    result.shown_result = shown_result  # type: ignore[attr-defined]
    result.kept = kept  # type: ignore[attr-defined]
    result.scenes = scenes  # type: ignore[attr-defined]
    return result


def table_message(report: DemoReport, index: int) -> Message:
    table = report.tables[index]
    return report.emulator.messages[table.message_id or 0]


def in_play(versions: list[MessageVersion]) -> list[MessageVersion]:
    return [v for v in versions if "Show my hand" in str(v.components)]


def hand_versions(report: DemoReport) -> list[MessageVersion]:
    sam = report.emulator.user(PLAYER_NAME)
    return [v for m in sam.own_ephemerals for v in m.versions if v.components]


def galleries(shown: MessageVersion) -> list[str]:
    return [
        item["media"]["url"]
        for c in flat(shown.components)
        if c.get("type") == 12
        for item in c["items"]
    ]


def lines(shown: MessageVersion) -> list[str]:
    return [line for line in text_of(shown.components).splitlines() if line.strip()]


@pytest.mark.parametrize("index", [0, 1])
def test_item1_the_table_message_is_a_compact_layout(report: DemoReport, index: int) -> None:
    assert report.problems == [] and report.ok
    message = table_message(report, index)
    shown = in_play(message.versions)
    assert shown
    first = message.versions.index(shown[0])
    # The lobby is an embed; from the game's first version on, the flag, for good.
    for version in message.versions[first:]:
        assert version.flags & IS_COMPONENTS_V2
        assert not version.content and not version.embeds
        assert [c["type"] for c in version.components] == [17]  # one Container
    for version in shown:
        assert len(lines(version)) <= 6, lines(version)
        # The gallery shows the message's own attachment (Discord stores it by its URL).
        urls = [a["url"] for a in version.attachments if a["filename"] == table_picture.FILENAME]
        assert galleries(version) == urls and len(urls) == 1
        assert "accent_color" in version.components[0]
        # The long parts are one click away, not on the message.
        assert "📜 Log & rules" in [b["label"] for b in flat(version.components) if "label" in b]
        assert t("table.field.log", None) not in text_of(version.components)
        assert "revealed: seed" not in text_of(version.components)
    # The deal's short commitment, as small text.
    assert any(line.startswith("-# ") for v in shown for line in lines(v))


@pytest.mark.parametrize("index", [0, 1])
def test_item1_the_result_is_as_short_beside_its_picture(report: DemoReport, index: int) -> None:
    """The table message after the game: who won and by how much, the story's start, who is
    ready, at most 6 lines beside the last picture; the log, the rules and the whole story
    one click away (📜 Log & rules), with Replay and Review."""
    message = table_message(report, index)
    results = [v for v in message.versions if t("result.button.again", None) in str(v.components)]
    assert results
    for version in results:
        assert version.flags & IS_COMPONENTS_V2 and not version.content and not version.embeds
        assert len(lines(version)) <= 6, lines(version)
        urls = [a["url"] for a in version.attachments if a["filename"] == table_picture.FILENAME]
        assert galleries(version) == urls and len(urls) == 1
        labels = [b["label"] for b in flat(version.components) if "label" in b]
        assert {"📜 Log & rules", "Replay", "Review my play"} <= set(labels), labels
        assert lines(version)[0].startswith(t("result.content", None, team="", players="")[:9])


def test_item1_the_hand_message_is_a_layout_of_at_most_four_lines(report: DemoReport) -> None:
    versions = hand_versions(report)
    assert versions
    for version in versions:
        assert version.flags & IS_COMPONENTS_V2 and not version.content and not version.embeds
        assert len(lines(version)) <= 4, lines(version)
        urls = [a["url"] for a in version.attachments if a["filename"] == seat_picture.FILENAME]
        assert galleries(version) in ([], urls)
    assert any(galleries(v) for v in versions)
    # The going-alone explanation comes in the first hand only, not on every bidding turn.
    explained = [v for v in versions if "Switch it on before trump is made" in str(v.components)]
    assert len(explained) < len(versions) // 4


def test_item1_log_and_rules_answer_privately(report: DemoReport) -> None:
    clicks = [i for i in report.emulator.interactions if (i.custom_id or "").endswith(":log")]
    assert clicks, "the demo's person opens the log once"
    answer = clicks[0].original
    assert answer is not None and answer.ephemeral
    assert t("table.field.log", None) in answer.text and t("lobby.options", None) in answer.text


def test_item2_bots_going_alone_answers_are_not_public_states(report: DemoReport) -> None:
    states = report.states  # type: ignore[attr-defined]
    assert states
    assert not [s for s in states if s[0] == "alone" and s[1]], "a bot's alone answer was shown"


def test_item2_a_finished_trick_stays_on_the_table_about_one_and_a_half_seconds(
    report: DemoReport,
) -> None:
    kept = report.kept  # type: ignore[attr-defined]
    assert kept and all(in_centre for in_centre, _ in kept)
    assert {wait for _, wait in kept} == {pace.TRICK_PAUSE} and pace.TRICK_PAUSE == 1.5


def test_item3_the_hands_result_shows_between_hands(report: DemoReport) -> None:
    # Every state between two hands, in both games, shows the result on the table message
    # and on every seat's hand message (drawn as the bot draws them, at that very state).
    shown = report.shown_result  # type: ignore[attr-defined]
    assert shown and all(shown)
    # What the channel saw: the four-people test below holds each state and reads it there
    # (here bots play at zero delay, so the next hand's first move may follow at once).


@pytest.mark.parametrize(("command", "target"), [("euchre new", 5), ("truco new", 6)])
async def test_item3_four_people_see_each_hands_result_until_the_next_first_move(
    emulator: Emulator, world: World, running_bot: CardTableBot, command: str, target: int
) -> None:
    """Four people (each in their own language): a hand's result stays on the table message
    and on a hand message until someone makes the next hand's first move (a person's click is
    the "deal")."""
    ended = re.compile(r"🏁 .+ \d–\d ?: ")
    scale_rate_limits(emulator, running_bot, per=1.0)
    driver = await seat_and_start(world, running_bot, command, 4, target=target, turn_timer=0)
    rng = random.Random(30)

    def no_raise(view: Any, seat: int, legal: list[str]) -> str:
        """Any move but truco's raises (a game of one hand raised to twelve has no next)."""
        return rng.choice([a for a in legal if a not in ("truco", "raise")] or legal)

    seen = 0
    while seen < 2 and await driver.step(rng, no_raise):
        game = driver.table.game
        assert game is not None
        if game.is_over or not pace.game_between_hands(game):
            continue
        await driver.settle()  # the table message shows this very state: the result
        assert ended.search(text_of(driver.message.versions[-1].components))
        person = driver.person_at(game.to_act[0] if game.to_act else 0)
        hand = await person.click(driver.message, "Show my hand")
        assert ended.search(text_of(hand.versions[-1].components)), hand.versions[-1]
        seen += 1
    assert seen == 2
    driver.assert_no_failures()


def test_item3_a_new_hands_picture_shows_no_old_trick(report: DemoReport) -> None:
    assert report.stale == []  # type: ignore[attr-defined]


def test_item4_no_picture_counts_down_and_the_hand_text_does(report: DemoReport) -> None:
    table = report.tables[0]
    scene = seat_scene_of(table, 0, None, now=0.0)
    assert scene is None or scene.seconds_left is None
    countdown = re.compile(r"<t:\d+:R>")
    assert any(countdown.search(text_of(v.components)) for v in hand_versions(report))


def test_item5_the_demo_ends_with_a_short_summary(report: DemoReport) -> None:
    lines = report.summary()
    text = "\n".join(lines)
    assert len(lines) <= 40
    assert len(report.games) == 2
    for title, result, seconds, clicks in report.games:
        assert title in text and result in text and result.startswith("Team ")
        assert f"{seconds:.0f} s of play, {clicks} clicks" in text and clicks > 5
    assert f"{len(report.emulator.interactions)} interactions" in text
    assert "No Discord rule broken." in text and "--verbose" in text
    # The folder holds the pictures the players saw: the table's and the person's hand's.
    assert report.pictures is not None and str(report.pictures) in text
    pngs = sorted(report.pictures.rglob("*.png"))
    assert len(pngs) == report.pictures_written > 10
    assert any(p.name.endswith("-table.png") for p in pngs)
    assert any(p.name.endswith("-hand.png") for p in pngs)
    # No developer words in what a newcomer reads.
    assert "state " not in text and "acknowledged" not in text


def test_item6_the_pictures_put_the_winners_score_first_as_the_text(
    report: DemoReport, monkeypatch: pytest.MonkeyPatch
) -> None:
    over = report.scenes["over"]  # type: ignore[attr-defined]
    assert {scene.game for scene, _ in over} == {"euchre", "truco"}
    for index, played in enumerate(report.tables):
        game = played.game
        assert game is not None
        winner, scores = game.view(None)["winner"], game.view(None)["scores"]
        first, second = scores[winner], scores[1 - winner]
        # The text: "Team N wins 12–2", never "2–12" for the winner.
        final = table_message(report, index).versions[-1]
        shown = text_of(final.components) + str(final.embeds)
        assert f"{first}–{second}" in shown
        for scene, seat_scene in (pair for pair in over if pair[0].game == played.game_name):
            for module, draw in ((table, table.table_png), (seat, seat.seat_png)):
                calls = spy_texts(monkeypatch, module)
                draw(scene if module is table else seat_scene)
                (values,) = [v for key, v in calls if key == "picture.winner"]
                assert (values["a"], values["b"]) == (first, second)


def test_item6_truco_pictures_say_last_round_and_euchre_last_trick(
    report: DemoReport, monkeypatch: pytest.MonkeyPatch
) -> None:
    last = report.scenes["last"]  # type: ignore[attr-defined]
    assert {scene.game for scene in last} == {"euchre", "truco"}
    for scene in last:
        calls = spy_texts(monkeypatch, seat)
        seat.seat_png(scene)
        keys = {key for key, _ in calls}
        if scene.game == "truco":
            assert "picture.last_round" in keys and "picture.last_trick" not in keys
        else:
            assert "picture.last_trick" in keys and "picture.last_round" not in keys


Pasted = tuple[Hashable, tuple[int, int], tuple[int, int]]  # key, top left, size


def drawn_arrows_and_cards(
    scene: Any, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[list[tuple[float, float]]], list[Pasted]]:
    """Draw a seat picture, noting its gold polygons (turn arrows) and every sprite pasted."""
    arrows: list[list[tuple[float, float]]] = []
    cards: list[Pasted] = []
    real_post_init, real_paste = seat.Pen.__post_init__, seat.Pen.paste

    class Spy:
        def __init__(self, drawn: Any) -> None:
            self.drawn = drawn

        def __getattr__(self, name: str) -> Any:
            method = getattr(self.drawn, name)
            if name != "polygon":
                return method

            def polygon(points: Any, *args: Any, **kwargs: Any) -> Any:
                if kwargs.get("fill") == seat.TURN:
                    arrows.append(list(points))
                return method(points, *args, **kwargs)

            return polygon

    def post_init(pen: Any) -> None:
        real_post_init(pen)
        pen.draw = Spy(pen.draw)

    def paste(pen: Any, sprite: Any, xy: tuple[int, int], key: Hashable) -> None:
        cards.append((key, xy, sprite.size))
        real_paste(pen, sprite, xy, key)

    with monkeypatch.context() as patched:
        patched.setattr(seat.Pen, "__post_init__", post_init)
        patched.setattr(seat.Pen, "paste", paste)
        seat.seat_png(scene)
    return arrows, cards


def test_item6_the_partners_turn_marker_is_clear_of_the_partners_card(
    report: DemoReport, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A truco partner who has played may be to act again (answering a truco): the gold arrow
    beside their plate once covered their card on the table. Every picture where the partner
    is to act keeps the arrow clear of the place of that card."""
    partner_turns = report.scenes["partner"]  # type: ignore[attr-defined]
    assert {scene.game for scene in partner_turns} == {"euchre", "truco"}
    for scene in partner_turns:
        arrows, cards = drawn_arrows_and_cards(scene, monkeypatch)
        # Where the partner's card lies on the table: as drawn, or where it will be drawn.
        partner = (scene.seat + 2) % 4
        played = [e["card"] for e in scene.view["trick"] if e["seat"] == partner]
        boxes = [
            (x, y, x + w, y + h)
            for key, (x, y), (w, h) in cards
            if played and isinstance(key, tuple) and key[:3] == ("card", played[0], TABLE_CARD)
        ]
        if not played:
            width, height = seat._sprite("AS", TABLE_CARD, "").size
            x, y = (
                seat.CENTRE[0] + seat.TRICK_OFFSETS[2][0],
                seat.CENTRE[1] + seat.TRICK_OFFSETS[2][1],
            )
            boxes = [(x - width / 2, y - height / 2, x + width / 2, y + height / 2)]
        assert len(boxes) == 1 and arrows
        x0, y0, x1, y1 = boxes[0]
        for arrow in arrows:
            assert not any(x0 <= x <= x1 and y0 <= y <= y1 for x, y in arrow), (arrow, boxes)


def test_item6_the_table_pictures_labels_are_22_px_at_800_px_wide(
    report: DemoReport, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = report.scenes["table"]  # type: ignore[attr-defined]
    assert {scene.game for scene in drawn} == {"euchre", "truco"}
    sizes: dict[str, list[int]] = {}
    real = table._text

    def text(draw: Any, xy: Any, words: str, size: int, **kwargs: Any) -> None:
        sizes.setdefault(words, []).append(size)
        real(draw, xy, words, size, **kwargs)

    monkeypatch.setattr(table, "_text", text)
    for scene in drawn:
        table.table_png(scene)
    # The small labels: the target, the tricks (rounds) column, the dealer's note.
    labels = [t("picture.target", None, target=target) for target in (5, 6, 10, 12)]
    labels += [t(f"picture.tricks.{game}", None) for game in ("euchre", "truco")]
    labels += [t("picture.dealer", None)]
    shown = [words for words in labels if words in sizes]
    assert len(shown) >= 4, sorted(sizes)
    for words in shown:
        assert min(sizes[words]) * 800 / table.WIDTH >= 22, (words, sizes[words])
