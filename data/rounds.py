"""Rounds (hands, 局): their setup, the action log, results, round scripts and recovery."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from data.clock import from_ms
from data.codec import dump_json, load_json
from data.connection import Connection, Row
from data.errors import ActionSequenceError, NotFoundError, StateError
from data.models import (
    LiveRound,
    LiveTable,
    Payment,
    RecordedPlayer,
    RoundInfo,
    RoundRecord,
    RoundResult,
    Table,
    TableStatus,
    Variant,
    Win,
)
from data.tables import CHAIRS, with_status

SCRIPT_FIELDS = ("variant", "options", "dealer", "dice", "hands", "wall")


def check_setup(setup: Mapping[str, Any], variant: Variant) -> tuple[int, tuple[int, int]]:
    """Validate a round's setup (a round script without `actions`); return its dealer and dice."""
    missing = [name for name in SCRIPT_FIELDS if name not in setup]
    if missing:
        raise ValueError(f"round setup lacks {', '.join(missing)}")
    if "actions" in setup:
        raise ValueError("round setup must not carry actions; append them one by one")
    if setup["variant"] != variant.value:
        raise ValueError(f"round setup is {setup['variant']!r} at a {variant.value} table")
    dealer = setup["dealer"]
    if not isinstance(dealer, int) or not 0 <= dealer < CHAIRS:
        raise ValueError(f"dealer must be a chair 0-3, got {dealer!r}")
    dice = setup["dice"]
    if (
        not isinstance(dice, list | tuple)
        or len(dice) != 2
        or not all(isinstance(die, int) and 1 <= die <= 6 for die in dice)
    ):
        raise ValueError(f"dice must be two numbers 1-6, got {dice!r}")
    hands = setup["hands"]
    if not isinstance(hands, list | tuple) or len(hands) != CHAIRS:
        raise ValueError("hands must list four hands, seat 0 first")
    return dealer, (dice[0], dice[1])


def _info(row: Row) -> RoundInfo:
    dice = load_json(row["dice"])
    return RoundInfo(
        id=row["id"],
        table_id=row["table_id"],
        hand_number=row["hand_number"],
        dealer=row["dealer"],
        dice=(dice[0], dice[1]),
        seed=row["seed"],
        started_at=from_ms(row["started_at"]),
    )


async def get_row(db: Connection, round_id: int) -> Row:
    """The round's row, with its table's guild_id, variant and table_status."""
    rows = list(
        await db.execute_fetchall(
            """
            SELECT rounds.*, tables.guild_id, tables.variant, tables.status AS table_status
            FROM rounds JOIN tables ON tables.id = rounds.table_id
            WHERE rounds.id = ?
            """,
            (round_id,),
        )
    )
    if not rows:
        raise NotFoundError("round", round_id)
    return rows[0]


async def count(db: Connection, table_id: int) -> tuple[int, int]:
    """(rounds begun, rounds finished) at a table."""
    rows = list(
        await db.execute_fetchall(
            "SELECT COUNT(*), COUNT(finished_at) FROM rounds WHERE table_id = ?", (table_id,)
        )
    )
    return int(rows[0][0]), int(rows[0][1])


async def create(
    db: Connection,
    *,
    table_id: int,
    hand_number: int,
    seed: str,
    setup: Mapping[str, Any],
    dealer: int,
    dice: tuple[int, int],
    now_ms: int,
) -> RoundInfo:
    rows = list(
        await db.execute_fetchall(
            """
            INSERT INTO rounds (table_id, hand_number, dealer, dice, seed, setup, started_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            RETURNING *
            """,
            (
                table_id,
                hand_number,
                dealer,
                dump_json(list(dice)),
                seed,
                dump_json(dict(setup)),
                now_ms,
            ),
        )
    )
    return _info(rows[0])


# One statement, so one implicit transaction: the action is stored only if the round is still
# open at a playing table and `seq` is exactly the next number; MAX(seq) reads one entry of
# the primary key.
_APPEND = """
INSERT INTO round_actions (round_id, seq, action, at)
SELECT :round_id, :seq, :action, :now
FROM rounds JOIN tables ON tables.id = rounds.table_id
WHERE rounds.id = :round_id
  AND rounds.finished_at IS NULL
  AND tables.status = 'playing'
  AND :seq = (SELECT COALESCE(MAX(seq) + 1, 0) FROM round_actions WHERE round_id = :round_id)
"""

# Where other transactions write at the same time (PostgreSQL), the round and table rows are
# read with a share lock: a concurrent finish or disband is waited for and then seen, as it
# would be by SQLite's single writer.
_APPEND_LOCKING = _APPEND + "FOR SHARE OF rounds, tables\n"


async def append_action(
    db: Connection,
    round_id: int,
    seq: int,
    action_json: str,
    now_ms: int,
    *,
    lock_rows: bool = False,
) -> bool:
    """Store one action; False when it was refused (see `append_refusal`)."""
    cursor = await db.execute(
        _APPEND_LOCKING if lock_rows else _APPEND,
        {"round_id": round_id, "seq": seq, "action": action_json, "now": now_ms},
    )
    return cursor.rowcount == 1


