"""What to draw: plain frozen descriptions filled by the caller.

Tiles are kinds 0..33 as in ``engine.tiles``; melds are ``engine.tiles.Meld``. Seats are
seats of the hand (0 = dealer, East). Every string is shown as given, so the caller passes
text already in the reader's language; the renderer only picks where it goes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.tiles import Meld


@dataclass(frozen=True, slots=True)
class Labels:
    """Words the pictures print. Templates use ``{n}`` (a number) or ``{suit}``."""

    winds: tuple[str, str, str, str] = ("东", "南", "西", "北")
    suits: tuple[str, str, str] = ("万", "筒", "条")
    dealer: str = "庄"
    wall: str = "余 {n}"
    waits: str = "听"
    void: str = "缺{suit}"
    wildcard: str = "宝牌"
    horses: str = "马"
    won: str = "胡"
    fan_value: str = "{n}"
    total: str = "合计 {n}"
    payments: str = "结算"
    nets: str = "输赢"
    draw: str = "流局"
    seats: str = "座位"
    options: str = "选项"
    ai: str = "电脑"
    host: str = "桌主"

    def void_text(self, void_suit: int) -> str:
        return self.void.format(suit=self.suits[void_suit])


@dataclass(frozen=True, slots=True)
class HandView:
    """One player's hand as their DM shows it.

    ``concealed`` excludes ``drawn``, which is set apart on the right. ``legal_discards``
    (kinds) dims every other tile; None shows all tiles plainly. ``void_suit`` is the 定缺
    suit (0 万, 1 筒, 2 条). ``waits`` are shown after a ready hand; ``wildcard`` marks
    every copy of the 宝牌 kind.
    """

    concealed: tuple[int, ...]
    drawn: int | None = None
    melds: tuple[Meld, ...] = ()
    legal_discards: frozenset[int] | None = None
    void_suit: int | None = None
    waits: tuple[int, ...] = ()
    wildcard: int | None = None
    title: str = ""
    labels: Labels = field(default_factory=Labels)


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat at the table.

    ``hand`` lists the concealed tiles face up (a revealed hand, or the viewer's own);
    None draws ``hand_count`` backs instead. ``drawn`` sets the last concealed tile apart,
    as for a seat that has just drawn. ``won_tile`` marks a seat that has won and left
    (血战到底) with its winning tile. ``note`` is a short status such as 托管 or 听.
    """

    name: str
    score: int = 0
    hand: tuple[int, ...] | None = None
    hand_count: int = 13
    drawn: bool = False
    melds: tuple[Meld, ...] = ()
    discards: tuple[int, ...] = ()
    void_suit: int | None = None
    won_tile: int | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class HorseView:
    """A horse tile (买马): ``kind`` None while face down; ``target`` the seat it points at,
    ``buyer`` the seat that bought it where buyers differ (MCR 万马奔腾)."""

    kind: int | None = None
    target: int | None = None
    buyer: int | None = None


@dataclass(frozen=True, slots=True)
class TableView:
    """The whole table as the table channel shows it.

    ``seats`` are seats 0..3 of the hand (seat 0 is the dealer); ``viewer`` is drawn at
    the bottom. ``current`` is whose move it is; ``last_discard`` the seat whose latest
    river tile is the live discard.
    """

    seats: tuple[SeatView, SeatView, SeatView, SeatView]
    viewer: int = 0
    current: int | None = None
    last_discard: int | None = None
    wall_left: int = 0
    wildcard: int | None = None
    horses: tuple[HorseView, ...] = ()
    title: str = ""
    labels: Labels = field(default_factory=Labels)


@dataclass(frozen=True, slots=True)
class FanLine:
    """One fan or pattern, counted ``count`` times; the picture shows ``value × count``.
    ``value`` is None where the rule set gives a pattern no worth of its own (广东 big hu)."""

    name: str
    value: int | None = None
    count: int = 1


@dataclass(frozen=True, slots=True)
class WinnerView:
    """A winning hand: ``concealed`` excludes ``win_tile``. ``how`` says how it was won
    (自摸, 点炮 …) and ``title`` names the hand (清七对 …)."""

    seat: int
    concealed: tuple[int, ...]
    win_tile: int
    melds: tuple[Meld, ...] = ()
    how: str = ""
    title: str = ""
    fans: tuple[FanLine, ...] = ()
    total: int | None = None


@dataclass(frozen=True, slots=True)
class PaymentLine:
    """One ledger line between seats; ``reason`` is already worded for the reader."""

    payer: int
    payee: int
    amount: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class SettlementView:
    """The end of a hand: winners, every payment line, each seat's net, the horses."""

    names: tuple[str, str, str, str]
    winners: tuple[WinnerView, ...] = ()
    payments: tuple[PaymentLine, ...] = ()
    nets: tuple[int, int, int, int] = (0, 0, 0, 0)
    horses: tuple[HorseView, ...] = ()
    wildcard: int | None = None
    title: str = ""
    labels: Labels = field(default_factory=Labels)


@dataclass(frozen=True, slots=True)
class ChairView:
    """One chair of a lobby: ``name`` is the player's, or the word for a free chair when
    ``taken`` is False. ``ai`` marks an AI player, ``host`` the table's creator."""

    name: str
    taken: bool = True
    ai: bool = False
    host: bool = False


@dataclass(frozen=True, slots=True)
class OptionLine:
    """One option in force: its name as players write it, its value, what it means."""

    name: str
    value: str
    about: str = ""


@dataclass(frozen=True, slots=True)
class LobbyView:
    """A table's lobby: ``title`` names the rule set, hands and table; ``price`` the room
    cards it costs and who pays; ``status`` where the table stands. ``chairs`` are the
    four chairs in the order players sit down; ``options`` every option in force."""

    title: str
    chairs: tuple[ChairView, ChairView, ChairView, ChairView]
    options: tuple[OptionLine, ...] = ()
    price: str = ""
    status: str = ""
    labels: Labels = field(default_factory=Labels)
