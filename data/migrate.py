"""Forward-only schema migrations: data/migrations/NNNN_name.sql, version kept in user_version."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from data.errors import SchemaError

MIGRATIONS_DIR = Path(__file__).with_name("migrations")

_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The migrations of `directory`, numbered 1, 2, ... without gaps."""
    migrations = []
    for path in sorted(directory.glob("*.sql")):
        match = _FILE_NAME.match(path.name)
        if match is None:
            raise SchemaError(f"migration file name {path.name!r} is not NNNN_name.sql")
        migrations.append(Migration(int(match[1]), match[2], path.read_text(encoding="utf-8")))
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise SchemaError(
                f"migration {expected:04d} is missing (found {migration.version:04d})"
            )
    return migrations


async def schema_version(db: aiosqlite.Connection) -> int:
    rows = list(await db.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0])


async def migrate(
    db: aiosqlite.Connection,
    migrations: Sequence[Migration] | None = None,
    *,
    target: int | None = None,
) -> int:
    """Apply every pending migration up to `target` (default: the last), each in its own
    transaction, and return the schema version reached. The connection must not be in a
    transaction and should have foreign keys off: a migration may rebuild a table, and
    foreign keys are checked as a whole before each commit instead."""
    if migrations is None:
        migrations = load_migrations()
    latest = len(migrations) if target is None else target
    current = await schema_version(db)
    if current > len(migrations):
        raise SchemaError(
            f"database schema version {current} is newer than this code's {len(migrations)}"
        )
    for migration in migrations[current:latest]:
        await _apply(db, migration)
    return max(current, latest)


async def _apply(db: aiosqlite.Connection, migration: Migration) -> None:
    # executescript commits any open transaction before it runs, so BEGIN goes inside it.
    try:
        await db.executescript(f"BEGIN IMMEDIATE;\n{migration.sql}")
        violations = list(await db.execute_fetchall("PRAGMA foreign_key_check"))
        if violations:
            raise SchemaError(
                f"migration {migration.version:04d} leaves broken foreign keys: {violations[:5]}"
            )
        await db.execute(f"PRAGMA user_version = {migration.version:d}")
        await db.execute("COMMIT")
    except (sqlite3.Error, SchemaError) as error:
        if db.in_transaction:
            await db.execute("ROLLBACK")
        if isinstance(error, SchemaError):
            raise
        raise SchemaError(
            f"migration {migration.version:04d}_{migration.name} failed: {error}"
        ) from error
