"""Schema migrations: from every earlier version, atomic, forward-only, with a copy of the
database as it was kept beside it."""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import aiosqlite
import pytest

from data import Period, SchemaError, SqliteStore, Store, UnusableDatabaseError
from data.migrate import (
    BACKUPS_KEPT,
    MIGRATIONS_DIR,
    Migration,
    backup_path,
    load_migrations,
    migrate,
    schema_version,
)
from tests.data.store_support import ALICE, BOB, GUILD, FakeClock

LATEST = len(load_migrations())

# Rows written right after a version is reached, in that version's schema, so a database
# built to version k holds what a real one would have collected along the way.
SAMPLE_DATA = {
    1: """
    INSERT INTO guilds VALUES (1000, NULL, 20, 10, 10, 0, '{"1":1,"4":2,"8":3,"16":4}',
                               'creator', 0, 0);
    INSERT INTO players VALUES (101, 'Alice', 'zh-CN', 1, 0, 1, 0, 0);
    INSERT INTO players VALUES (102, 'Bob', NULL, 0, 1, 1, 0, 0);
    INSERT INTO guild_members VALUES (1000, 101, 'Alice', 0, 0);
    INSERT INTO guild_members VALUES (1000, 102, 'Bob', 0, 0);
    INSERT INTO card_movements VALUES
        (1, 1000, 101, 'starter', 10, 10, 'starter:1000:101', NULL, NULL, NULL, NULL, 0);
    INSERT INTO tables VALUES (1, 1000, 5, 6, 101, 'mcr', '{}', 1, 'finished', 1, 'creator',
                               'k', 0, 0, 1740830400000);
    INSERT INTO card_movements VALUES
        (2, 1000, 101, 'spend', -1, 9, 'spend:1:101', 1, NULL, NULL, NULL, 0);
    INSERT INTO seats VALUES (1, 0, 101, NULL, 'Alice'), (1, 1, 102, NULL, 'Bob'),
                             (1, 2, NULL, 1, 'AI 2'), (1, 3, NULL, 1, 'AI 3');
    INSERT INTO rounds VALUES (1, 1, 1, 0, '[1,2]', 'ab',
        '{"variant":"mcr","options":{},"dealer":0,"dice":[1,2],"hands":["","","",""],"wall":""}',
        0, 1740830400000, 1);
    INSERT INTO round_actions VALUES (1, 0, '{"seat":0,"action":"discard","tile":"1z"}', 0);
    INSERT INTO round_wins VALUES (1, 1, 'discard', 24, '[]', 0);
    INSERT INTO round_payments VALUES (1, 0, 0, 1, 32, 'win_discard', NULL);
    INSERT INTO round_players VALUES
        (1, 0, 0, 101, 1000, 'mcr', 1740830400000, -32, 0, NULL, NULL, 0, 1),
        (1, 1, 1, 102, 1000, 'mcr', 1740830400000, 32, 1, 'discard', 24, 0, 0),
        (1, 2, 2, NULL, 1000, 'mcr', 1740830400000, 0, 0, NULL, NULL, 0, 0),
        (1, 3, 3, NULL, 1000, 'mcr', 1740830400000, 0, 0, NULL, NULL, 0, 0);
    """,
    3: """
    INSERT INTO tables VALUES (2, 1000, 7, 8, 101, 'sichuan', '{}', 4, 'playing', 0,
                               'creator', 'k2', 0, 0, NULL, NULL);
    INSERT INTO seats VALUES (2, 0, 101, NULL, 'Alice', 1), (2, 1, 102, NULL, 'Bob', 0),
                             (2, 2, NULL, 1, 'AI 2', 0), (2, 3, NULL, 1, 'AI 3', 0);
    """,
    5: """
    INSERT INTO guilds VALUES (2000, NULL, 20, 10, 10, 0, '{"1":1,"4":2,"8":3,"16":4}',
                               'split', 0, 0, 1, 0);
    """,
}


