"""Store benchmark: seed a large history, then time leaderboards, history and appends.

    python -m benchmarks.store [--players 100000] [--rounds 1000000] [--guilds 20] [--days 365]
                               [--database postgresql://...]

The history is written straight into a fresh database file (migrated by data.migrate, then
filled with executemany in large transactions); opening the store then builds the maintained
totals from it, as it does after a migration. Seeded rounds carry a short setup and no
actions: the queries timed here never read those.

Ratings are seeded beside the history, as the store keeps them: one row per player, scope
(the server, every server) and rule set (each played, and all), with the counts of the
player's seeded sessions and a mu and sigma drawn at random (the rating maths is
openskill's and not under test here), plus season 1 of the largest server with the
players of its last 90 days; and one history row per player and session of their server
(all rule sets), with its placement, for the /stats profile.

With --database the same runs on PostgreSQL instead, in that database, which must be empty
(the benchmark leaves its rows there): migrated by data.postgres_migrate, seeded through the
store's own connection adapter, then opened as PostgresStore.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg

from data import Payment, Period, PostgresStore, Ranking, RoundResult, SqliteStore, Variant, Win
from data.clock import to_ms
from data.migrate import migrate
from data.postgres_connection import PgConnection
from data.postgres_migrate import migrate as migrate_postgres
from data.sql_store import SqlStore
from data.sqlite import Synchronous

NOW = datetime(2025, 6, 30, 20, 0, tzinfo=UTC)
GUILD_BASE = 10**16
USER_BASE = 10**17
HAND_MS = 10 * 60 * 1000
BATCH_ROUNDS = 50_000
VARIANTS = ("mcr", "guangdong", "sichuan")
ROUND_COUNTS = (1, 4, 8, 8, 16)

# Columns added by later migrations keep their defaults.
_INSERTS = {
    "guilds": "INSERT INTO guilds (guild_id, table_category_id, turn_timer, claim_timer, "
    "starter_cards, daily_cards, room_card_prices, card_payer, created_at, updated_at) "
    "VALUES (?, NULL, 20, 10, 10, 0, "
    '\'{"1":1,"4":2,"8":3,"16":4}\', \'creator\', ?, ?)',
    "players": "INSERT INTO players (user_id, display_name, locale, spectators_see_hand, "
    "show_system_messages, auto_play_on_timeout, created_at, updated_at) "
    "VALUES (?, ?, NULL, 0, 1, 1, ?, ?)",
    "guild_members": "INSERT INTO guild_members VALUES (?, ?, ?, 0, ?)",
    "tables": "INSERT INTO tables (id, guild_id, channel_id, lobby_message_id, creator_id, "
    "variant, options, rounds, status, price, card_payer, start_key, created_at, started_at, "
    "finished_at) "
    "VALUES (?, ?, NULL, NULL, ?, ?, '{}', ?, 'finished', ?, 'creator', NULL, ?, ?, ?)",
    "seats": "INSERT INTO seats (table_id, chair, user_id, ai_level, display_name) "
    "VALUES (?, ?, ?, ?, ?)",
    "rounds": "INSERT INTO rounds VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "round_wins": "INSERT INTO round_wins VALUES (?, ?, ?, ?, '[]', ?)",
    "round_players": "INSERT INTO round_players VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "seasons": "INSERT INTO seasons (id, guild_id, number, started_at, started_by, ended_at) "
    "VALUES (?, ?, 1, ?, NULL, NULL)",
    "ratings": "INSERT INTO ratings (scope, season, variant, user_id, mu, sigma, rating, "
    "sessions, hands, wins, deal_ins, net, best_hand, updated_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "rating_history": "INSERT INTO rating_history VALUES (?, ?, 0, 'all', ?, ?, ?, ?, ?, ?)",
}
SEASON_ID = 1
SEASON_DAYS = 90
#: A rated session's counts: sessions, hands, wins, deal-ins, net, best hand.
Counts = list[int]


@dataclass
class Batch:
    rows: dict[str, list[tuple[Any, ...]]] = field(
        default_factory=lambda: {name: [] for name in _INSERTS}
    )
    rounds: int = 0


class History:
    """A reproducible history: skewed server sizes and player activity, whole tables."""

    def __init__(self, players: int, guilds: int, days: int, seed: int) -> None:
        self.random = random.Random(seed)
        self.days = days
        weights = [1 / (rank + 1) for rank in range(guilds)]
        homes = self.random.choices(range(guilds), weights=weights, k=players)
        self.members: list[list[int]] = [[] for _ in range(guilds)]
        for index, home in enumerate(homes):
            self.members[home].append(USER_BASE + index)
            if guilds > 1 and self.random.random() < 0.1:
                other = (home + self.random.randrange(1, guilds)) % guilds
                self.members[other].append(USER_BASE + index)
        self.guild_weights = [len(members) for members in self.members]
        self.table_id = 0
        self.round_id = 0
        #: (scope, season, variant, user) -> Counts, for the ratings rows.
        self.rated: dict[tuple[int, int, str, int], Counts] = {}
        self.season_start = to_ms(NOW) - SEASON_DAYS * 86_400_000
        self._table_net = [0, 0, 0, 0]
        self._table_counts: list[Counts] = []

    def _player(self, guild: int) -> int:
        members = self.members[guild]
        # Squaring skews activity: low indices play far more than high ones.
        return members[int(len(members) * self.random.random() ** 2)]

    def _chairs(self, guild: int) -> list[int | None]:
        chosen: list[int | None] = []
        while len(chosen) < 4:
            if chosen and self.random.random() < 0.05:
                chosen.append(None)
                continue
            user = self._player(guild)
            if user not in chosen:
                chosen.append(user)
        return chosen

    def batches(self, total_rounds: int) -> Iterator[Batch]:
        batch = Batch()
        end_ms = to_ms(NOW)
        while self.round_id < total_rounds:
            guild = self.random.choices(range(len(self.members)), self.guild_weights)[0]
            if len(self.members[guild]) < 8:
                continue
            hands = min(self.random.choice(ROUND_COUNTS), total_rounds - self.round_id)
            start = end_ms - self.random.randrange(self.days * 86_400_000) - hands * HAND_MS
            self._table(batch, guild, self._chairs(guild), hands, start)
            if batch.rounds >= BATCH_ROUNDS:
                yield batch
                batch = Batch()
        if batch.rounds:
            yield batch

    def _table(
        self, batch: Batch, guild: int, chairs: list[int | None], hands: int, start: int
    ) -> None:
        self.table_id += 1
        variant = self.random.choice(VARIANTS)
        end = start + hands * HAND_MS
        batch.rows["tables"].append(
            (self.table_id, GUILD_BASE + guild, chairs[0], variant, hands, 3, start, start, end)
        )
        for chair, user in enumerate(chairs):
            level = 1 if user is None else None
            batch.rows["seats"].append((self.table_id, chair, user, level, f"p{chair}"))
        self._table_net = [0, 0, 0, 0]
        self._table_counts = [[1, 0, 0, 0, 0, 0] for _ in range(4)]
        for hand in range(1, hands + 1):
            self._round(batch, guild, variant, chairs, hand, start + hand * HAND_MS)
        self._rate(batch, guild, variant, chairs, end)

    def _rate(
        self, batch: Batch, guild: int, variant: str, chairs: list[int | None], end: int
    ) -> None:
        """The session's placements into rating history, its counts into every key."""
        places = [1 + sum(1 for o in self._table_net if o > n) for n in self._table_net]
        scope = GUILD_BASE + guild
        keys = [(scope, 0), (0, 0)]
        if guild == 0 and end >= self.season_start:
            keys.append((scope, SEASON_ID))
        for chair, user in enumerate(chairs):
            if user is None:
                continue
            counts = self._table_counts[chair]
            for key_scope, season in keys:
                for key_variant in (variant, "all"):
                    total = self.rated.setdefault(
                        (key_scope, season, key_variant, user), [0, 0, 0, 0, 0, 0]
                    )
                    for index in range(5):
                        total[index] += counts[index]
                    total[5] = max(total[5], counts[5])
            mu = 25 + self.random.gauss(0, 4)
            sigma = max(1.0, 8.3 * 0.9 ** self.random.randrange(40))
            batch.rows["rating_history"].append(
                (self.table_id, scope, user, places[chair], mu, sigma, mu - 3 * sigma, end)
            )

    def _round(
        self,
        batch: Batch,
        guild: int,
        variant: str,
        chairs: list[int | None],
        hand: int,
        finished: int,
    ) -> None:
        self.round_id += 1
        batch.rounds += 1
        dealer = self.random.randrange(4)
        dice = f"[{self.random.randint(1, 6)},{self.random.randint(1, 6)}]"
        setup = f'{{"variant":"{variant}","dealer":{dealer},"dice":{dice}}}'
        batch.rows["rounds"].append(
            (self.round_id, self.table_id, hand, dealer, dice, "00", setup, finished - HAND_MS,
             finished, (dealer + 1) % 4)
        )  # fmt: skip
        net = [0, 0, 0, 0]
        winner = from_seat = total = None
        if self.random.random() < 0.9:
            winner = self.random.randrange(4)
            total = 8 + int(self.random.random() ** 3 * 80)
            if self.random.random() < 0.35:
                for seat in range(4):
                    net[seat] = 3 * total if seat == winner else -total
            else:
                from_seat = (winner + self.random.randrange(1, 4)) % 4
                net[winner], net[from_seat] = total, -total
            how = "discard" if from_seat is not None else "self_draw"
            batch.rows["round_wins"].append((self.round_id, winner, how, total, from_seat))
        for chair, user in enumerate(chairs):
            seat = (chair - dealer) % 4
            won = seat == winner
            self._table_net[chair] += net[seat]
            counts = self._table_counts[chair]
            counts[1] += 1
            counts[2] += won
            counts[3] += int(seat == from_seat)
            counts[4] += net[seat]
            counts[5] = max(counts[5], total if won and total else 0)
            batch.rows["round_players"].append(
                (self.round_id, chair, seat, user, GUILD_BASE + guild, variant, finished,
                 net[seat], won, ("self_draw" if from_seat is None else "discard") if won else None,
                 total if won else None, won and from_seat is None, int(seat == from_seat))
            )  # fmt: skip


