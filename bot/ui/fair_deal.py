"""Provably fair deals on Discord (issues 24 and 32, docs/fair-deals.md): what the table shows,
the game's commitment message, the "🔒 Deal" and "✂️ Cut" buttons, and `/verify`.

A fair-v2 table message carries one small line (`fair_text.short_line`); the full values and the
reveals are one click away (🔒 Deal, /verify). Each game's commitment is in a message created for
it (`post_commitment`), whose id fixes the beacon rounds. A version-1 table (already playing when
version 2 came) shows its commitments and reveals as before. Nothing here ever reads a seed that
is not revealed: the seeds come only from the engine's revealed records, and the game secret
only once the game is over.
"""

from __future__ import annotations

import logging
import shlex
from collections.abc import Callable
from typing import Any

import discord

from bot.engine.fair_deal import MAX_CUT, QUICKNET_HASH, game_secret, hand_commitment
from bot.tables.errors import NotPlaying, TableError
from bot.tables.fair import fair_view, is_fair
from bot.tables.fair_check import DealCheck, check_hand, face
from bot.tables.service import Table, TableService
from bot.texts import t
from bot.ui.answer import locale_of, say
from bot.ui.bot_of import bot_of
from bot.ui.budget import GlobalBudget, Priority
from bot.ui.components import Buttons
from bot.ui.custom_ids import table_button_id
from bot.ui.discord_internals import has_live_modal
from bot.ui.fair_text import (
    commitment_message,
    in_code,
    plain,
    reveal_line,
    shell_safe,
    short,
    short_line,
)
from bot.ui.game_log import replay, seat_namer

log = logging.getLogger(__name__)

FAIR_VERBS = frozenset({"deal", "cut"})
MODAL_PREFIX = "fd:"  # fd:<table>:cut:<user>: one Cut modal per person (issue 32)
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


def table_short_line(table: Table, locale: str | None) -> str | None:
    """fair-v2: the one small `-# 🔒 …` line of the table message (None: not a v2 game)."""
    fair = fair_view(table)
    if fair is None or fair.get("version") != 2:
        return None
    line = short_line(fair, game_over(table), locale)
    seed = table.record.seed
    if game_over(table) and seed is not None:  # the game secret: every hand checks from it
        line += "\n-# " + t("fair.v2.secret", locale, secret=game_secret(seed).hex())
    return line


def table_lines(table: Table, locale: str | None) -> list[str]:
    """The fair-deal lines of a game's table message. Version 2: the one short line. Version 1:
    the commitment in play (and the next one's, so that the click that ends this hand may cut
    the next) and the last hand revealed."""
    fair = fair_view(table)
    if fair is None:
        return []
    line = table_short_line(table, locale)
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


def add_field(embed: discord.Embed, table: Table, locale: str | None) -> None:
    lines = table_lines(table, locale)
    if not lines:
        return
    v2 = table_short_line(table, locale) is not None
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
    from bot.ui.render import seat_name  # render draws the table message, which uses this

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
    from bot.ui.render import seat_name

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


def modal_id(table_id: int, user_id: int) -> str:
    """One Cut modal per person: two people with theirs open each get their own answer."""
    return f"{MODAL_PREFIX}{table_id}:cut:{user_id}"


def parse_modal_id(custom_id: str) -> tuple[int, int] | None:
    parts = custom_id.split(":")
    if len(parts) != 4 or parts[0] + ":" != MODAL_PREFIX or parts[2] != "cut":
        return None
    try:
        return int(parts[1]), int(parts[3])
    except ValueError:
        return None


async def submit_cut(
    interaction: discord.Interaction[Any], service: TableService, table_id: int, text: str
) -> None:
    """A Cut modal's text (a live modal, or one opened before a restart)."""
    locale = locale_of(interaction)
    try:
        table, applied = await service.fair_cuts.cut(table_id, interaction.user.id, text)
    except TableError as error:
        await say(interaction, t(error.key, locale, **error.values))
        return
    except Exception:
        log.exception("cut failed at table %s", table_id)
        await say(interaction, t("error.unexpected", locale))
        return
    shown = plain(text.strip())
    if (fair_view(table) or {}).get("version") == 2:
        await say(interaction, t("fair.cut.flourish", locale, cut=shown))
        return
    key = "fair.cut.done" if applied else "fair.cut.kept"
    await say(interaction, t(key, locale, cut=shown))


class CutModal(discord.ui.Modal):
    """The cutter types any text: with version 2 a flourish that goes with the beacon's value
    in the cut (the beacon is what counts); with version 1 the cut itself."""

    def __init__(self, service: TableService, table_id: int, user_id: int, locale: str) -> None:
        super().__init__(title=t("fair.cut.title", locale), custom_id=modal_id(table_id, user_id))
        self.service = service
        self.table_id = table_id
        self.text: discord.ui.TextInput[CutModal] = discord.ui.TextInput(
            label=t("fair.cut.label", locale), max_length=MAX_CUT, custom_id="cut"
        )
        self.add_item(self.text)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await submit_cut(interaction, self.service, self.table_id, self.text.value)


