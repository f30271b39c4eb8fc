"""The application's card emojis as an earlier start of the bot left them on Discord."""

from __future__ import annotations

import functools

from bot.pictures.cards import deck_codes, emoji_png
from bot.ui.kit.card_emojis import emoji_name
from emulator import Emulator


@functools.cache
def card_emoji_images() -> tuple[tuple[str, bytes], ...]:
    """(name, PNG) of every card emoji, drawn once per test process."""
    return tuple((emoji_name(code), emoji_png(code)) for code in deck_codes())


def seed_card_emojis(emu: Emulator) -> None:
    """Give the emulator's application the card emojis the bot would have uploaded (the same
    names and images), so a bot start finds them all and uploads none."""
    for name, image in card_emoji_images():
        emu.add_application_emoji(name, image)
