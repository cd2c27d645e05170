"""A database locked by another program while a table plays, through the fake Discord:
the thread says the table is paused, a click meanwhile is told so privately, and the
table goes on by itself once the lock is gone. On both stores: a SQLite file another
program holds, or a PostgreSQL database where another session holds the store's locks."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg

from data.postgres_locks import LOCK_SPACE, AdvisoryLock
from tests.bot.harness import Harness, running_harness
from tests.bot.test_e2e_failures import next_controls
from tests.bot.test_e2e_lobby import answer_text


@contextlib.asynccontextmanager
async def database_locked(harness: Harness) -> AsyncIterator[None]:
    """Another program holds the database: every write of the bot waits for it."""
    if harness.database_url is None:
        other = sqlite3.connect(harness.path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            yield
        finally:
            other.execute("ROLLBACK")
            other.close()
        return
    session = await asyncpg.connect(harness.database_url)
    try:
        async with session.transaction():
            # The store's write lock, and the rows of rounds an append locks.
            await session.execute(
                "SELECT pg_advisory_xact_lock($1, $2)", LOCK_SPACE, AdvisoryLock.WRITES
            )
            await session.execute("LOCK TABLE rounds IN EXCLUSIVE MODE")
            yield
    finally:
        await session.close()


async def test_a_locked_database_pauses_the_table_and_it_goes_on(
    tmp_path: Path, database_url: str | None
) -> None:
    async with running_harness(tmp_path, database_url=database_url, lock_timeout=0.1) as harness:
        me = harness.owner
        lobby = await harness.start_table(me, "sichuan", rounds="1", fill_with_ai="true")
        prompt = await next_controls(harness, me)
        async with database_locked(harness):
            select = prompt.selects()[0]
            values = [o["value"] for o in select["options"]][: select.get("min_values", 1)]
            # The AI seats' 换三张 and this click both wait for the store.
            first = await me.choose(prompt, *values, custom_id=select["custom_id"])
            paused = await me.next_message(
                channel=harness.fake.world.channels[lobby.channel_id],
                where=lambda m: "paused" in m.content,
                timeout=10,
            )
            assert "goes on by itself" in paused.content
            again = await me.choose(prompt, *values, custom_id=select["custom_id"])
            assert "paused" in await answer_text(again)
            await asyncio.sleep(1.0)
        await me.next_message(where=lambda m: "The table goes on" in m.content, timeout=10)
        # The first click either waited for the store and acted, or was told "paused".
        answered = await first.response(timeout=10)
        if answered.type == 4:
            assert "paused" in await answer_text(first)
        table = harness.running()
        async with table.lock:
            assert table.hand is not None
            applied = [a.to_json() for a in table.hand.actions]
            (live,) = await harness.store.live_tables()
        assert live.current_round is not None and live.current_round.actions == applied


async def test_lobby_and_card_commands_meeting_a_locked_database_say_try_again(
    tmp_path: Path, database_url: str | None
) -> None:
    async with running_harness(tmp_path, database_url=database_url, lock_timeout=0.1) as harness:
        host, guest = harness.owner, harness.join("Guest")
        lobby = await harness.open_table(host, "sichuan")
        # The lobby message is on screen a moment before the store knows where it is.
        while await harness.store.table_in_channel(lobby.channel_id) is None:
            await asyncio.sleep(0.01)
        async with database_locked(harness):
            joined = await guest.click(lobby, label="Join")
            assert "try again in a moment" in await answer_text(joined)
            balance = await guest.run("/cards balance")
            assert "try again in a moment" in await answer_text(balance)
        table = await harness.store.table_in_channel(lobby.channel_id)
        assert table is not None and len(table.seats) == 1
        joined = await guest.click(lobby, label="Join")
        assert (await joined.response()).type == 7
