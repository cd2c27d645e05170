"""Leaderboards, player statistics and history, and the totals behind them."""

from __future__ import annotations

import random
import sqlite3
from collections import defaultdict
from pathlib import Path

import pytest

from data import LeaderboardEntry, Period, PlayerStats, RoundResult, SqliteStore, Variant
from data.clock import day_of, to_ms
from data.models import Ranking
from data.sql_store import SqlStore
from data.stats import LEADERBOARD_SQL
from tests.data.databases import Database
from tests.data.store_support import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    ERIN,
    GUILD,
    OTHER_GUILD,
    FakeClock,
    MakeTable,
    PlayRound,
    discard_win,
    no_win,
    self_draw_win,
)

# Every test table below has dealer chair 0, so seat = chair.


def _board(entries: list[LeaderboardEntry]) -> list[tuple[int, int]]:
    return [(entry.stats.user_id, entry.stats.net) for entry in entries]


async def test_player_stats(store: SqlStore, make_table: MakeTable, play_round: PlayRound) -> None:
    table = await make_table((ALICE, BOB, CAROL, None), rounds=8)
    await play_round(table, discard_win(0, 1, 10, 5))
    await play_round(table, self_draw_win(0, 4, 12))
    await play_round(table, discard_win(2, 0, 6, 2))
    await play_round(table, no_win())
    stats = await store.player_stats(ALICE)
    assert stats == PlayerStats(
        ALICE, games=4, wins=2, self_draws=1, deal_ins=1, net=10 + 12 - 6, best_hand=12
    )
    assert (stats.win_rate, stats.self_draw_share) == (0.5, 0.5)
    bob = await store.player_stats(BOB, guild_id=GUILD, variant=Variant.SICHUAN)
    assert (bob.games, bob.wins, bob.deal_ins, bob.net, bob.best_hand) == (4, 0, 1, -14, None)
    assert (bob.win_rate, bob.self_draw_share) == (0.0, 0.0)
    assert await store.player_stats(ALICE, variant=Variant.MCR) == PlayerStats(ALICE)
    assert await store.player_stats(ERIN) == PlayerStats(ERIN)


async def test_leaderboard_scopes_and_variants(
    store: SqlStore, make_table: MakeTable, play_round: PlayRound
) -> None:
    home = await make_table((ALICE, BOB, CAROL, DAVE), variant=Variant.MCR)
    away = await make_table((BOB, ALICE, ERIN, None), guild_id=OTHER_GUILD)
    await store.touch_member(OTHER_GUILD, ALICE, "Ali")
    await play_round(home, discard_win(0, 1, 30, 20))
    await play_round(away, discard_win(0, 1, 50, 3))
    await play_round(away, discard_win(2, 1, 10, 1))

    assert _board(await store.leaderboard(guild_id=GUILD)) == [
        (ALICE, 30),
        (CAROL, 0),
        (DAVE, 0),
        (BOB, -30),
    ]
    assert _board(await store.leaderboard(guild_id=OTHER_GUILD)) == [
        (BOB, 50),
        (ERIN, 10),
        (ALICE, -60),
    ]
    assert _board(await store.leaderboard()) == [
        (BOB, 20),
        (ERIN, 10),
        (CAROL, 0),
        (DAVE, 0),
        (ALICE, -30),
    ]
    assert _board(await store.leaderboard(variant=Variant.MCR)) == _board(
        await store.leaderboard(guild_id=GUILD)
    )
    assert await store.leaderboard(guild_id=GUILD, variant=Variant.GUANGDONG) == []
    names = {e.stats.user_id: e.display_name for e in await store.leaderboard(guild_id=OTHER_GUILD)}
    assert names[ALICE] == "Ali"
    overall = {e.stats.user_id: e.display_name for e in await store.leaderboard()}
    assert overall[ALICE] == "Ali"


