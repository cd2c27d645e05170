"""The SQLite implementation of `Store`: one aiosqlite connection, owned by one object."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import sys
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager, suppress
from pathlib import Path
from typing import Any, Literal, Self

import aiosqlite

from data import rounds, stats
from data.clock import Clock, utc_now
from data.codec import dump_json
from data.errors import (
    DatabaseInUseError,
    SchemaError,
    StoreUnavailableError,
    UnusableDatabaseError,
)
from data.migrate import back_up, load_migrations, migrate, schema_version
from data.sql_store import SqlStore

if sys.platform != "win32":
    import fcntl

log = logging.getLogger(__name__)

# IS DISTINCT FROM, which PostgreSQL shares, needs 3.39; STRICT tables need 3.37; RETURNING,
# UPDATE ... FROM and MATERIALIZED are older.
MIN_SQLITE = (3, 39, 0)

Synchronous = Literal["NORMAL", "FULL"]

# SQLite's primary result codes that say "not now" rather than "never": busy or locked
# by another connection, out of memory, read-only, an I/O error, a full disk, a file that
# cannot be opened, a locking protocol error.
TRANSIENT_CODES = frozenset({5, 6, 7, 8, 10, 13, 14, 15})
SQLITE_BUSY, SQLITE_LOCKED, SQLITE_CORRUPT, SQLITE_NOTADB = 5, 6, 11, 26


class SqliteStore(SqlStore):
    """The embedded store. Open it with `await SqliteStore.open(path)`.

    Its single connection runs statements one at a time on aiosqlite's thread. A lock makes
    each method exclusive, so no statement of one method runs inside another's transaction.
    WAL mode keeps a crash from losing a committed transaction; with synchronous FULL (the
    default) not even a power cut loses one, which matters because actions are announced as
    soon as they are stored.

    The store holds `<database>.lock` locked while it is open (`LockFile`): a second copy
    of the bot on the same file stops at open."""

    def __init__(self, db: aiosqlite.Connection, clock: Clock, lock_file: LockFile) -> None:
        super().__init__(clock)
        self._db = db
        self._lock = asyncio.Lock()
        self._lock_file = lock_file

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        clock: Clock = utc_now,
        synchronous: Synchronous = "FULL",
        busy_timeout: float = 5.0,
        exclusive: bool = True,
    ) -> Self:
        """Open (or create) the database file and bring its schema up to date, copying
        a database that had a schema beside itself first (`data.migrate.back_up`).
        ``busy_timeout``: seconds a statement waits for another process's lock before
        the call fails with StoreUnavailableError. ``exclusive``: hold the file's
        `LockFile` while open; False only for tests of several processes writing one
        file at once, which the bot never does."""
        if sqlite3.sqlite_version_info < MIN_SQLITE:
            raise SchemaError(f"SQLite {sqlite3.sqlite_version} is too old; 3.39 or newer needed")
        async with AsyncExitStack() as undo:
            try:
                db = await aiosqlite.connect(path, isolation_level=None)
            except sqlite3.Error as exc:
                raise UnusableDatabaseError(path, "cannot be opened", _WRITABLE) from exc
            undo.push_async_callback(db.close)
            db.row_factory = sqlite3.Row
            # Symbolic links followed, so that two names of one file share one lock.
            file = Path(path).resolve()
            with _file_problems(path):
                # Taken before the connection reads anything: so far it has only opened the
                # file, which does no harm to a copy of the bot that holds the lock.
                lock_file = LockFile.take(path, file) if exclusive else LockFile(None)
                undo.callback(lock_file.release)
                await _check_file(db, path)
                version = await _configure(db, file, synchronous, busy_timeout)
                # Writable now, not only readable: a write lock taken and given back.
                await db.execute("BEGIN IMMEDIATE")
                await db.execute("ROLLBACK")
            store = cls(db, clock, lock_file)
            async with store._write() as conn:
                await stats.roll_windows(conn, store._today())
            undo.pop_all()
        # Absolute: a relative DATABASE_PATH is found from the working directory, and a
        # bot started elsewhere would otherwise be on a new, empty file without a word.
        log.info("store ready: %s, schema %d", file, version)
        return store

    async def close(self) -> None:
        async with self._lock:
            await self._db.close()
            self._lock_file.release()

    # Transactions

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            with _unavailable():
                yield self._db

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            with _unavailable():
                async with self._transaction():
                    yield self._db

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        try:
            await self._db.execute("BEGIN IMMEDIATE")
            yield
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
            with _unavailable():
                # A single INSERT in autocommit mode: the fast path takes one round trip.
                if not await rounds.append_action(self._db, round_id, seq, payload, self._now()):
                    raise await rounds.append_refusal(self._db, round_id, seq)


class LockFile:
    """`<database>.lock` beside a SQLite file, locked (flock, exclusive) by the process that
    has the database open, with that process's id in it. One process owns the file (see
    docs/store.md): a second copy of the bot on it would resume the same tables and run
    their timers twice, so it stops at open instead. The system drops the lock when the
    process ends, even by kill -9, so a crash leaves no stale lock. The file itself stays:
    deleting it at close would let the next two processes lock two different files."""

    def __init__(self, fd: int | None) -> None:
        self._fd = fd

    @classmethod
    def take(cls, shown: str | Path, file: Path) -> LockFile:
        """The lock of the database `file` (`shown` as given, in messages);
        DatabaseInUseError naming the holder's pid when another process (or another open
        store of this one) has it."""
        if sys.platform == "win32":
            # Windows has no flock, and its byte-range locks would hide the pid from the
            # process refused; the bot is run on Linux, so there is no lock there.
            return cls(None)
        fd = os.open(file.with_name(f"{file.name}.lock"), os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        except BlockingIOError as exc:
            holder = _holder(fd)
            os.close(fd)
            raise DatabaseInUseError(
                shown,
                f"is in use by another copy of the bot{holder}",
                "stop it first, or use PostgreSQL (DATABASE_URL) to run several processes",
            ) from exc
        except BaseException:
            os.close(fd)
            raise
        return cls(fd)

    def release(self) -> None:
        """Give the lock back; again does nothing."""
        if self._fd is None:
            return
        # Unlocked before closing: a child forked meanwhile shares the descriptor, and its
        # copy would keep the lock for as long as the child runs.
        fcntl.flock(self._fd, fcntl.LOCK_UN)
        os.close(self._fd)
        self._fd = None


def _holder(fd: int) -> str:
    """The pid the lock's holder wrote, as " (pid N)"; empty before it has written it."""
    try:
        return f" (pid {int(os.pread(fd, 20, 0))})"
    except ValueError:
        return ""


