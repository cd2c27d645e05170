"""The SQLite implementation of `Store`: one aiosqlite connection, owned by one object."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any, Literal

import aiosqlite

from data import rounds, stats
from data.clock import Clock, utc_now
from data.codec import dump_json
from data.errors import SchemaError
from data.migrate import migrate
from data.sql_store import SqlStore

# IS DISTINCT FROM, which PostgreSQL shares, needs 3.39; STRICT tables need 3.37; RETURNING,
# UPDATE ... FROM and MATERIALIZED are older.
MIN_SQLITE = (3, 39, 0)

Synchronous = Literal["NORMAL", "FULL"]


class SqliteStore(SqlStore):
    """The embedded store. Open it with `await SqliteStore.open(path)`.

    Its single connection runs statements one at a time on aiosqlite's thread. A lock makes
    each method exclusive, so no statement of one method runs inside another's transaction.
    WAL mode keeps a crash from losing a committed transaction; with synchronous FULL (the
    default) not even a power cut loses one, which matters because actions are announced as
    soon as they are stored."""

    def __init__(self, db: aiosqlite.Connection, clock: Clock) -> None:
        super().__init__(clock)
        self._db = db
        self._lock = asyncio.Lock()

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        clock: Clock = utc_now,
        synchronous: Synchronous = "FULL",
    ) -> SqliteStore:
        """Open (or create) the database file and bring its schema up to date."""
        if sqlite3.sqlite_version_info < MIN_SQLITE:
            raise SchemaError(f"SQLite {sqlite3.sqlite_version} is too old; 3.39 or newer needed")
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            db.row_factory = sqlite3.Row
            await _configure(db, synchronous)
            store = cls(db, clock)
            async with store._write() as conn:
                await stats.roll_windows(conn, store._today())
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        async with self._lock:
            await self._db.close()

    # Transactions

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            yield self._db

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
                yield self._db
                await self._db.execute("COMMIT")
            except BaseException:
                # Shielded so a cancelled caller still leaves no transaction open; statements
                # run in order, so this comes after whatever the caller had queued.
                await asyncio.shield(self._rollback())
                raise

    async def _rollback(self) -> None:
        # OperationalError means no transaction was open: BEGIN itself failed, or COMMIT had
        # already ended it.
        with suppress(sqlite3.OperationalError):
            await self._db.execute("ROLLBACK")

    async def append_action(self, round_id: int, seq: int, action: Mapping[str, Any]) -> None:
        payload = dump_json(dict(action))
        async with self._lock:
            # A single INSERT in autocommit mode: the fast path takes one round trip.
            if not await rounds.append_action(self._db, round_id, seq, payload, self._now()):
                raise await rounds.append_refusal(self._db, round_id, seq)


async def _configure(db: aiosqlite.Connection, synchronous: Synchronous) -> None:
    """Connection settings, then migrations; foreign keys go on once the schema is current."""
    if synchronous not in ("NORMAL", "FULL"):
        raise ValueError(f"synchronous must be NORMAL or FULL, got {synchronous!r}")
    rows = list(await db.execute_fetchall("PRAGMA journal_mode = WAL"))
    if rows[0][0] != "wal":
        raise SchemaError(f"the database cannot use WAL mode (got {rows[0][0]!r})")
    await db.execute(f"PRAGMA synchronous = {synchronous}")
    await db.execute("PRAGMA busy_timeout = 5000")
    await db.execute("PRAGMA foreign_keys = OFF")
    await migrate(db)
    await db.execute("PRAGMA foreign_keys = ON")