async def _create_schema(path: Path) -> None:
    async with aiosqlite.connect(path) as db:
        await migrate(db)


def _people(history: History, players: int, guilds: int, days: int) -> Batch:
    """The servers, players and memberships, before any table."""
    start = to_ms(NOW) - days * 86_400_000
    people = Batch(rows={})
    people.rows["guilds"] = [(GUILD_BASE + guild, start, start) for guild in range(guilds)]
    people.rows["players"] = [
        (USER_BASE + index, f"player{index}", start, start) for index in range(players)
    ]
    people.rows["guild_members"] = [
        (GUILD_BASE + guild, user, f"player{user - USER_BASE}", start)
        for guild, members in enumerate(history.members)
        for user in members
    ]
    return people


def _ratings(history: History) -> Batch:
    """The ratings rows of every key the history rated, and the largest server's season."""
    ratings = Batch(rows={})
    ratings.rows["seasons"] = [(SEASON_ID, GUILD_BASE, history.season_start)]
    rows = []
    draw = random.Random(11)
    for (scope, season, variant, user), counts in history.rated.items():
        sessions, hands, wins, deal_ins, net, best = counts
        mu = 25 + draw.gauss(0, 4)
        sigma = max(1.0, 8.3 * 0.9**sessions)
        rows.append(
            (scope, season, variant, user, mu, sigma, mu - 3 * sigma, sessions, hands, wins,
             deal_ins, net, best or None, to_ms(NOW))
        )  # fmt: skip
    ratings.rows["ratings"] = rows
    return ratings


