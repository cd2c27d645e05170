"""Forward-only migrations on PostgreSQL: data/migrations_postgres/NNNN_name.sql.

Each file is PostgreSQL's version of the SQLite migration of the same number and name in
data/migrations/, so both backends reach the same schema: the same tables, columns in the
same order, keys and indexes. A SQLite migration with no PostgreSQL version is refused, so
the two never drift apart. The versions applied are rows of `schema_version`.

Migrations run under a session advisory lock: processes that start at once wait for the
first, then find the schema current. Each file runs in its own transaction with the row of
its version, so a failure leaves the previous version and a file must not hold BEGIN or
COMMIT; `schema_version`'s primary key refuses a version applied twice.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg

from data import migrate as sqlite_migrate
from data.errors import SchemaError
from data.migrate import Migration
from data.postgres_connection import AsyncpgConnection
from data.postgres_locks import LOCK_SPACE, AdvisoryLock

MIGRATIONS_DIR = Path(__file__).with_name("migrations_postgres")

_VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    applied_at BIGINT  NOT NULL
)
"""

_RECORD_VERSION = """
INSERT INTO schema_version (version, name, applied_at)
VALUES ($1, $2, (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT)
"""


def load_migrations(
    directory: Path = MIGRATIONS_DIR, *, sqlite_directory: Path = sqlite_migrate.MIGRATIONS_DIR
) -> list[Migration]:
    """The PostgreSQL migrations, which must match SQLite's one for one, name for name."""
    migrations = sqlite_migrate.load_migrations(directory)
    ours = [f"{m.version:04d}_{m.name}.sql" for m in migrations]
    theirs = [
        f"{m.version:04d}_{m.name}.sql" for m in sqlite_migrate.load_migrations(sqlite_directory)
    ]
    if ours != theirs:
        missing = [name for name in theirs if name not in ours]
        extra = [name for name in ours if name not in theirs]
        raise SchemaError(
            f"the PostgreSQL migrations in {directory.name}/ must match SQLite's in "
            f"{sqlite_directory.name}/ one for one: missing {missing}, unmatched {extra}; "
            "port each SQLite migration to PostgreSQL's SQL under the same file name"
        )
    return migrations


async def schema_version(db: AsyncpgConnection) -> int:
    """The last version applied; 0 for a database the store never migrated."""
    if await db.fetchval("SELECT to_regclass('schema_version')") is None:
        return 0
    return int(await db.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))


async def migrate(
    db: AsyncpgConnection,
    migrations: Sequence[Migration] | None = None,
    *,
    target: int | None = None,
) -> int:
    """Apply every pending migration up to `target` (default: the last), each in its own
    transaction, and return the schema version reached. The connection must not be in a
    transaction."""
    if migrations is None:
        migrations = load_migrations()
    latest = len(migrations) if target is None else target
    async with _migration_lock(db):
        await db.execute(_VERSION_TABLE)
        current = await schema_version(db)
        if current > len(migrations):
            raise SchemaError(
                f"database schema version {current} is newer than this code's {len(migrations)}"
            )
        for migration in migrations[current:latest]:
            await _apply(db, migration)
    return max(current, latest)


@asynccontextmanager
async def _migration_lock(db: AsyncpgConnection) -> AsyncIterator[None]:
    # A session lock, not a transaction's: it spans the transactions of several files. A
    # process that dies holding it releases it with its connection.
    await db.execute("SELECT pg_advisory_lock($1, $2)", LOCK_SPACE, AdvisoryLock.MIGRATIONS)
    try:
        yield
    finally:
        await db.execute("SELECT pg_advisory_unlock($1, $2)", LOCK_SPACE, AdvisoryLock.MIGRATIONS)


async def _apply(db: AsyncpgConnection, migration: Migration) -> None:
    try:
        async with db.transaction():
            # Without arguments asyncpg sends the file as one simple query, so it may hold
            # several statements.
            await db.execute(migration.sql)
            await db.execute(_RECORD_VERSION, migration.version, migration.name)
    except asyncpg.PostgresError as error:
        raise SchemaError(
            f"migration {migration.version:04d}_{migration.name} failed: {error}"
        ) from error
