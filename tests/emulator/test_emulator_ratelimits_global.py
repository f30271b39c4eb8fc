"""Discord's global rate limit (50 requests/s per bot token; interaction endpoints exempt),
route buckets with counting headers on every route, and the invalid-request ban, all on by
default and timed by the emulator clock (values cited in emulator/ratelimits.py)."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord

from emulator import Emulator
from emulator.ratelimits import BAN_SECONDS, GLOBAL_LIMIT
from tests.support.world import ProbeFactory, World

Answer = tuple[int, dict[str, str], Any]


async def call(
    emulator: Emulator, method: str, path: str, count: int, *, json: Any = None, bot: bool = True
) -> list[Answer]:
    """A raw client that ignores the headers (what discord.py never does)."""
    headers = {"Authorization": f"Bot {emulator.token}"} if bot else {}
    answers: list[Answer] = []
    async with aiohttp.ClientSession() as session:
        for _ in range(count):
            url = f"{emulator.api_base}{path}"
            async with session.request(method, url, json=json, headers=headers) as response:
                body = await response.read()
                parsed = (
                    await response.json()
                    if body and response.content_type.endswith("json")
                    else body
                )
                answers.append((response.status, dict(response.headers), parsed))
    return answers


async def test_the_51st_request_in_a_second_meets_the_global_limit(
    emulator: Emulator, world: World
) -> None:
    # Spread over channels and routes: no route bucket is near its end, only the global one.
    channels = [world.guild.add_channel(f"c{n}") for n in range(3)]
    answers: list[Answer] = []
    for channel, count in zip(channels, (17, 17, 16), strict=True):
        answers += await call(emulator, "GET", f"/channels/{channel.id}", count)
    answers += await call(emulator, "GET", "/users/@me", 1)
    assert [status for status, _, _ in answers[:GLOBAL_LIMIT]] == [200] * GLOBAL_LIMIT
    status, headers, body = answers[GLOBAL_LIMIT]
    assert status == 429
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    assert headers["Via"] and 0 < float(headers["Retry-After"]) <= 1
    assert body["global"] is True and body["code"] == 0 and 0 < body["retry_after"] <= 1
    assert emulator.invalid_request_count == 1
    emulator.clock.advance(1.0)  # the next second has a fresh budget
    assert [s for s, _, _ in await call(emulator, "GET", "/users/@me", 1)] == [200]


async def test_interaction_endpoints_are_not_bound_by_the_global_limit(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    answered: list[str] = []

    async def handler(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        for n in range(4):  # four follow-ups on the interaction webhook
            await interaction.followup.send(f"f{n}", ephemeral=True)
        answered.append("done")

    async with probe_bot(handler) as bot:
        emulator.set_discord_limits(True, global_limit=3)
        spent = await call(emulator, "GET", "/users/@me", 4)
        assert [s for s, _, _ in spent][-1] == 429, "this second's global budget is spent"
        before = len(emulator.requests)
        await world.alice.slash(world.table, "probe")
        await bot.handled()
    exempt = [
        r
        for r in emulator.requests[before:]
        if r.path.startswith(("/api/v10/interactions/", "/api/v10/webhooks/"))
    ]
    assert answered == ["done"] and len(exempt) == 5 and all(r.status == 200 for r in exempt)
    assert not [r for r in emulator.rate_limit_hits if r in exempt]


async def test_every_route_counts_down_its_own_bucket_per_top_level_resource(
    emulator: Emulator, world: World
) -> None:
    other = world.guild.add_channel("other")
    first = await call(emulator, "GET", f"/channels/{world.table.id}", 3)
    second = await call(emulator, "GET", f"/channels/{other.id}", 1)
    remaining = [h["X-RateLimit-Remaining"] for _, h, _ in first]
    assert remaining == ["49", "48", "47"], "Discord's headers count down; they did not"
    assert second[0][1]["X-RateLimit-Remaining"] == "49", "another channel, another bucket"
    assert len({h["X-RateLimit-Bucket"] for _, h, _ in first + second}) == 1
    me = await call(emulator, "GET", "/users/@me", 2)
    assert [h["X-RateLimit-Remaining"] for _, h, _ in me] == ["49", "48"]
    assert me[0][1]["X-RateLimit-Bucket"] != first[0][1]["X-RateLimit-Bucket"]


async def test_a_route_bucket_answers_429_with_user_scope_when_spent(
    emulator: Emulator, world: World
) -> None:
    emulator.set_discord_limits(True, global_limit=1000)
    answers = await call(emulator, "GET", f"/channels/{world.table.id}", 51)
    assert [s for s, _, _ in answers].count(429) == 1 and answers[-1][0] == 429
    assert (
        answers[-1][1]["X-RateLimit-Scope"] == "user" and "X-RateLimit-Global" not in answers[-1][1]
    )
    assert answers[-1][2]["global"] is False and answers[-1][2]["code"] == 0


async def test_too_many_invalid_requests_ban_the_ip_for_a_while(
    emulator: Emulator, world: World
) -> None:
    emulator.set_discord_limits(True, invalid_limit=5)
    refused = await call(emulator, "GET", "/users/@me", 5, bot=False)  # 401 without a token
    assert [s for s, _, _ in refused] == [401] * 5
    assert [v.message for v in emulator.take_violations(0)][-1] == "IP temporarily banned"
    emulator.take_violations()  # the 401s themselves
    banned = await call(emulator, "GET", "/users/@me", 1)
    status, headers, body = banned[0]
    assert status == 429 and "Via" not in headers and body == b"error code: 1015"
    emulator.clock.advance(BAN_SECONDS)
    assert [s for s, _, _ in await call(emulator, "GET", "/users/@me", 1)] == [200]


async def test_limits_can_be_switched_off_for_a_test_that_needs_old_behaviour(
    emulator: Emulator, world: World
) -> None:
    emulator.set_discord_limits(False)
    answers = await call(emulator, "GET", f"/channels/{world.table.id}", 60)
    assert {s for s, _, _ in answers} == {200}
    assert {h["X-RateLimit-Remaining"] for _, h, _ in answers} == {"49"}
