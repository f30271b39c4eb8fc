"""The translations: every catalog complete and in step with en.py, placeholders kept, plural
forms from the catalog, no message over Discord's limits in any language; and the fixes of what
players saw (issue 11)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot.engine.common import Event
from bot.texts import catalog_names, catalogs, n, t
from bot.texts.en import PLURALS, STRINGS
from bot.ui.table import render
from bot.ui.words.events import event_sentence
from tests.support.render import make_table
from tests.support.world import open_table

LANGUAGES = catalog_names()


def test_the_translations_exist() -> None:
    assert LANGUAGES == ["es", "fr", "hi", "pt_BR", "tr"]


@pytest.mark.parametrize("name", LANGUAGES)
def test_every_catalog_is_complete_and_keeps_the_placeholders(name: str) -> None:
    assert catalogs.problems(name) == []


def test_a_missing_or_outdated_key_is_named(tmp_path: Path, monkeypatch: Any) -> None:
    text = (catalogs.LOCALES_DIR / "pt_BR.po").read_text(encoding="utf-8")
    start = text.index('msgctxt "table.error.seat_taken"')
    end = text.index("\n\n", start)
    text = text[:start] + text[end + 2 :]
    text = text.replace('"Você não pode fazer isso agora."', '"Você não pode {x} agora."', 1)
    (tmp_path / "pt_BR.po").write_text(text, encoding="utf-8")
    monkeypatch.setattr(catalogs, "LOCALES_DIR", tmp_path)
    found = catalogs.problems("pt_BR")
    assert any("table.error.seat_taken is missing" in line for line in found)
    assert any("changes the placeholders" in line for line in found)
    # and the update command brings it back, empty, for the translator
    catalogs.update("pt_BR")
    assert "pt_BR: table.error.seat_taken is not translated" in catalogs.problems("pt_BR")


NAME = "N" * 32  # Discord display names are at most 32 characters
MENTION = "<@123456789012345678>"
CARD = "10♠"
# The longest value each placeholder can take (a server name is at most 100 characters, a hand
# at most 8 cards, an embed field value at most 1024, a jump URL about 90).
LONGEST: dict[str, Any] = {
    "player": NAME,
    "partner": NAME,
    "maker": NAME,
    "dealer": NAME,
    "leader": NAME,
    "name": NAME,
    "host": MENTION,
    "who": f"{MENTION} / {MENTION}",
    "players": f"{NAME} & {NAME}",
    "team": f"Team 2 ({NAME} & {NAME})",
    "team0": f"Team 1 ({NAME} & {NAME})",
    "team1": f"Team 2 ({NAME} & {NAME})",
    "server": "S" * 100,
    "url": "https://discord.com/channels/123456789012345678/123456789012345678/123456789012345678",
    "card": CARD,
    "cards": " ".join([CARD] * 8),
    "suit": "♠",
    "manilha": "the espadilha",
    "draws": ", ".join([f"{NAME} {CARD}"] * 4),
    "permissions": "View Channel, Send Messages, Embed Links",
    "game": "Truco Mineiro",
    "period": "this month",
    "ask": "doze",
    "style": "crossing",
    "label": "Marches (all five tricks)",
    "sentence": "S" * 300,
    "date": "<t:1795570266:f>",
    "scope": "server",
    "games": "**99999** games",
    "wins": "**99999** wins",
    "hands": "999 hands",
    "points": "99 points",
}


def longest(name: str) -> Any:
    return LONGEST.get(name, 99999)  # numbers: scores, ranks, counts, versions, ids


# Discord's limits, by where the key is shown.
def limit_of(key: str) -> int:
    if ".button." in key or key.startswith(("action.", "lobby.button")):
        return 80  # a button label
    if key.startswith(("cmd.", "board.cmd", "stats.cmd", "history.cmd", "rules.choice")):
        return 100  # a command or option description, or a choice name
    if key.startswith(("table.field.", "lobby.options")) or key.endswith((".title", ".game")):
        return 256  # an embed title or field name
    if key.startswith("rules."):
        return 4096  # an embed description
    return 1024  # an embed field value: the smallest of the places a sentence goes


@pytest.mark.parametrize("locale", ["en", *LANGUAGES])
def test_no_message_over_discords_limits(locale: str) -> None:
    too_long = {}
    for key, english in STRINGS.items():
        values = {name: longest(name) for name in catalogs.fields(english)}
        shown = t(key, locale, **values) if values else t(key, locale)
        assert "{" not in shown or key.startswith("rules."), (key, shown)
        if len(shown) > limit_of(key):
            too_long[key] = len(shown)
    assert not too_long


@pytest.mark.parametrize("locale", ["en", *LANGUAGES])
def test_plural_forms_come_from_the_catalog(locale: str) -> None:
    for key in PLURALS:
        for count in (0, 1, 2, 11, 1000):
            assert str(count) in n(key, locale, count)


def test_each_language_has_its_own_plural_rule() -> None:
    assert n("plural.points", "en-US", 1) == "1 point"
    assert n("plural.points", "en-GB", 2) == "2 points"
    assert n("plural.points", "en-US", 0) == "0 points"
    assert n("plural.games", "pt-BR", 1) == "1 partida"
    assert n("plural.games", "pt-BR", 5) == "5 partidas"
    assert n("plural.points", "fr", 0) == "0 point"  # French counts 0 as singular
    assert n("plural.points", "fr", 2) == "2 points"
    assert n("plural.points", "tr", 3) == "3 puan"  # Turkish: no plural after a number
    assert n("plural.wins", "hi", 2) == "2 जीतें"


def test_discord_locales_pick_their_catalog_or_english() -> None:
    assert t("hand.prompt.truco.play", "pt-BR") == "Sua vez: jogue uma carta."
    assert t("hand.prompt.truco.play", "en-GB") == "Your turn: play a card."
    assert t("hand.prompt.truco.play", "de") == "Your turn: play a card."
    assert t("hand.prompt.truco.play", None) == "Your turn: play a card."


# --- what players saw --------------------------------------------------------------------------


def play_until(table: Any, done: Any, seed: int) -> bool:
    game, rng = table.game, random.Random(seed)
    while not game.is_over and not done(game):
        seat = rng.choice(game.to_act)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        table.record.version += 1
    return done(game)


def test_one_point_is_singular_on_the_table() -> None:
    for seed in range(50):
        table = make_table("euchre", {}, seed=seed)
        if play_until(table, lambda g: 1 in g.view(None)["scores"], seed):
            break
    embed = render.table_message(table).embed
    assert embed is not None
    names = [f.name for f in embed.fields]
    assert any(name and name.endswith("— 1 point") for name in names)
    assert not any("pts" in (name or "") for name in names)


def test_the_winners_score_comes_first() -> None:
    for seed in range(20):
        table = make_table("truco", {}, seed=seed)
        play_until(table, lambda g: False, seed)
        scores = table.game.view(None)["scores"]
        winner = table.game.view(None)["winner"]
        if scores[winner] != max(scores) or winner == 1:
            continue
        description = render.result_message(table).embed.description or ""
        assert f"wins {scores[winner]}–{scores[1 - winner]}" in description
        return
    for seed in range(20):
        table = make_table("truco", {}, seed=seed)
        play_until(table, lambda g: False, seed)
        view = table.game.view(None)
        if view["winner"] == 1:
            description = render.result_message(table).embed.description or ""
            assert f"wins {view['scores'][1]}–{view['scores'][0]}" in description
            return
    pytest.fail("no game won by Team 2 in 20 seeds")


def test_trump_field_does_not_repeat_trump() -> None:
    for seed in range(20):
        table = make_table("euchre", {}, seed=seed)
        if play_until(table, lambda g: g.view(None)["trump"] is not None, seed):
            break
    embed = render.table_message(table).embed
    assert embed is not None
    field = next(f for f in embed.fields if f.name == "Trump")
    assert not (field.value or "").startswith("Trump")


@pytest.mark.parametrize("target", [6, 12])
def test_T13_mao_de_dez_prompt_says_the_real_score(target: int) -> None:
    # T13: the mão de dez comes at target - 2; "at ten" was shown in a game to 6.
    for seed in range(300):
        table = make_table("truco", {"target": target}, seed=seed)
        if play_until(table, lambda g: g.phase == "hand_of_ten", seed):
            break
    else:
        pytest.fail("no mão de dez")
    team = table.game.view(None)["hand_of_ten"]
    seat = table.game.to_act[0]
    assert seat % 2 == team
    prompt = render.hand_message(table, seat).content
    assert f"your pair has {target - 2}" in prompt
    assert "at ten" not in prompt
    public = str(render.table_message(table).embed.to_dict())  # type: ignore[union-attr]
    assert "Mão de dez" in public and "Hand of ten" not in public


@pytest.mark.parametrize(
    ("card", "english", "portuguese"),
    [
        ("4C", "Carol takes round 2 with the zap (4♣).", "Carol leva a vaza 2 com o zap (4♣)."),
        ("7D", "Carol takes round 2 with the pica-fumo (7♦).", "com o pica-fumo (7♦)"),
        ("3S", "Carol wins round 2 with 3♠.", "Carol ganha a vaza 2 com 3♠."),
    ],
)
def test_T4_manilhas_are_named_when_they_take_a_round(
    card: str, english: str, portuguese: str
) -> None:
    event = Event("round_won", 2, {"seat": 2, "round": 1, "card": card})

    def name_of(seat: int) -> str:
        return "Carol"

    assert event_sentence("truco", event, name_of, "en", name_of) == english
    assert portuguese in (event_sentence("truco", event, name_of, "pt-BR", name_of) or "")


async def test_slash_commands_are_synced_with_every_language(
    emulator: Any, world: Any, running_bot: Any
) -> None:
    # The emulator validated them (names 1-32 lower case, descriptions 1-100) at the sync.
    truco = emulator.commands.find(world.guild.id, "truco")
    assert truco["description_localizations"]["pt-BR"] == "Mesas de Truco Mineiro"
    new = truco["options"][0]
    assert new["description_localizations"]["fr"] == t("cmd.truco.new", "fr")
    target = new["options"][0]
    assert target["description_localizations"]["hi"] == t("cmd.truco.target", "hi")
    twelve = next(c for c in target["choices"] if c["value"] == 12)
    assert twelve["name_localizations"]["es-ES"] == "12 puntos (estándar)"
    assert twelve["name_localizations"]["es-419"] == "12 puntos (estándar)"
    assert twelve["name_localizations"]["tr"] == t("cmd.truco.target.12", "tr")
    assert "en-US" not in twelve.get("name_localizations", {})
    rules = emulator.commands.find(world.guild.id, "rules")
    assert rules["description_localizations"]["pt-BR"] == t("cmd.rules", "pt-BR")
    choices = {c["value"]: c for c in rules["options"][0]["choices"]}
    assert choices["truco"]["name_localizations"]["hi"] == t("rules.choice.truco", "hi")
    table = emulator.commands.find(world.guild.id, "table")
    assert table["name_localizations"]["pt-BR"] == "mesa"
    assert table["name_localizations"]["hi"] == "मेज़"
    assert target["name_localizations"]["fr"] == "points"
    assert "en-GB" not in table["name_localizations"]


# Discord's rule for slash command and option names (letters of any case-less script allowed).
COMMAND_NAME = re.compile(r"^[-_'\w\u0900-\u097F]{1,32}$")


@pytest.mark.parametrize("locale", ["en", *LANGUAGES])
def test_command_names_are_valid_discord_names(locale: str) -> None:
    names = {key: t(key, locale) for key in STRINGS if key.startswith("cmd.name.")}
    bad = {k: v for k, v in names.items() if not COMMAND_NAME.match(v) or v != v.lower()}
    assert not bad


async def test_private_answers_follow_the_user_and_the_table_follows_the_server(
    emulator: Any, world: Any, running_bot: Any
) -> None:
    # /rules answers privately in each user's locale (the world's guild is en-US).
    for person, heading in ((world.bob, "**Mão de dez**"), (world.carol, "**Mão de dez**")):
        reply = await person.slash(world.table, "rules", game="truco")
        assert reply.ephemeral and heading in reply.text
    bob = await world.bob.slash(world.table, "rules", game="truco")
    assert "Baralho" in bob.text and "Deck" not in bob.text
    carol = await world.carol.slash(world.table, "rules", game="truco")
    assert "Paquet" in carol.text
    alice = await world.alice.slash(world.table, "rules", game="truco")
    assert "**Deck**" in alice.text
    # bob (pt-BR) opens a table: the public lobby speaks the server's English.
    lobby = await open_table(world.bob, world.table, "truco new")
    assert not lobby.ephemeral and lobby.button("Join") and "take a seat" in lobby.text
    refused = await world.bob.click(lobby, "Join")
    assert refused.ephemeral and refused.text == "Você já está sentado aí."
