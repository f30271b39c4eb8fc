"""What the bot relies on below discord.py's documented API, pinned
(bot/ui/kit/discord_internals.py).

After a discord.py upgrade this file fails first, and each test names the internal that moved:
the version range, the parameter builders and their payloads, the routes, the webhook adapter
and the HTTP client (driven against a local HTTP server standing in for Discord), the
interaction's answered-flag, the view protocol, the stored-view key and the DynamicItem
templates. It also checks that nothing else in bot/ or cogs/ touches discord.py's private API.
"""

from __future__ import annotations

import ast
import inspect
import io
import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import discord
import discord.gateway
import discord.http
import pytest
from aiohttp import web
from discord.ui.view import BaseView

from bot.ui.kit import discord_internals as internals
from bot.ui.kit.components import Buttons
from bot.ui.kit.custom_ids import GAME_ACTION_TEMPLATE, TABLE_BUTTON_TEMPLATE
from bot.ui.kit.message_parts import MessageParts, detach
from bot.ui.table.buttons import DYNAMIC_ITEMS, GameActionButton, TableButton

ROOT = Path(__file__).resolve().parents[2]
INTERNALS = ROOT / "bot" / "ui" / "kit" / "discord_internals.py"


def parts_with_buttons() -> tuple[MessageParts, Buttons]:
    buttons = Buttons()
    buttons.add("tb:7:join", label="Join", style=discord.ButtonStyle.success)
    buttons.add("tb:7:seat:2", label="Seat 3", row=1)
    embed = discord.Embed(title="Euchre", description="Waiting for players")
    return MessageParts(content="hello", embed=embed, view=buttons), buttons


# --- the version -------------------------------------------------------------------------------


def test_discord_py_is_a_version_these_internals_were_checked_against() -> None:
    low, high = internals.TESTED_VERSIONS
    info = discord.version_info
    installed = (info.major, info.minor, info.micro)
    assert low <= installed < high, (
        f"discord.py {discord.__version__} is outside the tested range {low}..{high}: re-check "
        "every pin of this file, then widen TESTED_VERSIONS in bot/ui/kit/discord_internals.py"
    )
    locked = re.search(
        r"^discord\.py==(\d+)\.(\d+)\.(\d+)$",
        (ROOT / "requirements.lock").read_text(encoding="utf-8"),
        re.MULTILINE,
    )
    assert locked is not None
    assert low <= tuple(int(part) for part in locked.groups()) < high


# --- parameter builders --------------------------------------------------------------------------


def test_message_params_write_what_discord_py_itself_would_send() -> None:
    parts, buttons = parts_with_buttons()
    with internals.message_params(
        previous_allowed_mentions=discord.AllowedMentions.none(), **parts.kwargs()
    ) as params:
        assert not params.files and not params.multipart
        assert params.payload is not None
        assert params.payload["content"] == "hello"
        assert parts.embed is not None
        assert params.payload["embeds"] == [parts.embed.to_dict()]
        assert params.payload["components"] == buttons.to_components()
        assert "flags" not in params.payload  # not a components-v2 message
        assert params.payload["allowed_mentions"] == discord.AllowedMentions.none().to_dict()


def test_message_params_carry_the_table_picture_as_a_multipart_file() -> None:
    parts, _ = parts_with_buttons()
    parts.files = [discord.File(io.BytesIO(b"\x89PNG"), filename="table.png")]
    with internals.message_params(**parts.kwargs()) as params:
        assert params.files == parts.files
        assert params.multipart is not None
        body = json.loads(params.multipart[0]["value"])
        assert body["attachments"] == [{"id": 0, "filename": "table.png"}]
        assert params.multipart[1]["filename"] == "table.png"


def test_click_update_params_wrap_the_message_in_an_update_callback() -> None:
    parts, buttons = parts_with_buttons()
    kind = discord.InteractionResponseType.message_update
    with internals.click_update_params(
        type=kind.value, previous_allowed_mentions=None, **parts.kwargs()
    ) as params:
        assert params.payload is not None
        assert params.payload["type"] == 7
        assert params.payload["data"]["content"] == "hello"
        assert params.payload["data"]["components"] == buttons.to_components()


