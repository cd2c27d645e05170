"""The values the store takes and returns: plain frozen dataclasses and string enums."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import Any, TypeVar

from data.errors import PriceNotSetError


class Variant(StrEnum):
    MCR = "mcr"
    GUANGDONG = "guangdong"
    SICHUAN = "sichuan"


class TableStatus(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    DISBANDED = "disbanded"


class CardPayer(StrEnum):
    """Who pays a table's room cards (sichuan.md §6)."""

    CREATOR = "creator"
    SPLIT = "split"


class CardKind(StrEnum):
    """Why room cards moved; grants and refunds add, takes and spends remove."""

    GRANT = "grant"
    TAKE = "take"
    STARTER = "starter"
    DAILY = "daily"
    SPEND = "spend"
    REFUND = "refund"


class Period(StrEnum):
    """Leaderboard windows: whole UTC days, today included."""

    ALL = "all"
    DAYS_30 = "30d"
    DAYS_7 = "7d"

    @property
    def days(self) -> int | None:
        return {Period.ALL: None, Period.DAYS_30: 30, Period.DAYS_7: 7}[self]


class Ranking(StrEnum):
    RATING = "rating"
    NET = "net"
    WIN_RATE = "win_rate"
    BEST_HAND = "best_hand"


# Room cards a table costs by its `rounds`, one table for every rule set: the Sichuan
# seed's prices (sichuan.md §6) are every server's default until an admin changes them.
DEFAULT_ROOM_CARD_PRICES: Mapping[int, int] = {1: 1, 4: 2, 8: 3, 16: 4}


def _default_prices() -> dict[int, int]:
    return dict(DEFAULT_ROOM_CARD_PRICES)


def _require_non_negative(name: str, value: int) -> None:
    if value < 0:
        raise ValueError(f"{name} must be 0 or more, got {value}")


@dataclass(frozen=True)
class GuildConfig:
    """A server's admin settings (`/admin config`); a server never configured has these defaults."""

    guild_id: int
    table_category_id: int | None = None
    turn_timer: int = 20
    claim_timer: int = 10
    starter_cards: int = 10
    daily_cards: int = 0
    room_card_prices: dict[int, int] = field(default_factory=_default_prices)
    card_payer: CardPayer = CardPayer.CREATOR
    #: Lobbies one member may have open at once, and the whole server; 0 = no cap.
    lobbies_per_member: int = 3
    lobbies_per_server: int = 20
    #: Whether an admin has saved these settings: until then the server plays with the
    #: bot's default timers, whatever the settings here say.
    configured: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        for name in (
            "turn_timer",
            "claim_timer",
            "starter_cards",
            "daily_cards",
            "lobbies_per_member",
            "lobbies_per_server",
        ):
            _require_non_negative(name, getattr(self, name))
        if not self.room_card_prices:
            raise ValueError("room_card_prices needs at least one entry")
        for rounds, cards in self.room_card_prices.items():
            if rounds < 1:
                raise ValueError(f"room_card_prices: round count must be 1 or more, got {rounds}")
            _require_non_negative(f"room_card_prices[{rounds}]", cards)
        object.__setattr__(self, "card_payer", CardPayer(self.card_payer))

    def price_for(self, rounds: int) -> int:
        """Room cards a table of `rounds` hands costs here: the server's price, else the
        default price of that many hands (a server that set some prices keeps the others)."""
        cards = self.room_card_prices.get(rounds, DEFAULT_ROOM_CARD_PRICES.get(rounds))
        if cards is None:
            raise PriceNotSetError(self.guild_id, rounds)
        return cards


_T = TypeVar("_T")


def _named(value: _T | None, stored: _T) -> _T:
    return stored if value is None else value


@dataclass(frozen=True)
class GuildConfigChange:
    """The settings one `/admin config` names, for `Store.update_guild_config` to apply
    over the stored ones in its write transaction; None leaves a setting as it is, so two
    admins who change different settings at once both keep their change."""

    table_category_id: int | None = None
    #: Open tables as threads again (`table_category_id` None); not with a category.
    no_category: bool = False
    turn_timer: int | None = None
    claim_timer: int | None = None
    starter_cards: int | None = None
    daily_cards: int | None = None
    #: The prices of the hand counts named; the other counts keep theirs.
    room_card_prices: Mapping[int, int] | None = None
    card_payer: CardPayer | None = None
    lobbies_per_member: int | None = None
    lobbies_per_server: int | None = None

    def __post_init__(self) -> None:
        if self.no_category and self.table_category_id is not None:
            raise ValueError("a table category and no category at once")

    def applied_to(
        self, config: GuildConfig, first_timers: tuple[int, int] | None = None
    ) -> GuildConfig:
        """`config` with the settings named here, configured from now on. A server no admin
        has configured yet takes `first_timers`, the timers it played with, for those this
        change does not name."""
        turn, claim = config.turn_timer, config.claim_timer
        if first_timers is not None and not config.configured:
            turn, claim = first_timers
        return replace(
            config,
            table_category_id=None
            if self.no_category
            else _named(self.table_category_id, config.table_category_id),
            turn_timer=_named(self.turn_timer, turn),
            claim_timer=_named(self.claim_timer, claim),
            starter_cards=_named(self.starter_cards, config.starter_cards),
            daily_cards=_named(self.daily_cards, config.daily_cards),
            room_card_prices={**config.room_card_prices, **(self.room_card_prices or {})},
            card_payer=_named(self.card_payer, config.card_payer),
            lobbies_per_member=_named(self.lobbies_per_member, config.lobbies_per_member),
            lobbies_per_server=_named(self.lobbies_per_server, config.lobbies_per_server),
            configured=True,
        )