async def append_refusal(db: Connection, round_id: int, seq: int) -> Exception:
    """Why `append_action` refused: no such round, a round or table that has ended, or the
    wrong number."""
    row = await get_row(db, round_id)
    if row["finished_at"] is not None:
        return StateError(f"round {round_id} is finished; no more actions")
    if row["table_status"] != TableStatus.PLAYING.value:
        return StateError(f"table {row['table_id']} is {row['table_status']}; no more actions")
    rows = list(
        await db.execute_fetchall(
            "SELECT COALESCE(MAX(seq) + 1, 0) FROM round_actions WHERE round_id = ?", (round_id,)
        )
    )
    return ActionSequenceError(round_id, seq, int(rows[0][0]))


async def actions(db: Connection, round_id: int) -> list[dict[str, Any]]:
    rows = await db.execute_fetchall(
        "SELECT action FROM round_actions WHERE round_id = ? ORDER BY seq", (round_id,)
    )
    return [load_json(row[0]) for row in rows]


async def script(db: Connection, round_id: int) -> dict[str, Any]:
    """A finished round as a round script (Contract 2): its setup plus every action."""
    row = await get_row(db, round_id)
    if row["finished_at"] is None:
        raise StateError(f"round {round_id} has not finished")
    document: dict[str, Any] = load_json(row["setup"])
    document["actions"] = await actions(db, round_id)
    return document


def _player_rows(row: Row, table: Table, result: RoundResult, now_ms: int) -> list[tuple[Any, ...]]:
    """One round_players row per chair; chair = (seat + dealer) mod 4."""
    wins_by_seat = {win.seat: win for win in result.wins}
    player_rows = []
    for seat_record in table.seats:
        seat = (seat_record.chair - row["dealer"]) % CHAIRS
        win = wins_by_seat.get(seat)
        player_rows.append(
            (
                row["id"],
                seat_record.chair,
                seat,
                seat_record.user_id,
                table.guild_id,
                table.variant.value,
                now_ms,
                result.net[seat],
                win is not None,
                None if win is None else win.how,
                None if win is None else win.total,
                win is not None and win.from_seat is None,
                sum(1 for other in result.wins if other.from_seat == seat),
            )
        )
    return player_rows


