"""Payments of 四川 血战到底 (sichuan.md §4), written into a Ledger.

Every function writes the lines of one event in the spec's order: by payer in seat order,
except 一炮多响, which goes by winner in turn order from the discarder. End-of-hand lines
come in the order 查花猪, 查叫, 退税. A seat that is out is simply not among ``active``.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from engine.ledger import Ledger, Payment
from engine.rules.sichuan.options import SichuanOptions

SEATS = 4

WIN_SELF_DRAW = "win_self_draw"
WIN_DISCARD = "win_discard"
WIN_ROB_KONG = "win_rob_kong"
WIN_KONG_BLOOM_DISCARDER = "win_kong_bloom_discarder"
KONG_CONCEALED = "kong_concealed"
KONG_EXPOSED = "kong_exposed"
KONG_EXPOSED_SIDE = "kong_exposed_side"
KONG_ADDED = "kong_added"
CALL_TRANSFER = "call_transfer"
FLOWER_PIG = "flower_pig"
NOT_READY = "not_ready"
KONG_REFUND = "kong_refund"


class KongKind(enum.StrEnum):
    CONCEALED = "concealed"  # 暗杠 (下雨)
    EXPOSED = "exposed"  # 直杠 / 引杠 on a discard (刮风)
    ADDED = "added"  # 巴杠: the tile just drawn added to an earlier pung (刮风)
    WRAPPED = "wrapped"  # 绕杠: any other added kong; no money, still a 根 [D18]


@dataclass(frozen=True, slots=True)
class KongMoney:
    """The water money one kong earned, as written: 呼叫转移 and 退税 move it again."""

    konger: int
    kind: KongKind
    lines: tuple[Payment, ...]

    @property
    def total(self) -> int:
        return sum(line.amount for line in self.lines)


@dataclass(frozen=True, slots=True)
class Win:
    """One winner of an event and the F (before the cap) of his win."""

    seat: int
    fan: int


def turn_order(start: int, seats: Iterable[int]) -> list[int]:
    """``seats`` in play order after ``start`` (``start`` itself last)."""
    return sorted(seats, key=lambda s: (s - start - 1) % SEATS)


def _kong_share(
    kind: KongKind, payer: int, discarder: int | None, options: SichuanOptions
) -> tuple[int, str]:
    """What one other active seat pays for a kong, and why."""
    base = options.base_stake
    if kind is KongKind.CONCEALED:
        return 2 * base, KONG_CONCEALED
    if kind is KongKind.ADDED:
        return base, KONG_ADDED
    if kind is KongKind.EXPOSED and payer == discarder:
        return 2 * base, KONG_EXPOSED
    if kind is KongKind.EXPOSED and options.side_pay:
        return base, KONG_EXPOSED_SIDE
    return 0, ""


def pay_kong(
    ledger: Ledger,
    kind: KongKind,
    konger: int,
    active: Collection[int],
    options: SichuanOptions,
    discarder: int | None = None,
) -> KongMoney:
    """刮风下雨: water money from the seats active at the moment of the kong."""
    if kind is KongKind.EXPOSED and discarder is None:
        raise ValueError("a kong on a discard needs its discarder")
    lines = []
    for payer in sorted(active):
        if payer != konger:
            amount, reason = _kong_share(kind, payer, discarder, options)
            if amount:
                lines.append(Payment(payer, konger, amount, reason))
    ledger.extend(lines)
    return KongMoney(konger, kind, tuple(lines))


def self_draw_value(fan: int, options: SichuanOptions) -> int:
    """What each payer of a self-draw pays: W(F), plus B after the cap with 自摸加底."""
    return options.win_value(fan) + (options.base_stake if options.add_base else 0)


def pay_self_draw(
    ledger: Ledger, win: Win, active: Collection[int], options: SichuanOptions
) -> None:
    """自摸 (and 天胡, 地胡, 杠上花 paid by all): every other active seat pays."""
    amount = self_draw_value(win.fan, options)
    for payer in sorted(active):
        if payer != win.seat:
            ledger.pay(payer, win.seat, amount, WIN_SELF_DRAW)


def kong_bloom_paid_by_giver(options: SichuanOptions, after_exposed_kong: bool) -> bool:
    """点杠花(点炮): a 杠上花 right after a 直杠 is paid by the kong's giver alone."""
    return after_exposed_kong and options.kong_bloom_payer == "discarder"