def _all_batches(
    history: History, players: int, rounds: int, guilds: int, days: int
) -> Iterator[Batch]:
    yield _people(history, players, guilds, days)
    yield from history.batches(rounds)
    yield _ratings(history)


def _seed(path: Path, players: int, rounds: int, guilds: int, days: int) -> None:
    history = History(players, guilds, days, seed=7)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous = OFF")
    db.execute("PRAGMA cache_size = -1000000")
    for batch in _all_batches(history, players, rounds, guilds, days):
        db.execute("BEGIN")
        for name, rows in batch.rows.items():
            db.executemany(_INSERTS[name], rows)
        db.execute("COMMIT")
    db.close()


async def _seed_postgres(url: str, players: int, rounds: int, guilds: int, days: int) -> None:
    history = History(players, guilds, days, seed=7)
    db = await asyncpg.connect(url)
    try:
        await migrate_postgres(db)
        # Seeding is not under test: a lost commit would only mean seeding again.
        await db.execute("SET synchronous_commit = off")
        for batch in _all_batches(history, players, rounds, guilds, days):
            async with db.transaction():
                for name, rows in batch.rows.items():
                    await PgConnection(db).executemany(_INSERTS[name], rows)
        # The seeded rows carry their ids; the store's own inserts number on from them.
        for table in ("tables", "rounds", "seasons"):
            await db.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), max(id)) FROM {table}"
            )
        # Planner statistics of the bulk load, as autovacuum would gather them within a
        # minute or so: without them the first boards read a freshly loaded table blind.
        await db.execute("ANALYZE")
    finally:
        await db.close()


