"""Application commands: Discord's validation on sync, the daily creation quota, and what a
user can invoke (registered commands only, with valid options)."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands

from emulator import Emulator, EmulatorUsageError
from emulator.errors import INVALID_FORM_BODY, MAX_DAILY_COMMAND_CREATES
from tests.support.world import ProbeFactory, World


def command(name: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": "A command.", "type": 1, **extra}


def option(name: str, required: bool = False, **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": "An option.", "type": 3, "required": required, **extra}


async def answer(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("ok", ephemeral=True)


BAD_SYNCS = {
    "upper-case name": ([command("Rules")], "Command name is invalid"),
    "name of 33": ([command("r" * 33)], "Must be between 1 and 32 in length."),
    "empty description": ([command("rules", description="")], "Must be between 1 and 100"),
    "description of 101": ([command("rules", description="d" * 101)], "between 1 and 100"),
    "26 options": ([command("rules", options=[option(f"o{n}") for n in range(26)])], "25 or fewer"),
    "26 choices": (
        [
            command(
                "rules",
                options=[
                    option("game", choices=[{"name": f"c{n}", "value": f"c{n}"} for n in range(26)])
                ],
            )
        ],
        "25 or fewer",
    ),
    "required after optional": (
        [command("rules", options=[option("a"), option("b", required=True)])],
        "Required options must be placed before non-required options",
    ),
    "duplicate names": ([command("rules"), command("rules")], "must be unique"),
    "unknown locale": (
        [command("rules", name_localizations={"pt-PT": "regras"})],
        "not a valid locale",
    ),
    "upper-case localized name": (
        [command("rules", name_localizations={"pt-BR": "Regras"})],
        "lower case letters",
    ),
    "localized name too long": (
        [command("rules", name_localizations={"fr": "r" * 33})],
        "between 1 and 32",
    ),
    "localized description too long": (
        [command("rules", description_localizations={"hi": "x" * 101})],
        "between 1 and 100",
    ),
    "empty localized option description": (
        [command("rules", options=[option("game", description_localizations={"tr": ""})])],
        "between 1 and 100",
    ),
    "localized choice too long": (
        [
            command(
                "rules",
                options=[
                    option(
                        "game",
                        choices=[
                            {"name": "a", "value": "a", "name_localizations": {"es-ES": "y" * 101}}
                        ],
                    )
                ],
            )
        ],
        "between 1 and 100",
    ),
}


@pytest.mark.parametrize("case", list(BAD_SYNCS))
async def test_an_invalid_command_sync_is_refused(
    emulator: Emulator, world: World, probe_bot: ProbeFactory, case: str
) -> None:
    commands, expected = BAD_SYNCS[case]
    async with probe_bot(answer) as bot:
        with pytest.raises(discord.HTTPException) as raised:
            await bot.http.bulk_upsert_guild_commands(
                emulator.application_id, world.guild.id, commands
            )
    assert raised.value.code == INVALID_FORM_BODY and expected in str(raised.value)
    assert [c["name"] for c in emulator.commands.registered(world.guild.id)] == ["probe"]
    assert len(emulator.take_violations(INVALID_FORM_BODY)) == 1


async def test_200_command_creations_a_day_then_30034(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    def batch(prefix: str, size: int = 100) -> list[dict[str, Any]]:
        return [command(f"{prefix}{n}") for n in range(size)]

    async with probe_bot(answer) as bot:
        upsert = bot.http.bulk_upsert_guild_commands
        app, guild = emulator.application_id, world.guild.id
        first = await upsert(app, guild, batch("a", 99))  # with /probe: 100 creations
        again = await upsert(app, guild, batch("a", 99))  # unchanged names are not creations
        assert [c["id"] for c in first] == [c["id"] for c in again]
        await upsert(app, guild, batch("b"))  # 200 creations today
        with pytest.raises(discord.HTTPException) as raised:
            await upsert(app, guild, batch("c", 1))
        assert raised.value.code == MAX_DAILY_COMMAND_CREATES
        emulator.clock.advance(24 * 3600 + 1)
        await upsert(app, guild, batch("c", 1))
    assert len(emulator.take_violations(MAX_DAILY_COMMAND_CREATES)) == 1


async def test_syncing_to_a_guild_without_the_bot_is_missing_access(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async with probe_bot(answer) as bot:
        with pytest.raises(discord.Forbidden):
            await bot.tree.sync(guild=discord.Object(id=1234))
    assert len(emulator.take_violations(50001)) == 1


async def test_users_invoke_only_registered_commands_with_valid_options(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    async with probe_bot(answer):
        with pytest.raises(EmulatorUsageError, match="not a command Discord knows"):
            await world.alice.slash(world.table, "rules", game="euchre")
        with pytest.raises(EmulatorUsageError, match="has no option"):
            await world.alice.slash(world.table, "probe", game="euchre")
        with pytest.raises(EmulatorUsageError, match="not a command Discord knows in DMs"):
            await world.alice.slash(world.alice.dm, "probe")  # guild commands stay in guilds
        outsider = emulator.add_user("eve")
        with pytest.raises(EmulatorUsageError, match="not a member"):
            await outsider.slash(world.table, "probe")
    assert emulator.interactions == []


class Deal(app_commands.Group):
    """A command group with every option type the emulator can send."""

    def __init__(self, seen: list[dict[str, Any]]) -> None:
        super().__init__(name="deal", description="Deal cards.")
        self.seen = seen

    @app_commands.command(name="hand", description="Deal a hand.")
    @app_commands.describe(
        count="Cards", player="Who", where="Channel", fast="Fast?", speed="Speed", game="Game"
    )
    async def hand(
        self,
        interaction: discord.Interaction,
        count: app_commands.Range[int, 1, 10],
        player: discord.Member,
        where: discord.TextChannel,
        fast: bool = False,
        speed: float = 1.0,
        game: str = "euchre",
    ) -> None:
        self.seen.append(
            {
                "count": count,
                "player": player.id,
                "where": where.id,
                "fast": fast,
                "speed": speed,
                "game": game,
            }
        )
        await interaction.response.send_message("dealt", ephemeral=True)


async def test_options_of_every_supported_type_and_subcommands(
    emulator: Emulator, world: World, probe_bot: ProbeFactory
) -> None:
    seen: list[dict[str, Any]] = []

    async def unused(interaction: discord.Interaction) -> None:
        raise AssertionError

    async with probe_bot(unused) as bot:
        bot.tree.add_command(Deal(seen), guild=world.guild)
        await bot.tree.sync(guild=world.guild)
        reply = await world.alice.slash(
            world.table,
            "deal hand",
            count=5,
            player=world.bob,
            where=world.table,
            fast=True,
            speed=2.5,
        )
        with pytest.raises(EmulatorUsageError, match="max_value"):
            await world.alice.slash(
                world.table, "deal hand", count=11, player=world.bob, where=world.table
            )
        with pytest.raises(EmulatorUsageError, match="needs options"):
            await world.alice.slash(world.table, "deal hand", count=3)
        with pytest.raises(EmulatorUsageError, match="needs a subcommand"):
            await world.alice.slash(world.table, "deal")
    assert reply.content == "dealt"
    assert seen == [
        {
            "count": 5,
            "player": world.bob.id,
            "where": world.table.id,
            "fast": True,
            "speed": 2.5,
            "game": "euchre",
        }
    ]
