"""Seasons through the emulator (issue 23): an admin starts a truco season, a game is played
in it, the bot stops, the season's end passes while it is down, and the bot that comes back
closes the season and posts its final standings once; a further restart posts nothing."""

from __future__ import annotations

import random
from typing import Any

from bot.settings import Settings
from bot.texts import t
from bot.ui.boards.pages import MIN_GAMES
from emulator import Emulator, run_bot
from tests.support.play_driver import TableDriver, scale_rate_limits
from tests.support.truco_match import STEERED_TARGET, steered_action
from tests.support.world import World

DAY = 86_400.0


def season_title(number: int) -> str:
    return t("season.name", None, game=t("game.truco", None), number=number)


async def test_a_season_that_ends_while_the_bot_is_stopped_is_closed_once_when_it_comes_back(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    guild = world.table.guild
    assert guild is not None
    guild.owner_id = world.alice.id  # the server's admin
    over = t("season.over", None, season=season_title(1), champions="")[:20]

    def posts() -> list[str]:
        return [m.content for m in world.table.messages if m.content.startswith(over)]

    async with run_bot(emulator, bot_settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        started = await world.alice.slash(
            world.table, "season start", game="truco", length="month", min_games=1
        )
        assert not started.ephemeral and started.content.startswith(
            t("season.started", None, season=season_title(1), minimums="", when="")[:30]
        )
        again = await world.alice.slash(world.table, "season start", game="truco", length="open")
        assert again.ephemeral and again.content == t("season.error.already_open", None)
        # One game of the season: Team 1 (Alice and Carol) wins it in one hand.
        driver = TableDriver(emulator, bot, world.table, world.players)
        lobby = await driver.open(world.alice, "truco new", target=STEERED_TARGET)
        await driver.sit(lobby, world.players[1:], 0, world.alice)
        await driver.start(lobby, world.alice)
        rng = random.Random(3)

        def choose(view: dict[str, Any], seat: int, legal: list[str]) -> str:
            return steered_action(view, seat, legal, 0, rng)

        await driver.play_to_end(rng, choose=choose)
        winners = {driver.table.player_at(s).user_id for s in (0, 2)}
        # The leaderboard shows the current season by default.
        board = await world.bob.slash(world.table, "leaderboard", game="truco")
        assert board.embeds[0]["title"] == t("season.board.title", None, season=season_title(1))
        season = await bot.seasons.current(guild.id, "truco")
        assert season is not None and season.ends_at is not None
        assert posts() == []

    # The season's end passes while the bot is stopped.
    emulator.clock.advance(season.ends_at - emulator.clock.time() + DAY)

    async with run_bot(emulator, bot_settings) as bot:
        post = await world.table.wait_for_message(lambda m: m.content.startswith(over))
        for user_id in winners:
            assert f"<@{user_id}>" in post.content
        final = post.embeds[0]
        assert final["title"] == t("season.final.title", None, season=season_title(1))
        assert final["description"].count("🏆") == 2
        closed = await bot.seasons.numbered(guild.id, "truco", 1)
        assert closed is not None and closed.status == "closed"
        assert closed.announced_at is not None
        # A player keeps the season in /stats; a past season's board on request.
        stats = await world.alice.slash(world.table, "stats")
        field = next(f for f in stats.embeds[0]["fields"] if f["name"] == "Seasons")
        assert field["value"].startswith(f"{season_title(1)}: 🏆")
        past = await world.bob.slash(world.table, "leaderboard", game="truco", season=1)
        assert past.embeds[0]["title"] == t("season.board.title", None, season=season_title(1))
        assert "🏆" in past.embeds[0]["description"]
        # No season runs now: the board is all time again (one game ranks nobody there).
        board = await world.bob.slash(world.table, "leaderboard", game="truco")
        assert board.content == t(
            "board.empty.all", None, game=t("game.truco", None), min_games=MIN_GAMES
        )

    async with run_bot(emulator, bot_settings) as bot:
        await bot.season_keeper.tick()  # what start-up does, once more, to be sure it ran
        closed_again = await bot.seasons.numbered(guild.id, "truco", 1)
        assert closed_again == closed
    assert len(posts()) == 1
