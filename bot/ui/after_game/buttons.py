"""The after-game buttons (`ag:` and `ge:`, bot/ui/kit/custom_ids.py): their templates and where
each click goes. A game's log (bot/ui/boards/history.py), the replay and the end-of-game
message carry them; a click is dispatched here to the replay (bot/ui/after_game/replay.py), the
hand record, the summary post or the review (bot/ui/after_game/review.py)."""

from __future__ import annotations

from typing import Any

import discord

from bot.texts import t
from bot.ui.after_game.replay import post_summary, send_record, show_replay
from bot.ui.after_game.review import review_play
from bot.ui.kit.answer import locale_of, say
from bot.ui.kit.buttons import KeyButton, parsed_click
from bot.ui.kit.custom_ids import (
    AFTER_GAME_TEMPLATE,
    ENDED_GAME_TEMPLATE,
    AfterGameId,
    parse_after_game,
    parse_ended_game,
)
from bot.ui.kit.host import host_of


class AfterGameButton(KeyButton, template=AFTER_GAME_TEMPLATE):
    async def handle(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        await on_after_click(interaction, custom_id)


class EndedGameButton(KeyButton, template=ENDED_GAME_TEMPLATE):
    async def handle(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        await on_ended_click(interaction, custom_id)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (AfterGameButton, EndedGameButton)


async def on_after_click(interaction: discord.Interaction[Any], custom_id: str) -> None:
    parsed = await parsed_click(
        interaction, custom_id, parse_after_game, outside_server="button.invalid"
    )
    if parsed is None:
        return
    await _dispatch(interaction, parsed)


async def _dispatch(interaction: discord.Interaction[Any], parsed: AfterGameId) -> None:
    verb = parsed.verb
    if verb in ("step", "jump"):
        await show_replay(interaction, parsed.game_id, parsed.step or 0, update=True)
    elif verb == "open":
        await show_replay(interaction, parsed.game_id, parsed.step or 0)
    elif verb == "hand":
        data: dict[str, Any] = dict(interaction.data or {})
        values = data.get("values") or []
        value = str(values[0]) if values else ""
        if not value.isdigit() or len(value) > 5:
            await say(interaction, t("button.invalid", locale_of(interaction)))
            return
        await show_replay(interaction, parsed.game_id, int(value), update=True)
    elif verb == "export":
        await send_record(interaction, parsed.game_id)
    elif verb == "post":
        await post_summary(interaction, parsed.game_id)
    else:  # "review"
        await review_play(interaction, parsed.game_id)


async def on_ended_click(interaction: discord.Interaction[Any], custom_id: str) -> None:
    """A button of the end-of-game message: its table and start (or seed) name the game."""
    parsed = await parsed_click(
        interaction, custom_id, parse_ended_game, outside_server="button.invalid"
    )
    guild_id = interaction.guild_id
    if parsed is None or guild_id is None:
        return
    results = host_of(interaction).results
    if parsed.started_ms is not None:
        game_id = await results.game_id_started(guild_id, parsed.table_id, parsed.started_ms)
    else:
        assert parsed.seed is not None
        game_id = await results.game_id_for(guild_id, parsed.table_id, parsed.seed)
    if game_id is None:
        await say(interaction, t("history.log.missing", locale_of(interaction)))
        return
    verb = "open" if parsed.verb == "open" else parsed.verb
    await _dispatch(interaction, AfterGameId(game_id, verb, 0 if verb == "open" else None))
