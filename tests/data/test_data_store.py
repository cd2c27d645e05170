"""The Store protocol and the SQLite store's connection: settings, sharing, cancellation."""

from __future__ import annotations

import asyncio
import inspect
import sqlite3
from datetime import datetime
from pathlib import Path

import pytest

from data import SqliteStore, Store, Variant
from tests.data.store_support import ALICE, GUILD, FakeClock, MakeTable, no_win, setup_for


def _public_methods(cls: type) -> dict[str, inspect.Signature]:
    return {
        name: inspect.signature(member)
        for name, member in inspect.getmembers(cls, inspect.iscoroutinefunction)
        if not name.startswith("_")
    }


def test_sqlite_store_implements_the_protocol() -> None:
    wanted = _public_methods(Store)
    offered = _public_methods(SqliteStore)
    assert set(wanted) <= set(offered)
    for name, signature in wanted.items():
        assert offered[name] == signature, name


async def test_connection_settings(store: SqliteStore, db_path: Path) -> None:
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert await store.card_balance(GUILD, ALICE) == 0


async def test_foreign_keys_are_enforced(store: SqliteStore, make_table: MakeTable) -> None:
    table = await make_table()
    info = await store.begin_round(table.id, seed="s", setup=setup_for())
    await store.finish_round(info.id, no_win())
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        await store._db.execute(
            "INSERT INTO round_players VALUES (99999, 0, 0, NULL, 1, 'mcr', 0, 0, 0, NULL, NULL, "
            "0, 0)"
        )


async def test_bad_synchronous_setting_is_refused(db_path: Path, clock: FakeClock) -> None:
    with pytest.raises(ValueError, match="synchronous"):
        await SqliteStore.open(db_path, clock=clock, synchronous="OFF")  # type: ignore[arg-type]


async def test_naive_clock_is_refused(db_path: Path) -> None:
    with pytest.raises(ValueError, match="timezone"):
        await SqliteStore.open(db_path, clock=lambda: datetime(2025, 1, 1))


async def test_cancelled_call_leaves_no_transaction_open(
    store: SqliteStore, make_table: MakeTable
) -> None:
    table = await make_table()
    for attempt in range(30):
        task = asyncio.create_task(store.grant_cards(GUILD, ALICE, 1, key="c", actor_id=0))
        # Cancel at a different await each time: before BEGIN, inside, around COMMIT.
        for _ in range(attempt % 6):
            await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    await store.begin_round(table.id, seed="s", setup=setup_for(Variant.SICHUAN))
    balance = await store.card_balance(GUILD, ALICE)
    assert balance in (8, 9)
    assert not store._db.in_transaction


async def test_many_concurrent_callers_share_one_connection(
    store: SqliteStore, make_table: MakeTable
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
