"""Tables and their four chairs, from the lobby to the end of the session."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from data.clock import from_ms
from data.codec import dump_json, load_json
from data.connection import Connection, Row
from data.errors import HostAloneError, NotFoundError, SeatError, StateError
from data.models import CardPayer, Seat, Table, TableStatus, Variant

CHAIRS = 4


def require_status(table: Table, *allowed: TableStatus) -> None:
    if table.status not in allowed:
        wanted = " or ".join(status.value for status in allowed)
        raise StateError(f"table {table.id} is {table.status.value}, not {wanted}")


async def create(
    db: Connection,
    *,
    guild_id: int,
    channel_id: int | None,
    creator_id: int,
    variant: Variant,
    options: Mapping[str, Any],
    rounds: int,
    now_ms: int,
) -> int:
    if rounds < 1:
        raise ValueError(f"rounds must be 1 or more, got {rounds}")
    rows = list(
        await db.execute_fetchall(
            """
            INSERT INTO tables (
                guild_id, channel_id, creator_id, variant, options, rounds, status, created_at
            )
            VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?)
            RETURNING id
            """,
            (
                guild_id,
                channel_id,
                creator_id,
                variant.value,
                dump_json(dict(options)),
                rounds,
                now_ms,
            ),
        )
    )
    return int(rows[0][0])


def _seat(row: Row) -> Seat:
    return Seat(
        chair=row["chair"],
        display_name=row["display_name"],
        user_id=row["user_id"],
        ai_level=row["ai_level"],
        autoplay=bool(row["autoplay"]),
    )


async def seats(db: Connection, table_id: int) -> tuple[Seat, ...]:
    rows = await db.execute_fetchall(
        "SELECT * FROM seats WHERE table_id = ? ORDER BY chair", (table_id,)
    )
    return tuple(_seat(row) for row in rows)


def _moment(ms: int | None) -> datetime | None:
    return None if ms is None else from_ms(ms)


def _table(row: Row, table_seats: tuple[Seat, ...]) -> Table:
    return Table(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        lobby_message_id=row["lobby_message_id"],
        creator_id=row["creator_id"],
        variant=Variant(row["variant"]),
        options=load_json(row["options"]),
        rounds=row["rounds"],
        status=TableStatus(row["status"]),
        price=row["price"],
        card_payer=None if row["card_payer"] is None else CardPayer(row["card_payer"]),
        created_at=from_ms(row["created_at"]),
        started_at=_moment(row["started_at"]),
        finished_at=_moment(row["finished_at"]),
        seats=table_seats,
        played_again_id=row["played_again_id"],
    )


async def get(db: Connection, table_id: int) -> Table:
    rows = list(await db.execute_fetchall("SELECT * FROM tables WHERE id = ?", (table_id,)))
    if not rows:
        raise NotFoundError("table", table_id)
    return _table(rows[0], await seats(db, table_id))


async def _where(db: Connection, condition: str, values: tuple[Any, ...]) -> list[Table]:
    """The tables meeting ``condition`` (SQL on ``tables``) with their seats, in two
    statements however many there are."""
    rows = await db.execute_fetchall(f"SELECT * FROM tables WHERE {condition} ORDER BY id", values)
    seat_rows = await db.execute_fetchall(
        f"""
        SELECT seats.* FROM seats JOIN tables ON tables.id = seats.table_id
        WHERE {condition} ORDER BY seats.table_id, seats.chair
        """,
        values,
    )
    by_table: dict[int, list[Seat]] = {}
    for seat_row in seat_rows:
        by_table.setdefault(seat_row["table_id"], []).append(_seat(seat_row))
    return [_table(row, tuple(by_table.get(row["id"], ()))) for row in rows]


async def with_status(db: Connection, status: TableStatus) -> list[Table]:
    return await _where(db, "tables.status = ?", (status.value,))


async def summaries_due(db: Connection) -> list[Table]:
    """Finished tables whose session summary is not marked posted."""
    return await _where(db, "tables.status = 'finished' AND tables.summary_posted_at IS NULL", ())


async def mark_summary_posted(db: Connection, table_id: int, now_ms: int) -> None:
    # The first mark stands: posting twice after a crash does not move it.
    await db.execute(
        "UPDATE tables SET summary_posted_at = COALESCE(summary_posted_at, ?) WHERE id = ?",
        (now_ms, table_id),
    )


async def set_autoplay(db: Connection, table: Table, user_id: int, on: bool) -> None:
    if table.seat_of(user_id) is None:
        raise SeatError(f"user {user_id} does not sit at table {table.id}")
    await db.execute(
        "UPDATE seats SET autoplay = ? WHERE table_id = ? AND user_id = ?",
        (int(on), table.id, user_id),
    )


async def open_in_channel(db: Connection, channel_id: int) -> Table | None:
    """The newest table in a channel or thread that is still in its lobby or playing."""
    rows = list(
        await db.execute_fetchall(
            """
            SELECT * FROM tables
            WHERE channel_id = ? AND status IN ('lobby', 'playing')
            ORDER BY id DESC LIMIT 1
            """,
            (channel_id,),
        )
    )
    if not rows:
        return None
    return _table(rows[0], await seats(db, rows[0]["id"]))


async def set_lobby_message(
    db: Connection, table_id: int, channel_id: int, message_id: int
) -> None:
    await db.execute(
        "UPDATE tables SET channel_id = ?, lobby_message_id = ? WHERE id = ?",
        (channel_id, message_id, table_id),
    )


async def set_options(
    db: Connection, table_id: int, options: Mapping[str, Any], rounds: int
) -> None:
    if rounds < 1:
        raise ValueError(f"rounds must be 1 or more, got {rounds}")
    await db.execute(
        "UPDATE tables SET options = ?, rounds = ? WHERE id = ?",
        (dump_json(dict(options)), rounds, table_id),
    )


async def set_played_again(db: Connection, table_id: int, again_id: int) -> int:
    """Link a finished table to the one its Play again opened, unless the one linked
    already is still open or in play; the table linked now."""
    await db.execute(
        """
        UPDATE tables SET played_again_id = ?
        WHERE id = ? AND (
            played_again_id IS NULL
            OR played_again_id IN (SELECT id FROM tables WHERE status IN ('finished', 'disbanded'))
        )
        """,
        (again_id, table_id),
    )
    rows = list(
        await db.execute_fetchall("SELECT played_again_id FROM tables WHERE id = ?", (table_id,))
    )
    return int(rows[0][0])


async def insert_seat(db: Connection, table_id: int, seat: Seat) -> None:
    await db.execute(
        """
        INSERT INTO seats (table_id, chair, user_id, ai_level, display_name)
        VALUES (?, ?, ?, ?, ?)
        """,
        (table_id, seat.chair, seat.user_id, seat.ai_level, seat.display_name),
    )


def next_chair(table: Table, user_id: int | None) -> int:
    """The chair a newcomer takes: the first free one, as chairs follow the order of sitting."""
    if user_id is not None and table.seat_of(user_id) is not None:
        raise SeatError(f"user {user_id} already sits at table {table.id}")
    if len(table.seats) >= CHAIRS:
        raise SeatError(f"table {table.id} is full")
    return len(table.seats)


async def remove_seat(db: Connection, table: Table, user_id: int) -> None:
    """Stand a player up and move the later arrivals down one chair each. The host who
    stands up hands the table to the person who sat down first after them, who takes
    chair 0 (the host's); a host alone with AI seats cannot (HostAloneError)."""
    seat = table.seat_of(user_id)
    if seat is None:
        raise SeatError(f"user {user_id} does not sit at table {table.id}")
    if user_id != table.creator_id:
        await _free_chair(db, table, seat)
        return
    others = [s for s in table.seats if s.chair != seat.chair]
    heir = next((s for s in others if s.user_id is not None), None)
    if heir is None:
        raise HostAloneError(f"the host is the only person at table {table.id}")
    await db.execute("DELETE FROM seats WHERE table_id = ?", (table.id,))
    for chair, other in enumerate([heir, *(s for s in others if s is not heir)]):
        await insert_seat(
            db, table.id, Seat(chair, other.display_name, other.user_id, other.ai_level)
        )
    await db.execute("UPDATE tables SET creator_id = ? WHERE id = ?", (heir.user_id, table.id))


async def remove_ai_seat(db: Connection, table: Table, chair: int) -> None:
    """Take an AI seat away and move the later arrivals down one chair each."""
    seat = next((s for s in table.seats if s.chair == chair), None)
    if seat is None or not seat.is_ai:
        raise SeatError(f"chair {chair} of table {table.id} is not an AI seat")
    await _free_chair(db, table, seat)


async def _free_chair(db: Connection, table: Table, seat: Seat) -> None:
    later = [other for other in table.seats if other.chair > seat.chair]
    # Chairs are a key, so the later seats are removed and re-inserted one lower.
    await db.execute("DELETE FROM seats WHERE table_id = ? AND chair >= ?", (table.id, seat.chair))
    for other in later:
        await insert_seat(
            db,
            table.id,
            Seat(other.chair - 1, other.display_name, other.user_id, other.ai_level),
        )


async def mark_started(
    db: Connection,
    table_id: int,
    *,
    price: int,
    card_payer: CardPayer,
    start_key: str,
    now_ms: int,
) -> None:
    await db.execute(
        """
        UPDATE tables
        SET status = 'playing', price = ?, card_payer = ?, start_key = ?, started_at = ?
        WHERE id = ?
        """,
        (price, card_payer.value, start_key, now_ms, table_id),
    )


async def mark_ended(db: Connection, table_id: int, status: TableStatus, now_ms: int) -> None:
    await db.execute(
        "UPDATE tables SET status = ?, finished_at = ? WHERE id = ?",
        (status.value, now_ms, table_id),
    )


async def start_key_owner(db: Connection, start_key: str) -> int | None:
    rows = list(
        await db.execute_fetchall("SELECT id FROM tables WHERE start_key = ?", (start_key,))
    )
    return int(rows[0][0]) if rows else None


async def lobby_ids(db: Connection, guild_id: int) -> list[int]:
    """The server's lobbies waiting for players, oldest first."""
    sql = "SELECT id FROM tables WHERE guild_id = ? AND status = 'lobby' ORDER BY id"
    return [int(row[0]) for row in await db.execute_fetchall(sql, (guild_id,))]


async def open_lobbies(db: Connection, guild_id: int, creator_id: int | None = None) -> int:
    """How many lobbies are open in the server (opened by ``creator_id`` when given)."""
    if creator_id is None:
        sql = "SELECT count(*) FROM tables WHERE guild_id = ? AND status = 'lobby'"
        rows = await db.execute_fetchall(sql, (guild_id,))
    else:
        sql = (
            "SELECT count(*) FROM tables WHERE guild_id = ? AND creator_id = ? AND status = 'lobby'"
        )
        rows = await db.execute_fetchall(sql, (guild_id, creator_id))
    return int(next(iter(rows))[0])
