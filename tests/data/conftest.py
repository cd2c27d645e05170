"""Fixtures for the store tests: a store on each backend, and table builders.

A test that takes `store` or `database` runs twice, on a SQLite file and on a PostgreSQL
database of its own; `sqlite_store` and `db_path` are for what only SQLite has.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from data import CardPayer, GuildConfigChange, RoundInfo, RoundResult, SqliteStore, Table, Variant
from data.sql_store import SqlStore
from tests.data.databases import Database, PostgresDatabase, SqliteDatabase
from tests.data.store_support import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    GUILD,
    NAMES,
    FakeClock,
    MakeTable,
    PlayRound,
    setup_for,
)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "store.sqlite3"


@pytest.fixture(params=[SqliteDatabase.name, PostgresDatabase.name])
def database(request: pytest.FixtureRequest, db_path: Path) -> Database:
    if request.param == SqliteDatabase.name:
        return SqliteDatabase(db_path)
    return PostgresDatabase(request.getfixturevalue("postgres_url"))


@pytest.fixture
async def store(database: Database, clock: FakeClock) -> AsyncIterator[SqlStore]:
    opened = await database.open(clock)
    yield opened
    await opened.close()


@pytest.fixture
async def sqlite_store(db_path: Path, clock: FakeClock) -> AsyncIterator[SqliteStore]:
    """`store` on SQLite only, opened as SqliteDatabase opens it."""
    opened = await SqliteStore.open(db_path, clock=clock, synchronous="NORMAL")
    yield opened
    await opened.close()


@pytest.fixture
def make_table(store: SqlStore) -> MakeTable:
    """A table with the given players (None = an AI seat), started unless asked otherwise."""

    async def make(
        players: Sequence[int | None] = (ALICE, BOB, CAROL, DAVE),
        *,
        guild_id: int = GUILD,
        variant: Variant = Variant.SICHUAN,
        rounds: int = 4,
        start: bool = True,
        channel_id: int | None = None,
        payer: CardPayer | None = None,
    ) -> Table:
        if payer is not None:
            await store.update_guild_config(guild_id, GuildConfigChange(card_payer=payer))
        creator = players[0]
        assert creator is not None
        table = await store.create_table(
            guild_id=guild_id,
            channel_id=channel_id,
            creator_id=creator,
            creator_name=NAMES.get(creator, str(creator)),
            variant=variant,
            options={"rounds": rounds},
            rounds=rounds,
        )
        for index, user in enumerate(players[1:], start=1):
            if user is None:
                await store.take_seat(table.id, display_name=f"AI {index}", ai_level=1)
            else:
                await store.take_seat(
                    table.id, display_name=NAMES.get(user, str(user)), user_id=user
                )
        if start:
            await store.start_table(table.id, key=f"start-{table.id}")
        return await store.get_table(table.id)

    return make


@pytest.fixture
def play_round(store: SqlStore) -> PlayRound:
    """Begin the table's next hand, log a few actions and finish it with `result`."""

    async def play(
        table: Table, result: RoundResult, *, dealer: int = 0, actions: int = 3
    ) -> RoundInfo:
        info = await store.begin_round(
            table.id, seed="5eed", setup=setup_for(table.variant, dealer)
        )
        for seq in range(actions):
            await store.append_action(
                info.id, seq, {"seat": seq % 4, "action": "discard", "tile": "5m"}
            )
        await store.finish_round(info.id, result)
        return info

    return play
