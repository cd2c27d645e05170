"""The PostgreSQL implementation of `Store`: a pool of asyncpg connections to a server that
several bot processes share."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any, Self

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from data import rounds, stats
from data.clock import Clock, utc_now
from data.codec import dump_json
from data.connection import Connection
from data.errors import SchemaError, StoreUnavailableError
from data.postgres_connection import PgConnection
from data.postgres_locks import LOCK_SPACE, AdvisoryLock
from data.postgres_migrate import migrate
from data.postgres_problems import server_problems
from data.sql_store import SqlStore

# Stored generated columns, MATERIALIZED and EXECUTE FUNCTION need 12.
MIN_POSTGRES = (12, 0)

# A transaction left open by a process that hangs (not one that dies: the server sees its
# connection close) would hold the write lock; the server ends it after this long.
_IDLE_IN_TRANSACTION_TIMEOUT = "30s"

# What the server says when it cannot take a call now but may take the same call later: the
# connection lost or refused (class 08), the server shutting down or not yet accepting
# (57P01-57P03), too many connections, a full disk or no memory (class 53), a serialization
# failure or a deadlock (class 40), a lock or statement timeout, an I/O error of its own.
_TRANSIENT: tuple[type[Exception], ...] = (
    asyncpg.PostgresConnectionError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.CannotConnectNowError,
    asyncpg.InsufficientResourcesError,
    asyncpg.TransactionRollbackError,
    asyncpg.LockNotAvailableError,
    asyncpg.QueryCanceledError,
    asyncpg.PostgresIOError,
    # The network's own: a refused or reset connection, a connect that timed out.
    OSError,
)


class PostgresStore(SqlStore):
    """The server store. Open it with `await PostgresStore.open("postgresql://...")`.

    Methods run at once, each on a connection of the pool. Every read-write transaction
    first takes one advisory lock, so across all processes they run one at a time, as on
    SQLite: that keeps the rules that read before they write (a key looked up, then
    inserted; a balance read, then charged). The ledger's triggers lock the member's row as
    well, so even a writer that bypasses the store cannot apply a movement to a stale
    balance. Reads see one snapshot and wait for no lock. The append of a move is one
    statement that takes no lock but the share lock on its round."""

    def __init__(self, pool: asyncpg.Pool, clock: Clock) -> None:
        super().__init__(clock)
        self._pool = pool

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        clock: Clock = utc_now,
        max_connections: int = 10,
        lock_timeout: float = 5.0,
    ) -> Self:
        """Connect to the database at `url` and bring its schema up to date.
        ``lock_timeout``: seconds a statement waits for a lock another session holds (the
        write lock, a row) before the call fails with StoreUnavailableError."""
        async with server_problems(url):
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=max_connections,
                server_settings={
                    "application_name": "mahjong-bot",
                    "idle_in_transaction_session_timeout": _IDLE_IN_TRANSACTION_TIMEOUT,
                    "lock_timeout": f"{int(lock_timeout * 1000):d}ms",
                },
            )
        try:
            async with server_problems(url), pool.acquire() as db:
                version = db.get_server_version()
                if (version.major, version.minor) < MIN_POSTGRES:
                    raise SchemaError(f"PostgreSQL {version.major} is too old; 12 or newer needed")
                # Another process's migrations may take longer than a write may wait: a
                # process starting meanwhile waits for them to end. The pool resets the
                # setting when the connection goes back.
                await db.execute("SET lock_timeout = 0")
                await migrate(db)
            store = cls(pool, clock)
            async with store._write() as conn:
                await stats.roll_windows(conn, store._today())
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        await self._pool.close()

    # Transactions

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[PoolConnectionProxy[asyncpg.Record]]:
        """A connection of the pool, with the server's and the network's "not now" errors
        raised as StoreUnavailableError."""
        try:
            async with self._pool.acquire() as db:
                try:
                    yield db
                except asyncpg.InterfaceError as exc:
                    # A connection lost between two statements is noticed by the next one,
                    # or by the end of the transaction, as "closed" or "released".
                    if _lost(db):
                        raise StoreUnavailableError(f"the connection was lost: {exc}") from exc
                    raise
        except _TRANSIENT as exc:
            raise StoreUnavailableError(str(exc)) from exc

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Connection]:
        async with (
            self._connection() as db,
            db.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield PgConnection(db)

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Connection]:
        async with self._connection() as db, db.transaction():
            # Released when the transaction ends, however it ends; a process that dies
            # mid-transaction releases it with its connection.
            await db.execute(
                "SELECT pg_advisory_xact_lock($1, $2)", LOCK_SPACE, AdvisoryLock.WRITES
            )
            yield PgConnection(db)

    async def append_action(self, round_id: int, seq: int, action: Mapping[str, Any]) -> None:
        payload = dump_json(dict(action))
        async with self._connection() as db:
            conn = PgConnection(db)
            try:
                stored = await rounds.append_action(
                    conn, round_id, seq, payload, self._now(), lock_rows=True
                )
            except asyncpg.UniqueViolationError:
                # Another append stored this number after this one read the log.
                stored = False
            if not stored:
                raise await rounds.append_refusal(conn, round_id, seq)


def _lost(db: PoolConnectionProxy[asyncpg.Record]) -> bool:
    """Whether a connection acquired for a block is gone: closed, or taken back by the pool,
    which happens within the block only when the connection closes."""
    try:
        return db.is_closed()
    except asyncpg.InterfaceError:
        return True
