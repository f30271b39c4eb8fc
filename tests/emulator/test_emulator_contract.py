"""The emulator holds to Discord's OpenAPI description (tests/data/discord-openapi): its answers
fit the spec (the ones Discord never sends are gone), it refuses what Discord refuses
(allowed_mentions, 10 files, the request size), and the contract check itself can fail."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord

from emulator import Emulator
from tests.support.openapi import ACCEPTED, Contract
from tests.support.world import ProbeFactory, World


async def send(emulator: Emulator, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {emulator.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, f"{emulator.api_base}{path}", json=body, headers=headers) as r,
    ):
        return r.status, (await r.json() if r.status != 204 else None)


def errors_of(emulator: Emulator, method: str, part: str) -> list[str]:
    return Contract().traffic_errors(emulator.requests_to(method, part))


async def test_the_application_and_command_answers_fit_the_spec(
    emulator: Emulator, world: World
) -> None:
    status, app = await send(emulator, "GET", "/oauth2/applications/@me")
    assert status == 200 and app["flags_new"] and "explicit_content_filter" in app
    commands = [{"name": "euchre", "description": "Play", "integration_types": None}]
    path = f"/applications/{emulator.application_id}/commands"
    status, stored = await send(emulator, "PUT", path, commands)
    assert status == 200 and stored[0]["integration_types"] == [0]
    assert errors_of(emulator, "GET", "/oauth2/") == []
    assert errors_of(emulator, "PUT", "/commands") == []


async def test_a_button_emoji_id_is_echoed_as_a_string(emulator: Emulator, world: World) -> None:
    emoji = {"id": "1", "name": "card_JH"}
    emulator.application_emojis[1] = {**emoji, "animated": False, "available": True}
    button = {"type": 2, "style": 2, "custom_id": "x", "emoji": {"id": 1, "name": "card_JH"}}
    body = {"content": "hi", "components": [{"type": 1, "components": [button]}]}
    status, message = await send(emulator, "POST", f"/channels/{world.table.id}/messages", body)
    assert status == 200
    assert message["components"][0]["components"][0]["emoji"]["id"] == "1"
    assert errors_of(emulator, "POST", "/messages") == []


async def test_a_deferred_callback_answer_carries_no_message(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async def handler(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await interaction.followup.send("done")

    async with probe_bot(handler) as bot:
        await world.alice.slash(world.table, "probe")
        await bot.handled()
    (callback,) = emulator.requests_to("POST", "/callback")
    assert callback.response is not None and "resource" not in callback.response
    assert errors_of(emulator, "POST", "/callback") == []


async def test_a_429_body_carries_a_code(emulator: Emulator, world: World) -> None:
    emulator.set_rate_limits(True, limit=1, per=5.0)
    path = f"/channels/{world.table.id}/messages"
    await send(emulator, "POST", path, {"content": "a"})
    status, body = await send(emulator, "POST", path, {"content": "b"})
    assert status == 429 and body["code"] == 0 and body["global"] is False
    assert errors_of(emulator, "POST", "/messages") == []


async def test_allowed_mentions_parse_and_ids_are_exclusive(
    emulator: Emulator, world: World
) -> None:
    body = {"content": "hi", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}
    status, answer = await send(emulator, "POST", f"/channels/{world.table.id}/messages", body)
    assert status == 400 and answer["code"] == 50035
    assert "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE" in str(answer["errors"])
    body = {"content": "hi", "allowed_mentions": {"parse": ["nobody"]}}
    status, _ = await send(emulator, "POST", f"/channels/{world.table.id}/messages", body)
    assert status == 400
    assert len(emulator.take_violations(50035)) == 2


async def test_eleven_files_or_a_too_large_request_are_refused(
    emulator: Emulator, world: World
) -> None:
    url = f"{emulator.api_base}/channels/{world.table.id}/messages"
    headers = {"Authorization": f"Bot {emulator.token}"}

    async def post_files(sizes: list[int]) -> int:
        form = aiohttp.FormData()
        form.add_field("payload_json", '{"content": "files"}', content_type="application/json")
        for n, size in enumerate(sizes):
            form.add_field(f"files[{n}]", b"x" * size, filename=f"f{n}.txt")
        async with (
            aiohttp.ClientSession() as session,
            session.post(url, data=form, headers=headers) as r,
        ):
            return r.status

    assert await post_files([1] * 10) == 200
    assert await post_files([1] * 11) == 400
    assert await post_files([9 * 1024 * 1024] * 3) == 413  # each under 10 MiB, 27 MiB in all
    emulator.take_violations()


def test_the_contract_check_can_fail() -> None:
    contract = Contract()
    button = {"type": 2, "style": 2, "custom_id": "x", "emoji": {"id": 5, "name": "e"}}
    message: dict[str, Any] = {"components": [{"type": 1, "id": 1, "components": [button]}]}
    found = contract.response_errors("GET", "/api/v10/channels/1/messages/2", 200, message)
    assert any("required property missing" in e for e in found)
    assert any("emoji.id: expected string" in e for e in found)
    assert contract.request_errors("GET", "/api/v10/nowhere", None) != []
    deferred = {"interaction": {"id": "1", "type": 2}, "resource": {"type": 5, "message": {}}}
    assert (
        contract.response_errors("POST", "/api/v10/interactions/1/t/callback", 200, deferred) != []
    )
    assert contract.response_errors(
        "GET", "/api/v10/users/@me", 429, {"message": "slow", "retry_after": 1, "global": False}
    ) == ["GET /users/@me 429 response.code: required property missing"]
    # A snowflake sent as an integer is one of the listed places where Discord is laxer.
    request = {"content": "x", "allowed_mentions": {"users": [5]}}
    assert contract.request_errors("POST", "/api/v10/channels/1/messages", request) == []
    assert all(rule.reason for rule in ACCEPTED)
