"""The Gateway: a real websocket speaking Discord's opcodes.

HELLO -> IDENTIFY -> READY -> GUILD_CREATE per guild; heartbeats are acknowledged; a RESUME is
always answered INVALID_SESSION(false) (sessions are not resumable here), after which discord.py
identifies again on its default gateway URL. Dispatches go through one writer task per session
so events keep their order and the sender never waits on the socket.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from bot.emulator import payloads

if TYPE_CHECKING:
    from bot.emulator.server import Emulator

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


class Gateway:
    def __init__(self, emu: Emulator) -> None:
        self._emu = emu
        self.sessions: list[Session] = []
        self.frames: list[Frame] = []
        self.ready_count = 0  # READY events sent (a reconnect adds one)
        self.current: Session | None = None

    @property
    def connected(self) -> bool:
        return self.current is not None and self.current.identified and not self.current.ws.closed

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
            if self.current is session:
                self.current = None
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

    def dispatch(self, event: str, data: dict[str, Any], on_written: Any = None) -> bool:
        """Send an event to the connected bot; False if no bot is connected."""
        session = self.current
        if session is None or not session.identified or session.ws.closed:
            return False
        session.seq += 1
        self.send(session, {"op": DISPATCH, "t": event, "s": session.seq, "d": data}, on_written)
        return True

    def wants(self, intent: int) -> bool:
        return self.current is not None and bool(self.current.intents & intent)

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
        session.intents = intents
        session.session_id = secrets.token_hex(16)
        session.identified = True
        self.current = session
        shard = data.get("shard")
        ready: dict[str, Any] = {
            "v": 10,
            "user": payloads.self_user(emu.bot),
            "user_settings": {},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in emu.guilds.values()],
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
        self.dispatch("READY", ready)
        self.ready_count += 1
        for guild in emu.guilds.values():
            self.dispatch("GUILD_CREATE", payloads.guild_create(guild))
        emu.notifier.changed()

    async def drop(self, code: int = 4000) -> None:
        """Close the bot's connection as a network failure would; discord.py will try RESUME."""
        session = self.current
        if session is None:
            return
        self.current = None
        await session.ws.close(code=code, message=b"emulator dropped the connection")

    async def close(self) -> None:
        for session in self.sessions:
            if not session.ws.closed:
                await session.ws.close(code=1001, message=b"emulator stopping")
            if session.writer is not None:
                session.writer.cancel()
        self.current = None
