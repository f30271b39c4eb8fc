"""The table service on a real store, SQLite and PostgreSQL (issue 14): lobby, versions, the one
act path, results, restore."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot.engine.common import team_of
from bot.storage.backend import Storage
from bot.tables import errors
from bot.tables.records import TableRecord, TableStore
from bot.tables.service import Table, TableService
from tests.support.service import (
    ANA,
    BIA,
    CAU,
    CHANNEL,
    CLICKS,
    CUT_WAIT,
    DUDA,
    GUILD,
    HOST,
    Clock,
    cut_made,
    full_table,
    make_service,
    play_random,
    user_at,
)
from tests.support.storage import reopen

# --- lobby ------------------------------------------------------------------------------------


async def test_create_seats_the_host_and_stores_the_lobby(service: TableService) -> None:
    table = await service.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HOST,
        host_name="Host",
        game="euchre",
        options={"target": 5},
    )
    assert table.status == "lobby"
    assert table.seats[0] is not None and table.seats[0].user_id == HOST
    assert table.options["target"] == 5 and table.options["deck"] == 24  # defaults filled in
    stored = await service.store.load_active()  # type: ignore[attr-defined]
    assert [(r.id, r.version, r.seats[0]) for r in stored] == [
        (table.id, table.version, table.seats[0])
    ]


async def test_bad_options_are_refused(service: TableService) -> None:
    with pytest.raises(errors.BadOptions):
        await service.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            host_id=HOST,
            host_name="Host",
            game="euchre",
            options={"target": 6},
        )
    with pytest.raises(errors.BadOptions):
        await service.create(
            guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, host_name="Host", game="poker"
        )
    assert service.in_channel(CHANNEL) is None


async def test_one_active_table_per_channel(service: TableService) -> None:
    first = await service.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, host_name="Host", game="truco"
    )
    with pytest.raises(errors.ChannelBusy) as refused:
        await service.create(
            guild_id=GUILD, channel_id=CHANNEL, host_id=ANA, host_name="Ana", game="euchre"
        )
    assert refused.value.table is first
    other = await service.create(
        guild_id=GUILD, channel_id=CHANNEL + 1, host_id=ANA, host_name="Ana", game="euchre"
    )
    assert other.id != first.id


async def test_join_leave_and_seat_rules_bump_the_version(service: TableService) -> None:
    table = await service.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, host_name="Host", game="truco"
    )
    v = table.version
    await service.join(table.id, ANA, "Ana")
    assert table.seats[1] is not None and table.seats[1].user_id == ANA
    assert table.version == v + 1
    with pytest.raises(errors.AlreadySeated):
        await service.join(table.id, ANA, "Ana")
    with pytest.raises(errors.SeatTaken):
        await service.join(table.id, BIA, "Bia", position=0)
    await service.join(table.id, ANA, "Ana", position=3)  # moving seats
    assert table.seats[1] is None and table.seats[3] is not None
    await service.add_bot(table.id, HOST)  # first free: position 1
    assert table.seats[1] is not None and table.seats[1].is_bot
    await service.join(table.id, BIA, "Bia", position=1)  # a human takes over a bot's seat
    assert table.seats[1] is not None and table.seats[1].user_id == BIA
    with pytest.raises(errors.NotSeated):
        await service.add_bot(table.id, DUDA)  # a passer-by may not fill seats
    await service.join(table.id, CAU, "Cau")
    with pytest.raises(errors.TableFull):
        await service.join(table.id, DUDA, "Duda")
    await service.leave(table.id, CAU)
    with pytest.raises(errors.NotSeated):
        await service.leave(table.id, CAU)
    stored = (await service.store.load_active())[0]  # type: ignore[attr-defined]
    assert stored.version == table.version and stored.seats == table.seats


async def test_start_needs_the_host_and_four_seats(service: TableService) -> None:
    table = await service.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, host_name="Host", game="truco"
    )
    await service.join(table.id, ANA, "Ana")
    with pytest.raises(errors.SeatsNotFilled):
        await service.start(table.id, HOST)
    await service.add_bot(table.id, ANA)
    await service.add_bot(table.id, ANA)
    with pytest.raises(errors.NotHost):
        await service.start(table.id, ANA)
    version = table.version
    await service.start(table.id, HOST)
    assert table.status == "playing" and table.game is not None
    assert table.version == version + 1
    with pytest.raises(errors.NotInLobby):
        await service.join(table.id, DUDA, "Duda")
    with pytest.raises(errors.NotInLobby):
        await service.start(table.id, HOST)


async def test_cancel_and_end(service: TableService) -> None:
    table = await service.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, host_name="Host", game="truco"
    )
    with pytest.raises(errors.NotHost):
        await service.cancel(table.id, ANA)
    await service.cancel(table.id, HOST)
    assert service.in_channel(CHANNEL) is None
    with pytest.raises(errors.NoSuchTable):
        await service.join(table.id, ANA, "Ana")
    table = await full_table(service)
    with pytest.raises(errors.NotAllowedToEnd):
        await service.end(table.id, ANA)
    await service.end(table.id, ANA, can_manage=True)
    assert await service.store.load_active() == []  # type: ignore[attr-defined]
    with pytest.raises(errors.NoSuchTable):
        await service.act(table.id, ANA, "run", table.version)


# --- the act path -----------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["euchre", "truco"])
async def test_stale_version_and_wrong_user_change_nothing(
    service: TableService, game: str
) -> None:
    table = await full_table(service, game)
    assert table.game is not None
    seat = table.game.to_act[0]
    action = table.game.legal_actions(seat)[0]
    before = (table.version, list(table.game.actions))
    with pytest.raises(errors.StaleVersion):
        await service.act(table.id, user_at(table, seat), action, table.version - 1)
    with pytest.raises(errors.NotSeated):
        await service.act(table.id, DUDA, action, table.version)
    other = next(s for s in range(4) if s not in table.game.to_act)
    with pytest.raises(errors.ActionRefused) as refused:
        await service.act(table.id, user_at(table, other), action, table.version)
    assert refused.value.key == "table.error.not_your_turn"
    with pytest.raises(errors.ActionRefused) as refused:
        await service.act(table.id, user_at(table, seat), "play:ZZ", table.version)
    assert refused.value.key == "table.error.illegal"
    assert (table.version, list(table.game.actions)) == before
    stored = (await service.store.load_active())[0]  # type: ignore[attr-defined]
    assert (stored.version, stored.actions) == before


@pytest.mark.parametrize("game", ["euchre", "truco"])
async def test_double_click_applies_once(service: TableService, game: str) -> None:
    table = await full_table(service, game)
    assert table.game is not None
    seat = table.game.to_act[0]
    action = table.game.legal_actions(seat)[0]
    version = table.version
    done = len(table.game.actions)  # hand 1's cut (fair deals)
    results = await asyncio.gather(
        *(service.act(table.id, user_at(table, seat), action, version) for _ in range(5)),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, BaseException)]
    assert len(applied) == 1
    assert all(isinstance(r, errors.StaleVersion) for r in results if r not in applied)
    assert table.version == version + 1 and len(table.game.actions) == done + 1


async def ask_truco(service: TableService, table: Table) -> None:
    """Play until the player on turn may raise, then raise."""
    rng = random.Random(3)
    assert table.game is not None
    while True:
        seat = table.game.to_act[0]
        legal = table.game.legal_actions(seat)
        if "raise" in legal:
            await service.act(table.id, user_at(table, seat), "raise", table.version)
            return
        await service.act(table.id, user_at(table, seat), rng.choice(legal), table.version)


async def test_T9_two_opponents_answering_at_once_one_answer_counts(
    service: TableService,
) -> None:
    table = await full_table(service, "truco")
    await ask_truco(service, table)
    assert table.game is not None and table.game.phase == "answer"
    first, second = table.game.to_act
    assert team_of(first) == team_of(second)
    version = table.version
    results = await asyncio.gather(
        service.act(table.id, user_at(table, first), "accept", version),
        service.act(table.id, user_at(table, second), "run", version),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(applied) == 1 and len(refused) == 1
    assert isinstance(refused[0], errors.StaleVersion) and refused[0].partner_answered
    assert table.version == version + 1


async def test_a_result_is_recorded_with_the_last_action(
    service: TableService, db: Storage
) -> None:
    table = await full_table(service, "truco")
    await play_random(service, table, random.Random(1))
    assert table.game is not None and table.game.is_over
    assert table.status == "finished" and table.result is not None
    history = await db.results.history(GUILD)
    assert len(history) == 1
    entry = history[0]
    assert entry.scores == table.game.scores and entry.winner_team == table.game.winner
    with pytest.raises(errors.ActionRefused) as refused:
        await service.act(table.id, HOST, "play:4C", table.version)
    assert refused.value.key == "table.error.game_over"
    # Play again is a ready check: the next game starts when the four humans are ready.
    for user in (ANA, HOST, BIA):
        await service.play_again(table.id, user)
        assert table.status == "finished"
    with pytest.raises(errors.AlreadyReady):
        await service.play_again(table.id, ANA)
    assert table.record.ready == [ANA, HOST, BIA]
    await service.play_again(table.id, CAU)
    assert table.status == "playing" and table.game is not None and not table.game.actions
    assert table.record.ready == []
    stored = (await service.store.load_active())[0]  # type: ignore[attr-defined]
    # Only the fair-v2 cut's own actions (its commitment message, the beacon's cut) may be
    # stored already: they come by themselves, from the cut's background task.
    assert all(a.startswith("cut:") for _, a in stored.actions)
    assert stored.seed == table.record.seed


async def test_a_finished_table_makes_room_for_a_new_one(service: TableService) -> None:
    table = await full_table(service, "truco")
    await play_random(service, table, random.Random(2))
    closed: list[int] = []
    service.add_listener(lambda t, change: closed.append(t.id) if change == "closed" else None)
    new = await service.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=ANA, host_name="Ana", game="euchre"
    )
    assert closed == [table.id] and service.in_channel(CHANNEL) is new


async def test_play_again_where_another_process_opened_a_table_is_refused_as_busy(
    service: TableService, db: Storage
) -> None:
    """Issue 14: while this process shows a finished table, another process (a shard of the
    same bot on the same database) opens a table in that channel; Play again here is then
    refused as "already a table here" (the store's one-open-table index), and nothing moves."""
    table = await full_table(service, "truco")
    await play_random(service, table, random.Random(2))
    other = await reopen(db)
    second = make_service(other)
    try:
        await second.create(
            guild_id=GUILD, channel_id=CHANNEL, host_id=ANA, host_name="Ana", game="euchre"
        )
        version = table.version
        for user in (ANA, HOST, BIA):
            await service.play_again(table.id, user)
        with pytest.raises(errors.ChannelBusy):
            await service.play_again(table.id, CAU)
        assert table.status == "finished" and table.version == version
        stored = await service.store.get_table(table.id)
        assert stored is not None and stored.status == "finished"
    finally:
        await second.close()
        await other.close()


# --- restore ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("truco", None),
        ("euchre", None),
        ("euchre", {"seating": "draw", "alone": "maker", "joker": True, "deck": 28}),
    ],
)
async def test_restore_rebuilds_the_exact_state(
    db: Storage, game: str, options: dict[str, object] | None
) -> None:
    first = make_service(db)
    table = await full_table(first, game, options)
    lobby = await first.create(
        guild_id=GUILD, channel_id=CHANNEL + 1, host_id=ANA, host_name="Ana", game="euchre"
    )
    await first.add_bot(lobby.id, ANA)
    await play_random(first, table, random.Random(5), max_actions=17)
    await first.fair_cuts.until_cut(table.id)  # a fair-v2 hand ended there is cut by its task
    await first.set_message(table.id, 555)
    await first.set_message(lobby.id, 556)
    # A lobby whose message id was never stored (a crash right after posting it) may have been
    # seen: it is restored without a message, and the UI posts it again.
    unposted = await first.create(
        guild_id=GUILD, channel_id=CHANNEL + 2, host_id=BIA, host_name="Bia", game="truco"
    )
    await first.close()

    second = make_service(db)
    restored = {t.id: t for t in await second.restore()}
    again = restored[table.id]
    assert again.game is not None and table.game is not None
    assert again.game == table.game  # the engine compares its whole state
    assert again.version == table.version and again.seats == table.seats
    assert again.seat_of_position == table.seat_of_position
    assert again.message_id == 555 and again.notice == "table.notice.restored"
    assert restored[lobby.id].seats == lobby.seats and restored[lobby.id].status == "lobby"
    assert restored[unposted.id].message_id is None
    assert second.in_channel(CHANNEL + 2) is restored[unposted.id]
    # The old buttons keep working: the same version applies on the restored table.
    seat = again.game.to_act[0]
    await second.act(
        again.id, user_at(again, seat), again.game.legal_actions(seat)[0], table.version
    )
    assert again.version == table.version + 1
    await play_random(second, again, random.Random(6))
    assert again.status == "finished"
    await second.close()


