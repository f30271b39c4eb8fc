"""The check that a refused click was answered privately with the expected sentence."""

from __future__ import annotations

from emulator import Message, SimulatedUser


def assert_refusal(message: Message, person: SimulatedUser, *words: str) -> None:
    """One short private sentence for that person, with these words."""
    assert message.ephemeral and message.ephemeral_for is person
    assert not message.embeds and not message.components
    text = message.content
    assert "\n" not in text and len(text) <= 200, text
    for word in words:
        assert word in text, text
