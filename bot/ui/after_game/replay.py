"""After the game (issue 22) in Discord: the replay of a finished game with its pictures, the
hand record file, a summary to post, and the clicks of the `ag:` / `ge:` buttons.

Nothing is kept in memory: every click carries the game's id and the step
(bot/ui/kit/custom_ids.py), the game is read again from storage and replayed on the engine, so a
replay message works after a restart and for anyone in the server. The guild always comes from
the interaction, never from a button: a forged id can never show another server's game.
A replay is private to the asker; "Post to channel" shares the game's summary publicly, by the
asker, notifying nobody.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from bot.pictures import render_pool
from bot.pictures.charts import score_chart
from bot.pictures.replay import step_job
from bot.storage import FinishedGame
from bot.tables.hand_record import HandRecordError, export_text, import_text
from bot.tables.replay import Replay, ReplayStep, replay_steps
from bot.tables.story import game_story, story_lines
from bot.texts import n, t
from bot.ui.kit.answer import Answer, locale_of, respond, say
from bot.ui.kit.components import Buttons
from bot.ui.kit.custom_ids import (
    after_game_id,
)
from bot.ui.kit.host import host_of
from bot.ui.kit.message_parts import COLOURS, MessageParts
from bot.ui.words.events import event_sentence, team_name
from bot.ui.words.game_log import UnreadableGame, log_title, replay, seat_namer
from bot.ui.words.moves import move_text
from bot.ui.words.seats import game_title

log = logging.getLogger(__name__)

PICTURE = "replay.png"
CHART = "score.png"
MAX_HANDS_IN_PICKER = 25  # Discord's limit of options in a select menu
MAX_RECORD_BYTES = 512 * 1024  # a long rubber's record is ~20 KB
Style = discord.ButtonStyle


class Rows(Buttons):
    """Rows of buttons and one select, as Discord's JSON (the clicks reach the `ag:` template
    whatever drew them); a `Buttons`, so messages take it wherever they take buttons."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[dict[str, Any]]] = []

    def buttons(self, *specs: tuple[str, str, bool]) -> None:
        self.rows.append(
            [
                {"type": 2, "style": Style.secondary.value, "label": label, "custom_id": key}
                | {"disabled": disabled}
                for label, key, disabled in specs
            ]
        )

    def select(self, custom_id: str, placeholder: str, options: list[tuple[str, str]]) -> None:
        self.rows.append(
            [
                {
                    "type": 3,
                    "custom_id": custom_id,
                    "placeholder": placeholder,
                    "options": [{"label": label, "value": value} for label, value in options],
                }
            ]
        )

    def to_components(self) -> list[dict[str, Any]]:
        return [{"type": 1, "components": row} for row in self.rows if row]


# --- the replay ---------------------------------------------------------------------------------


def replay_of(game: FinishedGame) -> Replay:
    try:
        return replay_steps(game.game, game.options, game.seed, game.first_dealer, game.actions)
    except Exception as error:  # the engine's own errors: the log no longer replays
        raise UnreadableGame(f"game {game.id}: {error!r}") from error


def seat_names(game: FinishedGame, locale: str | None) -> list[str]:
    name_of = seat_namer(game, replay(game), locale)
    return [name_of(seat) for seat in range(4)]


def step_text(game: FinishedGame, step: ReplayStep, names: list[str], locale: str | None) -> str:
    """What happened since the step before, in the table log's own sentences."""

    def name_of(seat: int) -> str:
        return names[seat]

    lines = []
    for data in step.events:
        event = _Event(data["kind"], data["seat"], data["data"])
        line = event_sentence(game.game, event, name_of, locale, name_of)
        if line:
            lines.append(line)
    played = step.move is not None and step.move[1].startswith(("play:", "cover:"))
    if not lines and step.move is not None and played:  # mid-trick, the log is silent
        seat, action = step.move
        moment = {"seat": seat, "dealer": step.view.get("dealer")}
        shown = move_text(game.game, action, locale, moment)
        lines.append(t("replay.move", locale, player=names[seat], move=shown))
    return "\n".join(lines)[-3500:]


class _Event:
    def __init__(self, kind: str, seat: int | None, data: dict[str, Any]) -> None:
        self.kind, self.seat, self.data = kind, seat, data