# --- bot seats ----------------------------------------------------------------------------------


async def bot_table(
    service: TableService, game: str, options: dict[str, object] | None = None
) -> Table:
    """The host and three bots."""
    table = await service.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HOST,
        host_name="Host",
        game=game,
        options=options,
    )
    for _ in range(3):
        await service.add_bot(table.id, HOST)
    service.fair_cuts.seen(table.id, next(CLICKS))  # the Start click: it cuts hand 1
    await service.start(table.id, HOST)
    await cut_made(service, table)
    return table


@pytest.mark.parametrize("game", ["euchre", "truco"])
async def test_one_human_and_three_bots_play_a_whole_game(
    service: TableService, db: Storage, game: str
) -> None:
    pytest.importorskip(f"bot.engine.{game}.bot_player")
    table = await bot_table(service, game)
    humans_turns = await play_random(service, table, random.Random(4))
    assert table.status == "finished" and humans_turns > 0
    assert table.game is not None
    bot_seats = {s for s in range(4) if table.is_bot_seat(s)}
    assert len(bot_seats) == 3
    assert {seat for seat, _ in table.game.actions} & bot_seats  # the bots did play
    history = await db.results.history(GUILD)
    assert [h.scores for h in history] == [table.game.scores]


@pytest.mark.parametrize("game", ["euchre", "truco"])
async def test_bots_resume_after_restore(db: Storage, game: str) -> None:
    pytest.importorskip(f"bot.engine.{game}.bot_player")
    first = make_service(db)
    first.bot_move_delay = 3600  # the bots never get to move before the "crash"
    table = await bot_table(first, game)
    assert table.game is not None
    rng = random.Random(8)
    while not any(table.is_bot_seat(s) for s in table.game.to_act):
        seat = table.game.to_act[0]
        await first.act(table.id, HOST, rng.choice(table.game.legal_actions(seat)), table.version)
    version = table.version
    await first.set_message(table.id, 777)
    await first.close()

    second = make_service(db)
    (again,) = await second.restore()
    await second.wait_for_bots(again.id)
    assert again.game is not None and again.version > version
    assert again.game.is_over or second.bot_seat_to_act(again) is None
    await second.close()


