"""Ratings: updated when a session ends, from its placements, with openskill's Plackett–Luce.

A session is a table that played all its hands. Its placements come from each chair's
summed net (ties share a place). Every human at the table is rated in each of these
keys: (this server, all time), (every server, all time) and, while a season runs in the
server, (this server, that season); each for the rule set and for every rule set together.

AI seats take part with a fixed rating per level and are never updated: an AI plays the
same whatever it met before, so its strength is known, and rating it would let anyone
farm points off it. A human who beats a strong AI gains more than one who beats a random
one, which is what a table with AI seats should mean.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from data.clock import from_ms
from data.connection import Connection, Row
from data.models import (
    BiggestHand,
    FanCount,
    LeaderboardEntry,
    PlayerStats,
    Ranking,
    Rating,
    RatingPoint,
    Table,
    Variant,
)
from data.stats import ALL_VARIANTS, OVERALL, keep_best

#: The library's defaults: mu 25, sigma 25/3 for a new player.
MODEL = PlackettLuce()

#: Every AI level's fixed (mu, sigma), by the number a seat stores
#: (``bot.runtime.seats.STORED_LEVELS``: random, basic, normal, easy, strong): random play
#: far below a new player, easy (basic play with slips) and basic below, normal about
#: where a new player starts, strong a little above it (duplicate play, README "AI
#: players"). A small sigma: the level's strength is known and it does not move.
AI_RATINGS: dict[int, tuple[float, float]] = {
    0: (5.0, 1.0),
    1: (18.0, 1.0),
    2: (25.0, 1.0),
    3: (14.0, 1.0),
    4: (28.0, 1.0),
}

#: The season key of all-time ratings.
ALL_TIME = 0


def ai_rating(level: int) -> tuple[float, float]:
    """An unknown level (a number stored by a later version) rates as normal."""
    return AI_RATINGS.get(level, AI_RATINGS[2])


def placements(scores: Sequence[int]) -> list[int]:
    """Each chair's place from its session score: 1 + the chairs strictly ahead.

    >>> placements([10, -5, 10, -15])
    [1, 3, 1, 4]
    """
    return [1 + sum(1 for other in scores if other > score) for score in scores]


def rate(before: Sequence[tuple[float, float]], places: Sequence[int]) -> list[tuple[float, float]]:
    """Every seat's (mu, sigma) after a session, as the library computes it."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    after = MODEL.rate(teams, ranks=list(places))
    return [(team[0].mu, team[0].sigma) for team in after]


def new_rating() -> tuple[float, float]:
    fresh = MODEL.rating()
    return fresh.mu, fresh.sigma


_SESSION_TOTALS = """
SELECT rp.chair, COUNT(*) AS hands, SUM(rp.won) AS wins, SUM(rp.dealt_in) AS deal_ins,
       SUM(rp.net) AS net, MAX(rp.hand_total) AS best_hand
FROM rounds AS r JOIN round_players AS rp ON rp.round_id = r.id
WHERE r.table_id = ?
GROUP BY rp.chair
"""

_UPSERT = """
INSERT INTO ratings (
    scope, season, variant, user_id, mu, sigma, rating, sessions, hands, wins, deal_ins, net,
    best_hand, updated_at
)
VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)
ON CONFLICT (scope, season, variant, user_id) DO UPDATE SET
    mu = excluded.mu,
    sigma = excluded.sigma,
    rating = excluded.rating,
    sessions = ratings.sessions + 1,
    hands = ratings.hands + excluded.hands,
    wins = ratings.wins + excluded.wins,
    deal_ins = ratings.deal_ins + excluded.deal_ins,
    net = ratings.net + excluded.net,
    updated_at = excluded.updated_at,
    best_hand = """ + keep_best("ratings")

