"""After the game (issue 22): replay steps, the hand record's round trip and the bot's review.

Games are played by the rule players (fast); a review is judged by the real search in real
worker processes, at the review's own budget.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from bot.engine.euchre import Options as EuchreOptions
from bot.engine.euchre import bot_player as euchre_bot
from bot.engine.euchre import new_game as new_euchre
from bot.engine.truco import Options as TrucoOptions
from bot.engine.truco import bot_player as truco_bot
from bot.engine.truco import new_game as new_truco
from bot.pictures import charts
from bot.tables.hand_record import HandRecordError, export_text, import_text, parse_record
from bot.tables.replay import replay_steps
from bot.tables.review import review_game
from bot.tables.story import game_story, story_lines
from bot.workers import worker_pool
from tests.support.bad_moves import (
    EUCHRE_SEED,
    once,
    played,
    truco_with,
    trump_or_throw_off,
)


def euchre_game(seed: int, options: EuchreOptions | None = None) -> Any:
    return played(new_euchre(options or EuchreOptions(), seed), euchre_bot)[0]


def truco_game(seed: int) -> Any:
    return played(new_truco(TrucoOptions(), seed), truco_bot)[0]


def record(game: Any) -> tuple[str, dict[str, Any], int, int, list[tuple[int, str]]]:
    return game.GAME_NAME, game.options.to_dict(), game.seed, game.first_dealer, game.actions


# --- replay -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game",
    [
        euchre_game(3),
        euchre_game(4, EuchreOptions(deck=32, joker=True, match="rubber", seating="draw")),
        truco_game(3),
    ],
    ids=["euchre", "euchre-rubber-joker", "truco"],
)
def test_replay_steps_follow_the_log_trick_by_trick(game: Any) -> None:
    replay = replay_steps(*record(game))
    steps = replay.steps
    tricks = [e for e in game.events if e.kind in ("trick_won", "round_won", "round_tied")]
    hand_ends = [e for e in game.events if e.kind in ("hand_scored", "hand_won", "redeal")]
    deals = [e for e in game.events if e.kind == "hand_dealt"]
    assert [s.trick.cards for s in steps if s.kind == "trick"] == [
        [(c["seat"], c["card"]) for c in e.data["cards"]] for e in tricks
    ]
    assert sum(s.kind == "hand_end" for s in steps) == len(hand_ends)
    assert len(replay.hand_starts) == len(deals) == len(replay.deals)
    for hand, start in enumerate(replay.hand_starts):
        assert steps[start].kind == "deal" and steps[start].hand == hand
    # Steps move forward through the log, and the last one is the game's end.
    assert [s.actions for s in steps] == sorted(s.actions for s in steps)
    assert steps[-1].view == game.view(None) and steps[-1].view["is_over"]
    assert replay.final.to_json() == game.to_json()
    assert replay.step(10_000) is steps[-1] and replay.step(-3) is steps[0]


def test_replay_shows_the_hands_as_dealt_once_a_hand_is_over() -> None:
    game = euchre_game(5)
    replay = replay_steps(*record(game))
    for step in replay.steps:
        if step.kind != "hand_end":
            assert step.hands is None  # nobody's cards while the hand is on
            continue
        hands = step.hands
        assert hands is not None and all(len(hand) == 5 for hand in hands)
        deal = replay.deals[step.hand]
        # The hands are those dealt: every card played in the hand came from its player's hand.
        for trick in step.tricks:
            for seat, card in trick.cards:
                assert card in hands[seat] or (seat == deal.dealer and card == deal.kitty[0])
        # The kitty's first card is the card turned up when the hand was dealt.
        dealt_event = replay.steps[replay.hand_starts[step.hand]].events[-1]
        assert dealt_event["kind"] == "hand_dealt"
        assert deal.kitty is not None and deal.kitty[0] == dealt_event["data"]["turned_card"]


def test_replay_of_a_truco_hand_won_by_a_run_has_no_trick() -> None:
    for seed in range(1, 60):
        game = truco_game(seed)
        runs = [e for e in game.events if e.kind == "hand_won" and e.data["reason"] == "run"]
        if runs:
            break
    replay = replay_steps(*record(game))
    ran = [
        s for s in replay.steps if s.kind == "hand_end" and "ran" in {e["kind"] for e in s.events}
    ]
    assert ran and all(s.hands is not None and len(s.hands) == 4 for s in ran)


# --- hand record --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game",
    [
        euchre_game(11),
        euchre_game(12, EuchreOptions(deck=28, joker=True, alone="maker", match="rubber")),
        truco_game(11),
        truco_game(12),
    ],
    ids=["euchre", "euchre-rubber", "truco", "truco-2"],
)
def test_hand_record_round_trips_whole_games(game: Any) -> None:
    text = export_text(*record(game))
    assert text.startswith("# card-table hand record 1\n")
    back = import_text(text)
    assert back.to_json() == game.to_json()
    assert back == game  # the same state, not only the same log
    assert import_text(text, play_deals=True).to_json() == game.to_json()
    parsed = parse_record(text)
    assert parsed.actions == [tuple(a) for a in game.actions]
    assert parsed.result == tuple(game.scores)


def test_hand_record_lists_each_deal_before_its_actions() -> None:
    game = truco_game(21)
    lines = export_text(*record(game)).splitlines()
    first_hand = lines.index(f"hand 1: dealer {game.first_dealer}")
    first_action = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    assert first_hand < first_action
    assert lines[first_hand + 1].startswith("seat 0: ")


def test_hand_record_refuses_deals_that_are_not_the_seeds() -> None:
    game = euchre_game(13)
    lines = export_text(*record(game)).splitlines()
    seat0 = next(i for i, line in enumerate(lines) if line.startswith("seat 0: "))
    seat1 = seat0 + 1
    # Swap two seats' hands: a well-formed deal, but not the one the seed gives.
    lines[seat0], lines[seat1] = (
        "seat 0: " + lines[seat1].split(": ")[1],
        "seat 1: " + lines[seat0].split(": ")[1],
    )
    with pytest.raises(HandRecordError, match="not the deals of this seed"):
        import_text("\n".join(lines))


def test_hand_record_names_the_line_it_cannot_read() -> None:
    text = export_text(*record(truco_game(14))).replace("seed: ", "sead: ", 1)
    with pytest.raises(HandRecordError, match="line 3"):
        parse_record(text)
    broken = export_text(*record(truco_game(14))).replace("result: ", "result: 1", 1)
    with pytest.raises(HandRecordError, match="the record says"):
        import_text(broken)


# --- review -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pool() -> Any:
    executor = worker_pool(max_workers=2)
    yield executor
    executor.shutdown(wait=True, cancel_futures=True)


async def _review_one(pool: ProcessPoolExecutor, game: Any, index: int, seat: int) -> Any:
    progress: list[tuple[int, int]] = []
    review = await review_game(
        *record(game),
        seat,
        executor=pool,
        only={index},
        progress=lambda done, total: progress.append((done, total)),
    )
    assert progress == [(0, 1), (1, 1)]
    [decision] = review.decisions
    assert decision.index == index and decision.seat == seat
    return decision


async def test_review_marks_trumping_the_partners_winning_trick(pool: ProcessPoolExecutor) -> None:
    game, [index] = played(
        new_euchre(EuchreOptions(), EUCHRE_SEED),
        euchre_bot,
        once(lambda found: found[0], trump_or_throw_off),
    )
    decision = await _review_one(pool, game, index, 0)
    assert decision.verdict in ("mistake", "blunder")
    assert decision.best != decision.chosen
    best, mine = decision.value_of(decision.best), decision.value_of(decision.chosen)
    assert best is not None and mine is not None
    assert best.value - mine.value == pytest.approx(decision.loss)


async def test_review_leaves_throwing_off_under_the_partners_trick_unmarked(
    pool: ProcessPoolExecutor,
) -> None:
    game, [index] = played(
        new_euchre(EuchreOptions(), EUCHRE_SEED),
        euchre_bot,
        once(lambda found: found[1], trump_or_throw_off),
    )
    decision = await _review_one(pool, game, index, 0)
    assert decision.verdict is None


async def test_review_marks_running_from_a_truco_with_the_zap(pool: ProcessPoolExecutor) -> None:
    game, index = truco_with("run")
    decision = await _review_one(pool, game, index, 0)
    assert decision.verdict in ("mistake", "blunder")
    assert decision.best in ("accept", "raise")
    ran = decision.value_of("run")
    assert ran is not None and ran.hand_chance == 0.0  # a run gives the hand away
    best = decision.value_of(decision.best)
    assert best is not None and best.hand_chance is not None and best.hand_chance > 0.5


async def test_review_leaves_accepting_a_truco_with_the_zap_unmarked(
    pool: ProcessPoolExecutor,
) -> None:
    game, index = truco_with("accept")
    decision = await _review_one(pool, game, index, 0)
    assert decision.verdict is None


async def test_review_of_a_whole_game_is_deterministic_with_progress(
    pool: ProcessPoolExecutor,
) -> None:
    game = truco_game(5)
    seen: list[tuple[int, int]] = []
    first = await review_game(
        *record(game), 1, executor=pool, iterations=50, progress=lambda d, t: seen.append((d, t))
    )
    again = await review_game(*record(game), 1, executor=pool, iterations=50)
    assert first == again
    mine = [i for i, (seat, _) in enumerate(game.actions) if seat == 1]
    assert first.decisions and {d.index for d in first.decisions} <= set(mine)
    assert [d.index for d in first.decisions] == sorted(d.index for d in first.decisions)
    total = len(first.decisions)
    assert seen[0] == (0, total) and seen[-1] == (total, total) and len(seen) == total + 1
    for decision in first.decisions:
        assert decision.chosen == game.actions[decision.index][1]
        assert decision.options[0].value >= max(o.value for o in decision.options)


# --- the game's story ---------------------------------------------------------------------------


def _first(make: Callable[[int], Any], wanted: Callable[[Any], bool]) -> Any:
    return next(game for game in map(make, range(1, 200)) if wanted(game))


def test_story_tells_the_score_by_hand_loners_euchres_and_the_deciding_hand() -> None:
    game = _first(
        euchre_game,
        lambda g: (
            any(e.kind == "went_alone" for e in g.events)
            and any(e.data.get("euchre") for e in g.events)
        ),
    )
    story = game_story(game)
    scored = [e for e in game.events if e.kind == "hand_scored"]
    assert [h.scores for h in story.hands] == [tuple(e.data["scores"]) for e in scored]
    assert story.hands[-1].scores == game.scores
    assert len(story.loners) == sum(e.kind == "went_alone" for e in game.events)
    assert [m for _, m in story.euchres] == [e.data["maker"] for e in scored if e.data["euchre"]]
    # From the deciding hand on, the winners are ahead at every hand's end.
    winner = game.winner
    after = [h for h in story.hands if h.hand >= story.deciding_hand]
    assert after and all(h.scores[winner] > h.scores[1 - winner] for h in after)
    before = [h for h in story.hands if h.hand == story.deciding_hand - 1]
    assert not before or before[0].scores[winner] <= before[0].scores[1 - winner]
    lines = story_lines(story, lambda seat: f"P{seat}", lambda team: f"Team {team + 1}")
    assert (
        lines[0].startswith("Score by hand: ") and f"{game.scores[0]}–{game.scores[1]}" in lines[0]
    )
    assert any("went alone" in line for line in lines)
    assert any("got euchred" in line for line in lines)
    assert lines[-1].startswith(f"The deciding hand: hand {story.deciding_hand}, Team {winner + 1}")
    assert story_lines(story, str, str, "pt-BR")[0].startswith("Placar por mão: ")


def test_story_tells_who_asked_truco_and_who_ran() -> None:
    game = _first(truco_game, lambda g: any(e.kind == "ran" for e in g.events))
    story = game_story(game)
    runs = [e for e in game.events if e.kind == "ran"]
    assert [c.answer_seat for c in story.calls if c.answer == "ran"] == [e.seat for e in runs]
    asks = [e for e in game.events if e.kind.endswith("_asked")]
    assert [c.seat for c in story.calls] == [e.seat for e in asks]
    lines = story_lines(story, lambda seat: f"P{seat}", lambda team: f"Team {team + 1}")
    ran = next(c for c in story.calls if c.answer == "ran")
    word = {"truco": "truco", "six": "seis", "ten": "dez", "twelve": "doze"}[ran.ask]
    assert f"Hand {ran.hand}: P{ran.seat} asked {word}, P{ran.answer_seat} ran." in lines


# --- charts -------------------------------------------------------------------------------------


def _image(data: bytes) -> Any:
    from PIL import Image

    assert data.startswith(b"\x89PNG")
    return Image.open(io.BytesIO(data)).convert("RGB")


def _columns_with(image: Any, colour: tuple[int, int, int]) -> list[int]:
    pixels = image.load()
    return [
        x for x in range(image.width) if any(pixels[x, y] == colour for y in range(image.height))
    ]


def _rows_with(image: Any, colour: tuple[int, int, int], x: int) -> list[int]:
    pixels = image.load()
    return [y for y in range(image.height) if pixels[x, y] == colour]


def test_score_chart_draws_each_pair_up_to_its_final_score() -> None:
    scores = [(0, 2), (1, 2), (1, 6), (5, 6), (10, 6)]
    image = _image(charts.score_chart(scores, 10, ("Ana & Bo", "Cy & Di")))
    assert image.size == (charts.WIDTH, charts.PANEL + 24)
    for team in (0, 1):
        assert _columns_with(image, charts.TEAM_COLOURS[team])
    # At the last hand pair 0 (10 points) is drawn higher than pair 1 (6 points).
    x = max(_columns_with(image, charts.TEAM_COLOURS[1]))
    top0 = min(_rows_with(image, charts.TEAM_COLOURS[0], x))
    top1 = min(_rows_with(image, charts.TEAM_COLOURS[1], x))
    assert top0 < top1


def test_stats_chart_draws_the_rating_line_and_a_bar_per_month() -> None:
    rising = [1000 + 10 * i for i in range(20)]
    months = [("2026-01", 1, 4), ("2026-02", 3, 4), ("2026-03", 0, 2)]
    image = _image(charts.stats_chart(rising, months))
    line = _columns_with(image, charts.LINE)
    first, last = min(line), max(line)
    # The line rises: its right end is higher (smaller y) than its left end.
    assert min(_rows_with(image, charts.LINE, last - 6)) < min(
        _rows_with(image, charts.LINE, first + 1)
    )
    wins = _columns_with(image, charts.WIN)
    losses = _columns_with(image, charts.LOSS)
    # Wins by month: the third month has no win, so nothing is drawn for it (issue 34), and
    # losses are no bar of their own.
    assert not losses and len(_runs(wins)) == 2
    # Nothing to show yet still gives a picture (a new player), in another script too.
    assert _image(charts.stats_chart([], [], "hi")).size == (charts.WIDTH, 2 * charts.PANEL)


def _runs(columns: list[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for x in columns:
        if runs and runs[-1][1] == x - 1:
            runs[-1] = (runs[-1][0], x)
        else:
            runs.append((x, x))
    return runs


def test_replay_picture_shows_every_hand_face_up_from_the_deal() -> None:
    """Issue 34: a finished game has no secrets; from the deal on no card is drawn face down,
    and every step is one picture 800 px wide (readable at a phone's 400)."""
    from bot.pictures.cards import BACK
    from bot.pictures.replay import HEIGHT, WIDTH, step_png

    game = truco_game(8)
    replay = replay_steps(*record(game))
    names = ["Ana", "Bo", "Cy", "Di"]
    deal = replay.steps[0]
    trick = next(s for s in replay.steps if s.kind == "trick")
    end = next(s for s in replay.steps if s.kind == "hand_end")
    assert deal.kind == "deal" and all(len(hand) == 3 for hand in deal.held)
    for step in (deal, trick, end):
        image = _image(step_png("truco", step, names))
        assert image.size == (WIDTH, HEIGHT) == (800, 700)
        assert not _columns_with(image, BACK)  # not one card back