async def test_T9_a_bot_leaves_the_answer_to_its_human_partner(service: TableService) -> None:
    pytest.importorskip("bot.engine.truco.bot_player")
    table = await service.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, host_name="Host", game="truco"
    )
    await service.join(table.id, ANA, "Ana", position=1)
    await service.add_bot(table.id, HOST, position=2)
    await service.add_bot(table.id, HOST, position=3)
    await service.start(table.id, HOST)
    assert table.game is not None
    rng = random.Random(9)
    for _ in range(400):
        await service.wait_for_bots(table.id)
        game = table.game
        if game.is_over:
            break
        if (
            game.phase == "answer"
            and any(table.is_bot_seat(s) for s in game.to_act)
            and any(not table.is_bot_seat(s) for s in game.to_act)
        ):
            # A human and a bot may both answer: the bot waits for the human.
            version = table.version
            await asyncio.sleep(0.01)
            assert table.version == version
            return
        humans = [s for s in game.to_act if not table.is_bot_seat(s)]
        seat = humans[0]
        legal = game.legal_actions(seat)
        # The human pair (seats 0 and 1 are humans on opposite pairs) asks truco when it can,
        # so the mixed pair (seats 1 & 3: Ana and a bot) must answer.
        action = (
            "raise"
            if "raise" in legal and seat == 0
            else rng.choice([a for a in legal if a != "raise"] or legal)
        )
        await service.act(table.id, user_at(table, seat), action, table.version)
    pytest.fail("no truco asked to the mixed pair")


