"""A store that cannot write just now says so with StoreUnavailableError, which callers
retry; nothing of the refused call is kept, and the store works again afterwards."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from data.errors import StoreUnavailableError
from data.sqlite import SqliteStore


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
    pages = (await store._db.execute_fetchall("PRAGMA page_count"))[0][0]
    await store._db.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(StoreUnavailableError, match="full"):
        for user in range(2000):
            await store.touch_member(1, user, "x" * 500)
    await store._db.execute("PRAGMA max_page_count = 1073741823")
    await store.touch_member(1, 99_999, "Ann")
    await store.close()
