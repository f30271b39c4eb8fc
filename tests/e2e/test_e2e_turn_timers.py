"""Nobody stalls a table (issue 10), end to end against the emulator and its clock: a player who
never clicks is pinged once idle for the table's `ping_after` (issue 25: not on every turn, and
not at all if they play in time), warned at half time and played for by a bot; comes back
with one click; a restart keeps the deadline; the game finishes. Leaving mid-game hands the
seat to a bot, the host may give that seat to someone who joins, and the result counts for the
humans who finished; "Play again" is a ready check.

The bot's table service runs on the emulator's clock, so `emulator.clock.advance()` jumps past
deadlines instead of sleeping. Pings are checked by what Discord would do: only a NEW message
notifies, and only the users its allowed_mentions name (the emulator records that).
"""

from __future__ import annotations

import random

from bot.client import CardTableBot
from bot.settings import Settings
from bot.storage import Database, ResultsRepository, SqliteTableStore
from bot.tables.records import SeatRecord
from bot.tables.service import Table
from bot.texts import t
from bot.ui.kit.custom_ids import parse_game_action
from bot.ui.table import render
from emulator import Emulator, Message, run_bot
from tests.support.play_driver import HAND_BUTTON, TableDriver, scale_rate_limits
from tests.support.waiting import until
from tests.support.world import World

TIMER = 60.0
PING_AFTER = 15  # the default of `ping_after`


def sent_pings(emulator: Emulator) -> list[Message]:
    """Every turn ping the bot ever sent (deleted ones too)."""
    return [m for m in emulator.messages.values() if m.content.startswith(("🃏", "⏳"))]


def pings(world: World) -> list[Message]:
    """The turn pings the channel holds now (deleted ones are gone)."""
    return [m for m in world.table.messages if m.content.startswith(("🃏", "⏳"))]


async def the_ping(emulator: Emulator, world: World, starts: str) -> Message:
    """Wait until the channel's one ping starts with `starts`; it must be the only one."""
    await emulator.wait_for(
        lambda: [m for m in pings(world) if m.content.startswith(starts)] or None, timeout=15
    )
    (ping,) = pings(world)
    return ping


def seat_of(table: Table, user_id: int) -> SeatRecord:
    position = table.position_of(user_id)
    assert position is not None
    seat = table.seats[position]
    assert seat is not None
    return seat


async def her_turn(driver: TableDriver, user_id: int) -> None:
    """Until the bots have played and it is this human's turn, with the timer running."""
    table = driver.table
    await until(
        lambda: (
            table.seat_of(user_id) in table.humans_to_act()
            and table.record.turn_deadline is not None
        )
    )


