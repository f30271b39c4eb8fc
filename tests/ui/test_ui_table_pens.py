"""bot/ui/table/table_pens.py: which token may edit a table message, and when a click renews it."""

from __future__ import annotations

from bot.ui.table.table_pens import DISCORD_EPOCH, RENEW_AFTER, USE_FOR, TablePens, posted_at


def snowflake_at(unix: float) -> int:
    return int((unix - DISCORD_EPOCH) * 1000) << 22 | 1 << 17


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_a_snowflake_tells_when_its_message_was_posted() -> None:
    assert posted_at(snowflake_at(1_800_000_000.0)) == 1_800_000_000.0


def test_a_pen_edits_only_its_own_message_and_only_while_young() -> None:
    clock = Clock(1_800_000_000.0)
    pens = TablePens(clock)
    message = snowflake_at(clock.now)
    pens.remember(7, "tok", message, clock.now)
    assert pens.usable(7, message) == "tok"
    assert pens.usable(7, message + 1) is None  # another message: this token cannot edit it
    assert pens.usable(8, message) is None
    clock.now += USE_FOR - 1
    assert pens.usable(7, message) == "tok"
    clock.now += 1
    assert pens.usable(7, message) is None and len(pens) == 0  # too old: forgotten


def test_a_click_renews_an_old_pen_or_an_old_message_without_one() -> None:
    clock = Clock(1_800_000_000.0)
    pens = TablePens(clock)
    message = snowflake_at(clock.now)
    assert not pens.wants_fresh(7, message)  # a young message keeps its place, pen or not
    pens.remember(7, "tok", message, clock.now)
    clock.now += RENEW_AFTER - 1
    assert not pens.wants_fresh(7, message)
    clock.now += 1
    assert pens.wants_fresh(7, message)
    pens.forget(7)
    assert pens.wants_fresh(7, message)  # no pen, and the message is 12 minutes old
    assert not pens.wants_fresh(7, snowflake_at(clock.now - 60))
