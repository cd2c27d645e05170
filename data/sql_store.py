"""The store's rules written once, over any SQL connection: `SqlStore`.

Every method of the `Store` protocol is here, as one transaction of statements from the
query modules. A backend subclass says how to open, read, write and append: `SqliteStore`
(data/sqlite.py) on one embedded file, `PostgresStore` (data/postgres.py) on a server that
several processes share. Each public method is one `_read`, one `_write` or one append.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Mapping
from contextlib import AbstractAsyncContextManager
from typing import Any

from data import cards, guilds, players, ratings, replay_codes, rounds, seasons, stats, tables
from data.clock import Clock, day_of, from_ms, to_ms
from data.codec import load_json
from data.connection import Connection
from data.errors import (
    IdempotencyKeyError,
    InsufficientCardsError,
    LobbyLimitError,
    NotFoundError,
    StateError,
)
from data.models import (
    CardKind,
    CardMovement,
    GuildConfig,
    GuildConfigChange,
    LeaderboardEntry,
    LiveTable,
    Member,
    Period,
    PlayerProfile,
    PlayerSettings,
    PlayerStats,
    Ranking,
    Rating,
    RoundInfo,
    RoundRecord,
    RoundResult,
    RoundSummary,
    Season,
    Seat,
    Table,
    TableStatus,
    Variant,
)


class SqlStore(ABC):
    """The `Store` protocol over a `Connection`; subclasses provide the connections."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    def _read(self) -> AbstractAsyncContextManager[Connection]:
        """A connection for reads that see one consistent state."""

    @abstractmethod
    def _write(self) -> AbstractAsyncContextManager[Connection]:
        """A connection in a transaction that commits when the block ends and rolls back if
        it raises. The write transactions of every user of the database run one at a time:
        the rules below rely on it, e.g. no other writer takes a key between its lookup and
        its insert."""

    @abstractmethod
    async def append_action(self, round_id: int, seq: int, action: Mapping[str, Any]) -> None:
        """One statement outside any transaction: the fast path of every move."""

    # Transactions

    def _now(self) -> int:
        return to_ms(self._clock())

    def _today(self) -> int:
        return day_of(self._now())

    async def _admit(
        self, db: Connection, guild_id: int, user_id: int, display_name: str | None
    ) -> None:
        """Make sure a user has rows as a player and as a member, with starter cards once."""
        now = self._now()
        await guilds.ensure_guild(db, guild_id, now)
        await players.ensure_player(db, user_id, display_name, now)
        if not await players.ensure_member(db, guild_id, user_id, display_name, now):
            return
        config = await guilds.get_config(db, guild_id)
        if config.starter_cards:
            await cards.record(
                db,
                guild_id=guild_id,
                user_id=user_id,
                kind=CardKind.STARTER,
                delta=config.starter_cards,
                key=cards.starter_key(guild_id, user_id),
                now_ms=now,
            )

    # Players and servers

    async def touch_member(self, guild_id: int, user_id: int, display_name: str) -> Member:
        async with self._write() as db:
            await self._admit(db, guild_id, user_id, display_name)
            member = await players.get_member(db, guild_id, user_id)
        assert member is not None
        return member

    async def player_settings(self, user_id: int) -> PlayerSettings:
        async with self._read() as db:
            return await players.get_settings(db, user_id)

    async def save_player_settings(self, settings: PlayerSettings) -> None:
        async with self._write() as db:
            await players.save_settings(db, settings, self._now())

    async def dm_channel_id(self, user_id: int) -> int | None:
        async with self._read() as db:
            return await players.get_dm_channel(db, user_id)

    async def save_dm_channel_id(self, user_id: int, channel_id: int) -> None:
        async with self._write() as db:
            await players.save_dm_channel(db, user_id, channel_id, self._now())

    async def guild_config(self, guild_id: int) -> GuildConfig:
        async with self._read() as db:
            return await guilds.get_config(db, guild_id)

    async def update_guild_config(
        self,
        guild_id: int,
        change: GuildConfigChange,
        *,
        first_timers: tuple[int, int] | None = None,
    ) -> GuildConfig:
        async with self._write() as db:
            # Read inside the write, which runs alone: nothing changes between the read
            # and the save, so another admin's change at the same moment is kept.
            config = change.applied_to(await guilds.get_config(db, guild_id), first_timers)
            await guilds.save_config(db, config, self._now())
        return config

    async def mark_test_commands(self, guild_id: int) -> None:
        async with self._write() as db:
            await guilds.mark_test_commands(db, guild_id, self._now())

    async def test_command_guilds(self) -> list[int]:
        async with self._read() as db:
            return await guilds.test_command_guilds(db)

    async def forget_test_commands(self, guild_id: int) -> None:
        async with self._write() as db:
            await guilds.forget_test_commands(db, guild_id)

    # Room cards

    async def card_balance(self, guild_id: int, user_id: int) -> int:
        async with self._read() as db:
            return await cards.balance(db, guild_id, user_id)

    async def card_history(
        self, guild_id: int, user_id: int, *, limit: int = 20, before_id: int | None = None
    ) -> list[CardMovement]:
        _check_page(limit)
        async with self._read() as db:
            return await cards.history(db, guild_id, user_id, limit, before_id)

    async def grant_cards(
        self,
        guild_id: int,
        user_id: int,
        amount: int,
        *,
        key: str,
        actor_id: int,
        note: str | None = None,
        display_name: str | None = None,
    ) -> CardMovement:
        if amount == 0:
            raise ValueError("a grant of 0 cards moves nothing")
        async with self._write() as db:
            # In the grant's transaction: a take refused leaves no member, starter cards
            # or name behind.
            await self._admit(db, guild_id, user_id, display_name)
            return await cards.record(
                db,
                guild_id=guild_id,
                user_id=user_id,
                kind=CardKind.GRANT if amount > 0 else CardKind.TAKE,
                delta=amount,
                key=cards.grant_key(key),
                now_ms=self._now(),
                actor_id=actor_id,
                note=note,
            )

    async def claim_daily_cards(self, guild_id: int, user_id: int) -> CardMovement | None:
        now = self._now()
        key = cards.daily_key(guild_id, user_id, from_ms(now).date())
        async with self._write() as db:
            # Looked up before the amount, which an admin may have changed since the claim.
            earlier = await cards.find(db, key)
            if earlier is not None:
                return dataclasses.replace(earlier, replayed=True)
            config = await guilds.get_config(db, guild_id)
            if not config.daily_cards:
                return None
            await self._admit(db, guild_id, user_id, None)
            return await cards.record(
                db,
                guild_id=guild_id,
                user_id=user_id,
                kind=CardKind.DAILY,
                delta=config.daily_cards,
                key=key,
                now_ms=now,
            )

    # Tables

    async def create_table(
        self,
        *,
        guild_id: int,
        channel_id: int | None,
        creator_id: int,
        creator_name: str,
        variant: Variant,
        options: Mapping[str, Any],
        rounds: int,
    ) -> Table:
        variant = Variant(variant)
        async with self._write() as db:
            await self._admit(db, guild_id, creator_id, creator_name)
            config = await guilds.get_config(db, guild_id)
            await _require_lobby_room(db, config, creator_id)
            price = config.price_for(rounds)
            await _require_balance(db, guild_id, creator_id, price)
            table_id = await tables.create(
                db,
                guild_id=guild_id,
                channel_id=channel_id,
                creator_id=creator_id,
                variant=variant,
                options=options,
                rounds=rounds,
                now_ms=self._now(),
            )
            await tables.insert_seat(db, table_id, Seat(0, creator_name, creator_id))
            return await tables.get(db, table_id)

    async def set_lobby_message(self, table_id: int, *, channel_id: int, message_id: int) -> None:
        async with self._write() as db:
            await tables.get(db, table_id)
            await tables.set_lobby_message(db, table_id, channel_id, message_id)

    async def set_played_again(self, table_id: int, *, again_id: int) -> int:
        async with self._write() as db:
            tables.require_status(await tables.get(db, table_id), TableStatus.FINISHED)
            await tables.get(db, again_id)
            return await tables.set_played_again(db, table_id, again_id)

    async def set_table_options(
        self, table_id: int, *, options: Mapping[str, Any], rounds: int
    ) -> Table:
        async with self._write() as db:
            table = await tables.get(db, table_id)
            tables.require_status(table, TableStatus.LOBBY)
            price = (await guilds.get_config(db, table.guild_id)).price_for(rounds)
            if rounds > table.rounds:
                await _require_balance(db, table.guild_id, table.creator_id, price)
            await tables.set_options(db, table_id, options, rounds)
            return await tables.get(db, table_id)

    async def take_seat(
        self,
        table_id: int,
        *,
        display_name: str,
        user_id: int | None = None,
        ai_level: int | None = None,
    ) -> Seat:
        if (user_id is None) == (ai_level is None):
            raise ValueError("a seat takes either a user_id or an ai_level")
        if ai_level is not None and ai_level < 0:
            raise ValueError(f"ai_level must be 0 or more, got {ai_level}")
        async with self._write() as db:
            table = await tables.get(db, table_id)
            tables.require_status(table, TableStatus.LOBBY)
            seat = Seat(tables.next_chair(table, user_id), display_name, user_id, ai_level)
            if user_id is not None:
                await self._admit(db, table.guild_id, user_id, display_name)
            await tables.insert_seat(db, table_id, seat)
            return seat

    async def leave_seat(self, table_id: int, user_id: int) -> None:
        async with self._write() as db:
            table = await tables.get(db, table_id)
            tables.require_status(table, TableStatus.LOBBY)
            await tables.remove_seat(db, table, user_id)

    async def remove_ai_seat(self, table_id: int, chair: int) -> None:
        async with self._write() as db:
            table = await tables.get(db, table_id)
            tables.require_status(table, TableStatus.LOBBY)
            await tables.remove_ai_seat(db, table, chair)

    async def start_table(self, table_id: int, *, key: str) -> list[CardMovement]:
        async with self._write() as db:
            owner = await tables.start_key_owner(db, key)
            if owner == table_id:
                charged = await cards.table_movements(db, table_id, CardKind.SPEND)
                return [dataclasses.replace(move, replayed=True) for move in charged]
            if owner is not None:
                raise IdempotencyKeyError(key)
            table = await tables.get(db, table_id)
            tables.require_status(table, TableStatus.LOBBY)
            if len(table.seats) != tables.CHAIRS:
                raise StateError(f"table {table_id} has {len(table.seats)} players, not 4")
            config = await guilds.get_config(db, table.guild_id)
            price = config.price_for(table.rounds)
            humans = [seat.user_id for seat in table.seats if seat.user_id is not None]
            now = self._now()
            charged = [
                await cards.record(
                    db,
                    guild_id=table.guild_id,
                    user_id=user_id,
                    kind=CardKind.SPEND,
                    delta=-share,
                    key=cards.spend_key(table_id, user_id),
                    now_ms=now,
                    table_id=table_id,
                )
                for user_id, share in cards.card_shares(
                    price, config.card_payer, table.creator_id, humans
                )
            ]
            await tables.mark_started(
                db,
                table_id,
                price=price,
                card_payer=config.card_payer,
                start_key=key,
                now_ms=now,
            )
            return charged

    async def disband_table(self, table_id: int) -> list[CardMovement]:
        async with self._write() as db:
            table = await tables.get(db, table_id)
            if table.status is TableStatus.DISBANDED:
                refunded = await cards.table_movements(db, table_id, CardKind.REFUND)
                return [dataclasses.replace(move, replayed=True) for move in refunded]
            tables.require_status(table, TableStatus.LOBBY, TableStatus.PLAYING)
            now = self._now()
            refunds = []
            _, finished = await rounds.count(db, table_id)
            if not finished:
                for spend in await cards.table_movements(db, table_id, CardKind.SPEND):
                    refunds.append(
                        await cards.record(
                            db,
                            guild_id=spend.guild_id,
                            user_id=spend.user_id,
                            kind=CardKind.REFUND,
                            delta=-spend.delta,
                            key=cards.refund_key(spend.id),
                            now_ms=now,
                            table_id=table_id,
                            refund_of=spend.id,
                        )
                    )
            await tables.mark_ended(db, table_id, TableStatus.DISBANDED, now)
            return refunds

    async def set_autoplay(self, table_id: int, user_id: int, on: bool) -> None:
        async with self._write() as db:
            table = await tables.get(db, table_id)
            tables.require_status(table, TableStatus.PLAYING)
            await tables.set_autoplay(db, table, user_id, on)

    async def summaries_due(self) -> list[Table]:
        async with self._read() as db:
            return await tables.summaries_due(db)

    async def mark_summary_posted(self, table_id: int) -> None:
        async with self._write() as db:
            table = await tables.get(db, table_id)
            tables.require_status(table, TableStatus.FINISHED)
            await tables.mark_summary_posted(db, table_id, self._now())

    async def get_table(self, table_id: int) -> Table:
        async with self._read() as db:
            return await tables.get(db, table_id)

    async def table_in_channel(self, channel_id: int) -> Table | None:
        async with self._read() as db:
            return await tables.open_in_channel(db, channel_id)

    async def lobby_ids(self, guild_id: int) -> list[int]:
        async with self._read() as db:
            return await tables.lobby_ids(db, guild_id)

    async def table_standings(self, table_id: int) -> tuple[int, int, int, int]:
        async with self._read() as db:
            await tables.get(db, table_id)
            return await rounds.standings(db, table_id)

    # Rounds

    async def begin_round(self, table_id: int, *, seed: str, setup: Mapping[str, Any]) -> RoundInfo:
        async with self._write() as db:
            table = await tables.get(db, table_id)
            tables.require_status(table, TableStatus.PLAYING)
            dealer, dice = rounds.check_setup(setup, table.variant)
            begun, finished = await rounds.count(db, table_id)
            if begun > finished:
                raise StateError(f"table {table_id} already has a round in play")
            if begun >= table.rounds:
                raise StateError(f"table {table_id} has played all its {table.rounds} hands")
            return await rounds.create(
                db,
                table_id=table_id,
                hand_number=begun + 1,
                seed=seed,
                setup=setup,
                dealer=dealer,
                dice=dice,
                now_ms=self._now(),
            )

    async def finish_round(self, round_id: int, result: RoundResult) -> bool:
        now = self._now()
        async with self._write() as db:
            row = await rounds.get_row(db, round_id)
            if row["finished_at"] is not None:
                raise StateError(f"round {round_id} is already finished")
            table = await tables.get(db, row["table_id"])
            tables.require_status(table, TableStatus.PLAYING)
            # Windows roll first: a rebuild must not already count the round added below.
            windows = await stats.roll_windows(db, day_of(now))
            await rounds.record_result(db, row, table, result, now)
            await stats.add_round(db, round_id, day_of(now), windows)
            await replay_codes.assign(db, round_id, table.guild_id)
            last_hand: bool = row["hand_number"] >= table.rounds
            if last_hand:
                await tables.mark_ended(db, table.id, TableStatus.FINISHED, now)
                season = await seasons.running(db, table.guild_id)
                await ratings.rate_session(
                    db,
                    table,
                    await rounds.standings(db, table.id),
                    None if season is None else season.id,
                    now,
                )
            return last_hand

    async def replay_code(self, round_id: int) -> str | None:
        async with self._read() as db:
            return await replay_codes.code_of(db, round_id)

    async def round_by_code(self, code: str) -> RoundRecord | None:
        async with self._read() as db:
            found = await replay_codes.round_of(db, code)
            return None if found is None else await rounds.record(db, found[0])

    async def round_script(self, round_id: int) -> dict[str, Any]:
        async with self._read() as db:
            return await rounds.script(db, round_id)

    async def round_record(self, round_id: int) -> RoundRecord:
        async with self._read() as db:
            return await rounds.record(db, round_id)

    async def live_tables(self) -> list[LiveTable]:
        async with self._read() as db:
            return await rounds.live_tables(db)

    # Statistics

    async def leaderboard(
        self,
        *,
        guild_id: int | None = None,
        variant: Variant | None = None,
        period: Period = Period.ALL,
        ranking: Ranking = Ranking.NET,
        min_games: int = 0,
        limit: int = 10,
        offset: int = 0,
        season: int | None = None,
    ) -> list[LeaderboardEntry]:
        _check_page(limit, offset)
        ranking = Ranking(ranking)
        if ranking is Ranking.RATING or season is not None:
            async with self._read() as db:
                scope, variant_key, season_id = await _rating_key(db, guild_id, variant, season)
                return await ratings.board(
                    db,
                    scope=scope,
                    season=season_id,
                    variant=variant_key,
                    ranking=ranking,
                    min_games=min_games,
                    limit=limit,
                    offset=offset,
                )
        async with self._write() as db:
            await stats.roll_windows(db, self._today())
            return await stats.leaderboard(
                db,
                guild_id=guild_id,
                variant=None if variant is None else Variant(variant),
                period=Period(period),
                ranking=ranking,
                min_games=min_games,
                limit=limit,
                offset=offset,
            )

    async def player_stats(
        self,
        user_id: int,
        *,
        guild_id: int | None = None,
        variant: Variant | None = None,
        period: Period = Period.ALL,
    ) -> PlayerStats:
        async with self._write() as db:
            await stats.roll_windows(db, self._today())
            return await stats.player_stats(
                db,
                user_id,
                guild_id=guild_id,
                variant=None if variant is None else Variant(variant),
                period=Period(period),
            )

    async def recent_rounds(
        self,
        user_id: int,
        *,
        guild_id: int | None = None,
        variant: Variant | None = None,
        limit: int = 10,
    ) -> list[RoundSummary]:
        _check_page(limit)
        async with self._read() as db:
            return await stats.recent_rounds(
                db,
                user_id,
                guild_id=guild_id,
                variant=None if variant is None else Variant(variant),
                limit=limit,
            )

    async def rating(
        self,
        user_id: int,
        *,
        guild_id: int | None = None,
        variant: Variant | None = None,
        season: int | None = None,
    ) -> Rating | None:
        async with self._read() as db:
            scope, variant_key, season_id = await _rating_key(db, guild_id, variant, season)
            return await ratings.rating(
                db, user_id, scope=scope, season=season_id, variant=variant_key
            )

    async def session_ratings(self, table_id: int) -> dict[int, tuple[Rating | None, Rating]]:
        async with self._read() as db:
            table = await tables.get(db, table_id)
            changes = {}
            for seat in table.seats:
                if seat.user_id is None:
                    continue
                change = await ratings.session_change(db, table, seat.user_id)
                if change is not None:
                    changes[seat.user_id] = change
            return changes

    async def player_profile(
        self, user_id: int, *, guild_id: int | None = None, variant: Variant | None = None
    ) -> PlayerProfile:
        variant = None if variant is None else Variant(variant)
        async with self._write() as db:
            await stats.roll_windows(db, self._today())
            figures = await stats.player_stats(
                db, user_id, guild_id=guild_id, variant=variant, period=Period.ALL
            )
            scope, variant_key = stats.key(guild_id, variant)
            season = ratings.ALL_TIME
            current = await ratings.rating(
                db, user_id, scope=scope, season=season, variant=variant_key
            )
            points, places = await ratings.history(
                db, user_id, scope=scope, season=season, variant=variant_key
            )
            latest, biggest = await ratings.wins(db, user_id, guild_id=guild_id, variant=variant)
        fans = ratings.fan_counts(latest, [load_json(row["fans"]) for row in latest])
        return PlayerProfile(
            user_id=user_id,
            stats=figures,
            rating=current,
            history=tuple(points),
            placements=places,
            fans=tuple(fans),
            biggest=None
            if biggest is None
            else ratings.biggest_hand(biggest, load_json(biggest["fans"])),
        )

    # Seasons

    async def running_season(self, guild_id: int) -> Season | None:
        async with self._read() as db:
            return await seasons.running(db, guild_id)

    async def seasons(self, guild_id: int) -> list[Season]:
        async with self._read() as db:
            return await seasons.listed(db, guild_id)

    async def start_season(self, guild_id: int, *, actor_id: int | None = None) -> Season:
        async with self._write() as db:
            await guilds.ensure_guild(db, guild_id, self._now())
            return await seasons.start(db, guild_id, actor_id, self._now())

    async def end_season(self, guild_id: int) -> Season:
        async with self._write() as db:
            return await seasons.end(db, guild_id, self._now())


