"""What to draw: plain frozen descriptions filled by the caller.

Tiles are kinds 0..33 as in ``engine.tiles``; melds are ``engine.tiles.Meld``. Seats are
seats of the hand (0 = dealer, East). Every string is shown as given, so the caller passes
text already in the reader's language; the renderer only picks where it goes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.tiles import HONOR, Meld, rank, suit


@dataclass(frozen=True, slots=True)
class Labels:
    """Words the pictures print. Templates use ``{n}`` (a number), ``{suit}``, ``{name}``
    (a player's), ``{tile}`` (from :meth:`tile_text`) or ``{wind}`` (one of ``winds``)."""

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
    dragons: tuple[str, str, str] = ("中", "发", "白")
    number_tile: str = "{n}{suit}"
    discarded: str = "{name} 打出 {tile}"
    round_wind: str = "{wind}风圈"
    win_order: str = "第{n}家"
    won_order: str = "第{n}家胡"
    dealt_in: str = "{name} 点炮"
    robbed: str = "{name} 被抢杠"
    capped: str = "封顶（原 {n}）"
    multiplier: str = "×{n}"
    pays: str = "付"
    receives: str = "收"
    horse_hit: str = "中 {name}"
    left: str = "×{n}"
    #: The other seats as a player calls them: 下家, 对家, 上家.
    places: tuple[str, str, str] = ("下家", "对家", "上家")
    #: Every tile's name as the reader says it, by kind (0..33); empty: built from the
    #: words above.
    tile_names: tuple[str, ...] = ()

    def void_text(self, void_suit: int) -> str:
        return self.void.format(suit=self.suits[void_suit])

    def tile_text(self, kind: int) -> str:
        """A tile's short name: the caller's own where it gave them (``tile_names``, one
        per kind), else ``4筒`` from ``number_tile``, or the wind or dragon."""
        if self.tile_names:
            return self.tile_names[kind]
        if suit(kind) == HONOR:
            return (*self.winds, *self.dragons)[rank(kind) - 1]
        return self.number_tile.format(n=rank(kind), suit=self.suits[suit(kind)])


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
class OpponentView:
    """Another seat as a hand message shows it, compactly: ``place`` is how the reader
    calls it (下家, 对家, 上家), ``discards`` its river oldest first (the newest are shown),
    ``owner`` its seat of the hand (a meld's claimed tile lies toward its giver).
    ``current`` marks the seat whose move it is; ``live`` rings its newest discard, the
    tile the reader may claim. ``won_tile`` marks a seat that has won (血战到底).
    ``note`` is a short status such as 托管."""

    name: str
    place: str
    owner: int
    melds: tuple[Meld, ...] = ()
    discards: tuple[int, ...] = ()
    hand_count: int = 13
    void_suit: int | None = None
    won_tile: int | None = None
    note: str = ""
    current: bool = False
    live: bool = False


@dataclass(frozen=True, slots=True)
class DeskView:
    """One player's whole decision on one picture, for a phone: the other three seats
    (``opponents``, in the order play goes round from the reader: 下家, 对家, 上家), the
    tiles left in the wall, then the reader's own ``hand`` large. ``wait_left`` gives the
    copies left of each of ``hand.waits``. ``current`` marks the reader's own move;
    ``won_tile`` (with ``won_order``, 1 for the first) shows that the reader has won
    and waits for the others (血战到底)."""

    hand: HandView
    opponents: tuple[OpponentView, ...] = ()
    wall_left: int | None = None
    wait_left: tuple[int, ...] = ()
    current: bool = False
    won_tile: int | None = None
    won_order: int | None = None


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat at the table.

    ``hand`` lists the concealed tiles face up (a revealed hand, or the viewer's own);
    None draws ``hand_count`` backs instead. ``drawn`` sets the last concealed tile apart,
    as for a seat that has just drawn. ``won_tile`` marks a seat that has won (and left,
    in 血战到底) with its winning tile; ``won_order`` says it was the n-th to win (1 first;
    seats that won on the same discard share a number), printed with ``Labels.won_order``
    (else the badge reads ``Labels.won``).
    ``note`` is a short status such as 托管 or 听.
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
    won_order: int | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class HorseView:
    """A horse tile (买马): ``kind`` None while face down; ``target`` the seat it points at;
    ``buyer`` the seat that bought it where buyers differ (MCR 万马奔腾), None for the
    dealer's horses (广东)."""

    kind: int | None = None
    target: int | None = None
    buyer: int | None = None


@dataclass(frozen=True, slots=True)
class TableView:
    """The whole table as the table channel shows it.

    ``seats`` are seats 0..3 of the hand (seat 0 is the dealer, who gets the 庄 badge);
    ``bottom`` is the seat drawn at the bottom, the others follow it counter-clockwise
    (下家 right, 对家 top, 上家 left). A thread keeps one player at the bottom all session
    by passing that player's seat in each hand. ``current`` is whose move it is.
    ``last_discard`` is the seat whose newest river tile is the latest discard: that tile
    is ringed and shown again in the centre over ``caption`` (the caller's words, such as
    "电脑3 打出 4筒"). ``round_wind`` is the prevailing wind (0 东 .. 3 北) where the rule
    set has one.
    """

    seats: tuple[SeatView, SeatView, SeatView, SeatView]
    bottom: int = 0
    current: int | None = None
    last_discard: int | None = None
    caption: str = ""
    wall_left: int = 0
    round_wind: int | None = None
    wildcard: int | None = None
    horses: tuple[HorseView, ...] = ()
    title: str = ""
    labels: Labels = field(default_factory=Labels)


@dataclass(frozen=True, slots=True)
class FanLine:
    """One fan or pattern, counted ``count`` times; the picture shows ``value × count``.
    ``value`` is None where the rule set gives a pattern no worth of its own (广东 big hu);
    a line worth 0 (四川 平胡) is not listed, the hand's ``title`` names it."""

    name: str
    value: int | None = None
    count: int = 1


@dataclass(frozen=True, slots=True)
class WinnerView:
    """A winning hand: ``concealed`` excludes ``win_tile``.

    ``how`` says how it was won from the winner's side (自摸, 胡, 抢杠胡 …) and
    ``from_seat`` who dealt in or was robbed (None when self-drawn), printed with
    ``Labels.dealt_in``, or ``Labels.robbed`` when ``robbed`` (the tile was added to a kong,
    not discarded). ``title`` names the hand in every rule set (鸡胡, 平胡, 清七对 …).
    ``total`` is printed with ``Labels.total``; ``capped_from`` is the total before the
    rule set's cap, given only when the cap lowered it. ``multiplier`` is a factor the rule
    set applies to this win's payments (广东 big hu ×2), None where there is none.
    ``order`` is the n-th win of the hand (1 first), given where several seats won, printed
    with ``Labels.win_order``.
    """

    seat: int
    concealed: tuple[int, ...]
    win_tile: int
    melds: tuple[Meld, ...] = ()
    how: str = ""
    from_seat: int | None = None
    title: str = ""
    fans: tuple[FanLine, ...] = ()
    total: int | None = None
    capped_from: int | None = None
    multiplier: int | None = None
    order: int | None = None
    robbed: bool = False


@dataclass(frozen=True, slots=True)
class PaymentLine:
    """One ledger line between seats; ``reason`` is already worded for the reader.
    ``horse`` is the index in ``SettlementView.horses`` of the horse that made the line."""

    payer: int
    payee: int
    amount: int
    reason: str = ""
    horse: int | None = None


@dataclass(frozen=True, slots=True)
class SettlementView:
    """The end of a hand: winners in the order they won, every payment line, each seat's
    net, the horses. ``factors`` are the seats' stakes multipliers (MCR 底分押倍), every
    payment already multiplied by them; None where the rule set has none."""

    names: tuple[str, str, str, str]
    winners: tuple[WinnerView, ...] = ()
    payments: tuple[PaymentLine, ...] = ()
    nets: tuple[int, int, int, int] = (0, 0, 0, 0)
    horses: tuple[HorseView, ...] = ()
    factors: tuple[int, int, int, int] | None = None
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


@dataclass(frozen=True, slots=True)
class ButtonView:
    """A button under a chat message: its ``fill`` colour, an ``icon`` (PNG bytes) before
    its ``label``, either of them optional."""

    label: str = ""
    icon: bytes | None = None
    fill: str = "#4e5058"


@dataclass(frozen=True, slots=True)
class MessageView:
    """A chat message as a phone app shows it, for screenshots: who sent it, its lines as
    runs of (text, bold), a picture (PNG bytes) and rows of buttons, as already worded."""

    author: str
    lines: tuple[tuple[tuple[str, bool], ...], ...] = ()
    picture: bytes | None = None
    rows: tuple[tuple[ButtonView, ...], ...] = ()
