"""Boards as players read them (issue 34), through the emulator: /stats with no game charts both
games; a month with games and no win draws no bar and no "0%"; the rating is explained the way
players read it (a new player starts at 1000; no raw formula); a season's minimum rating is
given on that scale. Real SQLite, the real bot, no mocks."""

from __future__ import annotations

import io
import time

from PIL import Image

from bot.pictures import charts
from bot.settings import Settings
from emulator import Emulator, Message, run_bot
from tests.support.leaderboard import Recorder
from tests.support.world import World

DAY = 86_400.0


def picture(emulator: Emulator, message: Message) -> bytes:
    (attachment,) = message.attachments
    return emulator.message_service.files[int(attachment["id"])].data


def colour_count(png: bytes, colour: tuple[int, int, int]) -> int:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return sum(
        1
        for y in range(image.height)
        for x in range(image.width)
        if image.getpixel((x, y)) == colour
    )


async def test_stats_cover_both_games_and_draw_nothing_for_a_month_without_a_win(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    async with run_bot(emulator, bot_settings) as bot:
        assert bot.db is not None
        recorder = Recorder(bot.db)
        now = time.time()
        # One game a month, four months back: some won by Alice's side, some lost.
        for month, seed in enumerate(range(1, 5)):
            await recorder.record(
                world.guild.id, "euchre", world.players, now - (4 - month) * 35 * DAY, seed,
                {"target": 5},
            )  # fmt: skip
        await recorder.record(world.guild.id, "truco", world.players, now - DAY, 9)
        ratings, months = await bot.results.rating_series(world.guild.id, world.alice.id, "euchre")
        lost = [label for label, wins, games in months if games and not wins]
        won = [label for label, wins, _ in months if wins]
        assert lost and won  # a month with a game and no win, and one with a win

        shown = await world.alice.slash(world.table, "stats")
        assert shown.embed is not None
        assert shown.embed["description"].startswith("Euchre & Truco Mineiro: ")
        png = picture(emulator, shown)
        assert Image.open(io.BytesIO(png)).height == 4 * charts.PANEL  # two games, two panels
        # Only the months with a win have a bar; no "0%" bar for the month without one.
        assert colour_count(png, charts.LOSS) == 0 and colour_count(png, charts.WIN) > 0
        euchre_only = charts.stats_chart(ratings, months, "en-US")
        without_lost = charts.stats_chart(ratings, [m for m in months if m[1]], "en-US")
        assert colour_count(euchre_only, charts.WIN) == colour_count(without_lost, charts.WIN)

        # The rating the way players read it: no formula, the scale's start.
        footer = shown.embed["footer"]["text"]
        assert "μ" not in footer and "σ" not in footer and "40 ×" not in footer
        assert "A new player's rating is 1000" in footer


async def test_a_seasons_minimum_rating_is_on_the_boards_scale(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    guild = world.table.guild
    assert guild is not None
    guild.owner_id = world.alice.id  # the server's admin
    async with run_bot(emulator, bot_settings) as bot:
        assert bot.db is not None
        plain = await world.alice.slash(world.table, "season start", game="euchre", length="open")
        assert "a rating of 0" not in plain.content
        assert "Ranked with 5 games, at any rating (a new player starts at 1000)." in (
            plain.content
        )
        strict = await world.alice.slash(
            world.table, "season start", game="truco", length="open", min_rating=1100
        )
        assert "a rating of 1100 or more (a new player starts at 1000)" in strict.content
