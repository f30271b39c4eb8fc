"""Provably fair deals on Discord (issues 24 and 32, docs/fair-deals.md): what the table shows,
the game's commitment message and the "🔒 Deal" and "✂️ Cut" buttons (the Cut modal is in
fair_cut.py, `/verify` in fair_verify.py).

A fair-v2 table message carries one small line (`fair_text.short_line`); the full values and the
reveals are one click away (🔒 Deal, /verify). Each game's commitment is in a message created for
it (`post_commitment`), whose id fixes the beacon rounds. A version-1 table (already playing when
version 2 came) shows its commitments and reveals as before. Nothing here ever reads a seed that
is not revealed: the seeds come only from the engine's revealed records, and the game secret
only once the game is over.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.engine.fair_deal import QUICKNET_HASH, game_commitment, game_secret, hand_commitment
from bot.tables.errors import NotPlaying
from bot.tables.fair import fair_view, is_fair
from bot.tables.service import Table, TableService
from bot.texts import t
from bot.ui.fair.cut import CutModal
from bot.ui.kit.answer import locale_of, say
from bot.ui.kit.budget import GlobalBudget, Priority
from bot.ui.kit.components import Buttons
from bot.ui.kit.custom_ids import table_button_id
from bot.ui.words.fair_lines import (
    commitment_message,
    in_code,
    plain,
    reveal_line,
    short,
    short_line,
)
from bot.ui.words.seats import seat_name

log = logging.getLogger(__name__)

FAIR_VERBS = frozenset({"deal", "cut"})

RELAY_URL = "https://api.drand.sh"


# --- the table message ----------------------------------------------------------------------


def lobby_line(table: Table, locale: str | None) -> str | None:
    """The lobby shows hand 1's commitment: the Start click (the cut) comes after it."""
    seed = table.record.seed
    if table.status != "lobby" or seed is None:
        return None
    return t("fair.commit.lobby", locale, short=short(hand_commitment(seed, 1)))


def game_over(table: Table) -> bool:
    return table.game is not None and table.game.is_over


def table_short_line(
    table: Table, locale: str | None, view: dict[str, Any] | None = None
) -> str | None:
    """fair-v2: the one small `-# 🔒 …` line of the table message (None: not a v2 game).
    `view`: the game's public view of the current state, where the caller has one."""
    return _short_line(table, fair_view(table, view), locale)


def _short_line(table: Table, fair: dict[str, Any] | None, locale: str | None) -> str | None:
    if fair is None or fair.get("version") != 2:
        return None
    line = short_line(fair, game_over(table), locale)
    seed = table.record.seed
    if game_over(table) and seed is not None:  # the game secret: every hand checks from it
        line += "\n-# " + t("fair.v2.secret", locale, secret=game_secret(seed).hex())
    return line


def table_lines(table: Table, locale: str | None, view: dict[str, Any] | None = None) -> list[str]:
    """The fair-deal lines of a game's table message. Version 2: the one short line. Version 1:
    the commitment in play (and the next one's, so that the click that ends this hand may cut
    the next) and the last hand revealed. `view`: the game's public view of the current
    state, where the caller has one (else the fair part is read once, not per line)."""
    fair = fair_view(table, view)
    if fair is None:
        return []
    line = _short_line(table, fair, locale)
    if line is not None:
        return [line]
    lines = []
    if not game_over(table):
        lines.append(
            t(
                "fair.commit",
                locale,
                hand=fair["hand"],
                short=short(fair["commitment"]),
                next=short(fair["next_commitment"]),
            )
        )
    if fair["revealed"] is not None:
        lines.append(reveal_line(fair["revealed"], locale))
    return lines


def add_field(
    embed: discord.Embed, table: Table, locale: str | None, view: dict[str, Any] | None = None
) -> None:
    lines = table_lines(table, locale, view)
    if not lines:
        return
    v2 = table_short_line(table, locale, view) is not None
    # Version 2's line is small text under an empty field name: no heading for one line.
    name = "\u200b" if v2 else t("fair.field", locale)
    embed.add_field(name=name, value="\n".join(lines)[:1024], inline=False)


def add_buttons(buttons: Buttons, table: Table, locale: str | None) -> None:
    if not is_fair(table) or table.status != "playing":
        return
    buttons.add(table_button_id(table.id, "deal"), label=t("fair.button.deal", locale))
    buttons.add(table_button_id(table.id, "cut"), label=t("fair.button.cut", locale))


# --- the buttons ----------------------------------------------------------------------------


