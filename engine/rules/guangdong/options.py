"""The table options of 广东推倒胡 (guangdong.md §7), named as in the spec."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.rules.base import Subset, TableOptions, int_in, is_bool, one_of, option
from engine.rules.guangdong.bighu import ALL_KIND_IDS, SEED_KIND_IDS

VARIANT = "guangdong"


def _kinds(value: Any) -> tuple[str, ...]:
    return tuple(value)


@dataclass(frozen=True, slots=True)
class GuangdongOptions(TableOptions):
    """The options of one table (guangdong.md §7), checked and typed."""

    variant: ClassVar[str] = VARIANT

    base_stake: int = option(
        1, int_in(1, 1000), "底分: points per unit; every amount of settlement is multiplied by it"
    )
    rounds: int = option(
        8, one_of(1, 4, 8, 16), "局数: hands in a session, draws and continuations included"
    )
    horses: bool = option(True, is_bool, "买马: whether the dealer buys horses")
    max_horses: int = option(4, int_in(1, 4), "马数上限: the most horses a dealer buys")
    big_hu_kinds: tuple[str, ...] = option(
        SEED_KIND_IDS,
        # An empty list makes every win small.
        Subset(ALL_KIND_IDS),
        "大胡种类: which kinds make a big hu; the seed's eleven, and half_flush on request",
        typed=_kinds,
    )

    @property
    def planned_hands(self) -> int:
        return self.rounds
