"""Engine state turned into the renderer's models: the one place that reads engine views.

The engine's :class:`~engine.round.View` is the only source: a seat whose tiles the
viewer may not see arrives without them and is drawn face down. Words come from the
caller (``Labels`` and naming functions), so the bot can word pictures for each reader;
the defaults are the engine's own simplified-Chinese names.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.round import Round, SeatInfo, View
from engine.rules.base import FanLine as EngineFanLine
from engine.rules.play import ScoredWin
from engine.tiles import kinds_of
from renderer.models import (
    FanLine,
    HandView,
    HorseView,
    Labels,
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


@dataclass(frozen=True, slots=True)
class Naming:
    """How a settlement names fans, payment reasons, kinds of win and hand titles."""

    fan: Callable[[EngineFanLine], str] = lambda line: line.zh
    reason: Callable[[str], str] = lambda reason: reason
    how: Callable[[ScoredWin], str] = lambda win: win.how
    title: Callable[[ScoredWin], str] = lambda win: ""


def void_suits(view: View) -> tuple[int | None, ...]:
    """Each seat's 定缺 suit once the rule set reveals it."""
    voids = view.facts.voids
    if not voids:
        return (None, None, None, None)
    return voids


def wildcard_of(view: View) -> int | None:
    return view.facts.wildcard


def ordered_concealed(info: SeatInfo) -> tuple[int, ...] | None:
    """A visible hand sorted, with the drawn tile last as players hold it."""
    if info.concealed is None:
        return None
    tiles = kinds_of(info.concealed)
    if info.drawn is not None:
        tiles.remove(info.drawn)
        return (*tiles, info.drawn)
    return tuple(tiles)


def seat_view(view: View, info: SeatInfo, text: SeatText, void: int | None) -> SeatView:
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
        note=text.note,
    )


def horses(view: View) -> tuple[HorseView, ...]:
    aside = view.aside.get("horses")
    if isinstance(aside, int):
        return tuple(HorseView() for _ in range(aside))
    if isinstance(aside, tuple):
        return tuple(HorseView(kind=k) for k in aside)
    return ()


def table_view(
    view: View, seats: Sequence[SeatText], labels: Labels, title: str, bottom: int = 0
) -> TableView:
    """The table picture's description; ``seats`` are in seats of the hand."""
    voids = void_suits(view)
    seat_views = tuple(
        seat_view(view, info, seats[info.seat], voids[info.seat]) for info in view.seats
    )
    return TableView(
        seats=(seat_views[0], seat_views[1], seat_views[2], seat_views[3]),
        viewer=bottom,
        current=view.turn,
        last_discard=view.claim_from,
        wall_left=view.live_count,
        wildcard=wildcard_of(view),
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
        wildcard=wildcard_of(view),
        title=title,
        labels=labels,
    )


def winner_view(win: ScoredWin, naming: Naming) -> WinnerView:
    return WinnerView(
        seat=win.seat,
        concealed=win.context.hand.concealed,
        win_tile=win.context.tile,
        melds=win.context.hand.melds,
        how=naming.how(win),
        title=naming.title(win),
        fans=tuple(FanLine(naming.fan(line), line.fan, line.count) for line in win.score.fans),
        total=win.score.total,
    )


def settlement_view(
    hand: Round, names: Sequence[str], labels: Labels, title: str, naming: Naming | None = None
) -> SettlementView:
    """The settlement picture of a finished hand: winners, every payment line, nets."""
    naming = naming or Naming()
    view = hand.view(None)
    nets = hand.ledger.nets()
    return SettlementView(
        names=(names[0], names[1], names[2], names[3]),
        winners=tuple(winner_view(w, naming) for w in hand.wins),
        payments=tuple(
            PaymentLine(p.payer, p.payee, p.amount, naming.reason(p.reason))
            for p in hand.ledger.lines
        ),
        nets=(nets[0], nets[1], nets[2], nets[3]),
        horses=horses(view),
        wildcard=wildcard_of(view),
        title=title,
        labels=labels,
    )
