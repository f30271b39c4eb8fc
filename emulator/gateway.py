"""The Gateway: a real websocket speaking Discord's opcodes.

HELLO -> IDENTIFY -> READY -> GUILD_CREATE per guild; heartbeats are acknowledged; a RESUME is
always answered INVALID_SESSION(false) (sessions are not resumable here), after which discord.py
identifies again on its default gateway URL. Dispatches go through one writer task per session
so events keep their order and the sender never waits on the socket.

Sharding as Discord does it: IDENTIFY may carry `shard: [shard_id, shard_count]` (none means
[0, 1]); a guild belongs to shard `(guild_id >> 22) % shard_count`, and its READY entry,
GUILD_CREATE and every event of it (INTERACTION_CREATE, MESSAGE_*, CHANNEL_*) go only to the
session of that shard. DMs and events of no guild go to shard 0. A shard id outside
[0, shard_count) closes with 4010 (Invalid shard); a session that would hold more guilds than
`Emulator.max_guilds_per_shard` closes with 4011 (Sharding required). A newer session for the same
shard takes over its events (a restarted process); the older one stays open but hears nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from aiohttp import WSMsgType, web

from emulator import payloads

if TYPE_CHECKING:
    from collections.abc import Mapping

    from emulator.notifier import Notifier
    from emulator.state import Account, Guild

log = logging.getLogger(__name__)

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, RESUME, RECONNECT = 0, 1, 2, 3, 6, 7
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11
HEARTBEAT_INTERVAL_MS = 41_250
# Intents that need a switch in the developer portal: members, presences, message content.
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)
GUILD_MESSAGES, DIRECT_MESSAGES = 1 << 9, 1 << 12


@dataclass
class Frame:
    """One websocket frame, for assertions: direction is "in" (from the bot) or "out"."""

    direction: str
    op: int
    event: str | None
    data: Any
    seq: int | None
    at: float  # time.perf_counter()
    session: int


@dataclass(eq=False)
class Session:
    number: int
    ws: web.WebSocketResponse
    session_id: str = ""
    intents: int = 0
    identified: bool = False
    seq: int = 0
    queue: asyncio.Queue[tuple[dict[str, Any], Any]] = field(default_factory=asyncio.Queue)
    writer: asyncio.Task[None] | None = None
    shard_id: int = 0
    shard_count: int = 1

    @property
    def live(self) -> bool:
        return self.identified and not self.ws.closed

    def owns(self, guild_id: int | None) -> bool:
        """Does this session's shard receive the events of `guild_id` (None: DMs, shard 0)?"""
        if guild_id is None:
            return self.shard_id == 0
        return shard_of(guild_id, self.shard_count) == self.shard_id


