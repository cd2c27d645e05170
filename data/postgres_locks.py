"""The PostgreSQL advisory locks the store takes.

An advisory lock is named by two 32-bit numbers. The first is the store's own space, so the
store's locks stay apart from any other user of the same database; the second says which.
"""

from __future__ import annotations

from enum import IntEnum

LOCK_SPACE = 0x4D4A_0001


class AdvisoryLock(IntEnum):
    # Held, for the session, by the one process bringing the schema up to date.
    MIGRATIONS = 1
    # Held by each read-write transaction until it ends: they run one at a time.
    WRITES = 2
    # Held for five seconds by the process of a cluster identifying a shard to Discord,
    # which allows one identify every five seconds for the whole bot.
    IDENTIFY = 3
    # Held, for the session, by the process serving a shard: this number plus the shard's
    # (data/postgres_shards.py). Shard ids stay far below the next 2**16 numbers.
    SHARDS = 0x1_0000


def shard_lock(shard_id: int) -> tuple[int, int]:
    """The lock of a shard, held by the one process of a cluster serving it.

    >>> shard_lock(3) == (LOCK_SPACE, 0x1_0003)
    True
    """
    return LOCK_SPACE, AdvisoryLock.SHARDS + shard_id