def test_response_params_are_the_bare_callback_type() -> None:
    kind = discord.InteractionResponseType.deferred_message_update
    params = internals.response_params(kind.value)
    assert params.payload == {"type": 6}
    assert params.files is None and params.multipart is None


# --- routes and requests, against a stand-in for Discord -----------------------------------------


def test_routes_name_discord_paths() -> None:
    base = discord.http.Route.BASE
    callback = internals.callback_route(11, "tok")
    assert (callback.method, callback.url) == ("POST", f"{base}/interactions/11/tok/callback")
    original = internals.webhook_message_route(22, "tok", None)
    assert (original.method, original.url) == (
        "PATCH",
        f"{base}/webhooks/22/tok/messages/@original",
    )
    followup = internals.followup_route(22, "tok")
    assert (followup.method, followup.url) == ("POST", f"{base}/webhooks/22/tok")
    by_id = internals.webhook_message_route(22, "tok", 33)
    assert by_id.url == f"{base}/webhooks/22/tok/messages/33"


USER = {"id": "33", "username": "ann", "discriminator": "0", "avatar": None}


def reply(data: dict[str, Any]) -> web.Response:
    # Exactly Discord's content type: discord.py parses nothing else as JSON.
    return web.Response(body=json.dumps(data).encode(), content_type="application/json")


@dataclass
class FakeDiscord:
    """A local HTTP server answering the four requests the bot makes around discord.py, as
    Discord does (204 for a callback without `with_response`; a message for the others)."""

    base: str = ""
    seen: list[tuple[str, str, Any]] = field(default_factory=list)
    queries: list[dict[str, str]] = field(default_factory=list)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        if request.content_type == "application/json":
            body: Any = await request.json()
        else:
            body = request.content_type
        self.seen.append((request.method, request.path, body))
        self.queries.append(dict(request.query))
        if request.path.endswith("/callback"):
            return web.Response(status=204)
        if request.path.endswith("/users/@me"):
            return reply(USER)
        return reply({"id": "555", "channel_id": "44", "content": "x"})


