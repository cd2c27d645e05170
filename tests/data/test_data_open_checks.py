"""Opening a database the bot cannot use stops with one sentence naming the file and
what to do: damaged, not a database at all, from a newer bot, locked, read-only. One it
can use is logged by its absolute path."""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path

import pytest

from data import SqliteStore, UnusableDatabaseError
from data.migrate import load_migrations


async def filled(path: Path) -> None:
    store = await SqliteStore.open(path)
    for user in range(300):
        await store.touch_member(1, user, f"player {user} " + "x" * 200)
    await store.close()


async def refused(path: Path, **options: object) -> str:
    with pytest.raises(UnusableDatabaseError) as caught:
        await SqliteStore.open(path, **options)  # type: ignore[arg-type]
    text = str(caught.value)
    assert str(path) in text and text.endswith(".") and "\n" not in text
    return text


async def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    path.write_bytes(b"these are my notes, not a database " * 200)
    assert "not a SQLite database" in await refused(path)


async def test_a_truncated_database(tmp_path: Path) -> None:
    path = tmp_path / "cut.sqlite3"
    await filled(path)
    with path.open("r+b") as file:
        file.truncate(path.stat().st_size // 3)
    text = await refused(path)
    assert "backup" in text


async def test_damaged_pages_are_found_by_quick_check(tmp_path: Path) -> None:
    path = tmp_path / "damaged.sqlite3"
    await filled(path)
    page = 4096
    pages = path.stat().st_size // page
    with path.open("r+b") as file:
        # Garbage over the cell pointers of the pages past the schema, headers kept.
        for number in range(2, pages):
            file.seek(page * number + 12)
            file.write(bytes(range(256)) * 4)
    assert "damaged" in await refused(path)


async def test_a_database_of_a_newer_bot(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite3"
    await filled(path)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 99")
    assert "newer version of the bot" in await refused(path)


async def test_a_database_locked_by_another_program(tmp_path: Path) -> None:
    path = tmp_path / "locked.sqlite3"
    await filled(path)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        assert "locked by another program" in await refused(path, busy_timeout=0.1)
    finally:
        other.execute("ROLLBACK")
        other.close()


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write any file")
async def test_a_read_only_database(tmp_path: Path) -> None:
    path = tmp_path / "readonly.sqlite3"
    await filled(path)
    path.chmod(0o444)
    assert "cannot be written" in await refused(path)


async def test_the_log_names_the_database_by_its_absolute_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # A relative path is found from the working directory: the log says which file that is.
    monkeypatch.chdir(tmp_path)
    caplog.set_level(logging.INFO, logger="data.sqlite")
    for _ in range(2):
        await (await SqliteStore.open("bot.sqlite3")).close()
    ready = f"store ready: {tmp_path / 'bot.sqlite3'}, schema {len(load_migrations())}"
    assert caplog.messages == [ready, ready]
    # A new database has nothing to keep a copy of: no backup, created or reopened.
    assert not list(tmp_path.glob("*backup*"))