async def test_rankings_and_minimum_games(
    store: SqlStore, make_table: MakeTable, play_round: PlayRound
) -> None:
    first = await make_table((ALICE, BOB, CAROL, DAVE), rounds=4)
    await play_round(first, discard_win(0, 1, 5, 8))
    await play_round(first, discard_win(2, 1, 5, 40))
    await play_round(first, discard_win(0, 3, 5, 16))
    await play_round(first, discard_win(1, 3, 5, 8))
    second = await make_table((ERIN, None, None, None), rounds=1)
    await play_round(second, self_draw_win(0, 1, 2))

    by_rate = await store.leaderboard(ranking=Ranking.WIN_RATE)
    # Erin 1/1, then Alice 2/4, then Bob and Carol 1/4 (tied; user id decides), then Dave 0/4.
    assert [e.stats.user_id for e in by_rate] == [ERIN, ALICE, BOB, CAROL, DAVE]
    assert [e.rank for e in by_rate] == [1, 2, 3, 4, 5]
    by_rate_seasoned = await store.leaderboard(ranking=Ranking.WIN_RATE, min_games=2)
    assert [e.stats.user_id for e in by_rate_seasoned] == [ALICE, BOB, CAROL, DAVE]
    by_hand = await store.leaderboard(ranking=Ranking.BEST_HAND)
    assert [(e.stats.user_id, e.stats.best_hand) for e in by_hand] == [
        (CAROL, 40),
        (ALICE, 16),
        (BOB, 8),
        (ERIN, 2),
    ]
    page = await store.leaderboard(ranking=Ranking.NET, limit=2, offset=2)
    assert [(e.rank, e.stats.user_id) for e in page] == [(3, ERIN), (4, BOB)]


async def test_periods_follow_the_clock(
    store: SqlStore, make_table: MakeTable, play_round: PlayRound, clock: FakeClock
) -> None:
    table = await make_table((ALICE, BOB, CAROL, DAVE), rounds=16)
    await play_round(table, discard_win(0, 1, 10, 30))  # day 0
    clock.advance(days=20)
    await play_round(table, discard_win(0, 2, 4, 10))  # day 20
    clock.advance(days=5)
    await play_round(table, discard_win(3, 2, 1, 8))  # day 25

    async def alice(period: Period) -> tuple[int, int, int | None]:
        stats = await store.player_stats(ALICE, period=period)
        return stats.games, stats.net, stats.best_hand

    assert await alice(Period.ALL) == (3, 14, 30)
    assert await alice(Period.DAYS_30) == (3, 14, 30)
    assert await alice(Period.DAYS_7) == (2, 4, 10)
    clock.advance(days=5)  # day 30: day 0 has left the 30-day window, taking the best hand
    assert await alice(Period.DAYS_30) == (2, 4, 10)
    assert _board(await store.leaderboard(period=Period.DAYS_30)) == [
        (ALICE, 4),
        (DAVE, 1),
        (BOB, 0),
        (CAROL, -5),
    ]
    clock.advance(days=1)  # day 31: the 7-day window is days 25-31
    assert await alice(Period.DAYS_7) == (1, 0, None)
    clock.advance(days=1)
    assert await alice(Period.DAYS_7) == (0, 0, None)
    clock.advance(days=100)
    assert await alice(Period.DAYS_30) == (0, 0, None)
    assert await store.leaderboard(period=Period.DAYS_7) == []
    assert await alice(Period.ALL) == (3, 14, 30)


async def test_recent_rounds(
    store: SqlStore, make_table: MakeTable, play_round: PlayRound, clock: FakeClock
) -> None:
    sichuan = await make_table((ALICE, BOB, CAROL, DAVE), rounds=4)
    mcr = await make_table((BOB, ALICE, None, None), variant=Variant.MCR, guild_id=OTHER_GUILD)
    played = []
    for hand in range(3):
        clock.advance(minutes=10)
        played.append(await play_round(sichuan, discard_win(1, 0, 3, hand + 1)))
        clock.advance(minutes=10)
        played.append(await play_round(mcr, self_draw_win(1, 8, 10)))
    history = await store.recent_rounds(ALICE, limit=4)
    assert [line.round_id for line in history] == [p.id for p in reversed(played)][:4]
    latest = history[0]
    assert (latest.variant, latest.guild_id, latest.chair, latest.hand_number) == (
        Variant.MCR,
        OTHER_GUILD,
        1,
        3,
    )
    assert (latest.won, latest.how, latest.hand_total, latest.self_draw, latest.net) == (
        True,
        "self_draw",
        10,
        True,
        24,
    )
    only_home = await store.recent_rounds(ALICE, guild_id=GUILD)
    assert [line.variant for line in only_home] == [Variant.SICHUAN] * 3
    assert [line.dealt_in for line in only_home] == [1, 1, 1]
    only_mcr = await store.recent_rounds(BOB, variant=Variant.MCR, limit=2)
    assert [line.round_id for line in only_mcr] == [played[5].id, played[3].id]
    assert await store.recent_rounds(ERIN) == []


async def test_leaderboards_read_in_index_order(sqlite_store: SqliteStore, db_path: Path) -> None:
    params = {"scope": 0, "variant": "all", "period": "all", "min_games": 1}
    params |= {"limit": 10, "offset": 0}
    with sqlite3.connect(db_path) as db:
        for ranking, sql in LEADERBOARD_SQL.items():
            plan = " | ".join(row[3] for row in db.execute(f"EXPLAIN QUERY PLAN {sql}", params))
            assert "TEMP B-TREE" not in plan, (ranking, plan)
            assert "USING INDEX player_totals_" in plan or "COVERING INDEX" in plan, plan


