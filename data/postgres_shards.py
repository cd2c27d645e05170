"""Which process of a cluster serves which shard, and the messages between processes.

Each process holds its shards' advisory locks (:func:`data.postgres_locks.shard_lock`) on a
session of its own, apart from the store's pool: session locks, which the server releases
the moment that session ends, so a process that dies (even by SIGKILL: the kernel closes
its socket) frees its shards for the next one at once. The same session LISTENs for the
notifications other processes send it (PostgreSQL's LISTEN/NOTIFY; a payload is at most
8000 bytes). When the session is lost the process no longer holds its shards: it is told
(``on_lost``) and must stop serving them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable

import asyncpg

from data.postgres_locks import LOCK_SPACE, AdvisoryLock, shard_lock
from data.postgres_problems import server_problems

log = logging.getLogger(__name__)

#: The most bytes a NOTIFY payload may have (the server's limit is 8000, less one).
NOTIFY_LIMIT = 7999
#: Seconds between two checks that the session is still there: a server that went away
#: without closing the connection is noticed within this long.
HEARTBEAT = 5.0


def shard_channel(shard_id: int) -> str:
    """The channel the process serving ``shard_id`` listens on."""
    return f"mahjong_shard_{shard_id}"


#: Seconds between two identifies of the bot's sessions to Discord (``max_concurrency``
#: of 1, what Discord gives a bot below 150,000 servers).
IDENTIFY_INTERVAL = 5.0

#: The channel every process of the cluster listens on.
CLUSTER_CHANNEL = "mahjong_cluster"

_HELD = """
SELECT EXISTS (
    SELECT 1 FROM pg_locks
    WHERE locktype = 'advisory' AND granted AND objsubid = 2
      AND classid::bigint = $1 AND objid::bigint = $2
)
"""


class ShardLocks:
    """A session holding shard locks and listening for notifications."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self._connection = connection
        # One statement at a time on the session.
        self._lock = asyncio.Lock()
        self.held: tuple[int, ...] = ()
        self._closing = False
        #: Whether the session ended without :meth:`close`.
        self.lost = False
        self._lost: list[Callable[[], None]] = []
        self._heartbeat: asyncio.Task[None] | None = None
        self._release: asyncio.Task[None] | None = None
        connection.add_termination_listener(self._terminated)

    @classmethod
    async def connect(cls, url: str) -> ShardLocks:
        async with server_problems(url):
            return cls(await asyncpg.connect(url))

    @property
    def ended(self) -> bool:
        """Whether the session is gone, told or not yet (:attr:`lost` is set by the
        termination listener, which may run after a statement already failed on it)."""
        return self.lost or self._connection.is_closed()

    def on_lost(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once if the session (and every lock with it) is lost, at
        once if it already is."""
        if self.lost:
            callback()
        else:
            self._lost.append(callback)

    async def take(
        self, shard_ids: Iterable[int], *, wait: float = 0.0, retry: float = 0.25
    ) -> tuple[int, ...]:
        """Take the locks of ``shard_ids`` that no other session holds, retrying those
        still held for up to ``wait`` seconds (a process that just died may not have been
        noticed yet); the shards now held, added to :attr:`held`."""
        wanted = [shard for shard in shard_ids if shard not in self.held]
        deadline = asyncio.get_running_loop().time() + wait
        while True:
            for shard in list(wanted):
                async with self._lock:
                    taken = await self._connection.fetchval(
                        "SELECT pg_try_advisory_lock($1, $2)", *shard_lock(shard)
                    )
                if taken:
                    wanted.remove(shard)
                    self.held = tuple(sorted((*self.held, shard)))
            if not wanted or asyncio.get_running_loop().time() >= deadline:
                break
            await asyncio.sleep(retry)
        if self._heartbeat is None and self.held:
            self._heartbeat = asyncio.create_task(self._beat())
        return self.held

    async def identify_turn(self, interval: float = IDENTIFY_INTERVAL, retry: float = 0.25) -> None:
        """Wait for this process's turn to identify a session to Discord: the cluster's
        identify lock, held for ``interval`` seconds from now."""
        while True:
            async with self._lock:
                taken = await self._connection.fetchval(
                    "SELECT pg_try_advisory_lock($1, $2)", LOCK_SPACE, AdvisoryLock.IDENTIFY
                )
            if taken:
                break
            await asyncio.sleep(retry)

        async def release() -> None:
            await asyncio.sleep(interval)
            with contextlib.suppress(asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
                async with self._lock:
                    await self._connection.execute(
                        "SELECT pg_advisory_unlock($1, $2)", LOCK_SPACE, AdvisoryLock.IDENTIFY
                    )

        self._release = asyncio.create_task(release())

    async def is_held(self, shard_id: int) -> bool:
        """Whether some session (this one or another) holds the shard's lock."""
        async with self._lock:
            held: bool = await self._connection.fetchval(_HELD, *shard_lock(shard_id))
        return held

    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        """Call ``callback`` with the payload of each notification on ``channel``."""

        def received(_: object, pid: int, channel: str, payload: object) -> None:
            callback(str(payload))

        async with self._lock:
            await self._connection.add_listener(channel, received)

    async def notify(self, channel: str, payload: str) -> None:
        if len(payload.encode()) > NOTIFY_LIMIT:
            raise ValueError(f"a notification of {len(payload.encode())} bytes is too long")
        async with self._lock:
            await self._connection.execute("SELECT pg_notify($1, $2)", channel, payload)

    async def notify_shard(self, shard_id: int, payload: str) -> bool:
        """Send ``payload`` to the process serving ``shard_id``, if any process does (in
        one round trip); whether one does."""
        if len(payload.encode()) > NOTIFY_LIMIT:
            raise ValueError(f"a notification of {len(payload.encode())} bytes is too long")
        space, key = shard_lock(shard_id)
        async with self._lock:
            held: bool = await self._connection.fetchval(
                f"SELECT h.held FROM ({_HELD}) AS h (held)"
                " LEFT JOIN LATERAL (SELECT pg_notify($3, $4) WHERE h.held) AS sent ON true",
                space,
                key,
                shard_channel(shard_id),
                payload,
            )
        return held

    async def _beat(self) -> None:
        while not self._closing:
            await asyncio.sleep(HEARTBEAT)
            try:
                async with self._lock:
                    await asyncio.wait_for(self._connection.fetchval("SELECT 1"), HEARTBEAT)
            except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError):
                if not self._closing:
                    log.error("the session holding shards %s stopped answering", self.held)
                    self._connection.terminate()
                    self._terminated(self._connection)
                return

    def _terminated(self, _: object) -> None:
        if self._closing:
            return
        self._closing = True
        self.lost = True
        callbacks, self._lost = self._lost, []
        for callback in callbacks:
            callback()

    async def close(self) -> None:
        """Release every lock (the session ends) and stop listening."""
        self._closing = True
        for task in (self._heartbeat, self._release):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._connection.close(), 5)
        if not self._connection.is_closed():
            self._connection.terminate()
        self.held = ()
