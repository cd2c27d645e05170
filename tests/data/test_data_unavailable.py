"""A store that cannot write just now says so with StoreUnavailableError, which callers
retry; nothing of the refused call is kept, and the store works again afterwards. SQLite
says so of a file another process locks or a full disk; PostgreSQL of a lock another
session holds, a lost connection and the server's other "not now" errors."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from data.errors import StoreUnavailableError
from data.postgres import PostgresStore
from data.postgres_locks import LOCK_SPACE, AdvisoryLock
from data.sqlite import SqliteStore
from tests.data.databases import PostgresDatabase
from tests.data.store_support import ALICE, BOB, GUILD


async def test_a_database_locked_by_another_process_is_unavailable(tmp_path: Path) -> None:
    path = tmp_path / "locked.sqlite3"
    store = await SqliteStore.open(path, busy_timeout=0.05)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreUnavailableError, match="locked"):
            await store.touch_member(1, 2, "Ann")
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert (await store.touch_member(1, 2, "Ann")).card_balance == 10
    await store.close()


async def test_a_full_disk_is_unavailable(tmp_path: Path) -> None:
    path = tmp_path / "full.sqlite3"
    store = await SqliteStore.open(path)
    # The file may not grow by one more page: SQLite's "database or disk is full".
    pages = next(iter(await store._db.execute_fetchall("PRAGMA page_count")))[0]
    await store._db.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(StoreUnavailableError, match="full"):
        for user in range(2000):
            await store.touch_member(1, user, "x" * 500)
    await store._db.execute("PRAGMA max_page_count = 1073741823")
    await store.touch_member(1, 99_999, "Ann")
    await store.close()


@pytest.fixture
async def postgres_store(postgres_url: str) -> AsyncIterator[PostgresStore]:
    # A short lock timeout: a lock held longer than this fails the write.
    opened = await PostgresStore.open(postgres_url, lock_timeout=0.05)
    yield opened
    await opened.close()


async def _hold_the_write_lock(session: asyncpg.Connection) -> None:
    """What another bot process's write transaction holds until it ends."""
    await session.execute("SELECT pg_advisory_xact_lock($1, $2)", LOCK_SPACE, AdvisoryLock.WRITES)


async def test_a_write_lock_held_by_another_session_is_unavailable(
    postgres_store: PostgresStore, postgres_url: str
) -> None:
    other = await asyncpg.connect(postgres_url)
    try:
        async with other.transaction():
            await _hold_the_write_lock(other)
            with pytest.raises(StoreUnavailableError, match="lock timeout"):
                await postgres_store.touch_member(GUILD, ALICE, "Alice")
    finally:
        await other.close()
    assert (await postgres_store.touch_member(GUILD, ALICE, "Alice")).card_balance == 10


async def test_a_connection_lost_in_a_write_is_unavailable_and_the_next_call_reconnects(
    postgres_url: str,
) -> None:
    store = await PostgresStore.open(postgres_url)
    database = PostgresDatabase(postgres_url)
    other = await asyncpg.connect(postgres_url)
    try:
        async with other.transaction():
            await _hold_the_write_lock(other)
            write = asyncio.create_task(store.touch_member(GUILD, ALICE, "Alice"))
            while not await database.fetch(
                "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            ):
                await asyncio.sleep(0.01)
            # The server ends the store's session, as a restart or a failover would.
            await other.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = 'mahjong-bot'"
            )
            with pytest.raises(StoreUnavailableError, match="connection"):
                await write
    finally:
        await other.close()
    assert await database.fetch("SELECT count(*) FROM players") == [(0,)]
    assert (await store.touch_member(GUILD, ALICE, "Alice")).card_balance == 10
    await store.close()


@pytest.mark.parametrize(
    ("sqlstate", "what"),
    [
        ("53100", "disk full"),
        ("53200", "out of memory"),
        ("53300", "too many connections"),
        ("40001", "could not serialize access"),
        ("40P01", "deadlock detected"),
        ("55P03", "lock timeout"),
        ("57014", "statement timeout"),
        ("57P03", "the database system is starting up"),
        ("58030", "could not write to file"),
    ],
)
async def test_the_servers_not_now_errors_are_unavailable(
    postgres_store: PostgresStore, postgres_url: str, sqlstate: str, what: str
) -> None:
    database = PostgresDatabase(postgres_url)
    # The server refuses the next insert of a player as it would on a bad day.
    await database.execute(
        f"""
        CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION '{what}' USING ERRCODE = '{sqlstate}'; END $$;
        CREATE TRIGGER refuse BEFORE INSERT ON players FOR EACH ROW EXECUTE FUNCTION refuse();
        """
    )
    with pytest.raises(StoreUnavailableError, match=what):
        await postgres_store.touch_member(GUILD, ALICE, "Alice")
    await database.execute("DROP TRIGGER refuse ON players")
    assert await database.fetch("SELECT count(*) FROM guilds") == [(0,)]
    assert (await postgres_store.touch_member(GUILD, ALICE, "Alice")).card_balance == 10


async def test_an_error_that_would_come_again_is_not_unavailable(
    postgres_store: PostgresStore, postgres_url: str
) -> None:
    await PostgresDatabase(postgres_url).execute(
        "ALTER TABLE players ADD CONSTRAINT no_bob CHECK (user_id <> 102)"
    )
    with pytest.raises(asyncpg.CheckViolationError):
        await postgres_store.touch_member(GUILD, BOB, "Bob")
