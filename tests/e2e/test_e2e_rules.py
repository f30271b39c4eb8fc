"""End to end: the real, unmodified bot against the Discord emulator (real HTTP and websocket)."""

from __future__ import annotations

from bot.client import CardTableBot
from emulator import Emulator
from tests.support.world import World


async def test_synced_commands_match_the_bot_tree(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    synced = {c["name"]: c for c in emulator.commands.registered(world.guild.id)}
    assert "rules" in synced and "sync" in synced
    local = {c.name for c in running_bot.tree.get_commands(guild=world.guild)}
    assert set(synced) == local
    rules = synced["rules"]
    assert rules["type"] == 1 and rules["guild_id"] == str(world.guild.id)
    [game] = rules["options"]
    assert game["name"] == "game" and game["type"] == 3 and game["required"] is True
    assert [c["value"] for c in game["choices"]] == ["euchre", "truco"]
    assert synced["sync"]["options"][0]["name"] == "scope"
    # Development start-up syncs to DEV_GUILD_ID only, never globally.
    assert emulator.commands.registered(None) == []
    assert not emulator.requests_to("PUT", f"/applications/{emulator.application_id}/commands")


async def test_rules_euchre_is_ephemeral_and_only_the_caller_sees_it(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    reply = await world.alice.slash(world.table, "rules", game="euchre")
    assert reply.ephemeral and reply.ephemeral_for is world.alice
    assert reply.embed is not None and reply.embed["title"] == "Euchre"
    assert "trump" in reply.text.lower()
    assert world.alice.ephemerals == [reply]
    assert world.bob.ephemerals == [] and not world.bob.sees(reply)
    assert reply not in world.bob.visible_messages(world.table)
    assert world.table.messages == []  # nothing public
    [inter] = emulator.interactions
    assert inter.response_type == 4 and inter.ack_latency is not None


async def test_rules_truco_answers_in_the_callers_channel_only(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    reply = await world.bob.slash(world.table, "rules", game="truco")
    assert reply.ephemeral and reply.embed is not None
    assert reply.embed["title"] == "Truco Mineiro"
    assert "truco" in reply.text.lower()
    assert world.bob.sees(reply) and not world.alice.sees(reply)
    assert world.alice.visible_messages(world.table) == []


async def test_rules_from_a_dm_after_the_owner_syncs_globally(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    # A DM only offers global commands: the owner publishes them with /sync scope:global.
    done = await emulator.owner.slash(world.table, "sync", scope="global")
    assert done.ephemeral and "Synced" in done.content
    assert {c["name"] for c in emulator.commands.registered(None)} >= {"rules", "sync"}

    reply = await world.carol.slash(world.carol.dm, "rules", game="truco")
    assert reply.ephemeral and reply.channel is world.carol.dm
    assert reply.embed is not None and reply.embed["title"] == "Truco Mineiro"
    [inter] = [i for i in emulator.interactions if i.channel is world.carol.dm]
    assert "guild_id" not in inter.payload and inter.payload["user"]["id"] == str(world.carol.id)
    assert inter.payload["context"] == 1


async def test_sync_is_refused_to_someone_who_is_not_the_owner(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    reply = await world.dave.slash(world.table, "sync", scope="global")
    assert reply.ephemeral and "owner" in reply.content.lower()
    assert emulator.commands.registered(None) == []


async def test_a_mention_of_the_bot_is_harmless(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    await world.alice.say(world.table, f"{emulator.bot.mention} hello")
    reply = await world.alice.slash(world.table, "rules", game="euchre")  # the bot read both
    assert reply.embed is not None
    assert emulator.take_bot_errors() == []


async def test_rules_from_a_table_use_its_options(
    emulator: Emulator, world: World, running_bot: CardTableBot
) -> None:
    # Issue 21 item 8: at a table played to 6, /rules truco must not say "First pair to 12".
    await world.alice.slash(world.table, "truco new", target=6, coberta=True)
    reply = await world.dave.slash(world.table, "rules", game="truco")
    assert reply.embed is not None
    assert "**6** points" in reply.text and "**12** points" not in reply.text
    assert "exactly 4" in reply.text  # the mão de dez comes at target - 2
    assert "coberta" in reply.text.lower() and "This table plays with coberta" in reply.text
    # Elsewhere (no table in the channel), the seed's game.
    plain = await world.dave.slash(world.guild.add_channel("other"), "rules", game="truco")
    assert plain.embed is not None and "**12** points" in plain.text
    assert "This table plays with coberta" not in plain.text