_HISTORY = """
INSERT INTO rating_history (
    table_id, scope, season, variant, user_id, placement, mu, sigma, rating, at
)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""


async def rate_session(
    db: Connection,
    table: Table,
    scores: Sequence[int],
    season_id: int | None,
    now_ms: int,
) -> None:
    """Rate every human of a finished table in each of its keys (see the module's text)."""
    seats = sorted(table.seats, key=lambda seat: seat.chair)
    humans = [seat for seat in seats if seat.user_id is not None]
    if not humans:
        return
    places = placements(scores)
    totals = {row["chair"]: row for row in await db.execute_fetchall(_SESSION_TOTALS, (table.id,))}
    keys = [(table.guild_id, ALL_TIME), (OVERALL, ALL_TIME)]
    if season_id is not None:
        keys.append((table.guild_id, season_id))
    marks = ", ".join("?" for _ in humans)
    for scope, season in keys:
        for variant in (table.variant.value, ALL_VARIANTS):
            rows = await db.execute_fetchall(
                f"""
                SELECT user_id, mu, sigma FROM ratings
                WHERE scope = ? AND season = ? AND variant = ? AND user_id IN ({marks})
                """,
                (scope, season, variant, *[seat.user_id for seat in humans]),
            )
            known = {row["user_id"]: (row["mu"], row["sigma"]) for row in rows}
            before = [
                known.get(seat.user_id, new_rating())
                if seat.user_id is not None
                else ai_rating(seat.ai_level or 0)
                for seat in seats
            ]
            after = rate(before, places)
            upserts, history = [], []
            for seat in humans:
                mu, sigma = after[seat.chair]
                ordinal = mu - 3 * sigma
                chair = totals.get(seat.chair)
                upserts.append(
                    (
                        scope,
                        season,
                        variant,
                        seat.user_id,
                        mu,
                        sigma,
                        ordinal,
                        0 if chair is None else chair["hands"],
                        0 if chair is None else chair["wins"],
                        0 if chair is None else chair["deal_ins"],
                        0 if chair is None else chair["net"],
                        None if chair is None else chair["best_hand"],
                        now_ms,
                    )
                )
                history.append(
                    (
                        table.id,
                        scope,
                        season,
                        variant,
                        seat.user_id,
                        places[seat.chair],
                        mu,
                        sigma,
                        ordinal,
                        now_ms,
                    )
                )
            await db.executemany(_UPSERT, upserts)
            await db.executemany(_HISTORY, history)


def _rating(row: Row) -> Rating:
    return Rating(mu=row["mu"], sigma=row["sigma"], sessions=row["sessions"])


_BOARD_SELECT = """
SELECT r.user_id, r.mu, r.sigma, r.sessions, r.hands, r.wins, r.deal_ins, r.net, r.best_hand,
       COALESCE(m.display_name, p.display_name) AS display_name
FROM ratings AS r
LEFT JOIN guild_members AS m ON m.guild_id = r.scope AND m.user_id = r.user_id
LEFT JOIN players AS p ON p.user_id = r.user_id
WHERE r.scope = :scope AND r.season = :season AND r.variant = :variant
"""

_SESSIONS = "AND r.sessions >= :min_games\n"
_PAGE = "LIMIT :limit OFFSET :offset"

# Each order reads one index of ratings, which carries the count its minimum is of.
BOARD_SQL = {
    Ranking.RATING: _BOARD_SELECT + _SESSIONS + "ORDER BY r.rating DESC, r.user_id " + _PAGE,
    Ranking.NET: _BOARD_SELECT + _SESSIONS + "ORDER BY r.net DESC, r.user_id " + _PAGE,
    # A win rate is of hands, so its minimum is too.
    Ranking.WIN_RATE: _BOARD_SELECT
    + "AND r.hands >= :min_games\n"
    + "ORDER BY r.win_rate DESC, r.hands DESC, r.user_id "
    + _PAGE,
    Ranking.BEST_HAND: _BOARD_SELECT
    + _SESSIONS
    + "AND r.best_hand IS NOT NULL\nORDER BY r.best_hand DESC, r.user_id "
    + _PAGE,
}


async def board(
    db: Connection,
    *,
    scope: int,
    season: int,
    variant: str,
    ranking: Ranking,
    min_games: int,
    limit: int,
    offset: int,
) -> list[LeaderboardEntry]:
    """A board of ratings rows: by rating, or a season's by net, win rate or best hand
    (hands and wins of its rated sessions). `min_games` counts hands on the win-rate
    board, rated sessions on the others."""
    rows = await db.execute_fetchall(
        BOARD_SQL[ranking],
        {
            "scope": scope,
            "season": season,
            "variant": variant,
            "min_games": max(min_games, 1),
            "limit": limit,
            "offset": offset,
        },
    )
    return [
        LeaderboardEntry(
            rank=offset + index,
            display_name=row["display_name"],
            stats=PlayerStats(
                user_id=row["user_id"],
                games=row["hands"],
                wins=row["wins"],
                deal_ins=row["deal_ins"],
                net=row["net"],
                best_hand=row["best_hand"],
            ),
            rating=_rating(row),
        )
        for index, row in enumerate(rows, start=1)
    ]


async def rating(
    db: Connection, user_id: int, *, scope: int, season: int, variant: str
) -> Rating | None:
    rows = list(
        await db.execute_fetchall(
            """
            SELECT mu, sigma, sessions FROM ratings
            WHERE scope = ? AND season = ? AND variant = ? AND user_id = ?
            """,
            (scope, season, variant, user_id),
        )
    )
    return _rating(rows[0]) if rows else None


#: The most points a /stats plot draws: the latest sessions.
HISTORY_POINTS = 200


async def history(
    db: Connection, user_id: int, *, scope: int, season: int, variant: str
) -> tuple[list[RatingPoint], tuple[int, int, int, int]]:
    """The latest rating points, oldest first, and every placement counted."""
    key = (user_id, scope, season, variant)
    rows = await db.execute_fetchall(
        """
        SELECT table_id, placement, mu, sigma, at FROM rating_history
        WHERE user_id = ? AND scope = ? AND season = ? AND variant = ?
        ORDER BY at DESC, table_id DESC
        LIMIT ?
        """,
        (*key, HISTORY_POINTS),
    )
    counted = await db.execute_fetchall(
        """
        SELECT placement, COUNT(*) AS n FROM rating_history
        WHERE user_id = ? AND scope = ? AND season = ? AND variant = ?
        GROUP BY placement
        """,
        key,
    )
    places = [0, 0, 0, 0]
    for row in counted:
        places[row["placement"] - 1] = row["n"]
    total = sum(places)
    rows = list(rows)
    points = [
        RatingPoint(
            at=from_ms(row["at"]),
            table_id=row["table_id"],
            placement=row["placement"],
            rating=Rating(row["mu"], row["sigma"], total - index),
        )
        for index, row in enumerate(rows)
    ]
    points.reverse()
    return points, (places[0], places[1], places[2], places[3])


async def session_change(
    db: Connection, table: Table, user_id: int
) -> tuple[Rating | None, Rating] | None:
    """A player's rating in the table's server and rule set (all time) before and after
    the table's session; None when the session did not rate them."""
    key = (user_id, table.guild_id, ALL_TIME, table.variant.value)
    rows = list(
        await db.execute_fetchall(
            """
            SELECT at FROM rating_history
            WHERE table_id = ? AND user_id = ? AND scope = ? AND season = ? AND variant = ?
            """,
            (table.id, *key),
        )
    )
    if not rows:
        return None
    at = rows[0]["at"]
    rows = list(
        await db.execute_fetchall(
            """
            SELECT table_id, mu, sigma FROM rating_history
            WHERE user_id = ? AND scope = ? AND season = ? AND variant = ?
              AND (at < ? OR (at = ? AND table_id <= ?))
            ORDER BY at DESC, table_id DESC
            LIMIT 2
            """,
            (*key, at, at, table.id),
        )
    )
    counted = list(
        await db.execute_fetchall(
            """
            SELECT COUNT(*) FROM rating_history
            WHERE user_id = ? AND scope = ? AND season = ? AND variant = ?
              AND (at < ? OR (at = ? AND table_id <= ?))
            """,
            (*key, at, at, table.id),
        )
    )
    sessions = int(counted[0][0])
    after = Rating(rows[0]["mu"], rows[0]["sigma"], sessions)
    before = None if len(rows) < 2 else Rating(rows[1]["mu"], rows[1]["sigma"], sessions - 1)
    return before, after


#: The most recent wins /stats counts fans over.
FAN_WINDOW = 500

_WINS = """
SELECT rp.round_id, rp.variant, w.total, w.how, w.fans
FROM round_players AS rp
JOIN round_wins AS w ON w.round_id = rp.round_id AND w.seat = rp.seat
WHERE rp.user_id = :user_id AND rp.won = 1
  AND rp.guild_id = COALESCE(:guild_id, rp.guild_id)
  AND rp.variant = COALESCE(:variant, rp.variant)
"""


async def wins(
    db: Connection, user_id: int, *, guild_id: int | None, variant: Variant | None
) -> tuple[list[Row], Row | None]:
    """The player's latest wins (for fan counts) and their biggest one."""
    params = {
        "user_id": user_id,
        "guild_id": guild_id,
        "variant": None if variant is None else variant.value,
    }
    latest = await db.execute_fetchall(
        _WINS + "ORDER BY rp.finished_at DESC, rp.round_id DESC LIMIT :limit",
        {**params, "limit": FAN_WINDOW},
    )
    biggest = list(
        await db.execute_fetchall(
            _WINS + "ORDER BY w.total DESC, rp.finished_at DESC, rp.round_id DESC LIMIT 1",
            params,
        )
    )
    return list(latest), biggest[0] if biggest else None


def fan_counts(
    rows: Sequence[Row], fans_of: Sequence[Sequence[dict[str, object]]]
) -> list[FanCount]:
    """Fan ids counted over wins, most frequent first (by rule set and id)."""
    counts: dict[tuple[str, str], int] = {}
    names: dict[tuple[str, str], tuple[str, str]] = {}
    for row, fans in zip(rows, fans_of, strict=True):
        for fan in fans:
            key = (row["variant"], str(fan.get("id")))
            counts[key] = counts.get(key, 0) + 1
            names.setdefault(key, (str(fan.get("zh", "")), str(fan.get("en", ""))))
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [FanCount(Variant(key[0]), key[1], n, *names[key]) for key, n in ranked]


def biggest_hand(row: Row, fans: Sequence[dict[str, object]]) -> BiggestHand:
    return BiggestHand(
        round_id=row["round_id"],
        variant=Variant(row["variant"]),
        total=row["total"],
        how=row["how"],
        fans=tuple(fans),
    )