async def record_result(
    db: Connection, row: Row, table: Table, result: RoundResult, now_ms: int
) -> None:
    """Close a round and store its wins, payment lines and each chair's result."""
    if len(table.seats) != CHAIRS:
        raise StateError(f"table {table.id} has {len(table.seats)} seats, not {CHAIRS}")
    await db.execute(
        "UPDATE rounds SET finished_at = ?, next_dealer = ? WHERE id = ?",
        (now_ms, result.next_dealer, row["id"]),
    )
    await db.executemany(
        """
        INSERT INTO round_wins (round_id, seat, how, total, fans, from_seat)
        VALUES (?, ?, ?, ?, ?, ?)
        """,
        [
            (row["id"], win.seat, win.how, win.total, dump_json(list(win.fans)), win.from_seat)
            for win in result.wins
        ],
    )
    await db.executemany(
        """
        INSERT INTO round_payments (round_id, line, payer, payee, amount, reason, extra)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """,
        [
            (
                row["id"],
                line,
                payment.payer,
                payment.payee,
                payment.amount,
                payment.reason,
                None if payment.extra is None else dump_json(dict(payment.extra)),
            )
            for line, payment in enumerate(result.payments)
        ],
    )
    await db.executemany(
        """
        INSERT INTO round_players (
            round_id, chair, seat, user_id, guild_id, variant, finished_at, net, won, how,
            hand_total, self_draw, dealt_in
        )
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        _player_rows(row, table, result, now_ms),
    )


async def record(db: Connection, round_id: int) -> RoundRecord:
    row = await get_row(db, round_id)
    if row["finished_at"] is None:
        raise StateError(f"round {round_id} has not finished")
    player_rows = await db.execute_fetchall(
        """
        SELECT round_players.*, seats.display_name
        FROM round_players
        JOIN rounds ON rounds.id = round_players.round_id
        JOIN seats ON seats.table_id = rounds.table_id AND seats.chair = round_players.chair
        WHERE round_players.round_id = ?
        ORDER BY round_players.chair
        """,
        (round_id,),
    )
    win_rows = await db.execute_fetchall(
        "SELECT * FROM round_wins WHERE round_id = ? ORDER BY seat", (round_id,)
    )
    payment_rows = await db.execute_fetchall(
        "SELECT * FROM round_payments WHERE round_id = ? ORDER BY line", (round_id,)
    )
    players = tuple(
        RecordedPlayer(
            chair=player["chair"],
            seat=player["seat"],
            user_id=player["user_id"],
            display_name=player["display_name"],
            net=player["net"],
            won=bool(player["won"]),
            how=player["how"],
            hand_total=player["hand_total"],
            self_draw=bool(player["self_draw"]),
            dealt_in=player["dealt_in"],
        )
        for player in player_rows
    )
    return RoundRecord(
        info=_info(row),
        guild_id=row["guild_id"],
        variant=Variant(row["variant"]),
        finished_at=from_ms(row["finished_at"]),
        next_dealer=row["next_dealer"],
        players=players,
        wins=tuple(
            Win(
                seat=win["seat"],
                how=win["how"],
                total=win["total"],
                fans=tuple(load_json(win["fans"])),
                from_seat=win["from_seat"],
            )
            for win in win_rows
        ),
        payments=tuple(
            Payment(
                payer=line["payer"],
                payee=line["payee"],
                amount=line["amount"],
                reason=line["reason"],
                extra=None if line["extra"] is None else load_json(line["extra"]),
            )
            for line in payment_rows
        ),
    )


async def standings(db: Connection, table_id: int) -> tuple[int, int, int, int]:
    """Each chair's summed net over the table's finished rounds."""
    rows = await db.execute_fetchall(
        """
        SELECT round_players.chair, SUM(round_players.net)
        FROM rounds JOIN round_players ON round_players.round_id = rounds.id
        WHERE rounds.table_id = ?
        GROUP BY round_players.chair
        """,
        (table_id,),
    )
    totals = [0, 0, 0, 0]
    for chair, total in rows:
        totals[chair] = total
    return totals[0], totals[1], totals[2], totals[3]


# Recovery reads every playing table with a fixed number of statements, whatever their count.
_LIVE_OPEN_ROUNDS = """
SELECT rounds.* FROM rounds JOIN tables ON tables.id = rounds.table_id
WHERE tables.status = 'playing' AND rounds.finished_at IS NULL
"""

_LIVE_ACTIONS = """
SELECT round_actions.round_id, round_actions.action
FROM tables
JOIN rounds ON rounds.table_id = tables.id AND rounds.finished_at IS NULL
JOIN round_actions ON round_actions.round_id = rounds.id
WHERE tables.status = 'playing'
ORDER BY round_actions.round_id, round_actions.seq
"""

_LIVE_FINISHED_COUNTS = """
SELECT rounds.table_id, COUNT(*) AS finished
FROM tables JOIN rounds ON rounds.table_id = tables.id
WHERE tables.status = 'playing' AND rounds.finished_at IS NOT NULL
GROUP BY rounds.table_id
"""

_LIVE_LAST_ROUNDS = """
SELECT rounds.table_id, rounds.id, rounds.next_dealer
FROM tables JOIN rounds ON rounds.table_id = tables.id
WHERE tables.status = 'playing' AND rounds.finished_at IS NOT NULL
  AND rounds.hand_number = (
      SELECT MAX(later.hand_number) FROM rounds AS later
      WHERE later.table_id = rounds.table_id AND later.finished_at IS NOT NULL
  )
"""

_LIVE_STANDINGS = """
SELECT rounds.table_id, round_players.chair, SUM(round_players.net) AS net
FROM tables
JOIN rounds ON rounds.table_id = tables.id
JOIN round_players ON round_players.round_id = rounds.id
WHERE tables.status = 'playing'
GROUP BY rounds.table_id, round_players.chair
"""


async def live_tables(db: Connection) -> list[LiveTable]:
    """Every table in play, with its current round's setup and actions in order."""
    playing = await with_status(db, TableStatus.PLAYING)
    open_rounds = {row["table_id"]: row for row in await db.execute_fetchall(_LIVE_OPEN_ROUNDS)}
    logged: dict[int, list[dict[str, Any]]] = {}
    for round_id, action in await db.execute_fetchall(_LIVE_ACTIONS):
        logged.setdefault(round_id, []).append(load_json(action))
    finished = {
        row["table_id"]: row["finished"] for row in await db.execute_fetchall(_LIVE_FINISHED_COUNTS)
    }
    last_rounds = {row["table_id"]: row for row in await db.execute_fetchall(_LIVE_LAST_ROUNDS)}
    totals: dict[int, list[int]] = {}
    for table_id, chair, net in await db.execute_fetchall(_LIVE_STANDINGS):
        totals.setdefault(table_id, [0, 0, 0, 0])[chair] = net
    live = []
    for table in playing:
        open_row = open_rounds.get(table.id)
        current = None
        if open_row is not None:
            current = LiveRound(
                info=_info(open_row),
                setup=load_json(open_row["setup"]),
                actions=logged.get(open_row["id"], []),
            )
        last = last_rounds.get(table.id)
        chair_totals = totals.get(table.id, [0, 0, 0, 0])
        live.append(
            LiveTable(
                table=table,
                hands_finished=finished.get(table.id, 0),
                standings=(chair_totals[0], chair_totals[1], chair_totals[2], chair_totals[3]),
                current_round=current,
                last_round_id=None if last is None else last["id"],
                next_dealer=None if last is None else last["next_dealer"],
            )
        )
    return live