def deal_answer(table: Table, locale: str | None) -> str:
    """The 🔒 Deal answer: full commitments, the last hand revealed, how to check."""

    fair = fair_view(table)
    if fair is None:
        raise NotPlaying(table)
    if fair.get("version") == 2:
        return deal_answer_v2(table, fair, locale)
    lines = [
        f"**{t('fair.deal.title', locale)}**",
        t(
            "fair.deal.current",
            locale,
            hand=fair["hand"],
            dealer=seat_name(table, int(fair["dealer"]), locale),
            cutter=seat_name(table, int(fair["cutter"]), locale),
            commitment=fair["commitment"],
            previous=fair["previous_commitment"],
            next=fair["next_commitment"],
        ),
    ]
    revealed = fair["revealed"]
    if revealed is not None:
        lines.append(
            t(
                "fair.deal.revealed",
                locale,
                hand=revealed["hand"],
                seed=revealed["server_seed"],
                cut=in_code(revealed["cut"]),
                commitment=revealed["commitment"],
            )
        )
    lines.append(t("fair.deal.how", locale))
    return "\n".join(lines)


def round_url(number: int) -> str:
    return f"<{RELAY_URL}/{QUICKNET_HASH}/public/{number}>"


def deal_answer_v2(table: Table, fair: dict[str, Any], locale: str | None) -> str:
    """🔒 Deal of a fair-v2 game: the game commitment and its message, the hand's round and
    commitments, the last hand revealed (weak or not, with its typed text escaped), and the
    game secret once the game is over."""
    message = fair.get("message")
    lines = [
        f"**{t('fair.deal.title', locale)}**",
        t(
            "fair.v2.deal.game",
            locale,
            commitment=fair["game_commitment"],
            message=message or "—",
        ),
    ]
    if not game_over(table):
        lines.append(
            t(
                "fair.v2.deal.hand",
                locale,
                hand=fair["hand"],
                dealer=seat_name(table, int(fair["dealer"]), locale),
                cutter=seat_name(table, int(fair["cutter"]), locale),
                round=fair.get("round") or "—",
                commitment=fair["commitment"],
                previous=fair["previous_commitment"],
            )
        )
    revealed = fair["revealed"]
    if revealed is not None:
        lines.append(reveal_detail(revealed, locale))
    seed = table.record.seed
    if game_over(table) and seed is not None:
        lines.append(t("fair.v2.secret", locale, secret=game_secret(seed).hex()))
    lines.append(t("fair.v2.how", locale))
    return "\n".join(lines)[:2000]


def reveal_detail(record: dict[str, Any], locale: str | None) -> str:
    """A revealed v2 hand in full: seed, round and the beacon's randomness (or the weak mark),
    and the typed flourish, escaped."""
    head = t("fair.v2.deal.revealed", locale, hand=record["hand"], seed=record["server_seed"])
    return head + "\n" + beacon_detail(record, locale)


def beacon_detail(record: dict[str, Any], locale: str | None) -> str:
    """How a v2 hand was cut: the round and its randomness (with a link to it on a relay) or
    the weak mark, and the cutter's typed flourish, escaped."""
    if record.get("weak"):
        beacon = t("fair.v2.weak_full", locale)
    else:
        beacon = t(
            "fair.v2.beacon",
            locale,
            round=record["round"],
            randomness=record["randomness"],
            url=round_url(int(record["round"])),
        )
    lines = [beacon]
    if record.get("typed"):
        lines.append(t("fair.v2.typed", locale, typed=plain(record["typed"])))
    return "\n".join(lines)


async def on_fair_button(
    interaction: discord.Interaction[Any], service: TableService, table_id: int, verb: str
) -> None:
    """🔒 Deal answers privately; ✂️ Cut opens the clicker's own Cut modal."""
    locale = locale_of(interaction)
    table = service.get(table_id)
    if verb == "deal":
        if not is_fair(table):
            await say(interaction, t("fair.deal.old", locale))
            return
        await say(interaction, deal_answer(table, locale))
        return
    modal = CutModal(service, table_id, interaction.user.id, locale)
    await interaction.response.send_modal(modal)


async def post_commitment(
    client: discord.Client,
    budget: GlobalBudget,
    locale_of_table: Callable[[Table], str | None],
    table: Table,
) -> int | None:
    """fair-v2: the message created for a game's commitment (FairCuts.announce). Its id dates
    it; every hand's beacon round is fixed relative to it. Runs in the cut's background task."""
    seed = table.record.seed
    if seed is None:
        return None
    locale = locale_of_table(table)
    channel = client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
    await budget.take(Priority.WATCHED)
    sent = await channel.send(
        content=commitment_message(table.game_name, game_commitment(seed), locale),
        allowed_mentions=discord.AllowedMentions.none(),
    )
    return sent.id
