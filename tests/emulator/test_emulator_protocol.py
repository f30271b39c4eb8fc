"""The emulator speaks REST v10 and the Gateway as Discord does, to an unmodified client."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest
from discord.http import Route

from emulator import Emulator, pointed_at
from emulator.gateway import HEARTBEAT, HEARTBEAT_ACK, HELLO, IDENTIFY, INVALID_SESSION, RESUME
from emulator.http import CLIENT_GONE
from tests.support.world import ProbeBot, ProbeFactory, World


async def answer(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("pong", ephemeral=True)


async def test_login_order_then_gateway_handshake(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async with probe_bot(answer):
        paths = [(r.method, r.path.removeprefix("/api/v10")) for r in emulator.requests]
        assert paths[:3] == [
            ("GET", "/users/@me"),
            ("GET", "/oauth2/applications/@me"),
            ("PUT", f"/applications/{emulator.application_id}/guilds/{world.guild.id}/commands"),
        ]
        frames = [(f.direction, f.op, f.event) for f in emulator.gateway.frames]
        assert frames[0] == ("out", HELLO, None)
        assert ("in", IDENTIFY, None) in frames and ("in", HEARTBEAT, None) in frames
        assert ("out", HEARTBEAT_ACK, None) in frames
        events = [e for d, op, e in frames if d == "out" and op == 0]
        assert events[:2] == ["READY", "GUILD_CREATE"]
        identify = next(f.data for f in emulator.gateway.frames if f.op == IDENTIFY)
        assert identify["token"] == emulator.token
        assert identify["intents"] == discord.Intents.default().value


async def test_json_content_type_is_exact_and_ratelimit_headers_are_always_sent(
    emulator: Emulator, world: World
) -> None:
    auth = {"Authorization": f"Bot {emulator.token}"}
    urls = [
        "/users/@me",  # 200
        f"/channels/{world.table.id}/messages/1",  # 404 Unknown Message
        "/no/such/route",  # unhandled
    ]
    async with aiohttp.ClientSession() as session:
        for url in urls:
            async with session.get(emulator.api_base + url, headers=auth) as response:
                assert response.headers["Content-Type"] == "application/json"
                for name in ("Limit", "Remaining", "Reset", "Reset-After", "Bucket"):
                    assert f"X-RateLimit-{name}" in response.headers
                assert response.status < 500
        async with session.get(emulator.api_base + "/users/@me") as response:
            assert response.status == 401  # bot routes need the token
    assert [r.path for r in emulator.unhandled] == ["/api/v10/no/such/route"]
    emulator.unhandled.clear()
    emulator.take_violations(0)


async def test_interaction_envelope_is_complete_with_string_snowflakes(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async with probe_bot(answer):
        await world.alice.slash(world.table, "probe")
    payload = emulator.interactions[0].payload
    for key in (
        "id",
        "application_id",
        "type",
        "token",
        "version",
        "attachment_size_limit",
        "guild_id",
        "guild",
        "channel",
        "channel_id",
        "member",
        "app_permissions",
        "locale",
        "guild_locale",
        "entitlements",
        "authorizing_integration_owners",
        "context",
        "data",
    ):
        assert key in payload, key
    for key in ("id", "application_id", "guild_id", "channel_id", "app_permissions"):
        assert isinstance(payload[key], str), key
    member = payload["member"]
    assert {"id", "username", "discriminator", "avatar"} <= set(member["user"])
    assert member["roles"] == [] and member["flags"] == 0
    assert isinstance(member["permissions"], str)
    assert payload["locale"] == "en-US" and payload["data"]["name"] == "probe"
    assert payload["channel"]["id"] == str(world.table.id)


async def test_locales_reach_the_bot(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    seen: list[str] = []

    async def record_locale(interaction: discord.Interaction) -> None:
        seen.append(str(interaction.locale))
        await interaction.response.send_message("ok", ephemeral=True)

    async with probe_bot(record_locale):
        for person in world.players:
            await person.slash(world.table, "probe")
    assert seen == ["en-US", "pt-BR", "fr", "en-GB"]


async def test_resume_is_answered_invalid_session_and_the_bot_identifies_again(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async with probe_bot(answer) as bot:
        first_session = bot.ws.session_id
        await emulator.gateway.drop()
        await emulator.wait_connected(sessions=2)
        ops_in = [(f.session, f.op) for f in emulator.gateway.frames if f.direction == "in"]
        resume = [f for f in emulator.gateway.frames if f.op == RESUME]
        assert resume and resume[0].data["session_id"] == first_session
        invalid = [f for f in emulator.gateway.frames if f.op == INVALID_SESSION]
        assert invalid and invalid[0].data is False and invalid[0].session == resume[0].session
        assert (3, IDENTIFY) in ops_in  # a fresh connection, a fresh IDENTIFY
        assert len(emulator.gateway.sessions) == 3
        reply = await world.alice.slash(world.table, "probe")  # and it still works
        assert reply.content == "pong"


async def test_an_unhandled_request_is_recorded_and_fails_the_test(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async with probe_bot(answer) as bot:
        with pytest.raises(discord.NotFound):
            await bot.http.request(Route("GET", "/guilds/{guild_id}/bans", guild_id=world.guild.id))
    [record] = emulator.unhandled
    assert record.method == "GET" and record.path.endswith("/bans") and record.status == 404
    with pytest.raises(AssertionError, match="unhandled request: GET"):
        emulator.assert_clean()
    emulator.unhandled.clear()


async def test_a_wrong_token_fails_login(emulator: Emulator, world: World) -> None:
    client = discord.Client(intents=discord.Intents.default())
    with pointed_at(emulator):
        try:
            with pytest.raises(discord.LoginFailure):
                await client.login("not-the-token")
        finally:
            await client.close()
    assert [v.status for v in emulator.take_violations(0)] == [401]


async def test_privileged_intents_are_refused_at_identify(emulator: Emulator, world: World) -> None:
    intents = discord.Intents.default()
    intents.members = True
    bot = ProbeBot(world.guild.id, answer, intents=intents)
    from emulator import run_client

    with pytest.raises(discord.PrivilegedIntentsRequired):
        async with run_client(emulator, bot):
            pass
    assert emulator.gateway.ready_count == 0


async def test_an_emulator_bug_is_a_400_and_fails_the_test(
    emulator: Emulator, world: World, probe_bot: ProbeFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    async def send(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok", ephemeral=True)
        assert interaction.channel is not None
        await interaction.channel.send("public")  # type: ignore[union-attr]

    emulator.response_deadline = 0.2
    async with probe_bot(send) as bot:
        monkeypatch.setattr(emulator.message_service, "create", broken)
        inter = await world.alice.send_slash(world.table, "probe")
        await bot.handled()
        await inter.wait_settled()
    [error] = bot.errors
    assert error.status == 400  # never a 5xx: discord.py would retry it
    assert inter.failed  # the response never got through, so the user saw the failure
    assert any("boom" in e for e in emulator.internal_errors)
    emulator.internal_errors.clear()
    emulator.take_violations()


async def test_public_messages_are_echoed_on_the_gateway_and_ephemerals_never(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async def both(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("secret", ephemeral=True)
        assert interaction.channel is not None
        await interaction.channel.send("for everyone")  # type: ignore[union-attr]

    async with probe_bot(both) as bot:
        waiter = bot.loop.create_task(bot.wait_for("message", timeout=5))
        await world.alice.slash(world.table, "probe")
        echoed = await waiter
    assert echoed.content == "for everyone" and echoed.author == bot.user
    creates = [f.data for f in emulator.gateway.frames if f.event == "MESSAGE_CREATE"]
    assert [c["content"] for c in creates] == ["for everyone"]
    assert creates[0]["guild_id"] == str(world.guild.id) and "member" in creates[0]


async def test_user_messages_reach_the_bot_without_content(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async with probe_bot(answer) as bot:
        waiter = bot.loop.create_task(bot.wait_for("message", timeout=5))
        await world.bob.say(world.table, "hello bot")
        message = await waiter
    # No message-content intent: Discord blanks what other people write.
    assert message.content == "" and message.author.id == world.bob.id
    assert world.table.messages[0].content == "hello bot"  # people still see it


async def test_a_client_killed_mid_upload_is_no_emulator_error(
    emulator: Emulator, world: World
) -> None:
    """A bot process SIGKILLed while it uploads a table picture: the emulator reads half a
    multipart body, then the connection is gone. That request did not happen (status 499);
    it is neither an emulator error nor a Discord rule broken."""
    boundary = "cut-here"
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="files[0]"; '
            'filename="table.png"\r\nContent-Type: image/png\r\n\r\n'
        ).encode()
        + b"\x89PNG"
        + b"\0" * 1000
    )
    path = f"{emulator.api_base.removeprefix(emulator.url)}/channels/{world.table.id}/messages"
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bot {emulator.token}\r\n"
        f"Content-Type: multipart/form-data; boundary={boundary}\r\n"
        f"Content-Length: {len(body) + 50_000}\r\n\r\n"
    ).encode()
    reader, writer = await asyncio.open_connection("127.0.0.1", emulator.port)
    writer.write(head + body)
    await writer.drain()
    await asyncio.sleep(0.2)  # the emulator is now waiting for the rest of the body
    writer.transport.abort()  # a killed process: the connection is reset, not closed
    await emulator.wait_for(
        lambda: any(r.status == CLIENT_GONE for r in emulator.requests) or None, timeout=5
    )
    assert not emulator.internal_errors
    del reader
