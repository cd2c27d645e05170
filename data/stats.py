"""Per-player totals, leaderboards, player statistics and history.

player_totals holds, for every (scope, variant, period, user), the aggregate of that user's
round_players rows in the period's window: scope is a guild or 0 for all servers, variant a
rule set or 'all'. A finished round is added to every window containing its day. When the
day moves on, the rows of the days leaving a window are subtracted; the best hand, a maximum,
is recomputed from round_players only for the players whose best left the window. A window
left unrolled for a whole period or more, and any period never built, is rebuilt whole.
"""

from __future__ import annotations

from data.clock import MS_PER_DAY, from_ms
from data.connection import Connection, Row
from data.models import (
    LeaderboardEntry,
    Period,
    PlayerStats,
    Ranking,
    RoundSummary,
    Variant,
)

OVERALL = 0
ALL_VARIANTS = "all"

# The finished rounds of [since, until) per (guild, variant, user), then the four rollups of
# each: the guild and every server, the rule set and every rule set.
_WINDOW_ROWS = """
WITH per AS MATERIALIZED (
    SELECT rp.guild_id, rp.variant, rp.user_id,
           COUNT(*) AS games, SUM(rp.won) AS wins, SUM(rp.self_draw) AS self_draws,
           SUM(rp.dealt_in) AS deal_ins, SUM(rp.net) AS net, MAX(rp.hand_total) AS best_hand
    FROM rounds AS r JOIN round_players AS rp ON rp.round_id = r.id
    WHERE r.finished_at >= :since AND r.finished_at < :until AND rp.user_id IS NOT NULL
    GROUP BY rp.guild_id, rp.variant, rp.user_id
),
keyed AS (
    SELECT guild_id AS scope, variant, user_id, games, wins, self_draws, deal_ins, net, best_hand
    FROM per
    UNION ALL
    SELECT 0, variant, user_id, games, wins, self_draws, deal_ins, net, best_hand FROM per
    UNION ALL
    SELECT guild_id, 'all', user_id, games, wins, self_draws, deal_ins, net, best_hand FROM per
    UNION ALL
    SELECT 0, 'all', user_id, games, wins, self_draws, deal_ins, net, best_hand FROM per
),
rolled AS (
    SELECT scope, variant, user_id, SUM(games) AS games, SUM(wins) AS wins,
           SUM(self_draws) AS self_draws, SUM(deal_ins) AS deal_ins, SUM(net) AS net,
           MAX(best_hand) AS best_hand
    FROM keyed GROUP BY scope, variant, user_id
)
"""

_REBUILD = (
    _WINDOW_ROWS
    + """
INSERT INTO player_totals (
    scope, variant, period, user_id, games, wins, self_draws, deal_ins, net, best_hand
)
SELECT scope, variant, :period, user_id, games, wins, self_draws, deal_ins, net, best_hand
FROM rolled
"""
)

# The best hand is recomputed only where the leaving rows held it.
_EXPIRE = (
    _WINDOW_ROWS
    + """
UPDATE player_totals
SET games = player_totals.games - rolled.games,
    wins = player_totals.wins - rolled.wins,
    self_draws = player_totals.self_draws - rolled.self_draws,
    deal_ins = player_totals.deal_ins - rolled.deal_ins,
    net = player_totals.net - rolled.net,
    best_hand = CASE
        WHEN rolled.best_hand IS NOT NULL AND rolled.best_hand >= player_totals.best_hand THEN (
            SELECT MAX(rp.hand_total) FROM round_players AS rp
            WHERE rp.user_id = rolled.user_id AND rp.finished_at >= :until
              AND (rolled.scope = 0 OR rp.guild_id = rolled.scope)
              AND (rolled.variant = 'all' OR rp.variant = rolled.variant)
        )
        ELSE player_totals.best_hand
    END
FROM rolled
WHERE player_totals.scope = rolled.scope
  AND player_totals.variant = rolled.variant
  AND player_totals.period = :period
  AND player_totals.user_id = rolled.user_id
"""
)