async def _timed(call: Callable[[], Awaitable[object]], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        await call()
        times.append((time.perf_counter() - began) * 1000)
    return times


def _line(label: str, times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"  {label:<46} median {statistics.median(times):7.2f} ms   p95 {p95:7.2f} ms"


async def _board_line(label: str, **query: Any) -> str:
    store: SqlStore = query.pop("store")
    return _line(label, await _timed(lambda: store.leaderboard(**query), 20))


async def _queries(store: SqlStore, guild: int, sample_users: list[int]) -> None:
    print("leaderboards (top 10), guild = the largest server, overall = every server:")
    scopes = (("guild", guild), ("overall", None))
    for ranking in Ranking:
        # A rating board is all time (or a season's), whatever the period.
        periods = (Period.ALL,) if ranking is Ranking.RATING else tuple(Period)
        for period in periods:
            for scope, guild_id in scopes:
                for min_games in (0, 20):
                    label = f"{ranking.value} {period.value} {scope} min_games={min_games}"
                    print(
                        await _board_line(
                            label,
                            store=store,
                            guild_id=guild_id,
                            period=period,
                            ranking=ranking,
                            min_games=min_games,
                        )
                    )
    for scope, guild_id in scopes:
        label = f"rating {scope} variant=mcr"
        print(await _board_line(label, store=store, guild_id=guild_id, variant=Variant.MCR))
    for ranking in (Ranking.RATING, Ranking.NET, Ranking.WIN_RATE):
        label = f"{ranking.value} season 1 guild"
        print(await _board_line(label, store=store, guild_id=guild, season=1, ranking=ranking))
    print(
        await _board_line(
            "net 30d guild variant=mcr",
            store=store,
            guild_id=guild,
            variant=Variant.MCR,
            period=Period.DAYS_30,
            ranking=Ranking.NET,
        )
    )
    users = iter(sample_users * 2)
    print("players:")
    history = await _timed(lambda: store.recent_rounds(next(users), limit=10), len(sample_users))
    print(_line("recent_rounds (10 latest)", history))
    users = iter(sample_users * 2)
    player = await _timed(lambda: store.player_stats(next(users), guild_id=guild), 50)
    print(_line("player_stats", player))
    users = iter(sample_users * 2)
    profile = await _timed(lambda: store.player_profile(next(users), guild_id=guild), 50)
    print(_line("player_profile (the /stats picture's figures)", profile))


async def _appends(store: SqlStore, actions: int, run: str) -> float:
    """Actions appended per second to one round, by one caller waiting for each."""
    try:
        guild, creator = GUILD_BASE + 999_999, USER_BASE + 999_999
        await store.grant_cards(guild, creator, 100, key=f"bench-{run}", actor_id=1)
        table = await store.create_table(
            guild_id=guild,
            channel_id=None,
            creator_id=creator,
            creator_name="bench",
            variant=Variant.MCR,
            options={},
            rounds=16,
        )
        for level in range(3):
            await store.take_seat(table.id, display_name=f"AI {level}", ai_level=level)
        await store.start_table(table.id, key=f"start-{run}")
        setup = {
            "variant": "mcr",
            "options": {},
            "dealer": 0,
            "dice": [3, 4],
            "hands": ["", "", "", ""],
            "wall": "",
        }
        played = await store.begin_round(table.id, seed="00", setup=setup)
        began = time.perf_counter()
        for seq in range(actions):
            action = {"seat": seq % 4, "action": "discard", "tile": "5m"}
            await store.append_action(played.id, seq, action)
        return actions / (time.perf_counter() - began)
    finally:
        await store.close()


async def _finishes(store: SqlStore, count: int) -> list[float]:
    guild, creator = GUILD_BASE + 999_998, USER_BASE + 999_998
    await store.grant_cards(guild, creator, 1000, key="bench-finish", actor_id=1)
    table = await store.create_table(
        guild_id=guild,
        channel_id=None,
        creator_id=creator,
        creator_name="bench",
        variant=Variant.SICHUAN,
        options={},
        rounds=16,
    )
    for seat in range(3):
        await store.take_seat(table.id, display_name=f"p{seat}", user_id=creator + 1 + seat)
    await store.start_table(table.id, key="bench-finish-start")
    setup = {"variant": "sichuan", "options": {}, "dealer": 0, "dice": [1, 2]}
    setup |= {"hands": ["", "", "", ""], "wall": ""}
    result = RoundResult(
        wins=[Win(seat=1, how="discard", total=2, from_seat=0)],
        payments=[Payment(0, 1, 4, "win_discard")],
        net=[-4, 4, 0, 0],
    )
    times = []
    for _ in range(min(count, 16)):
        played = await store.begin_round(table.id, seed="00", setup=setup)
        began = time.perf_counter()
        await store.finish_round(played.id, result)
        times.append((time.perf_counter() - began) * 1000)
    # The 16th was the session's last hand: its finish also rated the session.
    return times


async def _measure(store: SqlStore, clock_now: list[datetime], players: int) -> None:
    """Everything timed on a seeded store, which it closes."""
    try:
        sample = random.Random(3).sample(range(players), 50)
        await _queries(store, GUILD_BASE, [USER_BASE + index for index in sample])
        clock_now[0] = NOW + timedelta(days=1)
        roll = await _timed(lambda: store.leaderboard(period=Period.DAYS_7), 1)
        print(f"day rollover (first query of a new day): {roll[0]:.0f} ms")
        finishes = await _finishes(store, 16)
        print(_line("finish_round (results + totals + code)", finishes[:-1]))
        print(
            f"  {'finish_round of a last hand (+ rating the session)':<46} {finishes[-1]:7.2f} ms"
        )
    finally:
        await store.close()


async def run_sqlite(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        path = Path(folder) / "bench.sqlite3"
        await _create_schema(path)
        began = time.perf_counter()
        _seed(path, args.players, args.rounds, args.guilds, args.days)
        print(f"seeded {args.players:,} players, {args.rounds:,} rounds in {args.guilds} servers "
              f"over {args.days} days: {time.perf_counter() - began:.1f} s")  # fmt: skip
        with sqlite3.connect(path) as counted:
            ratings, points = (
                counted.execute(f"SELECT COUNT(*) FROM {name}").fetchone()[0]
                for name in ("ratings", "rating_history")
            )
        print(f"  with {ratings:,} ratings rows and {points:,} rating history rows")
        size_mb = path.stat().st_size / 2**20
        began = time.perf_counter()
        clock_now = [NOW]
        store = await SqliteStore.open(path, clock=lambda: clock_now[0])
        print(f"first open, building the leaderboard totals: {time.perf_counter() - began:.1f} s"
              f" (database {size_mb:,.0f} MiB)")  # fmt: skip
        await _measure(store, clock_now, args.players)
    modes: tuple[Synchronous, ...] = ("FULL", "NORMAL")
    for synchronous in modes:
        with tempfile.TemporaryDirectory(dir=args.dir) as folder:
            appending = await SqliteStore.open(
                Path(folder) / "append.sqlite3", clock=lambda: NOW, synchronous=synchronous
            )
            rate = await _appends(appending, args.actions, synchronous)
            print(f"append_action, synchronous={synchronous}: {rate:,.0f} actions/s")


async def run_postgres(args: argparse.Namespace) -> None:
    began = time.perf_counter()
    await _seed_postgres(args.database, args.players, args.rounds, args.guilds, args.days)
    print(f"seeded {args.players:,} players, {args.rounds:,} rounds in {args.guilds} servers "
          f"over {args.days} days: {time.perf_counter() - began:.1f} s")  # fmt: skip
    began = time.perf_counter()
    clock_now = [NOW]
    store = await PostgresStore.open(args.database, clock=lambda: clock_now[0])
    print(f"first open, building the leaderboard totals: {time.perf_counter() - began:.1f} s")
    await _measure(store, clock_now, args.players)
    appending = await PostgresStore.open(args.database, clock=lambda: NOW)
    rate = await _appends(appending, args.actions, "postgresql")
    print(f"append_action (each committed before the next): {rate:,.0f} actions/s")


async def run(args: argparse.Namespace) -> None:
    await (run_postgres(args) if args.database else run_sqlite(args))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--guilds", type=int, default=20)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--actions", type=int, default=20_000, help="actions appended")
    parser.add_argument("--dir", default=None, help="folder for the temporary database")
    parser.add_argument(
        "--database", default=None, help="an empty PostgreSQL database's URL, to run there"
    )
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
