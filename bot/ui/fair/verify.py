"""`/verify` (issues 24 and 32, docs/fair-deals.md): a revealed hand recomputed inside Discord by
bot/tables/fair_check.py's own code (not the engine's), shown with card faces, the beacon round
and the game secret's check, and the command line a sceptical player runs outside Discord."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import Any

import discord

from bot.engine.fair_deal import game_secret
from bot.tables.fair_check import DealCheck, check_hand, face
from bot.texts import t
from bot.ui.fair.deals import beacon_detail
from bot.ui.kit.answer import locale_of, say
from bot.ui.kit.host import host_of
from bot.ui.words.fair_lines import shell_safe
from bot.ui.words.game_log import replay, seat_namer
from bot.ui.words.seats import seat_name


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
    locale = locale_of(interaction)
    bot = host_of(interaction)
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
