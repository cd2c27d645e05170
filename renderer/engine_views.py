"""Engine state turned into the renderer's models: the one place that reads engine views.

The engine's :class:`~engine.round.View` is the only source: a seat whose tiles the
viewer may not see arrives without them and is drawn face down. Words come from the
caller (``Labels`` and naming functions), so the bot can word pictures for each reader;
the defaults are the engine's own simplified-Chinese names.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from engine.ledger import Payment
from engine.round import Round, SeatInfo, View
from engine.rules.base import FanLine as EngineFanLine
from engine.rules.play import ScoredWin, WinHow
from engine.tiles import kinds_of, parse_tile, rank
from renderer.models import (
    DeskView,
    FanLine,
    HandView,
    HorseView,
    Labels,
    OpponentView,
    PaymentLine,
    SeatView,
    SettlementView,
    TableView,
    WinnerView,
)


@dataclass(frozen=True, slots=True)
class SeatText:
    """What the picture prints beside a seat: its player's name, running score, status."""

    name: str
    score: int
    note: str = ""


def _engine_title(win: ScoredWin) -> str:
    """The hand's name in Chinese: the rule set's title where it gives one (四川), else its
    most valuable fan or pattern (the engine lists them by value)."""
    title = win.score.extra.get("title")
    if isinstance(title, dict):
        return str(title.get("zh", ""))
    return win.score.fans[0].zh if win.score.fans else ""


@dataclass(frozen=True, slots=True)
class Naming:
    """How a settlement words a rule set: fan names and worths, payment reasons, kinds of
    win, hand titles, the total to print and a multiplier of the win's payments. The
    defaults print the engine's own numbers and Chinese names."""

    fan: Callable[[EngineFanLine], str] = lambda line: line.zh
    fan_value: Callable[[EngineFanLine], int | None] = lambda line: line.fan
    reason: Callable[[str], str] = lambda reason: reason
    how: Callable[[ScoredWin], str] = lambda win: win.how
    title: Callable[[ScoredWin], str] = _engine_title
    total: Callable[[ScoredWin], int | None] = lambda win: win.score.total
    multiplier: Callable[[ScoredWin], int | None] = lambda win: None


def void_suits(view: View) -> tuple[int | None, ...]:
    """Each seat's 定缺 suit once the rule set reveals it."""
    voids = view.facts.voids
    if not voids:
        return (None, None, None, None)
    return voids


def ordered_concealed(info: SeatInfo) -> tuple[int, ...] | None:
    """A visible hand sorted, with the drawn tile last as players hold it."""
    if info.concealed is None:
        return None
    tiles = kinds_of(info.concealed)
    if info.drawn is not None:
        tiles.remove(info.drawn)
        return (*tiles, info.drawn)
    return tuple(tiles)


def win_orders(wins: Sequence[ScoredWin]) -> dict[int, int]:
    """Each winner's place in the order of winning (1 first); seats that won on the same
    discard, or robbed the same kong, share a place."""
    orders: dict[int, int] = {}
    place = 0
    previous = None
    for win in wins:
        context = win.context
        shot = (
            None
            if context.from_seat is None
            else (context.from_seat, context.tile, context.discards_before)
        )
        if shot is None or shot != previous:
            place += 1
        previous = shot
        orders.setdefault(win.seat, place)
    return orders


def _several_places(orders: dict[int, int]) -> bool:
    return len(set(orders.values())) > 1


def _table_orders(view: View) -> dict[int, int]:
    """Orders mean something once play went on after a win, or seats won one after
    another."""
    orders = win_orders(view.wins)
    gone = any(not view.seats[w.seat].active for w in view.wins)
    return orders if gone or _several_places(orders) else {}


def seat_view(
    view: View, info: SeatInfo, text: SeatText, void: int | None, order: int | None = None
) -> SeatView:
    won = [w.context.tile for w in view.wins if w.seat == info.seat]
    return SeatView(
        name=text.name,
        score=text.score,
        hand=ordered_concealed(info),
        hand_count=info.concealed_count,
        drawn=info.drawn is not None,
        melds=info.melds,
        discards=tuple(d.tile for d in info.discards if d.claimed_by is None),
        void_suit=void,
        won_tile=won[-1] if won else None,
        won_order=order,
        note=text.note,
    )