async def test_a_player_who_never_clicks_is_pinged_warned_played_for_and_comes_back(
    emulator: Emulator, world: World, bot_settings: Settings
) -> None:
    alice = world.alice
    you = f"<@{alice.id}>"
    async with run_bot(emulator, bot_settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        driver = TableDriver(emulator, bot, world.table, [alice])
        lobby = await driver.open(alice, "euchre new", target=5, turn_timer=int(TIMER))
        assert "Turn timer: **1 min**" in lobby.text and "Turn pings: **on**" in lobby.text
        await driver.sit(lobby, [], 3, alice)
        await driver.start(lobby, alice)
        table, message = driver.table, driver.message
        url = render.jump_url(table)

        # Her turn: no ping while she may still be thinking (issue 25)...
        await her_turn(driver, alice.id)
        assert table.record.turn_since is not None
        await driver.settle()
        assert not sent_pings(emulator)
        # ...then, idle `ping_after` seconds, a short NEW message pings her, and only her.
        emulator.clock.advance(PING_AFTER)
        ping = await the_ping(emulator, world, "🃏")
        assert ping.content == f"🃏 {you}: your turn at the Euchre table. {url}"
        assert ping.notified == [alice.id]
        deadline = table.record.turn_deadline
        assert deadline is not None
        await message.wait_until(
            # Issue 21 item 6: said to her, in the second person.
            lambda m: f"⏳ {you}, a bot plays for you <t:{int(deadline)}:R> if you don't." in m.text
        )

        # Half time: the warning replaces the ping (a new message: it notifies her again).
        emulator.clock.advance(TIMER / 2 - PING_AFTER)
        warning = await the_ping(emulator, world, "⏳")
        assert warning.content == (
            f"⏳ {you}: half your time is gone — a bot plays for you <t:{int(deadline)}:R>. {url}"
        )
        assert warning.notified == [alice.id] and ping.deleted
        version = table.version

        # The deadline: a bot plays her turn, and the table says so.
        emulator.clock.advance(TIMER / 2)
        await until(lambda: table.version > version)
        assert seat_of(table, alice.id).missed == 1
        await message.wait_until(lambda m: f"🤖 playing for {you}" in m.text)
        assert message.button("I'm back")

        # "I'm back": one click, the seat is hers again.
        back = await alice.click(message, "I'm back")
        assert back.ephemeral and back.content == "Welcome back — your seat is yours again."
        assert not seat_of(table, alice.id).covered
        await message.wait_until(lambda m: "🤖 playing for" not in m.text)
        assert "I'm back" not in [b.label for b in message.buttons]

        # Her turn again, idle long enough for a ping, then the bot goes down for longer than
        # her timer.
        await her_turn(driver, alice.id)
        deadline = table.record.turn_deadline
        since = table.record.turn_since
        version = table.version
        emulator.clock.advance(PING_AFTER)
        stale_ping = await the_ping(emulator, world, "🃏")
        await driver.settle()
    assert deadline is not None
    emulator.clock.advance(TIMER + 1)
    db = await Database.open(bot_settings.database_path)
    try:  # the deadline is stored with the table
        stored = await SqliteTableStore(db).get_table(table.id)
        assert stored is not None and stored.turn_deadline == deadline
        assert stored.turn_since == since
    finally:
        await db.close()

    async with run_bot(emulator, bot_settings) as bot:
        scale_rate_limits(emulator, bot, per=1.0)
        driver = TableDriver(emulator, bot, world.table, [alice])
        table, message = driver.table, driver.message
        # The deadline passed while the bot was down: a bot plays her turn at once.
        await until(lambda: table.version > version)
        assert seat_of(table, alice.id).missed == 1
        # The ping from before the restart is deleted; the channel holds one at most.
        await emulator.wait_for(lambda: stale_ping.deleted or None, timeout=15)

        # Back mid-hand with one click on "Show my hand", and she plays a card herself, in
        # time: that turn never pinged her.
        await her_turn(driver, alice.id)
        sent_before = len(sent_pings(emulator))
        hand = await alice.click(message, HAND_BUTTON)
        assert hand.ephemeral and not seat_of(table, alice.id).covered
        button = next(
            b for b in hand.buttons if parse_game_action(b.custom_id or "") and not b.disabled
        )
        version = table.version
        await alice.click(hand, button.custom_id or "")
        played = parse_game_action(button.custom_id or "")
        assert played is not None
        mine = (table.seat_of(alice.id), played.action)
        assert table.record.actions[version - table.start_version] == mine
        await driver.settle()
        assert len(sent_pings(emulator)) == sent_before

        # She walks away: three missed turns in a row, then the bot keeps her seat.
        for missed in (1, 2, 3):
            await her_turn(driver, alice.id)
            emulator.clock.advance(TIMER)
            await until(
                lambda n=missed: seat_of(table, alice.id).missed == n or table.status == "finished"  # type: ignore[misc]
            )
            if table.status == "finished":
                break
        # The bots play the game to its end without waiting for her.
        await until(lambda: table.status == "finished", timeout=60)
        await driver.settle()
        assert "Game over" in message.text
        await driver.check_result_recorded()
        # No ping is left once nobody is to act; every ping notified exactly her.
        await emulator.wait_for(lambda: not pings(world) or None, timeout=15)
        sent = sent_pings(emulator)
        # (the ping, the warning and the one before the restart at least: later pings depend
        # on how fast the bots finish the game)
        assert len(sent) >= 3 and all(m.notified == [alice.id] for m in sent)
        # Nothing else notified anyone (the table message, reposted or not, never does).
        assert {m for _, m in emulator.notifications} == {m.id for m in sent}
        driver.assert_no_failures()


async def test_leaving_mid_game_then_play_again_as_a_ready_check(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    scale_rate_limits(emulator, running_bot, per=1.0)
    alice, bob, carol, dave = world.players
    driver = TableDriver(emulator, running_bot, world.table, world.players)
    lobby = await driver.open(alice, "truco new", target=6)
    # The lobby's settings (the host only): the turn timer is a menu, one pick sets any value
    # with one public edit (issue 21 item 7: a button cycled through them).
    refused = await bob.select(lobby, "Turn timer", ["300"])
    assert refused.content == t("table.error.not_host", bob.locale)
    edits = len(lobby.versions)
    await alice.select(lobby, "Turn timer", ["300"])
    await lobby.wait_until(lambda m: "Turn timer: **5 min**" in m.text)
    assert driver.table.record.settings == {
        "turn_timer": 300,
        "pings": True,
        "ping_after": PING_AFTER,
        "pictures": True,
    }
    assert len(lobby.versions) == edits + 1
    chosen = [o["label"] for o in lobby.select_menu("Turn timer")["options"] if o.get("default")]
    assert chosen == ["Turn timer: 5 min"]
    await driver.sit(lobby, [bob, carol, dave], 0, alice)
    await driver.start(lobby, alice)
    rng = random.Random(5)
    for _ in range(3):
        await driver.step(rng)
    table, message = driver.table, driver.message
    position = table.position_of(dave.id)
    assert position is not None

    # Dave leaves (asked first: issue 21 item 2): a bot takes his seat and the game goes on.
    asked = await dave.click(message, "Leave")
    assert asked.ephemeral and asked.content == t("table.leave.confirm", dave.locale)
    assert table.position_of(dave.id) == position  # not yet
    left = await dave.click(asked, t("table.leave.button", dave.locale))
    assert left.ephemeral and left.content == t("table.left", dave.locale)
    seat = table.seats[position]
    assert seat is not None and seat.is_bot and seat.left_user_id == dave.id
    await message.wait_until(lambda m: f"left: <@{dave.id}>" in m.text)
    refused = await dave.click(message, HAND_BUTTON)
    assert refused.content == t("table.error.not_seated", dave.locale)
    del driver.people[dave.id]
    for _ in range(2):
        await driver.step(rng)

    # The host gives the bot's seat to Erin, who joins mid-game.
    erin = emulator.add_user("erin")
    world.guild.add_member(erin)
    not_host = await bob.slash(world.table, "table seat", player=erin)
    assert not_host.content == t("table.error.not_host", bob.locale)
    seated = await alice.slash(world.table, "table seat", player=erin)
    assert seated.ephemeral
    assert seated.content == f"<@{erin.id}> takes seat {position + 1} — a bot played it until now."
    assert table.position_of(erin.id) == position
    driver.people[erin.id] = erin
    await driver.play_to_end(rng)
    await driver.check_result_recorded()

    # The result counts for the four who finished, not for Dave.
    assert running_bot.db is not None
    results = ResultsRepository(running_bot.db)
    for person in (alice, bob, carol, erin):
        stats = await results.player_stats(world.guild.id, person.id, "truco", min_games=1)
        assert stats.records["truco"].games == 1
    assert not (await results.player_stats(world.guild.id, dave.id, "truco")).records

    # Play again: who is ready is shown; bots are always ready.
    ready = await alice.click(message, "Play again")
    assert ready.content == t("result.you_are_ready", alice.locale)
    await message.wait_until(lambda m: f"Ready for another game: <@{alice.id}> (1 of 4)" in m.text)
    not_host = await bob.click(message, "Start now (host)")
    assert not_host.content == t("table.error.not_host", bob.locale)
    assert table.status == "finished"
    # The host starts with the ready players; bots sit where the others were.
    await alice.click(message, "Start now (host)")
    await message.wait_until(lambda m: any(b.label == HAND_BUTTON for b in m.buttons), timeout=15)
    assert table.status == "playing" and table.record.ready == []
    assert table.humans() == [alice.id]  # Bob, Carol and Erin were not ready
    assert all(s is not None and (s.user_id == alice.id or s.is_bot) for s in table.seats)
    driver.assert_no_failures()
