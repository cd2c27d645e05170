"""PostgreSQL's migrations: one for each SQLite migration, reaching the same schema; from every
earlier version, atomic, forward-only, and applied once when processes start together."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from data import PostgresStore, SchemaError, SqliteStore, UnusableDatabaseError
from data.migrate import Migration
from data.postgres_migrate import load_migrations, migrate, schema_version
from tests.data.store_support import FakeClock
from tests.data.test_data_migrations import LATEST, SAMPLE_DATA, check_sample_data
from tests.postgres import PostgresServer

ROOT = Path(__file__).resolve().parents[2]

# Everything a migration defines, as the catalog shows it.
_CATALOG = """
SELECT 'column', table_name || '.' || column_name,
       concat_ws(' ', ordinal_position, data_type, is_nullable, is_identity, column_default,
                 generation_expression)
FROM information_schema.columns WHERE table_schema = 'public'
UNION ALL
SELECT 'index', indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'
UNION ALL
SELECT 'constraint', conrelid::regclass || '.' || conname, pg_get_constraintdef(oid)
FROM pg_constraint WHERE connamespace = 'public'::regnamespace
UNION ALL
SELECT 'trigger', tgname, pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal
UNION ALL
SELECT 'function', proname, pg_get_functiondef(oid)
FROM pg_proc WHERE pronamespace = 'public'::regnamespace
"""


async def _connect(url: str) -> asyncpg.Connection:
    return await asyncpg.connect(url)


async def _build(url: str, version: int) -> None:
    """A database at `version`, with each version's sample rows added as it was reached."""
    db = await _connect(url)
    try:
        for step in range(1, version + 1):
            await migrate(db, target=step)
            if step in SAMPLE_DATA:
                async with db.transaction():
                    await db.execute(SAMPLE_DATA[step])
    finally:
        await db.close()


async def _catalog(url: str) -> set[tuple[str, str, str]]:
    db = await _connect(url)
    try:
        return {(kind, name, text) for kind, name, text in await db.fetch(_CATALOG)}
    finally:
        await db.close()


async def _version(url: str) -> int:
    db = await _connect(url)
    try:
        return await schema_version(db)
    finally:
        await db.close()


def test_every_sqlite_migration_has_its_postgresql_version() -> None:
    assert [m.version for m in load_migrations()] == list(range(1, LATEST + 1))


def test_a_sqlite_migration_left_unported_is_refused(tmp_path: Path) -> None:
    sqlite_folder, postgres_folder = tmp_path / "migrations", tmp_path / "migrations_postgres"
    for folder in (sqlite_folder, postgres_folder):
        folder.mkdir()
        (folder / "0001_init.sql").write_text("SELECT 1;", encoding="utf-8")
    (sqlite_folder / "0002_lobby_caps.sql").write_text("SELECT 1;", encoding="utf-8")
    with pytest.raises(SchemaError, match=r"0002_lobby_caps\.sql"):
        load_migrations(postgres_folder, sqlite_directory=sqlite_folder)


def _sqlite_outline(path: Path) -> dict[str, Any]:
    with sqlite3.connect(path) as db:
        names = [
            row[0]
            for row in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        tables = {
            name: [
                # (column, NOT NULL, position in the primary key); table_xinfo shows generated
                # columns too. A key column is NOT NULL in PostgreSQL whatever its declaration.
                (column, bool(notnull or pk), pk)
                for _, column, _, notnull, _, pk, _ in db.execute(f"PRAGMA table_xinfo({name})")
            ]
            for name in names
        }
        indexes = {
            row[0]
            for row in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
            )
        }
    return {"tables": tables, "indexes": indexes}