def keep_best(table: str) -> str:
    """An upsert's new best hand: the larger of the row's and the added one's."""
    return f"""CASE
        WHEN {table}.best_hand IS NULL OR excluded.best_hand > {table}.best_hand
        THEN excluded.best_hand
        ELSE {table}.best_hand
    END
"""


_ADD = """
INSERT INTO player_totals (
    scope, variant, period, user_id, games, wins, self_draws, deal_ins, net, best_hand
)
VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?)
ON CONFLICT (scope, variant, period, user_id) DO UPDATE SET
    games = player_totals.games + 1,
    wins = player_totals.wins + excluded.wins,
    self_draws = player_totals.self_draws + excluded.self_draws,
    deal_ins = player_totals.deal_ins + excluded.deal_ins,
    net = player_totals.net + excluded.net,
    best_hand = """ + keep_best("player_totals")

_FOREVER = 2**62


async def roll_windows(db: Connection, today: int) -> dict[Period, int]:
    """Bring every period's totals up to UTC day `today`; return each period's day."""
    rows = await db.execute_fetchall("SELECT period, as_of_day FROM stat_windows")
    as_of = {Period(period): day for period, day in rows}
    for period, day in as_of.items():
        if day is not None and day >= today:
            continue
        await _roll(db, period, day, today)
        await db.execute(
            "UPDATE stat_windows SET as_of_day = ? WHERE period = ?", (today, period.value)
        )
        as_of[period] = today
    return as_of


async def _roll(db: Connection, period: Period, as_of: int | None, today: int) -> None:
    days = period.days
    if days is None:
        if as_of is None:
            await _rebuild(db, period, since=-_FOREVER)
        return
    start = (today - days + 1) * MS_PER_DAY
    if as_of is None or today - as_of >= days:
        await _rebuild(db, period, since=start)
        return
    leaving = (as_of - days + 1) * MS_PER_DAY
    await db.execute(_EXPIRE, {"since": leaving, "until": start, "period": period.value})
    await db.execute("DELETE FROM player_totals WHERE period = ? AND games = 0", (period.value,))


async def _rebuild(db: Connection, period: Period, since: int) -> None:
    await db.execute("DELETE FROM player_totals WHERE period = ?", (period.value,))
    await db.execute(_REBUILD, {"since": since, "until": _FOREVER, "period": period.value})


async def add_round(db: Connection, round_id: int, day: int, windows: dict[Period, int]) -> None:
    """Count a just-finished round, of UTC day `day`, in every window that contains that day."""
    periods = [
        period
        for period, as_of in windows.items()
        if period.days is None or as_of - period.days < day
    ]
    rows = await db.execute_fetchall(
        """
        SELECT guild_id, variant, user_id, won, self_draw, dealt_in, net, hand_total
        FROM round_players WHERE round_id = ? AND user_id IS NOT NULL
        """,
        (round_id,),
    )
    params = [
        (scope, variant, period.value, user_id, won, self_draw, dealt_in, net, hand_total)
        for guild_id, rule_set, user_id, won, self_draw, dealt_in, net, hand_total in rows
        for scope in (guild_id, OVERALL)
        for variant in (rule_set, ALL_VARIANTS)
        for period in periods
    ]
    await db.executemany(_ADD, params)


_LEADERBOARD_SELECT = """
SELECT pt.user_id, pt.games, pt.wins, pt.self_draws, pt.deal_ins, pt.net, pt.best_hand,
       COALESCE(m.display_name, p.display_name) AS display_name
FROM player_totals AS pt
LEFT JOIN guild_members AS m ON m.guild_id = pt.scope AND m.user_id = pt.user_id
LEFT JOIN players AS p ON p.user_id = pt.user_id
WHERE pt.scope = :scope AND pt.variant = :variant AND pt.period = :period
  AND pt.games >= :min_games
"""