def _modal_values(data: Any) -> dict[str, str]:
    """custom_id -> value of a modal submit's text inputs (action rows or labels around them)."""
    found: dict[str, str] = {}

    def walk(items: Any) -> None:
        for item in items or ():
            if not isinstance(item, dict):
                continue
            if "value" in item and "custom_id" in item:
                found[str(item["custom_id"])] = str(item["value"])
            walk(item.get("components"))
            if isinstance(item.get("component"), dict):
                walk([item["component"]])

    walk((data or {}).get("components"))
    return found


def is_orphan_cut(interaction: discord.Interaction[Any]) -> bool:
    """A Cut modal's submit that no live modal will answer: it was opened before a restart
    (discord.py keeps modals in memory only), or its modal was already answered."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return False
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    if parse_modal_id(custom_id) is None:
        return False
    return not has_live_modal(interaction.client, custom_id)


async def on_orphan_cut(interaction: discord.Interaction[Any], service: TableService) -> None:
    data: Any = interaction.data or {}
    parsed = parse_modal_id(str(data.get("custom_id", "")))
    if parsed is None:
        return
    table_id, _ = parsed
    text = _modal_values(interaction.data).get("cut", "")
    await submit_cut(interaction, service, table_id, text)


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
    from bot.engine.fair_deal import game_commitment

    locale = locale_of_table(table)
    channel = client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
    await budget.take(Priority.WATCHED)
    sent = await channel.send(
        content=commitment_message(table.game_name, game_commitment(seed), locale),
        allowed_mentions=discord.AllowedMentions.none(),
    )
    return sent.id


# --- /verify --------------------------------------------------------------------------------


def verify_command(record: dict[str, Any]) -> str:
    """The command line a sceptical player runs (scripts/verify_deal.py). A cut that is not a
    plain word goes as --cut-hex (its UTF-8 bytes): typed text never lands in the code block."""
    cut = record["cut"]
    cut_words = ["--cut", cut] if shell_safe(cut) else ["--cut-hex", cut.encode("utf-8").hex()]
    words = [
        "python3",
        "scripts/verify_deal.py",
        "--version",
        str(record.get("version", 1)),
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
        *cut_words,
        "--previous",
        record["previous_commitment"],
        "--seed",
        record["server_seed"],
        "--commitment",
        record["commitment"],
    ]
    words += ["--hands", *(",".join(cards) for cards in record["hands"])]
    if record["game"] == "euchre":
        words += ["--turned", record["turned"]]
    if record.get("version") == 2:
        words += ["--message", record.get("message") or "none"]
    return " ".join(shlex.quote(word) for word in words)


def verify_answer(
    check: DealCheck, name_of: Any, locale: str | None, secret: str | None = None
) -> str:
    def word(ok: bool) -> str:
        return t("fair.verify.yes" if ok else "fair.verify.no", locale)

    verdict = t("fair.verify.ok" if check.ok else "fair.verify.bad", locale)
    hands = "\n".join(
        f"{name_of(seat)}: {' '.join(face(c) for c in cards)}"
        for seat, cards in enumerate(check.hands)
    )
    record = check.record
    lines = [
        f"**{t('fair.verify.title', locale, hand=check.hand, verdict=verdict)}**",
        t(
            "fair.verify.lines",
            locale,
            commitment=word(check.commitment_ok),
            chain=word(check.chain_ok),
            deal=word(check.deal_ok),
        ),
    ]
    if int(record.get("version", 1)) == 2:
        lines.append(t("fair.verify.round", locale, round=record["round"], ok=word(check.round_ok)))
        lines.append(beacon_detail(record, locale))
        if check.secret_ok is not None:
            lines.append(t("fair.verify.secret", locale, ok=word(check.secret_ok)))
            if secret is not None:
                lines.append(t("fair.v2.secret", locale, secret=secret))
    if record["game"] == "euchre":
        hands += "\n" + t("fair.verify.turned", locale, card=face(record["turned"]))
    lines += [
        t("fair.verify.hands", locale, hands=hands),
        t("fair.verify.command", locale, command=f"```\n{verify_command(record)}\n```"),
    ]
    return "\n".join(lines)[:2000]


async def verify(interaction: discord.Interaction[Any], game_id: int | None, hand: int) -> None:
    """`/verify`: a finished game's hand (by its number in /history), or, without a game, a
    finished hand of this channel's table."""
    from bot.ui.render import seat_name

    locale = locale_of(interaction)
    bot = bot_of(interaction)
    if game_id is None:
        table = bot.table_service.in_channel(interaction.channel_id or 0)
        if table is None or table.game is None:
            await say(interaction, t("fair.verify.no_game", locale))
            return
        records = table.game.fair_records()
        over = table.game.is_over and table.record.seed is not None
        secret = game_secret(table.record.seed).hex() if over and table.record.seed else None
        check = check_hand(records, hand, secret)

        def name_of_seat(seat: int) -> str:
            return seat_name(table, seat, locale)

        name_of: Callable[[int], str] = name_of_seat

    else:
        finished = await bot.results.finished_game(interaction.guild_id or 0, game_id)
        if finished is None:
            await say(interaction, t("fair.verify.no_game", locale))
            return
        played = replay(finished)
        secret = game_secret(finished.seed).hex()
        check = check_hand(played.fair_records(), hand, secret)
        name_of = seat_namer(finished, played, locale)
    if check is None:
        await say(interaction, t("fair.verify.none", locale, hand=hand))
        return
    await say(interaction, verify_answer(check, name_of, locale, secret))
