"""Runs a plan of room-card requests on a store, at its parent's signal, and reports each.

Run by test_data_cards.py as: python -m tests.data.ledger_client DATABASE PLAN [SHARD],
DATABASE being a SQLite file or a PostgreSQL URL and PLAN a JSON list of requests:
["take", guild, user, cards, key], ["start", table, key] or ["disband", table].
With SHARD (PostgreSQL only) it first takes that shard's lock and keeps it throughout, as a
process of a bot cluster does (data/postgres_shards.py).
It prints "ready" once its store is open and waits for a line on its input, so that several
clients start together. Then it prints one JSON line per request: "applied", "replayed" or
"refused" (too few cards), with the ids of the movements; then the monotonic times of its
first and last request.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any

from data import CardMovement, InsufficientCardsError, SqliteStore, open_store
from data.backend import is_postgres_url
from data.postgres_shards import ShardLocks
from data.store import Store


async def _request(store: Store, kind: str, *args: Any) -> list[CardMovement]:
    if kind == "take":
        guild, user, cards, key = args
        return [await store.grant_cards(guild, user, -cards, key=key, actor_id=0)]
    if kind == "start":
        table, key = args
        return await store.start_table(table, key=key)
    if kind == "disband":
        (table,) = args
        return await store.disband_table(table)
    raise ValueError(f"unknown request {kind!r}")


async def run(database: str, plan: list[list[Any]], shard: int | None = None) -> None:
    locks = None
    if shard is not None:
        locks = await ShardLocks.connect(database)
        if await locks.take([shard]) != (shard,):
            raise SystemExit(f"shard {shard} is held by another process")
    # The test's own store and the other client have the SQLite file open too, which the
    # file's lock would refuse a bot.
    store = await (
        open_store(database)
        if is_postgres_url(database)
        else SqliteStore.open(database, exclusive=False)
    )
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)
    started = time.monotonic()
    for kind, *args in plan:
        try:
            moves = await _request(store, kind, *args)
        except InsufficientCardsError:
            print(json.dumps({"result": "refused", "ids": []}), flush=True)
            continue
        result = "replayed" if any(move.replayed for move in moves) else "applied"
        print(json.dumps({"result": result, "ids": [move.id for move in moves]}), flush=True)
    print(json.dumps({"started": started, "ended": time.monotonic()}), flush=True)
    await store.close()
    if locks is not None:
        await locks.close()


if __name__ == "__main__":
    asyncio.run(
        run(sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else None)
    )
