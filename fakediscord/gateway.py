"""The gateway: HELLO, heartbeats, IDENTIFY → READY and GUILD_CREATE, RESUME, member
chunks, sharding, and dispatch of events in order with sequence numbers.

Frames are plain JSON text: discord.py asks for `compress=zlib-stream` in the URL but only
decompresses binary frames, and parses text frames as they are.

Sharding follows the Gateway topic's "Sharding": an event about a guild goes to the shard
`(guild_id >> 22) % num_shards`; "Gateway events that do not contain a guild_id will only
be sent to the first shard (shard_id: 0)", DMs included; a session that would hold more
than 2,500 guilds is closed with 4011 (Sharding required), an impossible `shard` with 4010
(Invalid shard).
"""

import asyncio
import json
import secrets
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSCloseCode, WSMessage, WSMsgType, web

from fakediscord.config import Sharding
from fakediscord.latency import Delays
from fakediscord.models import Guild
from fakediscord.world import GUILD_MEMBERS, GUILDS, World

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE = 0, 1, 2, 3, 4
RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11
AUTHENTICATION_FAILED = 4004
UNKNOWN_OPCODE = 4001
NOT_AUTHENTICATED = 4003
DECODE_ERROR = 4002
INVALID_SHARD = 4010
SHARDING_REQUIRED = 4011
# A client that closes with these ends its session; any other close may be resumed.
FINAL_CLOSE_CODES = frozenset({1000, 1001})
REPLAY_BUFFER = 4096
# Events that are about a guild and name it `id` rather than `guild_id`.
GUILD_OBJECT_EVENTS = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})
SESSION_RESET_MS = 86_400_000


class Connection:
    """One websocket; frames leave in the order they were queued, each after the network
    delay it drew (a frame never overtakes the one before it)."""

    def __init__(self, socket: web.WebSocketResponse, delays: Delays) -> None:
        self.socket = socket
        self._delays = delays
        self._loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue[tuple[float, str | None]] = asyncio.Queue()
        self._last_due = 0.0
        self._close_code: int = WSCloseCode.OK
        self._writer = asyncio.create_task(self._write())

    def send(self, payload: dict[str, Any]) -> None:
        self.send_frame(json.dumps(payload, separators=(",", ":"), ensure_ascii=False))

    def send_frame(self, frame: str) -> None:
        self._queue.put_nowait((self._due(), frame))

    def close(self, code: int) -> None:
        """Closes after the frames already queued have gone out."""
        self._close_code = code
        self._queue.put_nowait((self._due(), None))

    async def finish(self) -> None:
        self._writer.cancel()
        await asyncio.gather(self._writer, return_exceptions=True)

    def _due(self) -> float:
        """When a frame queued now reaches the client, on the event loop's clock."""
        self._last_due = max(self._last_due, self._loop.time() + self._delays.gateway())
        return self._last_due

    async def _write(self) -> None:
        while True:
            due, frame = await self._queue.get()
            wait = due - self._loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if frame is None:
                break
            if self.socket.closed:
                return
            try:
                await self.socket.send_str(frame)
            except ConnectionError:
                return
        await self.socket.close(code=self._close_code)


@dataclass(eq=False)
class Session:
    """A gateway session; it outlives its connection so a client can resume it."""

    id: str
    intents: int
    # As the client sent it in IDENTIFY; None is the one shard [0, 1].
    shard: list[int] | None
    seq: int = 0
    buffer: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=REPLAY_BUFFER))
    connection: Connection | None = None

    def send_event(self, event: str, data: dict[str, Any]) -> None:
        self.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        frame = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
        self.buffer.append((self.seq, frame))
        if self.connection is not None:
            self.connection.send_frame(frame)

    def receives(self, guild_id: int | None) -> bool:
        """Whether events about `guild_id` (None: events without a guild) come here."""
        shard_id, count = self.shard or (0, 1)
        if guild_id is None:
            return shard_id == 0
        return shard_of(guild_id, count) == shard_id

    def replay_after(self, seq: int) -> list[str] | None:
        """Frames after `seq`, or None when some of them are no longer kept."""
        if seq < self.seq and (not self.buffer or self.buffer[0][0] > seq + 1):
            return None
        return [frame for number, frame in self.buffer if number > seq]


