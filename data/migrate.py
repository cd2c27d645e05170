"""Forward-only schema migrations: data/migrations/NNNN_name.sql, version kept in user_version;
and the copy of a database kept before they change it."""

from __future__ import annotations

import glob
import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from data.errors import SchemaError

MIGRATIONS_DIR = Path(__file__).with_name("migrations")

_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

#: How many copies made before an upgrade are kept beside a database, the newest: enough to
#: step back over the last few upgrades without filling the disk with old copies.
BACKUPS_KEPT = 3
_BACKUP_NAME = "{database}.schema-{version}-backup.sqlite3"


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


def backup_path(database: Path, version: int) -> Path:
    """Where `back_up` keeps the copy of `database` at schema `version`: named by the schema
    it holds, which is the one the bot's refusal of a newer database names.

    >>> backup_path(Path("mahjong.sqlite3"), 3).name
    'mahjong.sqlite3.schema-3-backup.sqlite3'
    """
    return database.with_name(_BACKUP_NAME.format(database=database.name, version=version))


async def back_up(db: aiosqlite.Connection, database: Path, version: int) -> Path:
    """Copy the database `db` has open (the file `database`, at schema `version`) to
    `backup_path`, then delete all but the newest `BACKUPS_KEPT` such copies of it.
    SQLite's online backup reads through the connection, so the copy holds what is still
    in the -wal file too; it is written under another name first, so that a copy cut short
    never bears the name of a whole one."""
    target = backup_path(database, version)
    partial = target.with_name(f"{target.name}.partial")
    # A copy cut short by a kill -9 may be no database at all: start afresh.
    partial.unlink(missing_ok=True)
    try:
        # Written on aiosqlite's thread, where `db.backup` runs.
        copy = sqlite3.connect(partial, check_same_thread=False)
        try:
            await db.backup(copy)
        finally:
            copy.close()
        partial.replace(target)
    finally:
        # What a failed copy (a full disk) wrote; nothing once the copy is in place.
        partial.unlink(missing_ok=True)
    pattern = _BACKUP_NAME.format(database=glob.escape(database.name), version="*")
    older = sorted(database.parent.glob(pattern), key=lambda path: path.stat().st_mtime)
    for stale in older[:-BACKUPS_KEPT]:
        stale.unlink(missing_ok=True)
    return target
