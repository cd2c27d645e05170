"""Settlement of one MCR hand (mcr.md §3, §4.2, §4.4), written into a Ledger.

The order of the lines: the win lines (already multiplied by both parties' doubling
factors), then the horse lines, horse by horse (buyers in seat order, each buyer's
positions in row order). An exhaustive draw without a winner writes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.ledger import Ledger, Payment
from engine.tiles import is_honor, rank, tile_str

SEATS = 4

WIN_DISCARD = "win_discard"
WIN_SELF_DRAW = "win_self_draw"
WIN_ROB_KONG = "win_rob_kong"
HORSE = "horse"

HORSE_ROW = 6  # tiles in the 万马奔腾 row
MAX_HORSES = 2  # positions one player may buy
# 1z-7z (东南西北中发白) count from the dealer like the ranks 1-7.
_HONOR_BASE = 27


@dataclass(frozen=True, slots=True)
class SettledWin:
    """The one win of a hand as settlement needs it: winner, fan total F (extra fans and
    天降财神 included), and the discarder or robbed seat (None when self-drawn)."""

    seat: int
    fan: int
    from_seat: int | None = None
    robbed: bool = False

    def __post_init__(self) -> None:
        if self.from_seat == self.seat:
            raise ValueError(f"seat {self.seat} cannot win from itself")
        if self.robbed and self.from_seat is None:
            raise ValueError("a robbed kong names the seat it was robbed from")


@dataclass(frozen=True, slots=True)
class Horse:
    """A horse bought by ``buyer`` at ``position`` (1-6) of the row, showing ``tile``."""

    buyer: int
    position: int
    tile: int

    @property
    def target(self) -> int:
        return horse_target(self.tile)


def horse_target(tile: int) -> int:
    """The seat a horse tile points at, counted from the dealer (README "Seats"): number
    n → (n − 1) mod 4; 东南西北中发白 → seats 0 1 2 3 0 1 2."""
    n = tile - _HONOR_BASE + 1 if is_honor(tile) else rank(tile)
    return (n - 1) % SEATS


def win_lines(win: SettledWin, base: int, factors: Sequence[int]) -> list[Payment]:
    """§3 and §4.2: B + F from the discarder (or the robbed seat) and B from the other two;
    B + F from each when self-drawn; every line times both parties' factors."""
    lines = []
    for payer in range(SEATS):
        if payer == win.seat:
            continue
        if win.from_seat is None:
            amount, reason = base + win.fan, WIN_SELF_DRAW
        elif payer == win.from_seat:
            amount = base + win.fan
            reason = WIN_ROB_KONG if win.robbed else WIN_DISCARD
        else:
            amount, reason = base, WIN_DISCARD
        amount *= factors[payer] * factors[win.seat]
        lines.append(Payment(payer, win.seat, amount, reason))
    return lines


def horse_lines(base_lines: Sequence[Payment], horses: Sequence[Horse]) -> list[Payment]:
    """§4.4: each horse copies every win line involving its target with the buyer in the
    target's place, at the same amount; a copy from the buyer to the buyer is dropped.

    Each copy carries ``horse`` (the tile), ``horse_seat`` (its target), ``buyer``,
    ``position`` and ``copy_of`` (the 1-based number of the copied line).
    """
    out = []
    for horse in horses:
        target = horse.target
        for number, line in enumerate(base_lines, start=1):
            payer = horse.buyer if line.payer == target else line.payer
            payee = horse.buyer if line.payee == target else line.payee
            if target not in (line.payer, line.payee) or payer == payee:
                continue
            extra: tuple[tuple[str, int | str], ...] = (
                ("horse", tile_str(horse.tile)),
                ("horse_seat", target),
                ("buyer", horse.buyer),
                ("position", horse.position),
                ("copy_of", number),
            )
            out.append(Payment(payer, payee, line.amount, HORSE, extra))
    return out


def settle(
    ledger: Ledger,
    win: SettledWin | None,
    base: int,
    factors: Sequence[int],
    horses: Sequence[Horse],
) -> None:
    """Write the hand's lines: nothing without a win (horses are only shown)."""
    if win is None:
        return
    # Lines of 0 (B = 0) are not written, so copies number the lines that stand.
    lines = [line for line in win_lines(win, base, factors) if line.amount]
    ledger.extend([*lines, *horse_lines(lines, horses)])


def horses_json(row: Sequence[int], horses: Sequence[Horse]) -> list[dict[str, Any]]:
    """The row in position order: each tile, the seat it points at and who bought it."""
    return [
        {
            "position": position,
            "tile": tile_str(tile),
            "seat": horse_target(tile),
            "buyers": [h.buyer for h in horses if h.position == position],
        }
        for position, tile in enumerate(row, start=1)
    ]