def horse_target(kind: int) -> int:
    """The seat a horse tile points at, counted from the dealer (README "Seats"): number
    n → (n − 1) mod 4; 东南西北中发白 count 1..7 the same way."""
    return (rank(kind) - 1) % 4


def horses(view: View) -> tuple[HorseView, ...]:
    """The horse tiles set aside: face down, or turned up with the seats they point at."""
    aside = view.aside.get("horses")
    if isinstance(aside, int):
        return tuple(HorseView() for _ in range(aside))
    if isinstance(aside, tuple):
        return tuple(HorseView(kind=k, target=horse_target(k)) for k in aside)
    return ()


# A horse of a settlement: the horse, and the (position, buyer) its payment lines name
# where horses are bought by position (MCR 万马奔腾), else None.
_Horse = tuple[HorseView, tuple[int, int] | None]


def settlement_horses(view: View) -> list[_Horse]:
    """Bought horses, one per buyer and position, where players buy them (none when
    nobody did: the row moved nothing, and the table shows it turned up); else every
    horse, the dealer's."""
    bought = view.facts.bought_horses
    if bought is None:
        return [(h, None) for h in horses(view)]
    return [
        (HorseView(h.tile, h.target, h.buyer), (h.position, h.buyer))
        for h in sorted(bought, key=lambda h: (h.position, h.buyer))
    ]


def horse_of_lines(lines: Sequence[Payment], bought: Sequence[_Horse]) -> list[int | None]:
    """For each payment line, the index in ``bought`` of the horse that made it. A line
    names its horse's position where horses are bought by position; else only the tile,
    and two horses of one kind are told apart by their copies starting over (each horse
    copies the base lines in order)."""
    by_position = {key: i for i, (_, key) in enumerate(bought) if key is not None}
    nth: dict[int, int] = {}
    last_copy: dict[int, int] = {}
    out: list[int | None] = []
    for line in lines:
        extra = dict(line.extra)
        if "horse" not in extra:
            out.append(None)
            continue
        if "position" in extra:
            out.append(by_position.get((int(extra["position"]), int(extra["buyer"]))))
            continue
        kind = parse_tile(str(extra["horse"]))
        copy = int(extra.get("copy_of", 0))
        if kind in last_copy and copy <= last_copy[kind]:
            nth[kind] = nth.get(kind, 0) + 1
        last_copy[kind] = copy
        same = [i for i, (h, _) in enumerate(bought) if h.kind == kind]
        out.append(same[min(nth.get(kind, 0), len(same) - 1)] if same else None)
    return out


def ringed_discard(view: View) -> int | None:
    """The seat whose newest river tile is the hand's latest discard, or None once that
    tile has been claimed."""
    if view.last_discard is None:
        return None
    seat, tile = view.last_discard
    river = view.seats[seat].discards
    if river and river[-1].tile == tile and river[-1].claimed_by is None:
        return seat
    return None


def table_view(
    view: View,
    seats: Sequence[SeatText],
    labels: Labels,
    title: str,
    bottom: int = 0,
) -> TableView:
    """The table picture's description; ``seats`` are in seats of the hand, ``bottom`` the
    seat drawn at the bottom. The hand's latest discard is ringed and named in the centre
    (``Labels.discarded``) for as long as it lies in its river."""
    voids = void_suits(view)
    orders = _table_orders(view)
    seat_views = tuple(
        seat_view(view, info, seats[info.seat], voids[info.seat], orders.get(info.seat))
        for info in view.seats
    )
    ringed = ringed_discard(view)
    caption = ""
    if ringed is not None:
        tile = view.seats[ringed].discards[-1].tile
        caption = labels.discarded.format(name=seats[ringed].name, tile=labels.tile_text(tile))
    return TableView(
        seats=(seat_views[0], seat_views[1], seat_views[2], seat_views[3]),
        bottom=bottom,
        current=view.turn,
        last_discard=ringed,
        caption=caption,
        wall_left=view.live_count,
        round_wind=view.facts.round_wind,
        wildcard=view.facts.wildcard,
        horses=horses(view),
        title=title,
        labels=labels,
    )


