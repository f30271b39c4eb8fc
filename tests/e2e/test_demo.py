"""`python -m demo`, run in-process (bots at zero delay, seeded deals): both games end with
a result, every interaction is acknowledged in time, no Discord rule is broken, and neither the
public table messages nor the transcript show a card its reader may not see.

Card checks replay each finished table's action log in the engine, independently of the bot:
at each version, which cards sit in hands (or in the euchre dealer's discard) and which are
public (on the table, turned up, played earlier in the game)."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.tables.games import forget_old_events
from bot.tables.service import Table
from bot.ui.kit.custom_ids import parse_game_action
from bot.ui.kit.layout import flat
from bot.ui.words.cards import card_text, cards_in_text
from demo.play import GAMES, PLAYER_NAME, DemoReport, people_names, play_demo, public_words
from demo.transcript import LOG_FIELD, Transcript, log_overlap, plain
from emulator import Emulator
from emulator.state import MessageVersion
from tests.support.play_driver import without_manilhas
from tests.support.shown import picture_version, text_of

SEED = 20240607
# A transcript block's header: the table's footer ("Table 1", "Table 1 · hand 2"), then the
# block's number among the message's distinct states.
HEADER = re.compile(r"── (?:.* · )?Table (\d+)\b.* · state (\d+) ──$")


@dataclass
class Replay:
    """Per version of one finished table: the cards in hands, the public ones, and each seat's
    own view."""

    table: Table
    in_hands: dict[int, set[str]] = field(default_factory=dict)
    public_now: dict[int, set[str]] = field(default_factory=dict)
    public_ever: dict[int, set[str]] = field(default_factory=dict)
    seen_by: dict[int, list[set[str]]] = field(default_factory=dict)

    @classmethod
    def of(cls, table: Table) -> Replay:
        record = table.record
        assert record.seed is not None
        game = table.rules.new_game(record.options, record.seed)
        assert game.first_dealer == record.first_dealer
        replay = cls(table)
        ever: set[str] = set()
        version = table.start_version
        replay._snapshot(version, game, ever)
        for seat, action in record.actions:
            game.apply(seat, action)
            if action.startswith("play:"):
                ever.add(action.split(":")[1])
            version += 1
            replay._snapshot(version, game, ever)
        forget_old_events(game)  # the table keeps only the last two hands' events
        assert game == table.game, "the replay is the bot's game"
        return replay

    def _snapshot(self, version: int, game: Any, ever: set[str]) -> None:
        views = [game.view(seat) for seat in range(4)]
        hidden = set().union(*(set(v["hand"]) for v in views))
        hidden |= {v["discard"] for v in views if v.get("discard")}
        public = cards_in_view(game.view(None))
        ever |= public
        self.in_hands[version] = hidden
        self.public_now[version] = public
        self.public_ever[version] = set(ever)
        self.seen_by[version] = [
            set(v["hand"]) | set(v.get("partner_hand") or ()) | {v.get("discard")} - {None}
            for v in views
        ]

    def secret(self, version: int, seat: int | None = None) -> set[str]:
        """Cards nobody at `seat` (None: in the channel) may see at `version`."""
        own = self.seen_by[version][seat] if seat is not None else set()
        return self.in_hands[version] - self.public_now[version] - own


def cards_in_view(view: dict[str, Any]) -> set[str]:
    """Card codes in a public engine view: the turned card, the trick, the last trick."""
    found: set[str] = set()
    if view.get("turned_card"):
        found.add(view["turned_card"])
    for entry in view.get("trick") or []:
        found.add(entry["card"])
    last = view.get("last_trick") or {}
    for entry in last.get("cards") or []:
        found.add(entry["card"])
    return found


def shown_text(shown: MessageVersion) -> str:
    return text_of(shown.components)


def public_texts(shown: MessageVersion) -> tuple[list[str], list[str]]:
    """(the state's texts, the scrolling log's lines) of one version of a table message."""
    state = [shown.content, shown_text(shown)]  # a layout's text displays (issue 30)
    log: list[str] = []
    for embed in shown.embeds:
        state += [embed.get("title") or "", embed.get("description") or ""]
        state.append((embed.get("footer") or {}).get("text") or "")
        for field_ in embed.get("fields") or []:
            if field_.get("name") == LOG_FIELD:
                log += (field_.get("value") or "").splitlines()
            else:
                state += [field_.get("name") or "", field_.get("value") or ""]
    for component in flat(shown.components):
        if component.get("type") in (2, 3):
            state += [str(component.get("label")), str(component.get("custom_id"))]
    return state, log


@pytest.fixture(scope="module")
def report() -> DemoReport:
    """One run of the demo, shared by the checks below (they only read what it recorded)."""
    lines: list[str] = []
    # A short edit window keeps the test fast; the bot and the emulator both use it.
    result = asyncio.run(play_demo(delay=0.0, seed=SEED, write=lines.append, edit_window=0.3))
    assert "\n".join(lines) == result.transcript, "every line was written as it happened"
    return result


def test_demo_plays_a_whole_game_of_each_to_a_result(report: DemoReport) -> None:
    assert report.problems == []
    assert report.ok
    assert [t.game_name for t in report.tables] == [g.game for g in GAMES]
    rng = random.Random(SEED)
    for table, demo in zip(report.tables, GAMES, strict=True):
        game = table.game
        assert game is not None and game.is_over and table.status == "finished"
        assert table.record.seed == rng.getrandbits(64), "the deals come from the demo's seed"
        assert table.options["target"] == demo.options["target"]
        assert max(game.scores) >= demo.options["target"]
        final = report.emulator.messages[table.message_id or 0]
        assert final.text.startswith("Game over")
        winners = f"Team {game.winner + 1} ("
        assert f"Result of {demo.title}: {winners}" in report.transcript
        won, lost = game.scores[game.winner], game.scores[1 - game.winner]
        assert f"wins {won}–{lost}" in report.transcript
        # Sam played through the buttons: some of the game's actions are Sam's seat's.
        sam = table.seat_of(report.emulator.user(PLAYER_NAME).id)
        assert sam is not None and any(s == sam for s, _ in table.record.actions)
    assert report.transcript.rstrip().splitlines()[-1].startswith("Done:")


def test_demo_every_interaction_acknowledged_in_time(report: DemoReport) -> None:
    emu = report.emulator
    assert emu.interactions, "Sam clicked"
    assert emu.violations == [] and emu.unhandled == [] and emu.bot_errors == []
    channel_hits = [r for r in emu.rate_limit_hits if "/channels/" in r.path]
    assert channel_hits == [], "the table edits kept to the channel's bucket"
    assert not emu.user(PLAYER_NAME).failures
    for interaction in emu.interactions:
        assert interaction.ack_latency is not None
        assert interaction.ack_latency < emu.response_deadline


def public_leaks(emu: Emulator, replay: Replay, shown: MessageVersion) -> set[str] | None:
    """Cards a version of the table message shows that the channel may not see (None: a
    version without a game state, the lobby). Its picture names the state it shows."""
    version = picture_version(emu, shown)
    if version is None or version not in replay.in_hands:
        return None
    state, log = public_texts(shown)
    state_cards = set().union(set(), *(cards_in_text(s) for s in state))
    # The log tells past events: it may name only cards that were public at some point.
    log_cards = set().union(set(), *(cards_in_text(s) for s in log))
    return (state_cards & replay.secret(version)) | (log_cards - replay.public_ever[version])


def test_demo_public_messages_show_no_hidden_card(report: DemoReport) -> None:
    checked = 0
    for table in report.tables:
        replay = Replay.of(table)
        message = report.emulator.messages[table.message_id or 0]
        for shown in message.versions:
            leaks = public_leaks(report.emulator, replay, shown)
            if leaks is None:
                continue
            assert not leaks, f"state {picture_version(report.emulator, shown)} showed {leaks}"
            checked += 1
    assert checked > 20
    # The check itself can fail: a version with one of a bot seat's cards added to it.
    table = report.tables[0]
    replay = Replay.of(table)
    bot_seat = next(s for s in range(4) if table.is_bot_seat(s))
    for shown in report.emulator.messages[table.message_id or 0].versions:
        version = picture_version(report.emulator, shown)
        if version in replay.in_hands and replay.seen_by[version][bot_seat]:
            secret = min(replay.seen_by[version][bot_seat] & replay.secret(version))
            leaked = dataclasses.replace(shown, content=shown.content + " " + card_text(secret))
            assert public_leaks(report.emulator, replay, leaked) == {secret}
            break
    else:
        raise AssertionError("no version with a bot seat holding cards")


def test_demo_transcript_shows_only_public_cards_and_sams_own(report: DemoReport) -> None:
    sam_id = report.emulator.user(PLAYER_NAME).id
    replays = {t.id: Replay.of(t) for t in report.tables}
    states = {t.id: numbered_states(report, t) for t in report.tables}
    table_id = version = None
    private_lines = 0
    for line in report.transcript.splitlines():
        header = HEADER.match(line)
        if header:
            table_id = int(header.group(1))
            version = states[table_id][int(header.group(2))]
            continue
        if table_id is None or version is None or version not in replays[table_id].in_hands:
            continue
        replay = replays[table_id]
        # The manilhas named with their cards (issue 30) tell nothing of a hand.
        cards = cards_in_text(without_manilhas(line.replace(" | ", "\n")))
        if line.startswith("  ▸ "):
            # Sam acts only once the channel shows the current state: same version.
            seat = replay.table.seat_of(sam_id)
            assert not cards & replay.secret(version, seat), line
            private_lines += "sees privately" in line
        elif line.startswith("  + ") or line == "  …":
            assert cards <= replay.public_ever[version], line
        else:
            assert not cards & replay.secret(version), line
    assert private_lines > 5
    # Plain text: no mention ids, Markdown emphasis or escapes.
    for noise in ("<@", "**", "\\"):
        assert noise not in report.transcript


def numbered_states(report: DemoReport, table: Table) -> dict[int, int | None]:
    """The transcript's state numbers of a table's message -> the table version each shows:
    the message's versions numbered again as the transcript numbers them (by distinct content);
    a state stands for its run of versions that read alike, the last one's picture names it."""
    transcript = Transcript(people_names(report.emulator), lambda line: None)
    message = report.emulator.messages[table.message_id or 0]
    states: dict[int, int | None] = {}
    number = 0
    for shown in message.versions:
        number = transcript.public_state(message.id, *public_words(shown)) or number
        if number:
            states[number] = picture_version(report.emulator, shown)
    return states


