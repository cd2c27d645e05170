"""What only the PostgreSQL store has to hold: writers beside it, in other sessions."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from data import StateError
from data.sql_store import SqlStore
from tests.data.databases import Database, PostgresDatabase
from tests.data.store_support import MakeTable, setup_for


@pytest.fixture
def database(postgres_url: str) -> Database:
    return PostgresDatabase(postgres_url)


async def test_an_append_waits_for_a_finish_in_progress_and_is_refused(
    store: SqlStore, database: Database, make_table: MakeTable
) -> None:
    table = await make_table()
    info = await store.begin_round(table.id, seed="s", setup=setup_for())
    finisher = await asyncpg.connect(database.location)
    try:
        async with finisher.transaction():
            await finisher.execute("UPDATE rounds SET finished_at = 1 WHERE id = $1", info.id)
            append = asyncio.create_task(store.append_action(info.id, 0, {"seat": 0}))
            await asyncio.sleep(0.2)
            # It waits for the finishing transaction, instead of reading the round as open.
            assert not append.done()
        with pytest.raises(StateError, match="finished"):
            await append
    finally:
        await finisher.close()
    assert await database.fetch("SELECT count(*) FROM round_actions") == [(0,)]


@pytest.mark.parametrize("table", ["card_movements", "round_actions"])
async def test_append_only_tables_refuse_truncate(
    store: SqlStore, database: Database, table: str
) -> None:
    with pytest.raises(database.refusal, match="append-only"):
        await database.execute(f"TRUNCATE {table} CASCADE")
