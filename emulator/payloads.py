"""JSON payloads in the exact shape Discord sends: snowflakes as strings, full envelopes."""

from __future__ import annotations

from collections.abc import Sized
from typing import Any, Protocol

from emulator import permissions as perms
from emulator.json_copy import copy_json
from emulator.state import (
    DM,
    Account,
    Channel,
    Guild,
    Interaction,
    Message,
    now_iso,
)


class Application(Protocol):
    """What the application object shows: the bot, its owner, its flags and its guilds."""

    @property
    def application_id(self) -> int: ...
    @property
    def application_flags(self) -> int: ...
    @property
    def bot(self) -> Account: ...
    @property
    def owner(self) -> Account: ...
    @property
    def guilds(self) -> Sized: ...


ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
GUILD_INSTALL = "0"
GUILD_CONTEXT, BOT_DM_CONTEXT = 0, 1


def user(account: Account) -> dict[str, Any]:
    return {
        "id": str(account.id),
        "username": account.name,
        "global_name": account.global_name,
        "discriminator": "0",
        "avatar": None,
        "avatar_decoration_data": None,
        "banner": None,
        "accent_color": None,
        "public_flags": 0,
        "flags": 0,
        "bot": account.bot,
        "system": False,
        "collectibles": None,
        "primary_guild": None,
        "clan": None,
    }


def self_user(account: Account) -> dict[str, Any]:
    """GET /users/@me and READY.user: the bot's own account."""
    return {
        **user(account),
        "verified": True,
        "mfa_enabled": False,
        "email": None,
        "locale": "en-US",
    }


def member(guild: Guild, account: Account, *, with_user: bool = True) -> dict[str, Any]:
    data: dict[str, Any] = {
        "roles": [str(r) for r in guild.member_roles(account.id)],
        "nick": None,
        "avatar": None,
        "banner": None,
        "joined_at": now_iso(guild.joined_at),
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
        "unusual_dm_activity_until": None,
        "avatar_decoration_data": None,
        "collectibles": None,
    }
    if with_user:
        data["user"] = user(account)
    return data


def channel(ch: Channel, *, viewer: Account | None = None) -> dict[str, Any]:
    if ch.type == DM:
        assert ch.recipient is not None
        return {
            "id": str(ch.id),
            "type": DM,
            "last_message_id": str(ch.last_message_id) if ch.last_message_id else None,
            "flags": 0,
            "recipients": [user(ch.recipient)],
        }
    assert ch.guild is not None
    data: dict[str, Any] = {
        "id": str(ch.id),
        "type": ch.type,
        "guild_id": str(ch.guild.id),
        "name": ch.name,
        "position": ch.position,
        "permission_overwrites": copy_json(ch.overwrites),
        "parent_id": None,
        "nsfw": False,
        "topic": ch.topic,
        "last_message_id": str(ch.last_message_id) if ch.last_message_id else None,
        "rate_limit_per_user": 0,
        "flags": 0,
        "icon_emoji": None,
        "theme_color": None,
    }
    thread_fields = getattr(ch, "thread_fields", None)  # a thread (emulator/rest_threads.py)
    if thread_fields is not None:
        for key in ("permission_overwrites", "position", "topic"):  # a thread has none of these
            data.pop(key, None)
        data.update(thread_fields())
    if viewer is not None:  # interaction payloads carry the invoking member's permissions
        data["permissions"] = str(ch.permissions_for(viewer))
    return data


def role(guild: Guild, role_id: int) -> dict[str, Any]:
    r = guild.roles[role_id]
    data: dict[str, Any] = {
        "id": str(r.id),
        "name": r.name,
        "description": None,
        "permissions": str(r.permissions),
        "position": r.position,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "managed": r.managed,
        "mentionable": False,
        "icon": None,
        "unicode_emoji": None,
        "flags": 0,
    }
    if r.managed:
        data["tags"] = {"bot_id": str(guild._emu.bot.id)}
    return data


def guild_create(guild: Guild) -> dict[str, Any]:
    emu = guild._emu
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(guild.owner_id),
        "region": "deprecated",
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [role(guild, r) for r in guild.roles],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "nsfw_level": 0,
        "application_id": None,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "max_members": 500000,
        "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50,
        "vanity_url_code": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "preferred_locale": guild.locale,
        "incidents_data": None,
        "home_header": None,
        "latest_onboarding_question_id": None,
        "hub_type": None,
        "nsfw": False,
        "lazy": True,
        "large": False,
        "unavailable": False,
        "member_count": len(guild.members) + 1,
        "joined_at": now_iso(guild.joined_at),
        "voice_states": [],
        # Without the members intent Discord sends only the bot's own member.
        "members": [member(guild, emu.bot)],
        "channels": [channel(c) for c in guild.channels.values()],
        # Active threads (emulator/rest_threads.py), so a bot that reconnects knows them.
        "threads": [
            channel(c)
            for c in getattr(guild._emu, "channels", {}).values()
            if hasattr(c, "thread_fields") and c.guild is guild
        ],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "embedded_activities": [],
        "activity_instances": [],
        "version": 1,
    }