MAX_PAGE = 100


async def _rating_key(
    db: Connection, guild_id: int | None, variant: Variant | None, season: int | None
) -> tuple[int, str, int]:
    """(scope, variant key, season id) of ratings rows; a season is a server's by its
    number, NotFoundError when it has none such."""
    scope, variant_key = stats.key(guild_id, None if variant is None else Variant(variant))
    if season is None:
        return scope, variant_key, ratings.ALL_TIME
    found = None if guild_id is None else await seasons.by_number(db, guild_id, season)
    if found is None:
        raise NotFoundError("season", season)
    return scope, variant_key, found.id


def _check_page(limit: int, offset: int = 0) -> None:
    """Pages are bounded: SQLite reads a negative LIMIT as no limit at all."""
    if not 1 <= limit <= MAX_PAGE:
        raise ValueError(f"limit must be 1 to {MAX_PAGE}, got {limit}")
    if offset < 0:
        raise ValueError(f"offset must be 0 or more, got {offset}")


async def _require_lobby_room(db: Connection, config: GuildConfig, creator_id: int) -> None:
    """Refuse a lobby past the server's caps on open lobbies (0: no cap). Counted inside
    the write transaction, which runs alone, so two lobbies opened at once cannot both
    take the last place."""
    mine = config.lobbies_per_member
    if mine and await tables.open_lobbies(db, config.guild_id, creator_id) >= mine:
        raise LobbyLimitError(config.guild_id, mine, per_member=True)
    everyone = config.lobbies_per_server
    if everyone and await tables.open_lobbies(db, config.guild_id) >= everyone:
        raise LobbyLimitError(config.guild_id, everyone, per_member=False)


async def _require_balance(db: Connection, guild_id: int, user_id: int, price: int) -> None:
    """Refuse a table its creator could not pay for in full (sichuan.md §6)."""
    balance = await cards.balance(db, guild_id, user_id)
    if balance < price:
        raise InsufficientCardsError(guild_id, user_id, balance, price)