@pytest.fixture
async def fake_discord(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", fake.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    fake.base = f"http://127.0.0.1:{port}/api/v10"
    # As the emulator's harness does: discord.py builds every URL from this class attribute.
    monkeypatch.setattr(discord.http.Route, "BASE", fake.base)
    try:
        yield fake
    finally:
        await runner.cleanup()


@pytest.fixture
async def client(fake_discord: FakeDiscord) -> AsyncIterator[discord.Client]:
    """A real client logged in to the stand-in (its HTTP layer only: no gateway)."""
    client = discord.Client(intents=discord.Intents.none())
    await client.http.static_login("token")
    client._connection.application_id = 22  # what the gateway's READY would set
    fake_discord.seen.clear()
    try:
        yield client
    finally:
        await client.close()


def click(client: discord.Client) -> discord.Interaction[Any]:
    """A component interaction as discord.py parses it from the gateway."""
    data: Any = {
        "id": "11",
        "type": 3,
        "token": "tok",
        "version": 1,
        "application_id": "22",
        "attachment_size_limit": 8 << 20,
        "locale": "en-US",
        "data": {"custom_id": "tb:7:join", "component_type": 2},
        "user": USER,
    }
    return discord.Interaction(data=data, state=client._connection)


async def test_the_http_client_keeps_its_session_where_interactions_take_it(
    client: discord.Client,
) -> None:
    interaction = click(client)
    session = internals.http_session(internals.http_of(client))
    assert isinstance(session, aiohttp.ClientSession)
    assert interaction._session is session  # discord.py copies the mangled attribute too
    assert interaction.client is client


async def test_a_callback_is_posted_and_the_interaction_counts_as_answered(
    fake_discord: FakeDiscord, client: discord.Client
) -> None:
    interaction = click(client)
    kind = discord.InteractionResponseType.deferred_message_update
    await internals.post_callback(interaction, internals.response_params(kind.value))
    assert fake_discord.seen == [("POST", "/api/v10/interactions/11/tok/callback", {"type": 6})]
    assert not interaction.response.is_done()
    internals.mark_answered(interaction.response, kind)
    assert interaction.response.is_done()
    assert interaction.response.type is kind


async def test_a_callback_with_a_picture_goes_as_multipart(
    fake_discord: FakeDiscord, client: discord.Client
) -> None:
    parts, _ = parts_with_buttons()
    parts.files = [discord.File(io.BytesIO(b"\x89PNG"), filename="table.png")]
    with internals.click_update_params(type=7, **parts.kwargs()) as params:
        await internals.post_callback(click(client), params)
    assert fake_discord.seen == [
        ("POST", "/api/v10/interactions/11/tok/callback", "multipart/form-data")
    ]


async def test_webhook_and_channel_messages_are_edited_and_sent(
    fake_discord: FakeDiscord, client: discord.Client
) -> None:
    parts, buttons = parts_with_buttons()
    with internals.message_params(**parts.kwargs()) as params:
        await internals.edit_webhook_message(client, "tok", None, params)
        await internals.edit_webhook_message(client, "tok", 66, params)
        await internals.edit_channel_message(client, 44, 77, params)
    with internals.message_params(content="your turn") as params:
        new_id = await internals.send_channel_message(client, 44, params)
    assert new_id == 555
    with internals.message_params(**parts.kwargs()) as params:
        followup_id = await internals.send_followup(client, "tok", params)
    assert followup_id == 555
    assert [(method, path) for method, path, _ in fake_discord.seen] == [
        ("PATCH", "/api/v10/webhooks/22/tok/messages/@original"),
        ("PATCH", "/api/v10/webhooks/22/tok/messages/66"),
        ("PATCH", "/api/v10/channels/44/messages/77"),
        ("POST", "/api/v10/channels/44/messages"),
        ("POST", "/api/v10/webhooks/22/tok"),  # a follow-up, ?wait=true: Discord sends it back
    ]
    assert fake_discord.seen[0][2]["components"] == buttons.to_components()
    assert fake_discord.seen[3][2]["content"] == "your turn"
    assert fake_discord.seen[4][2]["components"] == buttons.to_components()
    assert fake_discord.queries[-1] == {"wait": "true"}


# --- views and DynamicItems --------------------------------------------------------------------


def test_a_raw_view_answers_every_question_discord_py_asks_a_view() -> None:
    # The marker discord.py's send paths check, and the methods they call on a sent view.
    assert BaseView.__discord_ui_view__ is False and discord.ui.View.__discord_ui_view__ is True
    for path in (
        discord.abc.Messageable.send,
        discord.Webhook.send,
        discord.Webhook.edit_message,
    ):
        assert "__discord_ui_view__" in inspect.getsource(path), path
    view = discord.ui.View
    for name in ("to_components", "has_components_v2", "is_finished", "is_dispatchable"):
        assert callable(getattr(view, name)), name
        assert callable(getattr(internals.RawView, name)), name
    assert "timeout" in dir(view)
    raw = Buttons()
    assert raw.__discord_ui_view__ and raw.timeout is None
    assert raw.is_finished() and not raw.is_dispatchable() and not raw.has_components_v2()


async def test_a_view_is_stored_under_a_message_id_and_detach_lets_it_go(
    client: discord.Client,
) -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(GameActionButton("t:7:1:play:AS", label="A♠"))
    assert not internals.is_stored_view(view)
    client._connection.store_view(view, 88)
    assert internals.is_stored_view(view)
    assert not internals.is_stored_view(Buttons()) and not internals.is_stored_view(None)
    detach(view)
    assert view.is_finished()


async def test_a_sent_modal_is_held_by_its_custom_id_until_it_stops(
    client: discord.Client,
) -> None:
    # issue 32: a Cut modal's submit with no live modal is answered by its custom_id.
    modal = discord.ui.Modal(title="Cut", custom_id="fd:7:cut:42")
    assert not internals.has_live_modal(client, "fd:7:cut:42")
    client._connection.store_view(modal)
    assert internals.has_live_modal(client, "fd:7:cut:42")
    assert not internals.has_live_modal(client, "fd:7:cut:43")  # one per person
    client._connection._view_store.remove_view(modal)
    assert not internals.has_live_modal(client, "fd:7:cut:42")


def test_dynamic_item_templates_are_read_from_their_classes() -> None:
    assert internals.template_of(GameActionButton).pattern == GAME_ACTION_TEMPLATE
    assert internals.template_of(TableButton).pattern == TABLE_BUTTON_TEMPLATE
    for item in DYNAMIC_ITEMS:
        instance = item("t:7:1:play:AS" if item is GameActionButton else "tb:7:join")
        assert internals.template_of(item) is instance.template


def test_the_emulator_can_still_point_discord_py_at_itself() -> None:
    # The test instrument's two class attributes (emulator/harness.py).
    assert isinstance(discord.http.Route.BASE, str)
    assert discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY is not None


# --- nothing else touches the private API --------------------------------------------------------

PUBLIC_MODULES = {
    "discord",
    "discord.abc",
    "discord.app_commands",
    "discord.ext",
    "discord.ext.commands",
    "discord.ui",
    "discord.utils",
}
# Set by discord.py but not documented: `Client.http`, its HTTP client.
UNDOCUMENTED = {"http"}
# The project's own private attribute, read in a module that also uses discord.
ALLOWED = {"demo.py": {"._seed_source"}}


def private_uses(path: Path, source: str | None = None) -> list[str]:
    """In a module that imports discord: imports of discord modules outside the documented
    ones, reads of another object's private attribute (`x._name`), of discord.py's dunders
    (`x.__discord_..__`) or of `x.http`, and class attributes named like discord.py's dunders.
    Sorted by line."""
    text = path.read_text(encoding="utf-8") if source is None else source
    found: list[tuple[int, str]] = []
    uses_discord = False
    for node in ast.walk(ast.parse(text, filename=str(path))):
        modules: list[str] = []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            modules = [node.module or ""]
        for module in modules:
            if module.split(".")[0] == "discord":
                uses_discord = True
                if module not in PUBLIC_MODULES:
                    found.append((node.lineno, f"imports {module}"))
        if isinstance(node, ast.Attribute):
            name = node.attr
            own = isinstance(node.value, ast.Name) and node.value.id in {"self", "cls"}
            private = name.startswith("_") and not (name.startswith("__") and name.endswith("__"))
            if (private and not own) or name.startswith("__discord") or name in UNDOCUMENTED:
                found.append((node.lineno, f"reads .{name}"))
        if isinstance(node, ast.Name) and node.id.startswith("__discord"):
            found.append((node.lineno, f"defines {node.id}"))
    if not uses_discord:
        return []  # the engine's and storage's own privates are no concern of this test
    return [f"{path.name}:{line} {what}" for line, what in sorted(found)]


def test_only_discord_internals_touches_discord_py_private_api() -> None:
    found = []
    for folder in ("bot", "cogs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == INTERNALS or path.is_relative_to(ROOT / "bot" / "emulator"):
                continue  # the emulator is a test instrument (its two hooks are pinned above)
            allowed = ALLOWED.get(path.name, set())
            found += [use for use in private_uses(path) if use.rsplit(" ", 1)[-1] not in allowed]
    assert found == []
    assert private_uses(INTERNALS), "the scan finds nothing even in discord_internals.py"


def test_the_private_api_scan_would_catch_a_violation() -> None:
    source = (
        "import discord\n"
        "from discord.http import Route\n"
        "import discord.webhook.async_\n"
        "from discord.ext import commands\n"
        "session = interaction._session\n"
        "self._rows = []\n"
        "class V:\n"
        "    __discord_ui_view__ = True\n"
        "pattern = Item.__discord_ui_compiled_template__\n"
        "await client.http.send_message(1, params=params)\n"
    )
    assert private_uses(ROOT / "bot" / "ui" / "probe.py", source) == [
        "probe.py:2 imports discord.http",
        "probe.py:3 imports discord.webhook.async_",
        "probe.py:5 reads ._session",
        "probe.py:8 defines __discord_ui_view__",
        "probe.py:9 reads .__discord_ui_compiled_template__",
        "probe.py:10 reads .http",
    ]
    # Without a discord import the module holds no discord objects.
    assert private_uses(ROOT / "bot" / "ui" / "probe.py", "x = game._hands\n") == []
