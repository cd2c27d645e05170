"""Which store a database setting names: a PostgreSQL URL, or else a SQLite file."""

from __future__ import annotations

from pathlib import Path

from data.clock import Clock, utc_now
from data.postgres import PostgresStore
from data.postgres_problems import shown_url
from data.sqlite import SqliteStore
from data.store import Store

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(database: str | Path) -> bool:
    """
    >>> is_postgres_url("postgresql://bot@db.internal/mahjong"), is_postgres_url("mahjong.sqlite3")
    (True, False)
    """
    return isinstance(database, str) and database.startswith(POSTGRES_SCHEMES)


async def open_store(database: str | Path, *, clock: Clock = utc_now) -> Store:
    """Open the store a setting names, creating or migrating its schema."""
    if is_postgres_url(database):
        return await PostgresStore.open(str(database), clock=clock)
    return await SqliteStore.open(database, clock=clock)


def describe(database: str | Path) -> str:
    """The setting as it may be logged: a URL loses its password.

    >>> describe("postgresql://bot:s3cret@db.internal:5432/mahjong")
    'postgresql://bot:***@db.internal:5432/mahjong'
    >>> describe("mahjong.sqlite3")
    'mahjong.sqlite3'
    """
    return shown_url(str(database)) if is_postgres_url(database) else str(database)
