"""The shard locks of a cluster's processes (data/postgres_shards.py), on PostgreSQL: one
session per shard, released when the session ends however it ends, notifications to the
holder of a shard, and the turns the processes take to identify to Discord."""

from __future__ import annotations

import asyncio
import time

import asyncpg

from data.postgres_shards import ShardLocks, shard_channel


async def test_a_shard_is_held_by_one_session_until_it_ends(postgres_url: str) -> None:
    first = await ShardLocks.connect(postgres_url)
    second = await ShardLocks.connect(postgres_url)
    try:
        assert await first.take([0, 1]) == (0, 1)
        assert await second.take([1, 2], wait=0.3) == (2,)
        assert await second.is_held(0) and await second.is_held(1)
        assert not await second.is_held(3)
        # The first session dies as a killed process's does: its locks go with it.
        first._connection.terminate()
        assert await second.take([0, 1], wait=5) == (0, 1, 2)
    finally:
        await first.close()
        await second.close()


async def test_a_lost_session_is_reported(postgres_url: str) -> None:
    locks = await ShardLocks.connect(postgres_url)
    lost: list[bool] = []
    locks.on_lost(lambda: lost.append(True))
    await locks.take([0])
    admin = await asyncpg.connect(postgres_url)
    try:
        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_locks"
            " WHERE locktype = 'advisory' AND objsubid = 2 AND pid <> pg_backend_pid()"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
        )
        for _ in range(100):
            if lost:
                break
            await asyncio.sleep(0.05)
        assert lost == [True]
        # Whoever asks later is told at once.
        locks.on_lost(lambda: lost.append(False))
        assert lost == [True, False]
    finally:
        await admin.close()
        await locks.close()


async def test_a_notification_reaches_the_shard_holder_only_while_it_holds(
    postgres_url: str,
) -> None:
    holder = await ShardLocks.connect(postgres_url)
    sender = await ShardLocks.connect(postgres_url)
    received: list[str] = []
    try:
        await holder.take([1])
        await holder.listen(shard_channel(1), received.append)
        assert await sender.notify_shard(1, '{"hello": 1}')
        assert not await sender.notify_shard(0, '{"nobody": 0}')
        for _ in range(100):
            if received:
                break
            await asyncio.sleep(0.02)
        assert received == ['{"hello": 1}']
    finally:
        await holder.close()
        await sender.close()


async def test_processes_identify_in_turns(postgres_url: str) -> None:
    first = await ShardLocks.connect(postgres_url)
    second = await ShardLocks.connect(postgres_url)
    try:
        await first.identify_turn(interval=0.5)
        started = time.monotonic()
        await second.identify_turn(interval=0.5, retry=0.05)
        assert time.monotonic() - started >= 0.4
    finally:
        await first.close()
        await second.close()


async def test_a_session_is_known_ended_before_its_end_is_told(postgres_url: str) -> None:
    """A statement may fail on a session that ended before its termination listener
    ran: the launcher reads that failure as the shards' loss (``ended``)."""
    locks = await ShardLocks.connect(postgres_url)
    lost: list[bool] = []
    locks.on_lost(lambda: lost.append(True))
    try:
        await locks.take([0])
        assert not locks.ended
        locks._connection.terminate()
        assert locks.ended and not lost
    finally:
        await locks.close()
