"""Short codes of finished hands for ``/replay``: six letters and digits, no look-alikes.

A code is written in the transaction that finishes its hand, so a hand in play has none,
and it carries the hand's server, where alone it resolves.
"""

from __future__ import annotations

import secrets

from data.connection import Connection

#: No 0/O, 1/I/L or U: a code read aloud or typed from a phone comes out right.
ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 6


def normalize(written: str) -> str:
    """A code as typed: case, spaces and dashes do not matter.

    >>> normalize(" ab-3 k7q ")
    'AB3K7Q'
    """
    return "".join(ch for ch in written.upper() if ch not in " -_")


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


async def assign(db: Connection, round_id: int, guild_id: int) -> str:
    """A fresh code for a just-finished hand (about 7 x 10**8 codes: a clash is rare and
    simply drawn again)."""
    while True:
        code = new_code()
        taken = list(
            await db.execute_fetchall("SELECT 1 FROM replay_codes WHERE code = ?", (code,))
        )
        if not taken:
            break
    await db.execute(
        "INSERT INTO replay_codes (code, round_id, guild_id) VALUES (?, ?, ?)",
        (code, round_id, guild_id),
    )
    return code


async def code_of(db: Connection, round_id: int) -> str | None:
    rows = list(
        await db.execute_fetchall("SELECT code FROM replay_codes WHERE round_id = ?", (round_id,))
    )
    return rows[0][0] if rows else None


async def round_of(db: Connection, code: str) -> tuple[int, int] | None:
    """(round id, guild id) of a code."""
    rows = list(
        await db.execute_fetchall(
            "SELECT round_id, guild_id FROM replay_codes WHERE code = ?", (normalize(code),)
        )
    )
    return (rows[0][0], rows[0][1]) if rows else None
