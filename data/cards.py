"""Room cards (房卡): the append-only ledger, balances and who pays a table (sichuan.md §6).

Every movement carries a unique key. A repeated request finds its key and gets the first
movement back instead of making a second one; the keys below name each kind of request.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import date

from data.clock import from_ms
from data.connection import Connection, Row
from data.errors import IdempotencyKeyError, InsufficientCardsError
from data.models import CardKind, CardMovement, CardPayer


def grant_key(request_key: str) -> str:
    return f"grant:{request_key}"


def starter_key(guild_id: int, user_id: int) -> str:
    return f"starter:{guild_id}:{user_id}"


def daily_key(guild_id: int, user_id: int, day: date) -> str:
    return f"daily:{guild_id}:{user_id}:{day.isoformat()}"


def spend_key(table_id: int, user_id: int) -> str:
    return f"spend:{table_id}:{user_id}"


def refund_key(spend_id: int) -> str:
    return f"refund:{spend_id}"


def card_shares(
    price: int, payer: CardPayer, creator_id: int, humans: Sequence[int]
) -> list[tuple[int, int]]:
    """(user id, cards) for each payer with a share above zero.

    `humans` are the seated human players in chair order. Under split each pays
    price // humans, and the remainder is one card each for the creator first, then the
    others in chair order."""
    if payer is CardPayer.CREATOR:
        shares = [(creator_id, price)]
    else:
        order = [creator_id, *(user for user in humans if user != creator_id)]
        base, remainder = divmod(price, len(order))
        shares = [(user, base + (index < remainder)) for index, user in enumerate(order)]
    return [(user, cards) for user, cards in shares if cards > 0]


def _movement(row: Row) -> CardMovement:
    return CardMovement(
        id=row["id"],
        guild_id=row["guild_id"],
        user_id=row["user_id"],
        kind=CardKind(row["kind"]),
        delta=row["delta"],
        balance_after=row["balance_after"],
        key=row["key"],
        table_id=row["table_id"],
        refund_of=row["refund_of"],
        actor_id=row["actor_id"],
        note=row["note"],
        created_at=from_ms(row["created_at"]),
    )


async def balance(db: Connection, guild_id: int, user_id: int) -> int:
    rows = list(
        await db.execute_fetchall(
            "SELECT card_balance FROM guild_members WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
    )
    return int(rows[0][0]) if rows else 0


async def history(
    db: Connection, guild_id: int, user_id: int, limit: int, before_id: int | None
) -> list[CardMovement]:
    """A member's movements, newest first; `before_id` pages back from an earlier page."""
    rows = await db.execute_fetchall(
        """
        SELECT * FROM card_movements
        WHERE guild_id = ? AND user_id = ? AND id < ?
        ORDER BY id DESC LIMIT ?
        """,
        (guild_id, user_id, before_id if before_id is not None else 2**63 - 1, limit),
    )
    return [_movement(row) for row in rows]


async def table_movements(db: Connection, table_id: int, kind: CardKind) -> list[CardMovement]:
    rows = await db.execute_fetchall(
        "SELECT * FROM card_movements WHERE table_id = ? AND kind = ? ORDER BY id",
        (table_id, kind.value),
    )
    return [_movement(row) for row in rows]


async def find(db: Connection, key: str) -> CardMovement | None:
    rows = list(await db.execute_fetchall("SELECT * FROM card_movements WHERE key = ?", (key,)))
    return _movement(rows[0]) if rows else None


async def record(
    db: Connection,
    *,
    guild_id: int,
    user_id: int,
    kind: CardKind,
    delta: int,
    key: str,
    now_ms: int,
    table_id: int | None = None,
    refund_of: int | None = None,
    actor_id: int | None = None,
    note: str | None = None,
) -> CardMovement:
    """Append one movement, or return the movement already stored under `key`.

    Refuses with InsufficientCardsError a movement that would leave a negative balance, and
    with IdempotencyKeyError a key already used for another member, kind or amount. The
    member must exist; call inside a transaction."""
    earlier = await find(db, key)
    if earlier is not None:
        if (earlier.guild_id, earlier.user_id, earlier.kind, earlier.delta, earlier.table_id) != (
            guild_id,
            user_id,
            kind,
            delta,
            table_id,
        ):
            raise IdempotencyKeyError(key)
        return dataclasses.replace(earlier, replayed=True)
    current = await balance(db, guild_id, user_id)
    if current + delta < 0:
        raise InsufficientCardsError(guild_id, user_id, current, -delta)
    rows = list(
        await db.execute_fetchall(
            """
            INSERT INTO card_movements (
                guild_id, user_id, kind, delta, balance_after, key, table_id, refund_of,
                actor_id, note, created_at
            )
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            RETURNING *
            """,
            (
                guild_id,
                user_id,
                kind.value,
                delta,
                current + delta,
                key,
                table_id,
                refund_of,
                actor_id,
                note,
                now_ms,
            ),
        )
    )
    return _movement(rows[0])
