"""Issue 11: each player reads their own language. A Brazilian server (guild locale pt-BR) with
two pt-BR players, a French one and a Hindi one plays a whole truco game through the emulator:
the pt-BR player never sees an English word, the fr and hi players get their private hands in
French and Hindi, and the public table speaks the server's Portuguese."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator, Iterable

import pytest

from bot.client import CardTableBot
from bot.settings import Settings
from bot.texts import catalogs, t
from bot.texts.en import PLURALS, STRINGS
from bot.ui.kit.layout import flat
from emulator import Emulator, SimulatedUser, run_bot
from emulator.state import MessageVersion
from tests.support.play_driver import GameStates, TableDriver, scale_rate_limits
from tests.support.shown import text_of
from tests.support.world import World

PLACEHOLDER = re.compile(r"\{[^}]*\}")
WORD = re.compile(r"[^\W\d_]{3,}")  # words of three letters or more, any script
URL = re.compile(r"https?://\S+")  # a link's path ("/channels/...") is not a word anyone reads
# A fair deal's commitment, seed or cut in hex ("3f9ace07…") is not a word either: its letters
# between digits would read as "ace", "add", "face" now and then (the deals are random).
HEX = re.compile(r"(?<![0-9A-Za-z])[0-9a-f]*[0-9][0-9a-f]*(?![0-9A-Za-z])")


def words(texts: Iterable[str]) -> set[str]:
    return {w.lower() for text in texts for w in WORD.findall(HEX.sub(" ", URL.sub(" ", text)))}


def english_only_words() -> set[str]:
    """Every word of the English catalog that the Portuguese catalog never uses (so "truco",
    "zap", "bot" or "Mineiro", shared by both, do not count as English)."""
    english = [*STRINGS.values(), *(form for forms in PLURALS.values() for form in forms)]
    portuguese = [m.string for m in catalogs.read("pt_BR") if m.id]
    flat = [s for p in portuguese for s in ([p] if isinstance(p, str) else p)]
    return words(PLACEHOLDER.sub(" ", s) for s in english) - words(
        PLACEHOLDER.sub(" ", s) for s in flat
    )


def readable(version: MessageVersion) -> list[str]:
    """What a reader sees: content, embed text and button labels (not custom ids)."""
    out = [version.content]
    for embed in version.embeds:
        out += [embed.get("title") or "", embed.get("description") or ""]
        out += [(embed.get("footer") or {}).get("text") or ""]
        for field_ in embed.get("fields") or []:
            out += [field_.get("name") or "", field_.get("value") or ""]
    out.append(text_of(version.components))  # a layout's text displays (issue 30)
    out += [str(c.get("label") or "") for c in flat(version.components)]
    return out


@pytest.fixture
def world(emulator: Emulator) -> World:
    """A Brazilian server: its locale is pt-BR; Ana and Bruna play in pt-BR, Camille in
    French, Hari in Hindi (names chosen not to be English words)."""
    guild = emulator.add_guild("Mesa", locale="pt-BR")
    channel = guild.add_channel("truco")
    people = [
        emulator.add_user(name, locale=locale)
        for name, locale in (
            ("ana", "pt-BR"),
            ("bruna", "pt-BR"),
            ("camille", "fr"),
            ("hari", "hi"),
        )
    ]
    for person in people:
        guild.add_member(person)
    return World(emulator, guild, channel, *people)


@pytest.fixture
async def running_bot(
    emulator: Emulator, world: World, bot_settings: Settings
) -> AsyncIterator[CardTableBot]:
    async with run_bot(emulator, bot_settings) as bot:
        yield bot


def seen_by(emulator: Emulator, person: SimulatedUser, channel_id: int) -> list[str]:
    """Every version of every message the person could read in the channel."""
    texts = []
    for message in emulator.messages.values():
        if message.channel.id != channel_id:
            continue
        if message.ephemeral_for is not None and message.ephemeral_for is not person:
            continue
        for version in message.versions:
            texts += readable(version)
    return texts


async def test_a_pt_br_player_plays_a_whole_truco_game_without_one_english_word(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    scale_rate_limits(emulator, running_bot, per=1.0)
    ana, bruna, camille, hari = world.players
    assert [p.locale for p in world.players] == ["pt-BR", "pt-BR", "fr", "hi"]
    driver = TableDriver(emulator, running_bot, world.table, world.players)
    lobby = await driver.open(ana, "truco new")
    await driver.sit(lobby, [bruna, camille, hari], 0, ana)
    await driver.start(lobby, ana)
    await driver.play_to_end(random.Random(11))
    table = driver.table
    assert table.game is not None and table.game.is_over
    assert driver.check_public_history(GameStates.replay(table), driver.message) > 0
    assert any(table.player_at(s).user_id == bruna.id for s, _ in table.record.actions)

    # Bruna: the table (server's pt-BR) and her own hands (her pt-BR), never English.
    seen = seen_by(emulator, bruna, world.table.id)
    english = english_only_words()
    assert {"your", "turn", "play", "team", "hand", "round"} <= english  # the detector works
    leaked = words(seen) & english
    assert not leaked, f"English words shown to a pt-BR player: {sorted(leaked)}"
    text = "\n".join(seen)
    assert t("hand.prompt.truco.play", "pt-BR") in text  # "Sua vez: jogue uma carta."
    assert "Dupla 1" in text and t("table.button.hand", "pt-BR") in text

    # Camille and Hari at the same table: their private hands in French and in Hindi.
    # (Beside its picture a hand message has no title line (issue 30): its language shows in
    # its buttons, e.g. Refresh.)
    for person, title in ((camille, "Actualiser"), (hari, t("hand.button.refresh", "hi"))):
        # A hand message: one that showed game buttons (its last version, at the game's end,
        # may have none left).
        hands = [
            m for m in person.own_ephemerals if any("t:" in str(v.components) for v in m.versions)
        ]
        shown = "\n".join(line for m in hands for v in m.versions for line in readable(v))
        assert title in shown and "Your hand" not in shown and "Refresh" not in shown
        assert t("hand.prompt.truco.play", person.locale) in shown
        assert "Sua mão" not in shown
    driver.assert_no_failures()