def application(emu: Application) -> dict[str, Any]:
    return {
        "id": str(emu.application_id),
        "name": emu.bot.name,
        "icon": None,
        "description": "A card-table bot (Discord emulator)",
        "summary": "",
        "type": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "owner": user(emu.owner),
        "team": None,
        "flags": emu.application_flags,
        "hook": True,
        "rpc_origins": [],
        "redirect_uris": [],
        "interactions_endpoint_url": None,
        "role_connections_verification_url": None,
        "tags": [],
        "install_params": {
            "scopes": ["bot", "applications.commands"],
            "permissions": str(perms.DEFAULT_BOT_ROLE),
        },
        "integration_types_config": {"0": {}},
        "approximate_guild_count": len(emu.guilds),
        "approximate_user_install_count": 0,
        "approximate_user_authorization_count": 0,
        "explicit_content_filter": 0,  # inherit the guild's setting
        "flags_new": str(emu.application_flags),
        "eligible_oauth2_scopes": ["bot", "applications.commands"],
        "bot": user(emu.bot),
        "is_monetized": False,
        "storefront_available": False,
    }


def interaction_metadata(inter: Interaction, *, original_id: int | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(inter.id),
        "type": inter.type,
        "user": user(inter.user),
        "authorizing_integration_owners": authorizing_owners(inter),
    }
    if inter.type == 2:
        data["name"] = inter.data.get("name")
        data["command_type"] = inter.data.get("type", 1)
    if inter.source_message is not None:
        data["interacted_message_id"] = str(inter.source_message.id)
    if original_id is not None:
        data["original_response_message_id"] = str(original_id)
    if inter.type == 5 and inter.opened_by is not None:
        # Discord names the command or component interaction that opened the modal.
        data["triggering_interaction_metadata"] = interaction_metadata(inter.opened_by)
    return data


def authorizing_owners(inter: Interaction) -> dict[str, str]:
    guild = inter.channel.guild
    return {GUILD_INSTALL: str(guild.id) if guild else "0"}


def message(msg: Message, *, gateway: bool = False) -> dict[str, Any]:
    """A message object; gateway events add guild_id and the author's member."""
    ch = msg.channel
    data: dict[str, Any] = {
        "id": str(msg.id),
        "type": msg.kind,
        "channel_id": str(ch.id),
        "author": user(msg.author),
        "content": msg.content,
        "timestamp": now_iso(msg.created_at),
        "edited_timestamp": now_iso(msg.edited_at) if msg.edited_at else None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "mention_channels": [],
        "attachments": copy_json(msg.attachments),
        "embeds": copy_json(msg.embeds),
        "reactions": [],
        "pinned": False,
        "flags": msg.flags,
        "components": copy_json(msg.components),
        "position": 0,
    }
    if msg.webhook_id is not None:
        data["webhook_id"] = str(msg.webhook_id)
        data["application_id"] = str(msg.webhook_id)
    if msg.interaction is not None:
        inter = msg.interaction
        original = inter.original
        followup_of = original.id if original is not None and original is not msg else None
        data["interaction_metadata"] = interaction_metadata(inter, original_id=followup_of)
        if inter.type == 2:
            data["interaction"] = {
                "id": str(inter.id),
                "type": inter.type,
                "name": inter.data.get("name"),
                "user": user(inter.user),
            }
    if msg.reference is not None:
        data["message_reference"] = msg.reference
    if gateway and ch.guild is not None:
        data["guild_id"] = str(ch.guild.id)
        if msg.author.id == ch._emu.bot.id or msg.author.id in ch.guild.members:
            data["member"] = member(ch.guild, msg.author, with_user=False)
    return data


def interaction(inter: Interaction) -> dict[str, Any]:
    """The INTERACTION_CREATE payload, with every field discord.py reads."""
    emu = inter.channel._emu
    ch = inter.channel
    data: dict[str, Any] = {
        "id": str(inter.id),
        "application_id": str(emu.application_id),
        "type": inter.type,
        "data": inter.data,
        "token": inter.token,
        "version": 1,
        "channel_id": str(ch.id),
        "channel": channel(ch, viewer=inter.user if ch.guild else None),
        "app_permissions": str(ch.bot_permissions),
        "locale": inter.user.locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "authorizing_integration_owners": authorizing_owners(inter),
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    if ch.guild is not None:
        guild = ch.guild
        data["guild_id"] = str(guild.id)
        data["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
        data["guild_locale"] = guild.locale
        data["member"] = {
            **member(guild, inter.user),
            "permissions": str(ch.permissions_for(inter.user)),
        }
        data["context"] = GUILD_CONTEXT
    else:
        data["user"] = user(inter.user)
        data["context"] = BOT_DM_CONTEXT
    if inter.source_message is not None:
        data["message"] = message(inter.source_message)
    return data


def callback_response(inter: Interaction, resource: Message | None) -> dict[str, Any]:
    """The body of POST .../callback?with_response=true."""
    shown = inter.original
    answered: dict[str, Any] = {
        "id": str(inter.id),
        "type": inter.type,
        "activity_instance_id": None,
    }
    if shown is not None:  # a modal (9) shows no message: Discord then leaves these out
        answered["response_message_id"] = str(shown.id)
        answered["response_message_loading"] = shown.loading
        answered["response_message_ephemeral"] = shown.ephemeral
    body: dict[str, Any] = {"interaction": answered}
    # Discord describes a resource only for a message sent or updated (types 4 and 7); the
    # deferred answers (5, 6) and a modal (9) carry none.
    if resource is not None and inter.response_type in (4, 7):
        body["resource"] = {"type": inter.response_type, "message": message(resource)}
    return body