def pay_kong_bloom_by_giver(ledger: Ledger, win: Win, giver: int, options: SichuanOptions) -> None:
    """点杠花(点炮): the seat whose discard was konged pays W(F), with no self-draw bonus."""
    ledger.pay(giver, win.seat, options.win_value(win.fan), WIN_KONG_BLOOM_DISCARDER)


def pay_discard(
    ledger: Ledger,
    payer: int,
    wins: Sequence[Win],
    options: SichuanOptions,
    reason: str = WIN_DISCARD,
) -> None:
    """点炮 or 抢杠 (``reason`` = win_rob_kong): the payer pays each winner his own W(F)."""
    by_seat = {w.seat: w for w in wins}
    for seat in turn_order(payer, by_seat):
        ledger.pay(payer, seat, options.win_value(by_seat[seat].fan), reason)


def pay_call_transfer(
    ledger: Ledger, discarder: int, winners: Collection[int], kongs: Sequence[KongMoney]
) -> None:
    """呼叫转移: the water money of this turn's kongs goes whole to the nearest winner."""
    nearest = turn_order(discarder, winners)[0]
    ledger.pay(discarder, nearest, sum(k.total for k in kongs), CALL_TRANSFER)


@dataclass(frozen=True, slots=True)
class SeatCheck:
    """An active seat at exhaustion: 花猪 (holds a void tile), and its best F if 有叫."""

    seat: int
    flower_pig: bool
    best_fan: int | None

    @property
    def ready(self) -> bool:
        return self.best_fan is not None


def settle_exhaustion(
    ledger: Ledger,
    checks: Sequence[SeatCheck],
    kongs: Sequence[KongMoney],
    options: SichuanOptions,
) -> None:
    """查花猪, 查叫 and 退税, for a wall exhausted with two or more seats active.

    ``checks`` cover the active seats only; ``kongs`` are the water money still held (a
    kong whose money was moved by 呼叫转移 is left out: it is never refunded).
    """
    checks = sorted(checks, key=lambda c: c.seat)
    pigs = {c.seat for c in checks if c.flower_pig} if options.flower_pig else set()
    _check_flower_pigs(ledger, checks, pigs, options)
    _check_ready(ledger, [c for c in checks if c.seat not in pigs], options)
    _refund_kongs(ledger, [c.seat for c in checks if not c.ready], kongs)


def _check_flower_pigs(
    ledger: Ledger, checks: Sequence[SeatCheck], pigs: Collection[int], options: SichuanOptions
) -> None:
    """查花猪: each 花猪 pays every other active seat that is not one the cap's W."""
    price = options.base_stake * 2**options.max_fan
    for pig in sorted(pigs):
        for other in checks:
            if other.seat not in pigs:
                ledger.pay(pig, other.seat, price, FLOWER_PIG)


def _check_ready(ledger: Ledger, checks: Sequence[SeatCheck], options: SichuanOptions) -> None:
    """查叫 (查大叫): each 无叫 seat pays each 有叫 seat W of that seat's best F."""
    ready = [(c.seat, options.win_value(c.best_fan)) for c in checks if c.best_fan is not None]
    for payer in checks:
        if not payer.ready:
            for payee, amount in ready:
                ledger.pay(payer.seat, payee, amount, NOT_READY)


def _refund_kongs(ledger: Ledger, refunders: Collection[int], kongs: Sequence[KongMoney]) -> None:
    """退税: a 无叫 seat hands back each kong's money to the seat that paid it."""
    for seat in sorted(refunders):
        for kong in kongs:
            if kong.konger == seat:
                for line in kong.lines:
                    ledger.pay(seat, line.payer, line.amount, KONG_REFUND)
