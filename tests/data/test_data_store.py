"""The Store protocol and the stores' connections: settings, sharing, cancellation."""

from __future__ import annotations

import asyncio
import inspect
import sqlite3
from datetime import datetime
from pathlib import Path

import pytest

from data import PostgresStore, SqliteStore, Store, Variant
from data.sql_store import SqlStore
from tests.data.databases import Database
from tests.data.store_support import ALICE, GUILD, FakeClock, MakeTable, no_win, setup_for


def _public_methods(cls: type) -> dict[str, inspect.Signature]:
    return {
        name: inspect.signature(member)
        for name, member in inspect.getmembers(cls, inspect.iscoroutinefunction)
        if not name.startswith("_")
    }


@pytest.mark.parametrize("implementation", [SqliteStore, PostgresStore])
def test_store_implements_the_protocol(implementation: type) -> None:
    wanted = _public_methods(Store)
    offered = _public_methods(implementation)
    assert set(wanted) <= set(offered)
    for name, signature in wanted.items():
        assert offered[name] == signature, name


async def test_connection_settings(sqlite_store: SqliteStore, db_path: Path) -> None:
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert await sqlite_store.card_balance(GUILD, ALICE) == 0


async def test_foreign_keys_are_enforced(
    store: SqlStore, database: Database, make_table: MakeTable
) -> None:
    table = await make_table()
    info = await store.begin_round(table.id, seed="s", setup=setup_for())
    await store.finish_round(info.id, no_win())
    orphan = (
        "INSERT INTO round_players VALUES (99999, 0, 0, NULL, 1, 'mcr', 0, 0, 0, NULL, NULL, 0, 0)"
    )
    with pytest.raises(database.refusal, match=r"(?i)FOREIGN KEY"):
        if isinstance(store, SqliteStore):
            # SQLite checks foreign keys only on connections that ask: the store's own does.
            await store._db.execute(orphan)
        else:
            await database.execute(orphan)


async def test_bad_synchronous_setting_is_refused(db_path: Path, clock: FakeClock) -> None:
    with pytest.raises(ValueError, match="synchronous"):
        await SqliteStore.open(db_path, clock=clock, synchronous="OFF")  # type: ignore[arg-type]


async def test_naive_clock_is_refused(database: Database) -> None:
    with pytest.raises(ValueError, match="timezone"):
        await database.open(lambda: datetime(2025, 1, 1))


async def test_cancelled_call_leaves_no_transaction_open(
    store: SqlStore, database: Database, make_table: MakeTable
) -> None:
    table = await make_table()
    for attempt in range(60):
        task = asyncio.create_task(store.grant_cards(GUILD, ALICE, 1, key="c", actor_id=0))
        # Cancel at a different await each time: before BEGIN, inside, around COMMIT. A
        # server's replies take real time, so the later attempts wait longer and longer too.
        for _ in range(attempt % 6):
            await asyncio.sleep(0)
        await asyncio.sleep(max(0, attempt - 30) * 0.0002)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    await store.begin_round(table.id, seed="s", setup=setup_for(Variant.SICHUAN))
    balance = await store.card_balance(GUILD, ALICE)
    assert balance in (8, 9)
    assert not await database.in_transaction(store)


async def test_many_concurrent_callers_share_one_connection(
    store: SqlStore, make_table: MakeTable
) -> None:
    tables = [await make_table() for _ in range(4)]
    rounds = [await store.begin_round(table.id, seed="s", setup=setup_for()) for table in tables]

    async def play(round_id: int) -> None:
        for seq in range(25):
            await store.append_action(round_id, seq, {"seat": seq % 4, "action": "pass"})

    await asyncio.gather(
        *(play(info.id) for info in rounds),
        *(store.leaderboard() for _ in range(10)),
        *(store.touch_member(GUILD, 500 + n, f"p{n}") for n in range(10)),
    )
    live = await store.live_tables()
    assert (
        sorted(len(entry.current_round.actions) for entry in live if entry.current_round)
        == [25] * 4
    )
