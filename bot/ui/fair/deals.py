"""Provably fair deals on Discord (issue 24, docs/fair-deals.md): what the table shows, the
"🔒 Deal" and "✂️ Cut" buttons, and `/verify`.

The table message shows the hand's commitment (short) and the next hand's, and, once a hand is
over, its revealed seed, cut and commitment. Nothing here ever reads a seed that is not revealed:
the seeds come only from the engine's revealed records (`fair["revealed"]`, `fair_records()`).
"""

from __future__ import annotations

import logging
import shlex
from collections.abc import Callable
from typing import Any

import discord

from bot.engine.fair_deal import MAX_CUT, hand_commitment
from bot.tables.errors import NotPlaying, TableError
from bot.tables.fair import fair_view, is_fair
from bot.tables.fair_check import DealCheck, check_hand
from bot.tables.service import Table, TableService
from bot.texts import t
from bot.ui.kit.answer import locale_of, say
from bot.ui.kit.components import Buttons
from bot.ui.kit.custom_ids import table_button_id
from bot.ui.kit.host import host_of
from bot.ui.words.game_log import replay, seat_namer
from bot.ui.words.seats import seat_name

log = logging.getLogger(__name__)

SHORT = 12  # hex digits of a commitment on the table message
FAIR_VERBS = frozenset({"deal", "cut"})


def short(value: str) -> str:
    return value[:SHORT]


# --- the table message ----------------------------------------------------------------------


def lobby_line(table: Table, locale: str | None) -> str | None:
    """The lobby shows hand 1's commitment: the Start click (the cut) comes after it."""
    seed = table.record.seed
    if table.status != "lobby" or seed is None:
        return None
    return t("fair.commit.lobby", locale, short=short(hand_commitment(seed, 1)))


def reveal_line(record: dict[str, Any], locale: str | None) -> str:
    return t(
        "fair.reveal",
        locale,
        hand=record["hand"],
        seed=record["server_seed"],
        cut=record["cut"],
        short=short(record["commitment"]),
    )


def table_lines(table: Table, locale: str | None) -> list[str]:
    """The fair-deal lines of a game's table message: the commitment in play (and the next
    one's, so that the click that ends this hand may cut the next) and the last hand revealed."""
    fair = fair_view(table)
    if fair is None:
        return []
    lines = []
    game = table.game
    if game is not None and not game.is_over:
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


def add_field(embed: discord.Embed, table: Table, locale: str | None) -> None:
    lines = table_lines(table, locale)
    if lines:
        embed.add_field(name=t("fair.field", locale), value="\n".join(lines)[:1024], inline=False)


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
                cut=revealed["cut"],
                commitment=revealed["commitment"],
            )
        )
    lines.append(t("fair.deal.how", locale))
    return "\n".join(lines)


class CutModal(discord.ui.Modal):
    """The cutter types any text; it is the cut of the hand waiting for it, or of the next
    hand (this player deals now and cuts next)."""

    def __init__(self, service: TableService, table_id: int, locale: str) -> None:
        super().__init__(title=t("fair.cut.title", locale), custom_id=f"fd:{table_id}:cut")
        self.service = service
        self.table_id = table_id
        self.text: discord.ui.TextInput[CutModal] = discord.ui.TextInput(
            label=t("fair.cut.label", locale), max_length=MAX_CUT, custom_id="cut"
        )
        self.add_item(self.text)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        locale = locale_of(interaction)
        try:
            _, applied = await self.service.fair_cuts.cut(
                self.table_id, interaction.user.id, self.text.value
            )
        except TableError as error:
            await say(interaction, t(error.key, locale, **error.values))
            return
        except Exception:
            log.exception("cut failed at table %s", self.table_id)
            await say(interaction, t("error.unexpected", locale))
            return
        key = "fair.cut.done" if applied else "fair.cut.kept"
        await say(interaction, t(key, locale, cut=self.text.value.strip()))


async def on_fair_button(
    interaction: discord.Interaction[Any], service: TableService, table_id: int, verb: str
) -> None:
    """🔒 Deal answers privately; ✂️ Cut opens the cut's modal (the clicker must cut)."""
    locale = locale_of(interaction)
    table = service.get(table_id)
    if verb == "deal":
        if not is_fair(table):
            await say(interaction, t("fair.deal.old", locale))
            return
        await say(interaction, deal_answer(table, locale))
        return
    await interaction.response.send_modal(CutModal(service, table_id, locale))


# --- /verify --------------------------------------------------------------------------------


def verify_command(record: dict[str, Any]) -> str:
    """The command line a sceptical player runs (scripts/verify_deal.py)."""
    words = [
        "python3",
        "scripts/verify_deal.py",
        "--game",
        record["game"],
        "--deck",
        str(record["deck"]),
        "--players",
        *record["players"],
        "--hand",
        str(record["hand"]),
        "--dealer",
        str(record["dealer"]),
        "--cut",
        record["cut"],
        "--previous",
        record["previous_commitment"],
        "--seed",
        record["server_seed"],
        "--commitment",
        record["commitment"],
    ]
    return " ".join(shlex.quote(word) for word in words)


def verify_answer(check: DealCheck, name_of: Any, locale: str | None) -> str:
    def word(ok: bool) -> str:
        return t("fair.verify.yes" if ok else "fair.verify.no", locale)

    verdict = t("fair.verify.ok" if check.ok else "fair.verify.bad", locale)
    hands = "\n".join(
        f"{name_of(seat)}: {' '.join(cards)}" for seat, cards in enumerate(check.hands)
    )
    return "\n".join(
        [
            f"**{t('fair.verify.title', locale, hand=check.hand, verdict=verdict)}**",
            t(
                "fair.verify.lines",
                locale,
                commitment=word(check.commitment_ok),
                chain=word(check.chain_ok),
                deal=word(check.deal_ok),
            ),
            t("fair.verify.hands", locale, hands=hands),
            t("fair.verify.command", locale, command=f"```\n{verify_command(check.record)}\n```"),
        ]
    )[:2000]


async def verify(interaction: discord.Interaction[Any], game_id: int | None, hand: int) -> None:
    """`/verify`: a finished game's hand (by its number in /history), or, without a game, a
    finished hand of this channel's table."""

    locale = locale_of(interaction)
    bot = host_of(interaction)
    if game_id is None:
        table = bot.table_service.in_channel(interaction.channel_id or 0)
        if table is None or table.game is None:
            await say(interaction, t("fair.verify.no_game", locale))
            return
        records = table.game.fair_records()
        check = check_hand(records, hand)

        def name_of_seat(seat: int) -> str:
            return seat_name(table, seat, locale)

        name_of: Callable[[int], str] = name_of_seat

    else:
        finished = await bot.results.finished_game(interaction.guild_id or 0, game_id)
        if finished is None:
            await say(interaction, t("fair.verify.no_game", locale))
            return
        played = replay(finished)
        check = check_hand(played.fair_records(), hand)
        name_of = seat_namer(finished, played, locale)
    if check is None:
        await say(interaction, t("fair.verify.none", locale, hand=hand))
        return
    await say(interaction, verify_answer(check, name_of, locale))