async def check_sample_data(store: Store) -> None:
    """The rows of SAMPLE_DATA[1] read back through the store of the latest version."""
    assert await store.card_balance(GUILD, ALICE) == 9
    assert (await store.player_settings(ALICE)).locale == "zh-CN"
    script = await store.round_script(1)
    assert script["actions"] == [{"seat": 0, "action": "discard", "tile": "1z"}]
    board = await store.leaderboard(guild_id=GUILD, period=Period.ALL)
    assert [(e.stats.user_id, e.stats.net) for e in board] == [(BOB, 32), (ALICE, -32)]
    assert (await store.player_stats(BOB)).best_hand == 24
    # The finished table's summary was posted before auto-play and summaries were kept.
    assert await store.summaries_due() == []
    assert not any(seat.autoplay for seat in (await store.get_table(1)).seats)
    assert await store.dm_channel_id(ALICE) is None
    # A server configured before the caps on open lobbies has the default ones.
    config = await store.guild_config(GUILD)
    assert (config.lobbies_per_member, config.lobbies_per_server) == (3, 20)


async def _build(path: Path, version: int) -> None:
    """A database at `version`, with each version's sample rows added as it was reached."""
    async with aiosqlite.connect(path, isolation_level=None) as db:
        for step in range(1, version + 1):
            await migrate(db, target=step)
            if step in SAMPLE_DATA:
                await db.executescript(f"BEGIN; {SAMPLE_DATA[step]} COMMIT;")


async def _schema(path: Path) -> set[tuple[str, str]]:
    async with aiosqlite.connect(path) as db:
        rows = await db.execute_fetchall(
            "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'"
        )
    return {(name, sql) for name, sql in rows}


def test_migration_files_are_numbered_without_gaps() -> None:
    migrations = load_migrations()
    assert [m.version for m in migrations] == list(range(1, LATEST + 1))
    assert migrations[0].name == "init"
    assert all(path.suffix == ".sql" for path in MIGRATIONS_DIR.iterdir() if path.is_file())


async def test_new_database_reaches_latest_version(
    sqlite_store: SqliteStore, db_path: Path
) -> None:
    async with aiosqlite.connect(db_path) as db:
        assert await schema_version(db) == LATEST
        journal = list(await db.execute_fetchall("PRAGMA journal_mode"))
        assert journal[0][0] == "wal"


@pytest.mark.parametrize("version", range(LATEST))
async def test_upgrade_from_every_earlier_version(
    version: int, tmp_path: Path, clock: FakeClock
) -> None:
    path = tmp_path / "old.sqlite3"
    await _build(path, version)

    store = await SqliteStore.open(path, clock=clock)
    try:
        async with aiosqlite.connect(path) as db:
            assert await schema_version(db) == LATEST
        if version >= 1:
            await check_sample_data(store)
    finally:
        await store.close()

    fresh = tmp_path / "fresh.sqlite3"
    await _build(fresh, LATEST)
    assert await _schema(path) == await _schema(fresh)


