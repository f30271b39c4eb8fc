"""Discord permission bits and the overwrite algorithm (the same one discord.py applies)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
CONNECT = 1 << 20
SPEAK = 1 << 21
CHANGE_NICKNAME = 1 << 26
USE_APPLICATION_COMMANDS = 1 << 31
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
USE_EXTERNAL_APPS = 1 << 50
ALL = (1 << 51) - 1

# What @everyone may do in a new server.
DEFAULT_EVERYONE = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | MENTION_EVERYONE
    | USE_EXTERNAL_EMOJIS
    | CONNECT
    | SPEAK
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
    | USE_EXTERNAL_APPS
)
# The bot's managed role: what its invite link asked for.
DEFAULT_BOT_ROLE = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | SEND_MESSAGES_IN_THREADS
)
# What a bot may do in a DM with a user (Discord sends a fixed set as app_permissions there).
DM_PERMISSIONS = (
    ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | MENTION_EVERYONE
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | USE_EXTERNAL_APPS
)

NAMES = {
    VIEW_CHANNEL: "View Channel",
    SEND_MESSAGES: "Send Messages",
    READ_MESSAGE_HISTORY: "Read Message History",
    MANAGE_MESSAGES: "Manage Messages",
    EMBED_LINKS: "Embed Links",
    CREATE_PUBLIC_THREADS: "Create Public Threads",
    CREATE_PRIVATE_THREADS: "Create Private Threads",
}


def compute(
    *,
    guild_id: int,
    owner_id: int | None,
    member_id: int,
    member_roles: Iterable[int],
    role_permissions: dict[int, int],
    overwrites: list[dict[str, Any]],
) -> int:
    """Base permissions from roles, then channel overwrites: @everyone, roles, member."""
    if member_id == owner_id:
        return ALL
    roles = set(member_roles)
    base = role_permissions.get(guild_id, 0)
    for role_id in roles:
        base |= role_permissions.get(role_id, 0)
    if base & ADMINISTRATOR:
        return ALL
    by_id = {int(o["id"]): o for o in overwrites}
    everyone = by_id.get(guild_id)
    if everyone is not None:
        base = (base & ~int(everyone["deny"])) | int(everyone["allow"])
    allow = deny = 0
    for overwrite in overwrites:
        if overwrite["type"] == 0 and int(overwrite["id"]) in roles:
            allow |= int(overwrite["allow"])
            deny |= int(overwrite["deny"])
    base = (base & ~deny) | allow
    member = by_id.get(member_id)
    if member is not None and member["type"] == 1:
        base = (base & ~int(member["deny"])) | int(member["allow"])
    if not base & VIEW_CHANNEL:
        return 0  # a channel you cannot see grants nothing
    return base