# --- a failing write ----------------------------------------------------------------------------


class FailingStore:
    """The real store, with one write made to fail on demand (a full disk, a lost file)."""

    fail_next: str | None = None

    def __init__(self, inner: TableStore) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def append_action(self, *args: Any, **kwargs: Any) -> None:
        if self.fail_next == "append_action":
            self.fail_next = None
            raise OSError("disk full")
        await self._inner.append_action(*args, **kwargs)

    async def save_lobby(self, table: TableRecord) -> None:
        if self.fail_next == "save_lobby":
            self.fail_next = None
            raise OSError("disk full")
        await self._inner.save_lobby(table)


async def test_a_failed_write_leaves_the_table_as_stored(db: Storage) -> None:
    store = FailingStore(db.tables)
    service = TableService(
        store, bot_move_delay=0, clock=Clock(), seed_source=lambda: 5, cut_wait=CUT_WAIT
    )
    table = await service.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, host_name="Host", game="euchre"
    )
    store.fail_next = "save_lobby"
    with pytest.raises(OSError):
        await service.join(table.id, ANA, "Ana")
    assert table.seats[1] is None and table.version == 1
    for user, name in ((ANA, "Ana"), (BIA, "Bia"), (CAU, "Cau")):
        await service.join(table.id, user, name)
    await service.start(table.id, HOST)
    await cut_made(service, table)  # no click: cut after the wait
    assert table.game is not None
    seat = table.game.to_act[0]
    action = table.game.legal_actions(seat)[0]
    before = (table.version, list(table.record.actions), table.game.to_json())
    store.fail_next = "append_action"
    with pytest.raises(OSError):
        await service.act(table.id, user_at(table, seat), action, table.version)
    assert (table.version, table.record.actions, table.game.to_json()) == before
    stored = (await store.load_active())[0]
    assert (stored.version, stored.actions) == before[:2]
    # The same click again goes through.
    await service.act(table.id, user_at(table, seat), action, table.version)
    assert table.version == before[0] + 1
    await service.close()