@dataclass(frozen=True)
class PlayerSettings:
    """A player's `/settings`, applied at every table (mcr.md §4.6, discord.md)."""

    user_id: int
    locale: str | None = None
    spectators_see_hand: bool = False
    show_system_messages: bool = True
    auto_play_on_timeout: bool = True


@dataclass(frozen=True)
class Member:
    """A player as known in one server."""

    guild_id: int
    user_id: int
    display_name: str | None
    card_balance: int
    joined_at: datetime


@dataclass(frozen=True)
class CardMovement:
    """One ledger line. `replayed` is true when a call matched an earlier movement by its key
    and changed nothing."""

    id: int
    guild_id: int
    user_id: int
    kind: CardKind
    delta: int
    balance_after: int
    key: str
    table_id: int | None
    refund_of: int | None
    actor_id: int | None
    note: str | None
    created_at: datetime
    replayed: bool = False


@dataclass(frozen=True)
class Seat:
    """A chair of a table. `autoplay` marks a player of a table in play whom the AI plays
    for (托管) until they are back."""

    chair: int
    display_name: str
    user_id: int | None = None
    ai_level: int | None = None
    autoplay: bool = False

    @property
    def is_ai(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True)
class Table:
    id: int
    guild_id: int
    channel_id: int | None
    lobby_message_id: int | None
    creator_id: int
    variant: Variant
    options: dict[str, Any]
    rounds: int
    status: TableStatus
    price: int | None
    card_payer: CardPayer | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    seats: tuple[Seat, ...]
    #: The table this one's Play again opened, once it has.
    played_again_id: int | None = None

    def seat_of(self, user_id: int) -> Seat | None:
        return next((seat for seat in self.seats if seat.user_id == user_id), None)


@dataclass(frozen=True)
class RoundInfo:
    id: int
    table_id: int
    hand_number: int
    dealer: int
    dice: tuple[int, int]
    seed: str
    started_at: datetime


@dataclass(frozen=True)
class LiveRound:
    """A round in play: its setup in round-script form and every stored action, in order."""

    info: RoundInfo
    setup: dict[str, Any]
    actions: list[dict[str, Any]]

    @property
    def next_seq(self) -> int:
        return len(self.actions)


@dataclass(frozen=True)
class LiveTable:
    """What a restarted bot needs to resume one table."""

    table: Table
    hands_finished: int
    standings: tuple[int, int, int, int]
    current_round: LiveRound | None
    last_round_id: int | None
    next_dealer: int | None


def _check_seat(name: str, seat: int) -> None:
    if not 0 <= seat <= 3:
        raise ValueError(f"{name} must be a seat 0-3, got {seat}")


@dataclass(frozen=True)
class Win:
    """One winner of a hand, in seats of the hand.

    `from_seat` is the seat that dealt in: the discarder, the robbed seat, or the seat liable
    for the win; None when the winner drew the tile (a self-draw)."""

    seat: int
    how: str
    total: int
    fans: Sequence[Mapping[str, Any]] = ()
    from_seat: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "fans", tuple(self.fans))
        _check_seat("win seat", self.seat)
        if self.from_seat is not None:
            _check_seat("from_seat", self.from_seat)
            if self.from_seat == self.seat:
                raise ValueError(f"seat {self.seat} cannot deal in to itself")
        _require_non_negative("win total", self.total)


@dataclass(frozen=True)
class Payment:
    """A payment line of Contract 2, in seats of the hand; `extra` keeps rule-set fields
    such as a horse line's `horse`, `horse_seat` and `copy_of`."""

    payer: int
    payee: int
    amount: int
    reason: str
    extra: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        _check_seat("payer", self.payer)
        _check_seat("payee", self.payee)
        if self.payer == self.payee:
            raise ValueError(f"payment from seat {self.payer} to itself")
        if self.amount <= 0:
            raise ValueError(f"payment amount must be positive, got {self.amount}")


