"""/stats with its chart and Post to channel (issue 22) through the emulator: the picture is the
chart of the player's stored rating series (rating after each game, wins by month) of the game
they played most; Post to channel shares the same record publicly, by the asker, notifying
nobody, without a second Post button. Real SQLite, the real bot, no mocks."""

from __future__ import annotations

import time

from bot.pictures.charts import stats_chart, stats_charts
from bot.settings import Settings
from emulator import Emulator, Message, run_bot
from tests.support.leaderboard import Recorder
from tests.support.world import World

DAY = 86400.0


def picture(emulator: Emulator, message: Message) -> bytes:
    (attachment,) = message.attachments
    assert attachment["filename"] == "stats.png"
    return emulator.message_service.files[int(attachment["id"])].data


async def test_stats_show_the_rating_chart_and_post_to_the_channel(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    async with run_bot(emulator, bot_settings) as bot:
        assert bot.db is not None
        recorder = Recorder(bot.db)
        now = time.time()
        for seed in range(1, 5):  # four euchre games over two months or so, one truco game
            await recorder.record(
                world.guild.id, "euchre", world.players, now - (5 - seed) * 15 * DAY, seed,
                {"target": 5},
            )  # fmt: skip
        await recorder.record(world.guild.id, "truco", world.players, now - DAY, 9)
        ratings, months = await bot.results.rating_series(world.guild.id, world.alice.id, "euchre")
        assert len(ratings) == 4 and sum(games for _, _, games in months) == 4

        # No game asked for: the chart covers both games, the most played first (issue 34).
        shown = await world.alice.slash(world.table, "stats")
        assert shown.ephemeral and shown.embed is not None
        assert shown.embed["image"]["url"].endswith("/stats.png")  # the attachment resolved
        assert shown.embed["description"] == (
            "Euchre & Truco Mineiro: the rating after each game, and wins by month"
        )
        truco = await bot.results.rating_series(world.guild.id, world.alice.id, "truco")
        both = stats_charts([("Euchre", ratings, months), ("Truco Mineiro", *truco)], "en-US")
        assert picture(emulator, shown) == both
        only_truco = await world.alice.slash(world.table, "stats", game="truco")
        assert picture(emulator, only_truco) == stats_chart(*truco, "en-US")
        only_euchre = await world.alice.slash(world.table, "stats", game="euchre")
        assert picture(emulator, only_euchre) == stats_chart(ratings, months, "en-US")

        # Post to channel: public, by Alice, notifying nobody; Dave sees it.
        posted = await world.alice.click(shown, "Post to channel")
        assert not posted.ephemeral and posted.visible_to(world.dave)
        assert posted.channel is world.table and posted.content == f"Shared by <@{world.alice.id}>"
        assert posted.embed is not None and shown.embed is not None
        assert posted.embed["title"] == shown.embed["title"]
        assert posted.embed["fields"] == shown.embed["fields"]
        assert picture(emulator, posted) == both
        assert posted.buttons == []  # the public copy has no Post button of its own
        # Someone else's record, posted by Bob: the record is Alice's, the post Bob's.
        bobs_view = await world.bob.slash(world.table, "stats", user=world.alice, game="euchre")
        by_bob = await world.bob.click(bobs_view, bobs_view.buttons[0].label)
        assert by_bob.content == f"Shared by <@{world.bob.id}>"
        assert by_bob.embed is not None and by_bob.embed["fields"] == [
            field for field in shown.embed["fields"] if field["name"] == "Euchre"
        ]
