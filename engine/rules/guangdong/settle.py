"""Settlement of one 广东推倒胡 hand (guangdong.md §3 and §4), written into a Ledger.

The order of the lines is part of the contract [D29]: hu lines, then kong lines kong by
kong in the order made, then horse lines horse by horse in wall order. Amounts are units
times ``base_stake``. An exhaustive draw pays nothing at all.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.ledger import Ledger, Payment
from engine.tiles import rank, tile_str

SEATS = 4
DEALER = 0

WIN_DISCARD = "win_discard"
WIN_SELF_DRAW = "win_self_draw"
WIN_ROB_KONG = "win_rob_kong"
WIN_KONG_BLOOM_DISCARDER = "win_kong_bloom_discarder"
KONG_EXPOSED = "kong_exposed"
KONG_CONCEALED = "kong_concealed"
KONG_ADDED = "kong_added"
HORSE = "horse"

# Units per line (§3.2, §3.3); hu amounts are further multiplied by S (1 small, 2 big).
DISCARD_UNITS = 1
SELF_DRAW_UNITS = 2
# 抢杠 and 杠上开花 on a discarded kong tile: a whole self-draw, from one player [D17, D18].
LIABLE_UNITS = SELF_DRAW_UNITS * (SEATS - 1)


class WinHow(enum.StrEnum):
    """How a hand was won, as the round script's output names it."""

    DISCARD = "discard"
    SELF_DRAW = "self_draw"
    ROB_KONG = "rob_kong"
    KONG_BLOOM = "kong_bloom"

    @property
    def self_drawn(self) -> bool:
        """Whether the winning tile came from the wall (it counts +2 horses [D22])."""
        return self in (WinHow.SELF_DRAW, WinHow.KONG_BLOOM)


class KongKind(enum.StrEnum):
    """The three kongs, valued by their payment reason."""

    EXPOSED = KONG_EXPOSED
    CONCEALED = KONG_CONCEALED
    ADDED = KONG_ADDED


# Wins paid by one player alone: (reason, units).
_ONE_PAYER = {
    WinHow.DISCARD: (WIN_DISCARD, DISCARD_UNITS),
    WinHow.ROB_KONG: (WIN_ROB_KONG, LIABLE_UNITS),
    WinHow.KONG_BLOOM: (WIN_KONG_BLOOM_DISCARDER, LIABLE_UNITS),
}

KONG_UNITS = {KongKind.EXPOSED: 3, KongKind.CONCEALED: 2, KongKind.ADDED: 1}


@dataclass(frozen=True, slots=True)
class Win:
    """One winner.

    ``size`` is S: 1 for a small hu, 2 for a big one. ``from_seat`` is the discarder
    (``DISCARD``), the robbed player (``ROB_KONG``), or for ``KONG_BLOOM`` the player who
    discarded the tile of the kong whose replacement won, None after one's own concealed or
    added kong. A plain self-draw has none.
    """

    seat: int
    how: WinHow
    size: int
    from_seat: int | None = None

    def __post_init__(self) -> None:
        needs_source = self.how in (WinHow.DISCARD, WinHow.ROB_KONG)
        if needs_source and self.from_seat is None:
            raise ValueError(f"a {self.how} win needs the seat it was won from")
        if self.how is WinHow.SELF_DRAW and self.from_seat is not None:
            raise ValueError("a self-draw is won from nobody")
        if self.from_seat == self.seat:
            raise ValueError(f"seat {self.seat} cannot win from itself")
        if self.size not in (1, 2):
            raise ValueError(f"a hu is small (1) or big (2), not {self.size}")


@dataclass(frozen=True, slots=True)
class Kong:
    """A kong that stands at the end of the hand; ``from_seat`` discarded an exposed one."""

    seat: int
    kind: KongKind
    from_seat: int | None = None

    def __post_init__(self) -> None:
        if (self.kind is KongKind.EXPOSED) != (self.from_seat is not None):
            raise ValueError("exactly the kongs claimed from a discard name their discarder")


def horse_seat(tile: int) -> int:
    """The seat a horse tile points at, counted from the dealer (E, C and 1 5 9 = dealer)."""
    return (rank(tile) - 1) % SEATS


def winner_order(wins: Sequence[Win]) -> list[Win]:
    """Winners in turn order from the 下家 of whoever they won from [D29]."""
    return sorted(wins, key=lambda w: (w.seat - (w.from_seat or 0) - 1) % SEATS)


def write_hu_lines(ledger: Ledger, wins: Sequence[Win], stake: int) -> None:
    for win in winner_order(wins):
        source = win.from_seat
        if source is None:  # a self-draw, or 杠上开花 after one's own kong
            for payer in _others(win.seat):
                ledger.pay(payer, win.seat, SELF_DRAW_UNITS * win.size * stake, WIN_SELF_DRAW)
        else:
            reason, units = _ONE_PAYER[win.how]
            ledger.pay(source, win.seat, units * win.size * stake, reason)


def write_kong_lines(ledger: Ledger, kongs: Sequence[Kong], stake: int) -> None:
    """Every standing kong, paid once, whoever made it [D19]."""
    for kong in kongs:
        amount = KONG_UNITS[kong.kind] * stake
        payers = [kong.from_seat] if kong.from_seat is not None else _others(kong.seat)
        for payer in payers:
            ledger.pay(payer, kong.seat, amount, kong.kind.value)


def write_horse_lines(ledger: Ledger, horses: Sequence[int], base_from: int = 0) -> None:
    """Copy every base line touching each horse's seat with the dealer in that seat's place.

    The base lines are ``ledger.lines[base_from:]`` as they stand before the first copy:
    horses never copy horse lines, and copies between the dealer and himself are dropped
    [D21]. Each copy carries ``horse``, ``horse_seat`` and ``copy_of`` (the 1-based number
    of the copied line).
    """
    base = list(enumerate(ledger.lines, start=1))[base_from:]
    for horse in horses:
        target = horse_seat(horse)
        for number, line in base:
            ends = _horse_copy(line, target)
            if ends is None:
                continue
            extra = (("horse", tile_str(horse)), ("horse_seat", target), ("copy_of", number))
            ledger.pay(*ends, line.amount, HORSE, extra)


def _horse_copy(line: Payment, target: int) -> tuple[int, int] | None:
    """(payer, payee) of the copy of ``line`` for a horse on ``target``, if there is one."""
    if line.payee == target:
        ends = (line.payer, DEALER)
    elif line.payer == target:
        ends = (DEALER, line.payee)
    else:
        return None
    return None if ends[0] == ends[1] else ends


def settle(
    wins: Sequence[Win],
    kongs: Sequence[Kong],
    horses: Sequence[int],
    stake: int,
    ledger: Ledger | None = None,
) -> Ledger:
    """Write the whole settlement of a hand into ``ledger`` (a new one by default).

    No wins means an exhaustive draw: no lines at all, the horses are only shown [D25].
    """
    ledger = Ledger() if ledger is None else ledger
    if not wins:
        return ledger
    base_from = len(ledger.lines)
    write_hu_lines(ledger, wins, stake)
    write_kong_lines(ledger, kongs, stake)
    write_horse_lines(ledger, horses, base_from)
    return ledger


def horses_json(horses: Sequence[int]) -> list[dict[str, Any]]:
    """The horse tiles in wall order with the seats they point at."""
    return [{"tile": tile_str(h), "seat": horse_seat(h)} for h in horses]


def _others(seat: int) -> list[int]:
    return [s for s in range(SEATS) if s != seat]