@dataclass(frozen=True)
class RoundResult:
    """A finished hand as the engine settled it; `net` is per seat, seat 0 first, and must equal
    what each seat received minus what it paid. `next_dealer` is a chair."""

    wins: Sequence[Win]
    payments: Sequence[Payment]
    net: Sequence[int]
    next_dealer: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "wins", tuple(self.wins))
        object.__setattr__(self, "payments", tuple(self.payments))
        object.__setattr__(self, "net", tuple(self.net))
        if len(self.net) != 4:
            raise ValueError(f"net needs 4 entries, got {len(self.net)}")
        if len({win.seat for win in self.wins}) != len(self.wins):
            raise ValueError("a seat appears twice among the winners")
        balance = [0, 0, 0, 0]
        for line in self.payments:
            balance[line.payee] += line.amount
            balance[line.payer] -= line.amount
        if tuple(balance) != self.net:
            raise ValueError(f"net {list(self.net)} does not match the payments ({balance})")
        if self.next_dealer is not None:
            _check_seat("next_dealer", self.next_dealer)


@dataclass(frozen=True)
class RecordedPlayer:
    """One chair's part in a stored hand."""

    chair: int
    seat: int
    user_id: int | None
    display_name: str
    net: int
    won: bool
    how: str | None
    hand_total: int | None
    self_draw: bool
    dealt_in: int


@dataclass(frozen=True)
class RoundRecord:
    """A finished hand as stored: players by chair, wins and payments in seats of the hand."""

    info: RoundInfo
    guild_id: int
    variant: Variant
    finished_at: datetime
    next_dealer: int | None
    players: tuple[RecordedPlayer, ...]
    wins: tuple[Win, ...]
    payments: tuple[Payment, ...]

    def chair_of(self, seat: int) -> int:
        return (seat + self.info.dealer) % 4


@dataclass(frozen=True)
class RoundSummary:
    """One line of a player's history."""

    round_id: int
    table_id: int
    guild_id: int
    variant: Variant
    hand_number: int
    finished_at: datetime
    chair: int
    net: int
    won: bool
    how: str | None
    hand_total: int | None
    self_draw: bool
    dealt_in: int


@dataclass(frozen=True)
class PlayerStats:
    user_id: int
    games: int = 0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    net: int = 0
    best_hand: int | None = None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def self_draw_share(self) -> float:
        """Share of this player's wins that were self-drawn."""
        return self.self_draws / self.wins if self.wins else 0.0


@dataclass(frozen=True)
class LeaderboardEntry:
    rank: int
    display_name: str | None
    stats: PlayerStats
    #: The player's rating on a board by rating or of a season; None on the others.
    rating: Rating | None = None


#: Sessions a rating stays provisional (shown as such) before it counts as settled.
PROVISIONAL_SESSIONS = 5
#: What players see: 1500 for a new player, 40 points per unit of mu - 3 sigma.
RATING_BASE = 1500
RATING_SCALE = 40


def shown_rating(ordinal: float) -> int:
    """The rating as players see it, from the library's mu - 3 sigma.

    >>> shown_rating(0.0), shown_rating(2.5)
    (1500, 1600)
    """
    return round(RATING_BASE + RATING_SCALE * ordinal)


@dataclass(frozen=True)
class Rating:
    """A player's rating in one scope, season and rule set (or all), after ``sessions``
    rated sessions: the library's mu and sigma."""

    mu: float
    sigma: float
    sessions: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        return shown_rating(self.ordinal)

    @property
    def provisional(self) -> bool:
        return self.sessions < PROVISIONAL_SESSIONS


@dataclass(frozen=True)
class Season:
    """A server's season: numbered 1, 2, ... per server; ``ended_at`` None while it runs."""

    id: int
    guild_id: int
    number: int
    started_at: datetime
    ended_at: datetime | None = None

    @property
    def running(self) -> bool:
        return self.ended_at is None


@dataclass(frozen=True)
class RatingPoint:
    """A rating after one session, with the session's placement (1 = first)."""

    at: datetime
    table_id: int
    placement: int
    rating: Rating


@dataclass(frozen=True)
class FanCount:
    """How often a fan or pattern was in a player's wins; ``zh`` and ``en`` are the
    engine's names of it, for a fan the catalogs do not name."""

    variant: Variant
    fan_id: str
    count: int
    zh: str = ""
    en: str = ""


@dataclass(frozen=True)
class BiggestHand:
    round_id: int
    variant: Variant
    total: int
    how: str | None
    fans: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True)
class PlayerProfile:
    """Everything /stats draws for one player in one server (or every server)."""

    user_id: int
    stats: PlayerStats
    rating: Rating | None
    history: tuple[RatingPoint, ...]
    #: Sessions finished first, second, third and fourth.
    placements: tuple[int, int, int, int]
    fans: tuple[FanCount, ...]
    biggest: BiggestHand | None