def _hand_picker(game_id: int, steps: Replay, current: int, locale: str | None) -> list[Any]:
    starts = steps.hand_starts
    hand = steps.step(current).hand
    first = max(0, min(hand - MAX_HANDS_IN_PICKER // 2, len(starts) - MAX_HANDS_IN_PICKER))
    return [
        (t("replay.hand", locale, number=number + 1), str(start))
        for number, start in enumerate(starts)
    ][first : first + MAX_HANDS_IN_PICKER]


def viewer_seat(game: FinishedGame, user_id: int | None) -> int:
    """The seat drawn at the bottom: the viewer's own when they played the game, else the
    first seat."""
    return next(
        (p.seat for p in game.players if not p.is_bot and p.user_id == user_id and user_id), 0
    )


def hand_jumps(steps: Replay, index: int) -> tuple[int, int]:
    """⏮ and ⏭: the start of this hand (of the hand before, from its first step), and the
    start of the next hand (the game's last step from the last hand)."""
    starts = steps.hand_starts
    current = max((s for s in starts if s <= index), default=0)
    back = current if index > current else max((s for s in starts if s < index), default=0)
    last = len(steps.steps) - 1
    forward = min((s for s in starts if s > index), default=last)
    return back, forward


async def replay_message(
    game: FinishedGame, index: int, locale: str | None, viewer: int | None = None
) -> MessageParts:
    steps = replay_of(game)
    step = steps.step(index)
    names = seat_names(game, locale)
    last = len(steps.steps) - 1
    bottom = viewer_seat(game, viewer)
    png = await render_pool.render_job(step_job, (game.game, step, names, game.id, locale, bottom))
    embed = discord.Embed(
        title=t(
            "replay.title",
            locale,
            game=game_title(game.game, locale),
            id=game.id,
            hand=step.hand + 1,
            hands=len(steps.hand_starts),
        ),
        description=step_text(game, step, names, locale) or None,
        colour=COLOURS.get(game.game),
    )
    embed.set_image(url=f"attachment://{PICTURE}")
    embed.set_footer(text=t("replay.footer", locale, step=step.index + 1, steps=last + 1))
    rows = Rows()
    i = step.index
    back, forward = hand_jumps(steps, i)
    rows.buttons(  # ◀ ▶ card by card (one action a step), ⏮ ⏭ hand by hand
        ("⏮", after_game_id(game.id, "jump", back), i == 0),
        ("◀", after_game_id(game.id, "step", max(i - 1, 0)), i == 0),
        ("▶", after_game_id(game.id, "step", min(i + 1, last)), i == last),
        ("⏭", after_game_id(game.id, "jump", forward), i == last),
    )
    rows.select(
        after_game_id(game.id, "hand"),
        t("replay.pick_hand", locale),
        _hand_picker(game.id, steps, i, locale),
    )
    _after_buttons(rows, game.id, locale)
    return MessageParts(
        content="",
        embed=embed,
        view=rows,
        files=[discord.File(io.BytesIO(png), filename=PICTURE)],
    )


def _after_buttons(rows: Rows, game_id: int, locale: str | None, *, replay: bool = False) -> None:
    specs = []
    if replay:
        specs.append((t("replay.button.replay", locale), after_game_id(game_id, "open", 0), False))
    specs += [
        (t("replay.button.review", locale), after_game_id(game_id, "review"), False),
        (t("replay.button.export", locale), after_game_id(game_id, "export"), False),
        (t("replay.button.post", locale), after_game_id(game_id, "post"), False),
    ]
    rows.buttons(*specs)


def after_rows(game_id: int, locale: str | None) -> Rows:
    """Replay / Review my play / Export / Post to channel: for a game's log and summary."""
    rows = Rows()
    _after_buttons(rows, game_id, locale, replay=True)
    return rows


# --- the summary: the game's story and its score by hand ------------------------------------


def summary_message(game: FinishedGame, locale: str | None, *, by: int | None = None) -> Answer:
    played = replay(game)
    name_of = seat_namer(game, played, locale)
    story = game_story(played)
    lines = story_lines(story, name_of, lambda team: team_name(team, locale), locale)
    embed = discord.Embed(
        title=log_title(game, locale),
        description="\n".join(lines)[:4000],
        colour=COLOURS.get(game.game),
    )
    embed.set_image(url=f"attachment://{CHART}")
    embed.set_footer(text=t("replay.summary.footer", locale, id=game.id))
    chart = score_chart(
        [h.scores for h in story.hands],
        int(game.options.get("target", 10)),
        (team_name(0, locale), team_name(1, locale)),
        locale,
    )
    content = "" if by is None else t("replay.posted_by", locale, user=f"<@{by}>")
    return MessageParts(
        content=content,
        embed=embed,
        view=None if by is not None else after_rows(game.id, locale),
        files=[discord.File(io.BytesIO(chart), filename=CHART)],
    )


# --- answering ----------------------------------------------------------------------------------


async def _game(interaction: discord.Interaction[Any], game_id: int) -> FinishedGame | None:
    guild_id = interaction.guild_id
    if guild_id is None:
        return None
    return await host_of(interaction).results.finished_game(guild_id, game_id)


async def show_replay(
    interaction: discord.Interaction[Any], game_id: int, step: int = 0, *, update: bool = False
) -> None:
    locale = locale_of(interaction)
    if interaction.guild_id is None:
        await say(interaction, t("board.dm", locale))
        return

    async def work() -> Answer:
        game = await _game(interaction, game_id)
        if game is None:
            return t("history.log.missing", locale)
        try:
            return await replay_message(game, step, locale, interaction.user.id)
        except UnreadableGame:
            log.warning("game %s does not replay", game_id, exc_info=True)
            return t("history.log.unreadable", locale)

    await respond(interaction, work(), update=update, private=True)


async def send_record(interaction: discord.Interaction[Any], game_id: int) -> None:
    """The hand record of the game as a .txt file, privately."""
    locale = locale_of(interaction)
    game = await _game(interaction, game_id)
    if game is None:
        await say(interaction, t("history.log.missing", locale))
        return
    text = export_text(game.game, game.options, game.seed, game.first_dealer, game.actions)
    file = discord.File(io.BytesIO(text.encode()), filename=f"{game.game}-game-{game.id}.txt")
    await interaction.response.send_message(
        t("replay.exported", locale, id=game.id), file=file, ephemeral=True
    )


async def post_summary(interaction: discord.Interaction[Any], game_id: int) -> None:
    """A public copy of the game's summary in the channel, by the asker, notifying nobody."""
    locale = locale_of(interaction)
    game = await _game(interaction, game_id)
    if game is None:
        await say(interaction, t("history.log.missing", locale))
        return
    parts = summary_message(game, str(interaction.guild_locale or locale), by=interaction.user.id)
    assert isinstance(parts, MessageParts)
    assert parts.embed is not None
    await interaction.response.send_message(
        content=parts.content,
        embed=parts.embed,
        files=parts.files or [],
        allowed_mentions=discord.AllowedMentions.none(),
    )


def record_result(scores: tuple[int, ...], hands: int, moves: int, locale: str | None) -> str:
    """A hand record's summary line: "Final score 5–3 · 1 hand · 21 moves"."""
    return t(
        "replay.record.result",
        locale,
        score0=scores[0],
        score1=scores[1],
        hands=n("plural.hands", locale, hands),
        moves=n("plural.moves", locale, moves),
    )


async def replay_record(interaction: discord.Interaction[Any], record: discord.Attachment) -> None:
    """/replay with a hand record file: the game it describes, replayed to its end (a file has
    no id for the step buttons to carry, so it shows its summary and final table)."""
    locale = locale_of(interaction)
    if record.size > MAX_RECORD_BYTES:
        await say(interaction, t("replay.record.too_big", locale))
        return

    async def work() -> Answer:
        text = (await record.read()).decode("utf-8", errors="replace")
        try:
            played = import_text(text)
        except HandRecordError as error:
            return t("replay.record.bad", locale, error=str(error)[:300])
        actions = [(seat, action) for seat, action in played.actions]
        steps = replay_steps(
            played.GAME_NAME, played.options.to_dict(), played.seed, played.first_dealer, actions
        )
        names = [t("replay.seat", locale, number=seat + 1) for seat in range(4)]
        last = steps.steps[-1]
        png = await render_pool.render_job(step_job, (played.GAME_NAME, last, names, 0, locale))
        scores = tuple(played.scores)
        embed = discord.Embed(
            title=t("replay.record.title", locale, game=game_title(played.GAME_NAME, locale)),
            description=record_result(scores, len(steps.hand_starts), len(actions), locale),
            colour=COLOURS.get(played.GAME_NAME),
        )
        embed.set_image(url=f"attachment://{PICTURE}")
        file = discord.File(io.BytesIO(png), filename=PICTURE)
        return MessageParts(content="", embed=embed, view=None, files=[file])

    await respond(interaction, work(), private=True)
