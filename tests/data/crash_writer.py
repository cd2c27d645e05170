"""Appends actions to one round until killed, printing each sequence number once stored.

Run by test_data_crash.py as: python -m tests.data.crash_writer DATABASE ROUND_ID FIRST_SEQ,
DATABASE being a SQLite file or a PostgreSQL URL.
"""

from __future__ import annotations

import asyncio
import sys

from data import open_store


def action_for(seq: int) -> dict[str, object]:
    """The action stored at `seq`, so a reader can check every stored one."""
    return {"seat": seq % 4, "action": "discard", "tile": f"{seq % 9 + 1}s", "seq": seq}


async def append_forever(database: str, round_id: int, seq: int) -> None:
    store = await open_store(database)
    while True:
        await store.append_action(round_id, seq, action_for(seq))
        print(seq, flush=True)
        seq += 1


if __name__ == "__main__":
    asyncio.run(append_forever(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