def test_demo_hand_messages_show_only_sams_cards(report: DemoReport) -> None:
    sam = report.emulator.user(PLAYER_NAME)
    replays = {t.id: Replay.of(t) for t in report.tables}
    checked = 0
    for message in sam.own_ephemerals:
        for shown in message.versions:
            ids = [parse_game_action(str(c.get("custom_id"))) for c in flat(shown.components)]
            drawn = next((p for p in ids if p is not None), None)
            if drawn is None or drawn.table_id not in replays:
                continue
            replay = replays[drawn.table_id]
            seat = replay.table.seat_of(sam.id)
            # The manilhas' names with their cards (issue 30) say nothing of anyone's hand.
            words = without_manilhas(shown_text(shown))
            texts = [shown.content, words] + [str(c.get("label")) for c in flat(shown.components)]
            cards = set().union(*(cards_in_text(t) for t in texts))
            assert not cards & replay.secret(drawn.version, seat), shown.content
            checked += 1
    assert checked > 5


# --- the transcript's flattening, on its own ----------------------------------------------------


def test_plain_resolves_mentions_and_drops_markdown() -> None:
    names = {42: "Sam"}
    assert plain("<@42>: your turn to play.", names) == "@Sam: your turn to play."
    assert plain("**Team 2** (A & B) wins", names) == "Team 2 (A & B) wins"
    assert plain("*The table moved on*", names) == "The table moved on"
    assert plain(r"Bo\_b \*star\*", names) == "Bo_b *star*"
    assert plain("<@7> 2 * 3", names) == "@someone 2 * 3"