# (net, won, self-drawn, deal-ins, hand total) of one player in one round
Played = tuple[int, bool, bool, int, int | None]
# (UTC day, guild, variant, each human's result) of one round
Logged = tuple[int, int, str, dict[int, Played]]
Key = tuple[int, str, str, int]


def _expected_totals(log: list[Logged], today: int) -> dict[Key, tuple[int | None, ...]]:
    """Brute force: every (scope, variant, period, user) total from the rounds played."""
    sums: dict[Key, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    best: dict[Key, int] = {}
    for day, guild, variant, players in log:
        for period in Period:
            if period.days is not None and day <= today - period.days:
                continue
            for scope in (guild, 0):
                for rule_set in (variant, "all"):
                    for user, (net, won, self_draw, dealt_in, hand) in players.items():
                        key = (scope, rule_set, period.value, user)
                        counts = sums[key]
                        counts[0] += 1
                        counts[1] += won
                        counts[2] += self_draw
                        counts[3] += dealt_in
                        counts[4] += net
                        if hand is not None:
                            best[key] = max(hand, best.get(key, hand))
    return {key: (*counts, best.get(key)) for key, counts in sums.items()}


async def _stored_totals(database: Database) -> dict[Key, tuple[int | None, ...]]:
    rows = await database.fetch(
        "SELECT scope, variant, period, user_id, games, wins, self_draws, deal_ins, net, "
        "best_hand FROM player_totals"
    )
    return {(row[0], row[1], row[2], row[3]): tuple(row[4:]) for row in rows}


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_totals_match_a_full_recount(
    store: SqlStore,
    make_table: MakeTable,
    play_round: PlayRound,
    clock: FakeClock,
    database: Database,
    seed: int,
) -> None:
    rng = random.Random(seed)
    people = [ALICE, BOB, CAROL, DAVE, ERIN]
    for user in people:
        await store.grant_cards(GUILD, user, 500, key=f"seed{user}", actor_id=0)
        await store.grant_cards(OTHER_GUILD, user, 500, key=f"other{user}", actor_id=0)
    log: list[Logged] = []
    table = None
    for _ in range(90):
        if table is None or rng.random() < 0.15:
            chairs: list[int | None] = rng.sample(people, 3)
            chairs.append(rng.choice([None, *[u for u in people if u not in chairs]]))
            table = await make_table(
                chairs,
                guild_id=rng.choice([GUILD, OTHER_GUILD]),
                variant=rng.choice(list(Variant)),
                rounds=16,
            )
            hands_left = 16
        winner, loser = rng.sample(range(4), 2)
        result: RoundResult = rng.choice(
            [
                discard_win(winner, loser, rng.randint(1, 20), rng.randint(0, 88)),
                self_draw_win(winner, rng.randint(1, 9), rng.randint(0, 88)),
                no_win(),
            ]
        )
        await play_round(table, result, actions=0)
        hands_left -= 1
        seats = {seat.chair: seat.user_id for seat in table.seats}
        players: dict[int, Played] = {}
        for seat in range(4):
            user_id = seats[seat]
            if user_id is None:
                continue
            win = next((w for w in result.wins if w.seat == seat), None)
            players[user_id] = (
                result.net[seat],
                win is not None,
                win is not None and win.from_seat is None,
                sum(w.from_seat == seat for w in result.wins),
                None if win is None else win.total,
            )
        log.append((day_of(to_ms(clock.now)), table.guild_id, table.variant.value, players))
        if hands_left == 0:
            table = None
        clock.advance(hours=rng.choice([0, 1, 7, 20, 30, 24 * 9]))
        if rng.random() < 0.3:
            await store.leaderboard(period=Period.DAYS_7)
            assert await _stored_totals(database) == _expected_totals(log, day_of(to_ms(clock.now)))
    await store.leaderboard()
    assert await _stored_totals(database) == _expected_totals(log, day_of(to_ms(clock.now)))


@pytest.mark.parametrize(("limit", "offset"), [(0, 0), (-1, 0), (101, 0), (10, -1)])
async def test_pages_are_bounded(store: SqlStore, limit: int, offset: int) -> None:
    with pytest.raises(ValueError):
        await store.leaderboard(limit=limit, offset=offset)
    if offset == 0:
        with pytest.raises(ValueError):
            await store.recent_rounds(ALICE, limit=limit)
        with pytest.raises(ValueError):
            await store.card_history(GUILD, ALICE, limit=limit)
