"""The bot's persistent data: players, servers, room cards, tables, rounds and statistics.

The bot talks to it through the `Store` protocol; `SqliteStore` is the embedded implementation
and `PostgresStore` the server one. `open_store` opens the one a database setting names.
"""

from data.backend import open_store
from data.errors import (
    ActionSequenceError,
    IdempotencyKeyError,
    InsufficientCardsError,
    NotFoundError,
    PriceNotSetError,
    SchemaError,
    SeatError,
    StateError,
    StoreError,
)
from data.models import (
    CardKind,
    CardMovement,
    CardPayer,
    GuildConfig,
    LeaderboardEntry,
    LiveRound,
    LiveTable,
    Member,
    Payment,
    Period,
    PlayerSettings,
    PlayerStats,
    Ranking,
    RecordedPlayer,
    RoundInfo,
    RoundRecord,
    RoundResult,
    RoundSummary,
    Seat,
    Table,
    TableStatus,
    Variant,
    Win,
)
from data.postgres import PostgresStore
from data.sqlite import SqliteStore
from data.store import Store

__all__ = [
    "ActionSequenceError",
    "CardKind",
    "CardMovement",
    "CardPayer",
    "GuildConfig",
    "IdempotencyKeyError",
    "InsufficientCardsError",
    "LeaderboardEntry",
    "LiveRound",
    "LiveTable",
    "Member",
    "NotFoundError",
    "Payment",
    "Period",
    "PlayerSettings",
    "PlayerStats",
    "PostgresStore",
    "PriceNotSetError",
    "Ranking",
    "RecordedPlayer",
    "RoundInfo",
    "RoundRecord",
    "RoundResult",
    "RoundSummary",
    "SchemaError",
    "Seat",
    "SeatError",
    "SqliteStore",
    "StateError",
    "Store",
    "StoreError",
    "Table",
    "TableStatus",
    "Variant",
    "Win",
    "open_store",
]
