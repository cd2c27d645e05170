"""The two databases a store test runs on, and ways to read and write them past the store."""

from __future__ import annotations

import sqlite3
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any, ClassVar

import asyncpg

from data import PostgresStore, SqliteStore
from data.clock import Clock
from data.sql_store import SqlStore


class Database(ABC):
    """Where a test's store lives: `location` is what `open_store` and the child processes
    of the crash tests are given."""

    name: ClassVar[str]
    #: What a statement past the store raises when a key, check or trigger refuses it.
    refusal: ClassVar[type[Exception]]
    location: str

    @abstractmethod
    async def open(self, clock: Clock) -> SqlStore: ...

    @abstractmethod
    async def fetch(self, sql: str) -> list[tuple[Any, ...]]:
        """Rows read on a connection of the test's own."""

    @abstractmethod
    async def execute(self, sql: str) -> None:
        """One statement, committed, on a connection of the test's own."""

    @abstractmethod
    async def in_transaction(self, store: SqlStore) -> bool:
        """Whether the store left a transaction open."""


class SqliteDatabase(Database):
    name = "sqlite"
    refusal = sqlite3.IntegrityError

    def __init__(self, path: Path) -> None:
        self.path = path
        self.location = str(path)

    async def open(self, clock: Clock) -> SqlStore:
        # NORMAL skips an fsync per commit; the crash tests' children keep the default, FULL.
        return await SqliteStore.open(self.path, clock=clock, synchronous="NORMAL")

    async def fetch(self, sql: str) -> list[tuple[Any, ...]]:
        with sqlite3.connect(self.path) as db:
            return db.execute(sql).fetchall()

    async def execute(self, sql: str) -> None:
        with sqlite3.connect(self.path) as db:
            db.execute(sql)

    async def in_transaction(self, store: SqlStore) -> bool:
        assert isinstance(store, SqliteStore)
        return store._db.in_transaction


class PostgresDatabase(Database):
    name = "postgresql"
    refusal = asyncpg.IntegrityConstraintViolationError

    def __init__(self, url: str) -> None:
        self.location = url

    async def open(self, clock: Clock) -> SqlStore:
        return await PostgresStore.open(self.location, clock=clock)

    async def fetch(self, sql: str) -> list[tuple[Any, ...]]:
        db = await asyncpg.connect(self.location)
        try:
            return [tuple(row) for row in await db.fetch(sql)]
        finally:
            await db.close()

    async def execute(self, sql: str) -> None:
        db = await asyncpg.connect(self.location)
        try:
            await db.execute(sql)
        finally:
            await db.close()

    async def in_transaction(self, store: SqlStore) -> bool:
        rows = await self.fetch(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND state <> 'idle'"
        )
        return rows[0][0] > 0
