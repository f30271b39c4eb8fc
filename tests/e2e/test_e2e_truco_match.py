"""A truco match of best of three ("melhor de três") through the emulator: four people click
what they see; the match is won 2-1, the table shows the match score all along, and the match
is recorded as one result with each pair's games."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.client import CardTableBot
from bot.storage import ResultsRepository
from bot.texts import t
from bot.ui.table import render
from emulator import Emulator
from emulator.errors import EmulatorUsageError
from tests.support.play_driver import GameStates, TableDriver, scale_rate_limits
from tests.support.shown import text_of
from tests.support.truco_match import STEERED_TARGET, steered_action
from tests.support.world import World

PLAN = [0, 1, 0]  # the pair that wins each game: Team 1, Team 2, Team 1


async def test_truco_best_of_three_won_two_to_one(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    scale_rate_limits(emulator, running_bot, per=1.0)
    # The server's admin (here its owner) counts each game of a match on the board (the
    # default is once); others may not.
    guild = world.table.guild
    assert guild is not None
    with pytest.raises(EmulatorUsageError):
        await world.bob.slash(world.table, "board-count", count="game")
    guild.owner_id = world.alice.id
    answer = await world.alice.slash(world.table, "board-count", count="game")
    assert answer.ephemeral and answer.content == t("board.count.done.game", None)
    driver = TableDriver(world.emu, running_bot, world.table, world.players)
    lobby = await driver.open(world.alice, "truco new", target=STEERED_TARGET, match=3)
    assert t("options.best_of", None, games=3) in lobby.text
    await driver.sit(lobby, world.players[1:], 0, world.alice)
    await driver.start(lobby, world.alice)
    rng = random.Random(5)

    def choose(view: dict[str, Any], seat: int, legal: list[str]) -> str:
        return steered_action(view, seat, legal, PLAN[view["game_number"]], rng)

    await driver.play_to_end(rng, choose=choose)
    table = driver.table
    game = table.game
    assert game is not None and game.winner == 0 and game.games_won == [2, 1]
    # Every version of the table message showed the state of its move, match score included.
    states = GameStates.replay(table)
    assert driver.check_public_history(states, driver.message) > 0
    # The table message is coalesced (a state may be skipped), so what each version must show
    # is checked above; here the renderer shows the match score at every move, and people saw
    # at least the first and the last.
    scores_at = {}
    # (Issue 30: the compact message says it on its score line.)
    match = t("table.field.match", None, games=3) + ": "
    for version in states.games:
        text = render.table_message(states.snapshot_table(version), None).content
        found = [line.split(match)[1] for line in text.splitlines() if match in line]
        if found:  # the game's versions (the result says it in its own field)
            scores_at[version] = found[0]
    assert set(scores_at.values()) >= {
        t("table.match", None, team0=a, team1=b) for a, b in ((0, 0), (1, 0), (1, 1))
    }
    shown = [text_of(v.components) for v in driver.message.versions]
    assert any(t("table.match", None, team0=0, team1=0) in text for text in shown)
    final = driver.message.text
    assert t("result.match", None, team=t("table.team", None, number=1), won=2, lost=1) in final
    # The match's last move, in the hand log one click away (📜 Log & rules, issue 30).
    log = await world.alice.click(driver.message, f"tb:{driver.table.id}:log")
    assert log.ephemeral
    assert (
        t("event.truco.match_won", None, team=t("table.team", None, number=1), won=2, lost=1)
        in log.text
    )
    # Recorded once: the match is the result (winner, the last game's score), each player
    # keeps the games his pair won in it, and the board counts its three games.
    await driver.check_result_recorded()
    assert running_bot.db is not None
    results = ResultsRepository(running_bot.db)
    history = await results.history(table.guild_id, "truco")
    assert len(history) == 1 and history[0].winner_team == 0
    assert history[0].scores == (STEERED_TARGET, 0)
    for person in world.players:
        seat = next(s for s in range(4) if table.player_at(s).user_id == person.id)
        record = (await results.player_stats(table.guild_id, person.id)).records["truco"]
        assert record.games == 3 and record.wins == game.games_won[seat % 2]
        assert record.stats["match_games_won"] == game.games_won[seat % 2]
    driver.assert_no_failures()