async def test_newer_database_is_refused(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "future.sqlite3"
    await _build(path, LATEST)
    async with aiosqlite.connect(path) as db:
        await db.execute(f"PRAGMA user_version = {LATEST + 1}")
        await db.commit()
    with pytest.raises(UnusableDatabaseError, match="newer version"):
        await SqliteStore.open(path, clock=clock)


async def test_an_upgrade_keeps_a_copy_of_the_database_as_it_was(
    tmp_path: Path, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "old.sqlite3"
    await _build(path, 3)
    # A member written last, still in the -wal file, as after a crash: copying the file
    # alone would lose her.
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("PRAGMA journal_mode = WAL")
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("INSERT INTO players VALUES (103, 'Carol', NULL, 0, 0, 1, 0, 0)")
    writer.execute("INSERT INTO guild_members VALUES (1000, 103, 'Carol', 0, 0)")
    shutil.copy(path, tmp_path / "file-alone.sqlite3")
    caplog.set_level(logging.INFO, logger="data.sqlite")
    try:
        store = await SqliteStore.open(path, clock=clock)
    finally:
        writer.close()
    await store.close()

    backup = tmp_path / "old.sqlite3.schema-3-backup.sqlite3"
    assert backup_path(path, 3) == backup
    applied = ", ".join(f"{m.version:04d}_{m.name}" for m in load_migrations()[3:])
    assert caplog.messages == [
        f"upgrading {path}: schema 3 -> {LATEST} ({applied}), backup at {backup}",
        f"store ready: {path}, schema {LATEST}",
    ]
    members = "SELECT display_name FROM guild_members ORDER BY user_id"
    with closing(sqlite3.connect(tmp_path / "file-alone.sqlite3")) as alone:
        assert [name for (name,) in alone.execute(members)] == ["Alice", "Bob"]
    with closing(sqlite3.connect(backup)) as kept:
        assert kept.execute("PRAGMA user_version").fetchone() == (3,)
        assert [name for (name,) in kept.execute(members)] == ["Alice", "Bob", "Carol"]
    # The previous version's schema: the bot of before the upgrade can start on it.
    before = tmp_path / "before.sqlite3"
    await _build(before, 3)
    assert await _schema(backup) == await _schema(before)
    assert list(tmp_path.glob("*backup*")) == [backup]


async def test_only_the_newest_backups_are_kept(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "bot.sqlite3"
    await _build(path, 5)
    older = [backup_path(path, version) for version in range(1, 5)]
    # Another database's copies are not this one's to delete.
    others = backup_path(tmp_path / "other.sqlite3", 1)
    for age, file in enumerate([*older, others]):
        file.write_bytes(b"an earlier copy")
        stamp = 1_700_000_000 - 86_400 * age
        os.utime(file, (stamp, stamp))
    await (await SqliteStore.open(path, clock=clock)).close()
    kept = sorted(tmp_path.glob("*backup*"))
    newest = [backup_path(path, 5), *older[: BACKUPS_KEPT - 1]]
    assert kept == sorted([*newest, others])


async def test_a_backup_that_cannot_be_written_stops_before_migrating(
    tmp_path: Path, clock: FakeClock
) -> None:
    path = tmp_path / "bot.sqlite3"
    await _build(path, 3)
    backup_path(path, 3).mkdir()
    with pytest.raises(UnusableDatabaseError) as caught:
        await SqliteStore.open(path, clock=clock)
    assert str(caught.value).startswith(f"The database {path} cannot be written (")
    async with aiosqlite.connect(path) as db:
        assert await schema_version(db) == 3
    assert not list(tmp_path.glob("*.partial"))


async def test_failed_migration_changes_nothing(tmp_path: Path) -> None:
    migrations = [
        Migration(1, "first", "CREATE TABLE a (x INTEGER);"),
        Migration(2, "broken", "CREATE TABLE b (x INTEGER); INSERT INTO missing VALUES (1);"),
    ]
    async with aiosqlite.connect(tmp_path / "m.sqlite3", isolation_level=None) as db:
        with pytest.raises(SchemaError, match="0002_broken"):
            await migrate(db, migrations)
        assert await schema_version(db) == 1
        names = [row[0] for row in await db.execute_fetchall("SELECT name FROM sqlite_master")]
        assert names == ["a"]
        assert not db.in_transaction


async def test_migration_breaking_foreign_keys_is_rolled_back(tmp_path: Path) -> None:
    migrations = [
        Migration(1, "parent", "CREATE TABLE p (id INTEGER PRIMARY KEY);"),
        Migration(
            2,
            "orphan",
            "CREATE TABLE c (p INTEGER REFERENCES p (id)); INSERT INTO c VALUES (7);",
        ),
    ]
    async with aiosqlite.connect(tmp_path / "fk.sqlite3", isolation_level=None) as db:
        with pytest.raises(SchemaError, match="foreign keys"):
            await migrate(db, migrations)
        assert await schema_version(db) == 1


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["0001_init.sql", "0003_skip.sql"], "0002 is missing"),
        (["0001_init.sql", "2_bad.sql"], "not NNNN_name.sql"),
    ],
)
def test_migration_folder_must_be_well_formed(
    tmp_path: Path, names: list[str], message: str
) -> None:
    for name in names:
        (tmp_path / name).write_text("SELECT 1;", encoding="utf-8")
    with pytest.raises(SchemaError, match=message):
        load_migrations(tmp_path)
