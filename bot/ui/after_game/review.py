""" "Review my play": the bot's review of the asker's own decisions in a finished game, privately.

The click is acknowledged at once (a private "thinking" answer, well within Discord's 3 s), the
review runs in the review's worker processes (bot/tables/review.py, never on the event loop),
and the answer is edited as it goes ("Reviewing… 12/68", at most one edit a second), then
replaced by the marked decisions, each with a button that opens the replay at that moment.
Only a person who played the game can ask (the review is of their own decisions).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import discord

from bot.storage import FinishedGame
from bot.tables.replay import Replay
from bot.tables.review import Decision, Review, review_game
from bot.texts import n, t
from bot.ui.after_game.replay import Rows, replay_of
from bot.ui.kit.answer import locale_of, say
from bot.ui.kit.custom_ids import after_game_id
from bot.ui.kit.host import host_of
from bot.ui.kit.message_parts import COLOURS
from bot.ui.words.moves import move_text
from bot.ui.words.seats import game_title

log = logging.getLogger(__name__)

PROGRESS_EVERY = 1.0  # seconds between two progress edits
SHOWN = 10  # marked decisions listed (and given a replay button)


def step_of(steps: Replay, action_index: int) -> int:
    """The replay step that first shows the decision at `action_index` applied."""
    for step in steps.steps:
        if step.actions > action_index:
            return step.index
    return len(steps.steps) - 1


def decision_line(number: int, decision: Decision, game: str, locale: str | None) -> str:
    """ "**1.** Hand 2: you chose A♦ — mistake (−9); the bot preferred K♦", then on its own
    line why, from the search's figures (`why_text`). The loss is in the review's one unit,
    named once above the lines (review.unit): points of the chance to win the game."""
    line = t(
        "review.line",
        locale,
        number=number,
        hand=decision.hand + 1,
        chosen=move_text(game, decision.chosen, locale, decision.moment),
        verdict=t(f"review.verdict.{decision.verdict}", locale),
        loss=round(100 * decision.loss),
        best=move_text(game, decision.best, locale, decision.moment),
    )
    why = why_text(decision, game, locale)
    return f"{line}\n{why}" if why else line


def _points(value: float) -> str:
    """A hand's expected points, signed: "+1.2", "−0.4" (a true minus sign), "0.0"."""
    shown = f"{abs(value):.1f}"
    if shown == "0.0":
        return shown
    return ("+" if value > 0 else "−") + shown


def _tenths(share: float) -> int:
    return round(10 * share)


def why_text(decision: Decision, game: str, locale: str | None) -> str | None:
    """One sentence: what was played and what the bot preferred, each with its estimated
    result, e.g. "K♦: your side takes this trick 8 times in 10 and the hand averages +1.2
    points; A♦: 5 in 10, +0.7." None when the search left no figures for either."""
    chosen, best = decision.value_of(decision.chosen), decision.value_of(decision.best)
    if chosen is None or best is None:
        return None
    names = {
        "chosen": move_text(game, decision.chosen, locale, decision.moment),
        "best": move_text(game, decision.best, locale, decision.moment),
    }
    if game == "truco":
        if chosen.hand_chance is None or best.hand_chance is None:
            return None
        return t(
            "review.why.truco",
            locale,
            **names,
            hand_chance=_tenths(chosen.hand_chance),
            chance=round(100 * chosen.value),
            best_hand=_tenths(best.hand_chance),
            best_chance=round(100 * best.value),
        )
    if chosen.points is None or best.points is None:
        return None
    if chosen.trick_chance is not None and best.trick_chance is not None:
        return t(
            "review.why.trick",
            locale,
            **names,
            trick=_tenths(chosen.trick_chance),
            points=_points(chosen.points),
            best_trick=_tenths(best.trick_chance),
            best_points=_points(best.points),
        )
    return t(
        "review.why.points",
        locale,
        **names,
        points=_points(chosen.points),
        best_points=_points(best.points),
    )


def counts_text(review: Review, locale: str | None) -> str:
    """ "12 decisions reviewed: 1 inaccuracy, 0 mistakes, 1 blunder." """
    return t(
        "review.counts",
        locale,
        decisions=n("plural.decisions", locale, len(review.decisions)),
        inaccuracies=n("plural.inaccuracies", locale, review.count("inaccuracy")),
        mistakes=n("plural.mistakes", locale, review.count("mistake")),
        blunders=n("plural.blunders", locale, review.count("blunder")),
    )


def review_answer(
    game: FinishedGame, review: Review, locale: str | None
) -> tuple[discord.Embed, Rows | None]:
    marked = review.marked
    counts = counts_text(review, locale)
    lines = [decision_line(i, d, game.game, locale) for i, d in enumerate(marked[:SHOWN], 1)]
    embed = discord.Embed(
        title=t("review.title", locale, game=game_title(game.game, locale), id=game.id),
        description="\n".join(
            [counts, t("review.unit", locale), "", *lines]
            if lines
            else [counts, t("review.clean", locale)]
        )[:4096],
        colour=COLOURS.get(game.game),
    )
    if not marked:
        return embed, None
    steps = replay_of(game)
    rows = Rows()
    buttons = [
        (f"🔎 {i}", after_game_id(game.id, "open", step_of(steps, d.index)), False)
        for i, d in enumerate(marked[:SHOWN], 1)
    ]
    # Every action is a step of its own (bot/tables/replay.py), so each decision opens its own
    # step and every item has its button; distinct ids are what Discord wants of a message.
    unique = list({key: (label, key, off) for label, key, off in reversed(buttons)}.values())[::-1]
    for start in range(0, len(unique), 5):
        rows.buttons(*unique[start : start + 5])
    return embed, rows


async def review_play(interaction: discord.Interaction[Any], game_id: int) -> None:
    locale = locale_of(interaction)
    guild_id = interaction.guild_id
    if guild_id is None:
        await say(interaction, t("board.dm", locale))
        return
    game = await host_of(interaction).results.finished_game(guild_id, game_id)
    if game is None:
        await say(interaction, t("history.log.missing", locale))
        return
    seat = next(
        (p.seat for p in game.players if not p.is_bot and p.user_id == interaction.user.id), None
    )
    if seat is None:
        await say(interaction, t("review.not_a_player", locale))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    last_edit = 0.0
    editing: asyncio.Task[Any] | None = None

    def progress(done: int, total: int) -> None:
        nonlocal last_edit, editing
        now = time.monotonic()
        if done and (now - last_edit < PROGRESS_EVERY or (editing and not editing.done())):
            return
        last_edit = now
        text = t("review.progress", locale, done=done, total=total)
        editing = asyncio.ensure_future(_edit(interaction, content=text))

    try:
        review = await review_game(
            game.game,
            game.options,
            game.seed,
            game.first_dealer,
            game.actions,
            seat,
            progress=progress,
        )
    except Exception:
        log.exception("review of game %s failed", game_id)
        await _edit(interaction, content=t("error.unexpected", locale))
        return
    if editing is not None:
        await asyncio.gather(editing, return_exceptions=True)
    embed, rows = review_answer(game, review, locale)
    await _edit(interaction, content="", embed=embed, view=rows)


async def _edit(interaction: discord.Interaction[Any], **fields: Any) -> None:
    try:
        await interaction.edit_original_response(**fields)
    except discord.HTTPException:
        log.warning("could not edit the review of %s", interaction.id, exc_info=True)