_WRITABLE = "check that it and its folder may be written and that the disk has room"
_DAMAGED = "restore it from a backup (or move it away to start with an empty one), then start again"


async def _check_file(db: aiosqlite.Connection, path: str | Path) -> None:
    """A database the bot can use: SQLite's own check of its pages, and a schema this code
    knows (it only migrates forward)."""
    rows = list(await db.execute_fetchall("PRAGMA quick_check"))
    if [tuple(row) for row in rows] != [("ok",)]:
        raise UnusableDatabaseError(path, "is damaged (SQLite's quick_check failed)", _DAMAGED)
    version = await schema_version(db)
    known = len(load_migrations())
    if version > known:
        raise UnusableDatabaseError(
            path,
            f"was written by a newer version of the bot (schema {version}, this one knows {known})",
            "update the bot, or start it on a backup made before the update",
        )


@contextmanager
def _file_problems(path: str | Path) -> Iterator[None]:
    """What SQLite, or the system, says of a file the store cannot use, as one sentence
    that says what to do."""
    try:
        yield
    except sqlite3.Error as exc:
        code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
        if code in (SQLITE_BUSY, SQLITE_LOCKED):
            raise UnusableDatabaseError(
                path,
                "is locked by another program (another copy of the bot, a sqlite3 shell)",
                "stop that program, then start again",
            ) from exc
        if code in (SQLITE_NOTADB, SQLITE_CORRUPT):
            raise UnusableDatabaseError(
                path, "is not a SQLite database or is damaged", _DAMAGED
            ) from exc
        if code in TRANSIENT_CODES:
            raise UnusableDatabaseError(path, "cannot be written", _WRITABLE) from exc
        raise UnusableDatabaseError(path, f"cannot be used ({exc})", _DAMAGED) from exc
    except OSError as exc:
        # The lock file or the copy before an upgrade: a read-only folder, a full disk.
        raise UnusableDatabaseError(path, f"cannot be written ({exc.strerror})", _WRITABLE) from exc
    except SchemaError as exc:
        raise UnusableDatabaseError(
            path, f"cannot be brought up to date ({exc})", _DAMAGED
        ) from exc


@contextmanager
def _unavailable() -> Iterator[None]:
    """SQLite's "not now" errors, and the operating system's, as StoreUnavailableError."""
    try:
        yield
    except sqlite3.Error as exc:
        if getattr(exc, "sqlite_errorcode", 0) & 0xFF in TRANSIENT_CODES:
            raise StoreUnavailableError(str(exc)) from exc
        raise
    except OSError as exc:
        raise StoreUnavailableError(str(exc)) from exc


async def _configure(
    db: aiosqlite.Connection, file: Path, synchronous: Synchronous, busy_timeout: float
) -> int:
    """Connection settings, then migrations; foreign keys go on once the schema is current.
    Returns the schema version."""
    if synchronous not in ("NORMAL", "FULL"):
        raise ValueError(f"synchronous must be NORMAL or FULL, got {synchronous!r}")
    rows = list(await db.execute_fetchall("PRAGMA journal_mode = WAL"))
    if rows[0][0] != "wal":
        raise SchemaError(f"the database cannot use WAL mode (got {rows[0][0]!r})")
    await db.execute(f"PRAGMA synchronous = {synchronous}")
    await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000):d}")
    await db.execute("PRAGMA foreign_keys = OFF")
    version = await _upgrade(db, file)
    await db.execute("PRAGMA foreign_keys = ON")
    return version


async def _upgrade(db: aiosqlite.Connection, file: Path) -> int:
    """Apply the migrations the database lacks and return the version reached. A database
    that had a schema is copied first: migrations only go forward, and after them the
    previous version of the bot refuses the file, so the copy is the way back. A new one
    has nothing to lose."""
    migrations = load_migrations()
    current = await schema_version(db)
    if 0 < current < len(migrations):
        backup = await back_up(db, file, current)
        log.info(
            "upgrading %s: schema %d -> %d (%s), backup at %s",
            file,
            current,
            len(migrations),
            ", ".join(f"{m.version:04d}_{m.name}" for m in migrations[current:]),
            backup,
        )
    return await migrate(db, migrations)