def shard_of(guild_id: int, shard_count: int) -> int:
    """The Gateway topic's sharding formula."""
    return (guild_id >> 22) % shard_count


class Gateway:
    def __init__(
        self, world: World, *, heartbeat_interval: float, sharding: Sharding, delays: Delays
    ) -> None:
        self._world = world
        self._heartbeat_ms = int(heartbeat_interval * 1000)
        self.sharding = sharding
        self._delays = delays
        self.url = ""
        self.sessions: dict[str, Session] = {}
        self._connections: set[Connection] = set()
        self.identified = asyncio.Event()
        self.identifies = 0
        world.set_dispatcher(self.dispatch)

    def dispatch(self, event: str, data: dict[str, Any], intent: int) -> None:
        guild_id = _guild_of(event, data)
        for session in list(self.sessions.values()):
            if (intent == 0 or session.intents & intent) and session.receives(guild_id):
                session.send_event(event, data)

    def session_start_limit(self) -> dict[str, int]:
        """The session_start_limit object of GET /gateway/bot: each IDENTIFY uses one."""
        total = self.sharding.session_start_total
        return {
            "total": total,
            "remaining": max(total - self.identifies, 0),
            "reset_after": SESSION_RESET_MS,
            "max_concurrency": self.sharding.max_concurrency,
        }

    def force_reconnect(self) -> None:
        """Asks every connected client to reconnect (op 7), as Discord does at times."""
        for connection in list(self._connections):
            connection.send({"op": RECONNECT, "d": None})

    async def close(self) -> None:
        for connection in list(self._connections):
            await connection.socket.close(code=WSCloseCode.GOING_AWAY)

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(max_msg_size=0)
        await socket.prepare(request)
        connection = Connection(socket, self._delays)
        self._connections.add(connection)
        session: Session | None = None
        connection.send({"op": HELLO, "d": {"heartbeat_interval": self._heartbeat_ms}})
        try:
            async for message in socket:
                payload = _decode(message)
                if payload is None:
                    await socket.close(code=DECODE_ERROR)
                    break
                session = self._receive(connection, session, payload) or session
        finally:
            self._connections.discard(connection)
            if session is not None and session.connection is connection:
                session.connection = None
                if socket.close_code in FINAL_CLOSE_CODES:
                    self.sessions.pop(session.id, None)
            await connection.finish()
        return socket

    def _receive(
        self, connection: Connection, session: Session | None, payload: dict[str, Any]
    ) -> Session | None:
        op = payload.get("op")
        data = payload.get("d")
        if op == HEARTBEAT:
            connection.send({"op": HEARTBEAT_ACK})
        elif op not in (IDENTIFY, RESUME, REQUEST_MEMBERS):
            if op not in (PRESENCE, VOICE_STATE):
                connection.close(UNKNOWN_OPCODE)
        elif not isinstance(data, dict):
            # "You sent an invalid payload to Discord" (close code 4002).
            connection.close(DECODE_ERROR)
        elif op == IDENTIFY:
            return self._identify(connection, data)
        elif op == RESUME:
            return self._resume(connection, data)
        elif session is None:
            connection.close(NOT_AUTHENTICATED)
        else:
            self._send_member_chunks(session, data)
        return None

    def _identify(self, connection: Connection, data: dict[str, Any]) -> Session | None:
        if data.get("token") != self._world.token:
            connection.close(AUTHENTICATION_FAILED)
            return None
        shard = data.get("shard")
        if shard is not None and not _valid_shard(shard):
            connection.close(INVALID_SHARD)
            return None
        session = Session(
            secrets.token_hex(16), int(data.get("intents", 0)), shard, connection=connection
        )
        guilds = self._guilds_of(session)
        if len(guilds) > self.sharding.max_guilds_per_shard:
            connection.close(SHARDING_REQUIRED)
            return None
        self.identifies += 1
        # A fresh IDENTIFY means the client gave up on its earlier, disconnected session for
        # this shard; sessions still connected stay, as "You can establish multiple
        # sessions with the same [shard_id, num_shards]".
        for old in [s for s in self.sessions.values() if s.shard == shard]:
            if old.connection is None or old.connection is connection:
                del self.sessions[old.id]
        self.sessions[session.id] = session
        session.send_event("READY", self._ready_payload(session, guilds))
        members = bool(session.intents & GUILD_MEMBERS)
        if session.intents & GUILDS:
            for guild in guilds:
                session.send_event(
                    "GUILD_CREATE", self._world.guild_create_payload(guild, members=members)
                )
        self.identified.set()
        return session

    def _guilds_of(self, session: Session) -> list[Guild]:
        return [guild for guild in self._world.guilds.values() if session.receives(guild.id)]

    def _ready_payload(self, session: Session, guilds: list[Guild]) -> dict[str, Any]:
        world = self._world
        user = world.bot.payload() | {"verified": True, "mfa_enabled": False, "email": None}
        data: dict[str, Any] = {
            "v": 10,
            "user": user,
            "guilds": [{"id": str(guild.id), "unavailable": True} for guild in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.url,
            "application": {"id": str(world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "geo_ordered_rtc_regions": [],
            "auth": {},
        }
        if session.shard is not None:
            data["shard"] = session.shard
        return data

    def _resume(self, connection: Connection, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(data.get("session_id") or "")
        frames = None
        if session is not None and data.get("token") == self._world.token:
            frames = session.replay_after(int(data.get("seq") or 0))
        if session is None or frames is None:
            connection.send({"op": INVALID_SESSION, "d": False})
            return None
        if session.connection is not None and session.connection is not connection:
            session.connection.close(WSCloseCode.GOING_AWAY)
        session.connection = connection
        for frame in frames:
            connection.send_frame(frame)
        session.send_event("RESUMED", {})
        return session

    def _send_member_chunks(self, session: Session, data: dict[str, Any]) -> None:
        guild_ids = data.get("guild_id")
        if not isinstance(guild_ids, list):
            guild_ids = [guild_ids]
        wanted = {int(user_id) for user_id in data.get("user_ids") or []}
        query = (data.get("query") or "").lower()
        limit = int(data.get("limit") or 0)
        for guild_id in guild_ids:
            guild = self._world.guilds.get(int(guild_id))
            if guild is None:
                continue
            members = [
                member
                for member in guild.members.values()
                if (not wanted or member.user.id in wanted)
                and member.user.name.lower().startswith(query)
            ]
            if limit:
                members = members[:limit]
            chunk: dict[str, Any] = {
                "guild_id": str(guild.id),
                "members": [member.payload() for member in members],
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
            }
            if data.get("nonce"):
                chunk["nonce"] = data["nonce"]
            session.send_event("GUILD_MEMBERS_CHUNK", chunk)


def _valid_shard(shard: Any) -> bool:
    """`[shard_id, num_shards]` with 0 <= shard_id < num_shards."""
    if not isinstance(shard, list) or len(shard) != 2:
        return False
    shard_id, count = shard
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in shard):
        return False
    return bool(0 <= shard_id < count)


def _guild_of(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event is about, as the sharding formula reads it."""
    raw = data.get("id") if event in GUILD_OBJECT_EVENTS else data.get("guild_id")
    return int(raw) if raw else None


def _decode(message: WSMessage) -> dict[str, Any] | None:
    """A client frame as JSON; the gateway only speaks JSON text here."""
    if message.type is not WSMsgType.TEXT:
        return None
    try:
        payload = json.loads(message.data)
    except json.JSONDecodeError:
        return None
    return payload if isinstance(payload, dict) else None
