"""A server's seasons: numbered from 1, at most one running at a time."""

from __future__ import annotations

from data.clock import from_ms
from data.connection import Connection, Row
from data.errors import SeasonError
from data.models import Season


def _season(row: Row) -> Season:
    return Season(
        id=row["id"],
        guild_id=row["guild_id"],
        number=row["number"],
        started_at=from_ms(row["started_at"]),
        ended_at=None if row["ended_at"] is None else from_ms(row["ended_at"]),
    )


async def running(db: Connection, guild_id: int) -> Season | None:
    rows = list(
        await db.execute_fetchall(
            "SELECT * FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
        )
    )
    return _season(rows[0]) if rows else None


async def by_number(db: Connection, guild_id: int, number: int) -> Season | None:
    rows = list(
        await db.execute_fetchall(
            "SELECT * FROM seasons WHERE guild_id = ? AND number = ?", (guild_id, number)
        )
    )
    return _season(rows[0]) if rows else None


async def listed(db: Connection, guild_id: int) -> list[Season]:
    rows = await db.execute_fetchall(
        "SELECT * FROM seasons WHERE guild_id = ? ORDER BY number", (guild_id,)
    )
    return [_season(row) for row in rows]


async def start(db: Connection, guild_id: int, actor_id: int | None, now_ms: int) -> Season:
    current = await running(db, guild_id)
    if current is not None:
        raise SeasonError(guild_id, current.number)
    rows = list(
        await db.execute_fetchall(
            """
            INSERT INTO seasons (guild_id, number, started_at, started_by)
            SELECT ?, COALESCE(MAX(number), 0) + 1, ?, ? FROM seasons WHERE guild_id = ?
            RETURNING *
            """,
            (guild_id, now_ms, actor_id, guild_id),
        )
    )
    return _season(rows[0])


async def end(db: Connection, guild_id: int, now_ms: int) -> Season:
    current = await running(db, guild_id)
    if current is None:
        raise SeasonError(guild_id, None)
    rows = list(
        await db.execute_fetchall(
            "UPDATE seasons SET ended_at = ? WHERE id = ? RETURNING *", (now_ms, current.id)
        )
    )
    return _season(rows[0])
