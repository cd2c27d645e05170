"""Shared pieces of the store tests: a fake clock, ids, round setups and results."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from data import Payment, RoundInfo, RoundResult, Table, Variant, Win

GUILD = 1_000
OTHER_GUILD = 2_000
ALICE, BOB, CAROL, DAVE, ERIN = 101, 102, 103, 104, 105
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol", DAVE: "Dave", ERIN: "Erin"}


# What the make_table and play_round fixtures return.
MakeTable = Callable[..., Awaitable[Table]]
PlayRound = Callable[..., Awaitable[RoundInfo]]


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def setup_for(variant: Variant = Variant.SICHUAN, dealer: int = 0, **extra: Any) -> dict[str, Any]:
    """A round setup in round-script form; the store treats tiles as opaque text."""
    return {
        "variant": variant.value,
        "options": {"base_stake": 1},
        "dealer": dealer,
        "dice": [3, 4],
        "hands": ["11122233344455m", "1112223334445p", "1112223334445s", "6667778889996m"],
        "wall": "5m5p5s",
        **extra,
    }


def discard_win(winner: int, discarder: int, amount: int, total: int) -> RoundResult:
    net = [0, 0, 0, 0]
    net[winner], net[discarder] = amount, -amount
    return RoundResult(
        wins=[Win(seat=winner, how="discard", total=total, from_seat=discarder)],
        payments=[Payment(discarder, winner, amount, "win_discard")],
        net=net,
    )


def self_draw_win(winner: int, amount: int, total: int) -> RoundResult:
    payers = [seat for seat in range(4) if seat != winner]
    net = [-amount] * 4
    net[winner] = 3 * amount
    return RoundResult(
        wins=[Win(seat=winner, how="self_draw", total=total)],
        payments=[Payment(payer, winner, amount, "win_self_draw") for payer in payers],
        net=net,
    )


def no_win() -> RoundResult:
    return RoundResult(wins=[], payments=[], net=[0, 0, 0, 0])
