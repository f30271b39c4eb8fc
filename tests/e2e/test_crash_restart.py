"""The crash test (issue 6): the bot as a separate process, killed with SIGKILL at random points of
many games, restarted, and the games finished by clicking the same old buttons.

The emulator runs in the test process; the bot runs in a child process
(`tests.support.crash_bot_process`, the real `bot.__main__.run_bot`) with a file database.
Simulated people open tables in several channels, sit down, and play moves chosen at random (fixed
seed) among the buttons they see:
"Show my hand" on the table message, then a legal, enabled button of their hand. The bot is killed
in lobbies, during bidding, mid-trick, during a truco ask, at the last card of a game, and while a
click is in flight (that click then shows "This interaction failed", and the person clicks again
after the restart, on the same old button).

The oracle is the database the bot wrote (read through bot.storage, the engine replays the log):
- an action a person saw acknowledged is never lost; an unacknowledged one is in whole or not at
  all (the log, the version and the game's result move together);
- after each restart, every table's message is edited to the stored state with the "restored"
  line, rendered exactly as the rebuilt table renders;
- the buttons people see are always the legal actions of the stored state, at the stored version;
- at the end, every finished game is recorded exactly once, `PRAGMA integrity_check` is ok, and the
  emulator saw no violation besides the in-flight clicks that failed, the bot logged no error.

`CrashScenario` is shared with scripts/soak_crash.py (the long run).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from emulator import Emulator
from tests.support.crash import (
    BIDDING,
    IN_FLIGHT,
    LAST_CARD,
    LOBBY,
    LOBBY_CLICK,
    LOBBY_OPENED,
    MID_TRICK,
    TRUCO_ASK,
    CrashScenario,
    TableSpec,
)

# Kill kinds. The first four are states the bot is killed in between two clicks; the last three
# kill it while a click is in flight.


# --- the bot process ------------------------------------------------------------------------------


# --- the tables -----------------------------------------------------------------------------------


# --- the scenario ---------------------------------------------------------------------------------


# --- the test -------------------------------------------------------------------------------------

SPECS = [
    TableSpec("euchre-a", "euchre new", {"target": 5}, humans=4),
    TableSpec(
        "euchre-b",
        "euchre new",
        {"target": 5, "stick_the_dealer": True, "alone": "maker", "seating": "draw"},
        humans=4,
    ),
    TableSpec("euchre-bots", "euchre new", {"target": 5, "lead": "left_of_dealer"}, humans=2),
    TableSpec("truco-a", "truco new", {"target": 6}, humans=4),
    TableSpec("truco-bots", "truco new", {"target": 6}, humans=2),
]

TEST_KILLS = {
    LOBBY: 2,
    LOBBY_CLICK: 1,
    BIDDING: 2,
    MID_TRICK: 2,
    TRUCO_ASK: 2,
    LAST_CARD: 3,
    IN_FLIGHT: 3,
}


async def test_bot_survives_sigkill_at_random_points(tmp_path: Path) -> None:
    emu = Emulator()
    await emu.start()
    try:
        scenario = CrashScenario(emu, tmp_path, SPECS, seed=20240607, kills=TEST_KILLS)
        report = await scenario.run(time_limit=240)
    finally:
        await emu.stop()
    print(report.summary())
    assert report.by_kind == Counter(TEST_KILLS), "every planned kill was made"
    assert report.games >= len(SPECS)
    assert report.in_flight_applied and report.in_flight_lost  # both sides of the commit hit
    assert report.old_hand_clicks > 0  # the same old hand messages kept working


async def test_a_lobby_seen_just_before_a_kill_comes_back(tmp_path: Path) -> None:
    emu = Emulator()
    await emu.start()
    try:
        specs = [TableSpec("euchre", "euchre new", {"target": 5}, humans=4)]
        scenario = CrashScenario(emu, tmp_path, specs, seed=7, kills={LOBBY_OPENED: 1})
        report = await scenario.run(time_limit=120)
    finally:
        await emu.stop()
    assert report.by_kind == Counter({LOBBY_OPENED: 1})