def test_log_overlap_finds_the_scrolled_part() -> None:
    assert log_overlap(["a", "b", "c"], ["b", "c", "d"]) == 2
    assert log_overlap(["a", "b"], ["c"]) == 0
    assert log_overlap([], ["a"]) == 0
    assert log_overlap(["a", "a"], ["a", "a", "b"]) == 2


def embed(title: str, footer: str, fields: list[tuple[str, str]]) -> dict[str, Any]:
    return {
        "title": title,
        "footer": {"text": footer},
        "fields": [{"name": n, "value": v} for n, v in fields],
    }


def test_public_state_prints_changes_and_new_events_only() -> None:
    out: list[str] = []
    transcript = Transcript({1: "Sam"}, out.append)
    first = embed(
        "Hand 1", "Table 1 · hand 1", [("Team 1", "Sam\nBot"), (LOG_FIELD, "deal\nBot passes")]
    )
    assert transcript.public_state(9, "<@1>: your turn", [first]) == 1
    assert out[1:] == [
        "── Hand 1 · Table 1 · hand 1 · state 1 ──",
        "@Sam: your turn",
        "  Team 1: Sam; Bot",
        "  + deal",
        "  + Bot passes",
    ]
    assert transcript.public_state(9, "<@1>: your turn", [first]) is None, "an identical state"
    out.clear()
    # The same footer, another state: the states are numbered by what they show.
    second = embed(
        "Hand 1", "Table 1 · hand 1", [("Team 1", "Sam\nBot"), (LOG_FIELD, "Bot passes\nSam")]
    )
    assert transcript.public_state(9, "Bot: your turn", [second]) == 2
    assert out[1:] == ["── Hand 1 · Table 1 · hand 1 · state 2 ──", "Bot: your turn", "  + Sam"]
    out.clear()
    third = embed("Hand 2", "Table 1 · hand 2", [("Team 1", "Sam\nBot"), (LOG_FIELD, "x\ny")])
    assert transcript.public_state(9, "", [third]) == 3
    assert out[1:] == [
        "── Hand 2 · Table 1 · hand 2 · state 3 ──",
        "  Team 1: Sam; Bot",
        "  …",
        "  + x",
        "  + y",
    ]
    assert transcript.public_state(8, "", [third]) == 1, "each message counts its own states"
    header = HEADER.match("── Hand 2 · Table 1 · hand 2 · state 3 ──")
    assert header is not None and header.groups() == ("1", "3")
    lobby = HEADER.match("── Euchre table · Table 12 · state 1 ──")
    assert lobby is not None and lobby.groups() == ("12", "1")
