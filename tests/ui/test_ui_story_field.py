"""The end-of-game message tells the whole game's story (issue 22), though the table in memory
keeps only its latest hands' events (found by the crash test: a long game's story began at hand
2 and numbered its hands from there)."""

from __future__ import annotations

import random

from bot.tables.games import forget_old_events
from bot.tables.story import game_story, story_lines
from bot.ui.table import render
from tests.support.render import make_table


def test_a_long_games_story_counts_every_hand_though_old_events_were_forgotten() -> None:
    table = make_table("euchre", {"target": 10}, seed=5)
    game = table.game
    assert game is not None
    rng = random.Random(5)
    while not game.is_over:
        seat = rng.choice(game.to_act)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        forget_old_events(game)  # as the table service does after every action
    table.record.status = "finished"
    table.record.started_at = 1_700_000_000.0
    table.record.actions = list(game.actions)
    dealt = [e for e in game.events if e.kind == "hand_dealt"]
    assert dealt and dealt[0].data["hand_number"] > 0  # the table forgot the first hands
    whole = table.rules.replay(
        table.record.options, table.record.seed, table.record.first_dealer, game.actions
    )
    expected = story_lines(game_story(whole), str, str)[0]  # the score line, hand by hand
    parts = render.table_message(table)
    assert parts.embed is not None
    story = next(f.value for f in parts.embed.fields if f.name == "The story")
    assert story is not None and story.splitlines()[0] == expected
    assert expected.count("·") == int(game.hand_number)  # one score per hand played
