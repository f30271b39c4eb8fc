"""The seam between the tables layer and the engines: the protocol both games satisfy, the static
registry that lists them, and the memory trimming each game does to itself (`share_actions`,
`forget_events`), which must leave the game exactly as it was for everything that reads it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.engine import euchre, truco
from bot.engine.common import ActionPairs, InvalidOptions, Rng
from bot.engine.protocol import GameProtocol
from bot.engine.registry import ENGINES, engine_for
from bot.tables import games as table_games

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(ENGINES)
# The longest games there are: a euchre rubber, truco to 30.
OPTIONS: dict[str, dict[str, object]] = {"euchre": {"match": "rubber"}, "truco": {"target": 30}}


def fresh(name: str, seed: int) -> GameProtocol:
    engine = engine_for(name)
    return engine.new_game(engine.options.from_dict(OPTIONS[name]), seed)


def choose(game: GameProtocol, seat: int, chooser: Rng) -> str:
    """A seeded random legal move; never a truco raise or run while a card or an accept will do,
    so a game lasts many hands (random raises end a truco game in two or three)."""
    legal = game.legal_actions(seat)
    calm = [action for action in legal if action not in ("raise", "run")] or legal
    return calm[chooser.below(len(calm))]


def play(game: GameProtocol, chooser: Rng, moves: int | None = None) -> None:
    """`moves` moves (`choose`), or to the end of the game."""
    while not game.is_over and (moves is None or moves > 0):
        seat = game.to_act[0]
        game.apply(seat, choose(game, seat, chooser))
        moves = None if moves is None else moves - 1


def observed(game: GameProtocol) -> tuple[object, ...]:
    """All a reader of the game sees, other than the event list itself."""
    return (
        [game.view(seat) for seat in (None, 0, 1, 2, 3)],
        [game.legal_actions(seat) for seat in range(4)],
        [game.hand_history(seat) for seat in range(4)],
        game.to_json(),
        game.to_act,
        game.is_over,
        game.winner,
        game.scores,
        game.hand_number,
        game.dealer,
    )


def test_the_registry_lists_both_engines_by_their_game_names() -> None:
    assert GAMES == ["euchre", "truco"]
    assert engine_for("euchre").game is euchre.Game
    assert engine_for("truco").game is truco.Game
    assert engine_for("euchre").options is euchre.Options
    assert engine_for("truco").options is truco.Options
    for name, engine in ENGINES.items():
        assert engine.name == name == engine.game.GAME_NAME
    with pytest.raises(InvalidOptions):
        engine_for("poker")


@pytest.mark.parametrize("name", GAMES)
def test_both_games_satisfy_the_protocol(name: str) -> None:
    game = fresh(name, 3)
    assert isinstance(game, GameProtocol)
    assert name == game.GAME_NAME


@pytest.mark.parametrize("name", GAMES)
def test_registry_new_game_is_the_engines_new_game(name: str) -> None:
    module = {"euchre": euchre, "truco": truco}[name]
    options = module.Options.from_dict(OPTIONS[name])
    ours, theirs = fresh(name, 11), module.new_game(options, 11)
    assert observed(ours) == observed(theirs)
    assert ours == theirs


@pytest.mark.parametrize("name", GAMES)
def test_registry_players_answer_a_legal_action(name: str) -> None:
    engine = engine_for(name)
    game = fresh(name, 5)
    chooser = Rng(5)
    for _ in range(12):
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        assert engine.bot_action(game, seat) in legal
        searched = engine.search(game.view(seat), game.hand_history(seat), 4, chooser.next64())
        assert searched in legal
        play(game, chooser, 1)


def test_action_pairs_give_one_tuple_per_pair() -> None:
    pairs = ActionPairs()
    first = pairs.share(1, "play:AS")
    assert first == (1, "play:AS")
    assert pairs.share(1, "".join(["play:", "AS"])) is first
    assert pairs.share(2, "play:AS") is not first
    assert len(pairs) == 2


@pytest.mark.parametrize("name", GAMES)
def test_share_actions_changes_nothing_but_the_tuples(name: str) -> None:
    game = fresh(name, 21)
    play(game, Rng(21), 80)
    twin = engine_for(name).game.from_json(game.to_json())
    before = observed(game)
    pairs = ActionPairs()
    game.share_actions(pairs)
    assert observed(game) == before
    assert game == twin
    assert all(pair is pairs.share(*pair) for pair in game.actions)
    # From `start` on only (the service shares each new action as it is applied).
    play(twin, Rng(22), 5)
    twin.share_actions(pairs, start=len(twin.actions) - 1)
    assert twin.actions[-1] is pairs.share(*twin.actions[-1])
    assert twin.actions[-2] is not pairs.share(*twin.actions[-2])


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("keep", [0, 10, 40])
def test_forget_events_changes_nothing_a_reader_sees(name: str, keep: int) -> None:
    """A trimmed game and an untrimmed twin, played the same way to the end: after every move
    they show the same views, legal actions, histories and record, they answer every move with
    the same events, and the trimmed one keeps a tail of the full list that starts at a hand's
    start and holds at least `keep` events and the previous hand."""
    trimmed, full = fresh(name, 8), fresh(name, 8)
    chooser = Rng(8, 1)
    longest = 0
    while not full.is_over:
        seat = full.to_act[0]
        action = choose(full, seat, chooser)
        assert trimmed.apply(seat, action) == full.apply(seat, action)
        trimmed.forget_events(keep)
        assert observed(trimmed) == observed(full)
        events, all_events = trimmed.events, full.events
        assert events == all_events[len(all_events) - len(events) :]
        if len(events) < len(all_events):
            assert events[0].kind == "hand_dealt"
            assert len(events) >= keep
            assert sum(event.kind == "hand_dealt" for event in events) >= 2
        longest = max(longest, len(events))
    assert full.hand_number >= 4, "too short a game to trim anything"
    assert longest < len(full.events)
    again = engine_for(name).game.from_json(trimmed.to_json())
    assert again.events == full.events  # the record brings every event back


@pytest.mark.parametrize("name", GAMES)
def test_tables_keep_the_previous_hand_and_share_the_records_pairs(name: str) -> None:
    """The tables layer's policy (games.py) over the engine methods: a restored game holds the
    shared pairs; a trimmed one keeps at least KEEP_EVENTS events or starts at a hand."""
    game = fresh(name, 30)
    play(game, Rng(30))
    rules = table_games.rules_for(name)
    restored = rules.replay(OPTIONS[name], 30, game.first_dealer, game.actions)
    assert restored == game
    assert all(pair is table_games.shared_pair(*pair) for pair in restored.actions)
    table_games.forget_old_events(restored)
    assert observed(restored) == observed(game)
    assert len(restored.events) < len(game.events)
    assert len(restored.events) >= table_games.KEEP_EVENTS
    assert restored.events[0].kind == "hand_dealt"


def _tables_sources() -> list[tuple[Path, ast.Module]]:
    paths = sorted((ROOT / "bot" / "tables").rglob("*.py"))
    assert paths
    return [(path, ast.parse(path.read_text(encoding="utf-8"))) for path in paths]


def test_tables_load_engines_from_the_registry_not_importlib() -> None:
    bad = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path, tree in _tables_sources()
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        and any(
            (alias.name if isinstance(node, ast.Import) else node.module or "") == "importlib"
            for alias in node.names
        )
    ]
    assert bad == []


def test_tables_never_rewrite_a_games_actions_or_events() -> None:
    """`x.actions[i] = ...`, `del x.events[...]`: the engine trims itself (share_actions,
    forget_events); tables code that edits its lists would break state = f(options, seed,
    actions) behind the engine's back."""

    def engine_list(target: ast.expr) -> bool:
        return (
            isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Attribute)
            and target.value.attr in ("actions", "events")
        )

    bad = []
    for path, tree in _tables_sources():
        for node in ast.walk(tree):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign | ast.Delete):
                targets = list(node.targets)
            elif isinstance(node, ast.AugAssign | ast.AnnAssign):
                targets = [node.target]
            bad += [f"{path.relative_to(ROOT)}:{node.lineno}" for t in targets if engine_list(t)]
    assert bad == []


def test_action_pairs_never_keep_an_unshared_action() -> None:
    """A cut is played once: kept, each would stay in the shared pairs for good (issue 31)."""
    pairs = ActionPairs(unshared=("cut:",))
    cut = pairs.share(1, "cut:drand:42:" + "ab" * 32)
    assert cut == (1, "cut:drand:42:" + "ab" * 32) and len(pairs) == 0
    assert pairs.share(1, "pass") is pairs.share(1, "pass") and len(pairs) == 1
    before = len(table_games.ACTION_PAIRS)
    table_games.shared_pair(2, "cut:msg:1143924991197315072")
    assert len(table_games.ACTION_PAIRS) == before