def hand_view(
    view: View, seat: int, labels: Labels, title: str, legal_discards: frozenset[int] | None
) -> HandView:
    """The DM picture of ``seat``'s own hand."""
    info = view.seats[seat]
    tiles = kinds_of(info.concealed or [0] * 34)
    if info.drawn is not None:
        tiles.remove(info.drawn)
    return HandView(
        concealed=tuple(tiles),
        drawn=info.drawn,
        melds=info.melds,
        legal_discards=legal_discards,
        void_suit=void_suits(view)[seat],
        wildcard=view.facts.wildcard,
        title=title,
        labels=labels,
    )


def desk_view(
    view: View,
    seat: int,
    seats: Sequence[SeatText],
    labels: Labels,
    title: str,
    legal_discards: frozenset[int] | None,
    waits: Sequence[tuple[int, int]] = (),
) -> DeskView:
    """The hand message's picture of ``seat``: its hand, the other seats compactly, the
    wall and whose move it is; ``waits`` are (tile, copies left) while the hand is ready.
    The hand's latest discard is ringed for as long as it lies in its river."""
    voids = void_suits(view)
    orders = win_orders(view.wins)
    won = {w.seat: w.context.tile for w in view.wins}
    ringed = ringed_discard(view)
    opponents = []
    for step, place in enumerate(labels.places, start=1):
        other = (seat + step) % 4
        info = view.seats[other]
        opponents.append(
            OpponentView(
                name=seats[other].name,
                place=place,
                owner=other,
                melds=info.melds,
                discards=tuple(d.tile for d in info.discards if d.claimed_by is None),
                hand_count=info.concealed_count,
                void_suit=voids[other],
                won_tile=won.get(other),
                note=seats[other].note,
                current=view.turn == other and view.phase != "end",
                live=ringed == other,
            )
        )
    hand = hand_view(view, seat, labels, title, legal_discards)
    several = len(set(orders.values())) > 1
    return DeskView(
        hand=replace(hand, waits=tuple(tile for tile, _ in waits)),
        opponents=tuple(opponents),
        wall_left=view.live_count,
        wait_left=tuple(left for _, left in waits),
        current=view.turn == seat and view.phase != "end",
        won_tile=won.get(seat),
        won_order=orders.get(seat) if several or not view.seats[seat].active else None,
    )


def winner_view(win: ScoredWin, naming: Naming, order: int | None = None) -> WinnerView:
    score = win.score
    total = naming.total(win)
    # The rule set's cap lowered the total when the uncapped value it compares is larger.
    uncapped = score.value if score.value is not None and score.value > score.total else None
    return WinnerView(
        seat=win.seat,
        concealed=win.context.hand.concealed,
        win_tile=win.context.tile,
        melds=win.context.hand.melds,
        how=naming.how(win),
        from_seat=win.context.from_seat,
        title=naming.title(win),
        fans=tuple(
            FanLine(naming.fan(line), naming.fan_value(line), line.count) for line in score.fans
        ),
        total=total,
        capped_from=uncapped if total is not None else None,
        multiplier=naming.multiplier(win),
        order=order,
        robbed=win.how == WinHow.ROB_KONG.value,
    )


def settlement_view(
    hand: Round, names: Sequence[str], labels: Labels, title: str, naming: Naming | None = None
) -> SettlementView:
    """The settlement picture of a finished hand: winners in the order they won, every
    payment line with the horse that made it, nets, horses and stakes multipliers."""
    naming = naming or Naming()
    view = hand.view(None)
    nets = hand.ledger.nets()
    orders = win_orders(hand.wins)
    shown = orders if _several_places(orders) else {}
    bought = settlement_horses(view)
    made_by = horse_of_lines(hand.ledger.lines, bought)
    return SettlementView(
        names=(names[0], names[1], names[2], names[3]),
        winners=tuple(winner_view(w, naming, shown.get(w.seat)) for w in hand.wins),
        payments=tuple(
            PaymentLine(p.payer, p.payee, p.amount, naming.reason(p.reason), horse)
            for p, horse in zip(hand.ledger.lines, made_by, strict=True)
        ),
        nets=(nets[0], nets[1], nets[2], nets[3]),
        horses=tuple(h for h, _ in bought),
        factors=view.facts.factors,
        wildcard=view.facts.wildcard,
        title=title,
        labels=labels,
    )
