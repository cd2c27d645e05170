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