async def _postgres_outline(url: str) -> dict[str, Any]:
    db = await _connect(url)
    try:
        columns = await db.fetch(
            """
            SELECT c.table_name, c.column_name, c.is_nullable = 'NO' AS not_null,
                   COALESCE(array_position(i.indkey::smallint[], c.ordinal_position::smallint)
                            + 1, 0) AS pk
            FROM information_schema.columns AS c
            JOIN pg_index AS i ON i.indrelid = c.table_name::regclass AND i.indisprimary
            WHERE c.table_schema = 'public' AND c.table_name <> 'schema_version'
            ORDER BY c.table_name, c.ordinal_position
            """
        )
        # Indexes of their own, not those behind a primary key or UNIQUE constraint.
        indexes = await db.fetch(
            """
            SELECT index.relname
            FROM pg_index AS i JOIN pg_class AS index ON index.oid = i.indexrelid
            WHERE index.relnamespace = 'public'::regnamespace
              AND NOT EXISTS (SELECT FROM pg_constraint WHERE conindid = i.indexrelid)
            """
        )
    finally:
        await db.close()
    tables: dict[str, list[tuple[str, bool, int]]] = {}
    for table, column, not_null, pk in columns:
        tables.setdefault(table, []).append((column, not_null, pk))
    return {"tables": tables, "indexes": {row[0] for row in indexes}}


async def test_both_backends_reach_the_same_schema(
    db_path: Path, postgres_url: str, clock: FakeClock
) -> None:
    await (await SqliteStore.open(db_path, clock=clock)).close()
    await (await PostgresStore.open(postgres_url, clock=clock)).close()
    sqlite_schema = _sqlite_outline(db_path)
    assert ("win_rate", False, 0) in sqlite_schema["tables"]["player_totals"]
    assert await _postgres_outline(postgres_url) == sqlite_schema


@pytest.mark.parametrize("version", range(LATEST))
async def test_upgrade_from_every_earlier_version(
    version: int, postgres_server: PostgresServer, postgres_url: str, clock: FakeClock
) -> None:
    await _build(postgres_url, version)
    store = await PostgresStore.open(postgres_url, clock=clock)
    try:
        assert await _version(postgres_url) == LATEST
        if version >= 1:
            await check_sample_data(store)
    finally:
        await store.close()

    fresh = await postgres_server.create_database()
    try:
        await _build(fresh, LATEST)
        assert await _catalog(postgres_url) == await _catalog(fresh)
    finally:
        await postgres_server.drop_database(fresh)


async def test_newer_database_is_refused(postgres_url: str, clock: FakeClock) -> None:
    await _build(postgres_url, LATEST)
    db = await _connect(postgres_url)
    try:
        await db.execute("INSERT INTO schema_version VALUES ($1, 'future', 0)", LATEST + 1)
    finally:
        await db.close()
    # Told as one sentence, as a SQLite file from a newer bot is.
    with pytest.raises(UnusableDatabaseError, match=r"newer.*update the bot"):
        await PostgresStore.open(postgres_url, clock=clock)


async def test_failed_migration_changes_nothing(postgres_url: str) -> None:
    migrations = [
        Migration(1, "first", "CREATE TABLE a (x INTEGER);"),
        Migration(2, "broken", "CREATE TABLE b (x INTEGER); INSERT INTO missing VALUES (1);"),
    ]
    db = await _connect(postgres_url)
    try:
        with pytest.raises(SchemaError, match="0002_broken"):
            await migrate(db, migrations)
        assert await schema_version(db) == 1
        tables = await db.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
        )
        assert [row[0] for row in tables] == ["a", "schema_version"]
        assert not db.is_in_transaction()
    finally:
        await db.close()


_OPEN_AND_CLOSE = """
import asyncio, sys
from data import open_store

async def main() -> None:
    await (await open_store(sys.argv[1])).close()

asyncio.run(main())
"""


async def test_processes_starting_at_once_apply_each_migration_once(postgres_url: str) -> None:
    starters = [
        await asyncio.create_subprocess_exec(
            sys.executable, "-c", _OPEN_AND_CLOSE, postgres_url, cwd=ROOT
        )
        for _ in range(4)
    ]
    assert [await starter.wait() for starter in starters] == [0] * 4
    db = await _connect(postgres_url)
    try:
        applied = await db.fetch("SELECT version FROM schema_version ORDER BY version")
    finally:
        await db.close()
    assert [row[0] for row in applied] == list(range(1, LATEST + 1))