# Each order matches one index of player_totals, so a page reads only its own rows
# (plus those skipped by the minimum-games filter).
LEADERBOARD_SQL = {
    Ranking.NET: _LEADERBOARD_SELECT
    + "ORDER BY pt.net DESC, pt.user_id LIMIT :limit OFFSET :offset",
    Ranking.WIN_RATE: _LEADERBOARD_SELECT
    + "ORDER BY pt.win_rate DESC, pt.games DESC, pt.user_id LIMIT :limit OFFSET :offset",
    Ranking.BEST_HAND: _LEADERBOARD_SELECT
    + "AND pt.best_hand IS NOT NULL\n"
    + "ORDER BY pt.best_hand DESC, pt.user_id LIMIT :limit OFFSET :offset",
}


def _stats(row: Row) -> PlayerStats:
    return PlayerStats(
        user_id=row["user_id"],
        games=row["games"],
        wins=row["wins"],
        self_draws=row["self_draws"],
        deal_ins=row["deal_ins"],
        net=row["net"],
        best_hand=row["best_hand"],
    )


def key(guild_id: int | None, variant: Variant | None) -> tuple[int, str]:
    scope = OVERALL if guild_id is None else guild_id
    return scope, ALL_VARIANTS if variant is None else variant.value


async def leaderboard(
    db: Connection,
    *,
    guild_id: int | None,
    variant: Variant | None,
    period: Period,
    ranking: Ranking,
    min_games: int,
    limit: int,
    offset: int,
) -> list[LeaderboardEntry]:
    scope, variant_key = key(guild_id, variant)
    rows = await db.execute_fetchall(
        LEADERBOARD_SQL[ranking],
        {
            "scope": scope,
            "variant": variant_key,
            "period": period.value,
            "min_games": max(min_games, 1),
            "limit": limit,
            "offset": offset,
        },
    )
    return [
        LeaderboardEntry(rank=offset + index, display_name=row["display_name"], stats=_stats(row))
        for index, row in enumerate(rows, start=1)
    ]


async def player_stats(
    db: Connection,
    user_id: int,
    *,
    guild_id: int | None,
    variant: Variant | None,
    period: Period,
) -> PlayerStats:
    scope, variant_key = key(guild_id, variant)
    rows = list(
        await db.execute_fetchall(
            """
            SELECT * FROM player_totals
            WHERE scope = ? AND variant = ? AND period = ? AND user_id = ?
            """,
            (scope, variant_key, period.value, user_id),
        )
    )
    return _stats(rows[0]) if rows else PlayerStats(user_id)


async def recent_rounds(
    db: Connection,
    user_id: int,
    *,
    guild_id: int | None,
    variant: Variant | None,
    limit: int,
) -> list[RoundSummary]:
    rows = await db.execute_fetchall(
        """
        SELECT rp.*, r.table_id, r.hand_number
        FROM round_players AS rp JOIN rounds AS r ON r.id = rp.round_id
        WHERE rp.user_id = :user_id
          AND rp.guild_id = COALESCE(:guild_id, rp.guild_id)
          AND rp.variant = COALESCE(:variant, rp.variant)
        ORDER BY rp.finished_at DESC, rp.round_id DESC
        LIMIT :limit
        """,
        {
            "user_id": user_id,
            "guild_id": guild_id,
            "variant": None if variant is None else variant.value,
            "limit": limit,
        },
    )
    return [
        RoundSummary(
            round_id=row["round_id"],
            table_id=row["table_id"],
            guild_id=row["guild_id"],
            variant=Variant(row["variant"]),
            hand_number=row["hand_number"],
            finished_at=from_ms(row["finished_at"]),
            chair=row["chair"],
            net=row["net"],
            won=bool(row["won"]),
            how=row["how"],
            hand_total=row["hand_total"],
            self_draw=bool(row["self_draw"]),
            dealt_in=row["dealt_in"],
        )
        for row in rows
    ]