class GatewayWorld(Protocol):
    """What the gateway needs of the emulator: the application's identity and its guilds."""

    @property
    def token(self) -> str: ...
    @property
    def application_id(self) -> int: ...
    @property
    def application_flags(self) -> int: ...
    @property
    def privileged_intents(self) -> int: ...
    @property
    def max_guilds_per_shard(self) -> int: ...
    @property
    def gateway_url(self) -> str: ...
    @property
    def bot(self) -> Account: ...
    @property
    def guilds(self) -> Mapping[int, Guild]: ...
    @property
    def notifier(self) -> Notifier: ...


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard of a guild, as Discord computes it."""
    return (guild_id >> 22) % shard_count


class Gateway:
    def __init__(self, emu: GatewayWorld) -> None:
        self._emu = emu
        self.sessions: list[Session] = []
        self.frames: list[Frame] = []
        self.ready_count = 0  # READY events sent (a reconnect adds one)
        # The identified sessions in the order they identified; the newest live one that owns a
        # guild receives its events.
        self.identified: list[Session] = []

    @property
    def current(self) -> Session | None:
        """The newest live session (the only one of an unsharded bot)."""
        for session in reversed(self.identified):
            if session.live:
                return session
        return None

    def session_for(self, guild_id: int | None) -> Session | None:
        """The live session that receives the events of `guild_id` (None: DMs)."""
        for session in reversed(self.identified):
            if session.live and session.owns(guild_id):
                return session
        return None

    def connected_to(self, guild_id: int | None) -> bool:
        return self.session_for(guild_id) is not None

    def shard_connected(self, shard_id: int, shard_count: int) -> bool:
        return any(
            s.live and (s.shard_id, s.shard_count) == (shard_id, shard_count)
            for s in self.identified
        )

    @property
    def connected(self) -> bool:
        """Online: some session is live and every guild has a live session that owns it."""
        if self.current is None:
            return False
        return all(self.connected_to(guild_id) for guild_id in self._emu.guilds)

    def _record(self, session: Session, direction: str, frame: dict[str, Any]) -> None:
        self.frames.append(
            Frame(
                direction,
                frame.get("op", -1),
                frame.get("t"),
                frame.get("d"),
                frame.get("s"),
                time.perf_counter(),
                session.number,
            )
        )

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True, compress=False, max_msg_size=0)
        await ws.prepare(request)
        session = Session(len(self.sessions) + 1, ws)
        self.sessions.append(session)
        session.writer = asyncio.create_task(self._write(session))
        if request.query.get("encoding", "json") != "json":
            await ws.close(code=4002, message=b"Decode error: only json encoding")
            return ws
        self.send(session, {"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        try:
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    await self._receive(session, json.loads(msg.data))
                elif msg.type is WSMsgType.BINARY:
                    await ws.close(code=4002, message=b"Decode error")
                elif msg.type is WSMsgType.ERROR:
                    break
        finally:
            session.writer.cancel()
            self._emu.notifier.changed()
        return ws

    def send(self, session: Session, frame: dict[str, Any], on_written: Any = None) -> None:
        session.queue.put_nowait((frame, on_written))

    async def _write(self, session: Session) -> None:
        while True:
            frame, on_written = await session.queue.get()
            if session.ws.closed:
                continue
            text = json.dumps(frame, separators=(",", ":"))
            if on_written is not None:
                on_written()
            self._record(session, "out", frame)
            try:
                await session.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return
            self._emu.notifier.changed()  # a test may wait for a frame

    def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        on_written: Any = None,
        *,
        guild_id: int | None = None,
        session: Session | None = None,
    ) -> bool:
        """Send an event to the session of `guild_id`'s shard (None: DMs, shard 0), or to
        `session`; False if that shard has no live session."""
        session = session or self.session_for(guild_id)
        if session is None or not session.live:
            return False
        session.seq += 1
        self.send(session, {"op": DISPATCH, "t": event, "s": session.seq, "d": data}, on_written)
        return True

    def wants(self, intent: int, guild_id: int | None = None) -> bool:
        session = self.session_for(guild_id)
        return session is not None and bool(session.intents & intent)

    async def _receive(self, session: Session, frame: dict[str, Any]) -> None:
        self._record(session, "in", frame)
        op, data = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            self.send(session, {"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            await self._identify(session, data or {})
        elif op == RESUME:
            # Sessions are not kept: the client must identify again from scratch.
            self.send(session, {"op": INVALID_SESSION, "d": False})
        elif op in (PRESENCE, REQUEST_MEMBERS, 4):
            pass  # accepted; nothing the emulator needs to act on
        else:
            await session.ws.close(code=4001, message=b"Unknown opcode")

    async def _identify(self, session: Session, data: dict[str, Any]) -> None:
        emu = self._emu
        if session.identified:
            await session.ws.close(code=4005, message=b"Already authenticated")
            return
        if data.get("token") != emu.token:
            await session.ws.close(code=4004, message=b"Authentication failed")
            return
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED_INTENTS & ~emu.privileged_intents:
            await session.ws.close(code=4014, message=b"Disallowed intent(s)")
            return
        shard = data.get("shard")
        shard_id, shard_count = 0, 1
        if shard is not None:
            valid = (
                isinstance(shard, list)
                and len(shard) == 2
                and all(isinstance(n, int) and not isinstance(n, bool) for n in shard)
            )
            if not valid or not 0 <= shard[0] < shard[1]:
                await session.ws.close(code=4010, message=b"Invalid shard")
                return
            shard_id, shard_count = shard
        session.shard_id, session.shard_count = shard_id, shard_count
        guilds = [g for g in emu.guilds.values() if session.owns(g.id)]
        if len(guilds) > emu.max_guilds_per_shard:
            await session.ws.close(code=4011, message=b"Sharding required")
            return
        session.intents = intents
        session.session_id = secrets.token_hex(16)
        session.identified = True
        self.identified.append(session)
        ready: dict[str, Any] = {
            "v": 10,
            "user": payloads.self_user(emu.bot),
            "user_settings": {},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": emu.gateway_url,
            "application": {"id": str(emu.application_id), "flags": emu.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": ["local"],
            "guild_join_requests": [],
            "auth_session_id_hash": secrets.token_hex(8),
            "_trace": ['["discord-emulator",{"micros":0}]'],
        }
        if shard is not None:
            ready["shard"] = shard
        self.dispatch("READY", ready, session=session)
        self.ready_count += 1
        for guild in guilds:
            self.dispatch("GUILD_CREATE", payloads.guild_create(guild), session=session)
        emu.notifier.changed()

    async def drop(self, code: int = 4000, *, shard_id: int | None = None) -> None:
        """Close the bot's connection (of `shard_id`; default the newest) as a network failure
        would; discord.py will try RESUME."""
        if shard_id is None:
            session = self.current
        else:
            session = next(
                (s for s in reversed(self.identified) if s.live and s.shard_id == shard_id), None
            )
        if session is None:
            return
        session.identified = False  # no event goes to it any more
        await session.ws.close(code=code, message=b"emulator dropped the connection")

    async def close(self) -> None:
        for session in self.sessions:
            if not session.ws.closed:
                await session.ws.close(code=1001, message=b"emulator stopping")
            if session.writer is not None:
                session.writer.cancel()
