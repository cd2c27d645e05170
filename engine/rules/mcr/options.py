"""MCR table options (spec ``mcr.md`` §5).

The fields' defaults are the party column, which is what the calculator and the bot's
default table use. ``preset = "official"`` switches every other default to the official
column (:meth:`McrOptions.column`); a table's own values then override either column.

>>> McrOptions.parse({"preset": "official"}).horses
False
>>> McrOptions.parse({"preset": "official", "horses": True}).horses
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.rules.base import Subset, TableOptions, int_in, is_bool, one_of, option

VARIANT = "mcr"
DICE_MODES = ("peek", "last_chance", "swap", "wealth", "peak")
DEALER = 0

# The doubling factors of §4.2: the dealer's, everybody else's.
_DEALER_FACTORS = (1, 2, 4)
_FACTORS = (1, 2)


def _modes(value: Any) -> tuple[str, ...]:
    return tuple(value)


# The official column where it differs from the party one.
OFFICIAL_DEFAULTS: Mapping[str, Any] = {
    "rounds": 16,
    "extra_fans": False,
    "doubling": False,
    "wildcard": False,
    "horses": False,
    "dice_modes": (),
}


@dataclass(frozen=True, slots=True)
class McrOptions(TableOptions):
    """The options of one table, checked and typed."""

    variant: ClassVar[str] = VARIANT
    selectors: ClassVar[tuple[str, ...]] = ("preset",)

    preset: str = option(
        "party", one_of("party", "official"), "预设: which column of defaults applies"
    )
    rounds: int = option(
        4, one_of(1, 4, 8, 16), "局数: hands in the session; sets the prevalent wind"
    )
    min_fan: int = option(8, int_in(0, 88), "起和番: fan total a win must reach")
    base_points: int = option(8, int_in(0, 100), "底分: B in the settlement formula B + F")
    extra_fans: bool = option(
        True, is_bool, "天和, 地和, 天听, 报听: these fans and the declare-ready button"
    )
    doubling: bool = option(True, is_bool, "底分押倍: each player's doubling factor")
    wildcard: bool = option(True, is_bool, "宝牌: a wild kind turned up from the wall")
    wild_bonus_fan: int = option(8, int_in(0, 88), "无宝: the 无宝 bonus; 0 disables it")
    horses: bool = option(True, is_bool, "万马奔腾: horses bought from the horse row")
    dice_modes: tuple[str, ...] = option(
        DICE_MODES, Subset(DICE_MODES), "骰子模式: dice modes that may trigger", typed=_modes
    )
    swap_max: int = option(5, int_in(0, 13), "偷天换日: most tiles one player may swap")
    peak_noise: int = option(3, int_in(0, 6), "巅峰时刻: random tiles mixed into each hand")

    @classmethod
    def column(cls, raw: Mapping[str, Any]) -> Mapping[str, Any]:
        """The official column, for ``preset: "official"``."""
        return OFFICIAL_DEFAULTS if raw.get("preset") == "official" else {}

    @property
    def planned_hands(self) -> int:
        return self.rounds

    @property
    def bets(self) -> bool:
        """Whether the hand opens with the bet prompt (doubling or horses)."""
        return self.doubling or self.horses

    def factors(self, seat: int) -> tuple[int, ...]:
        """The doubling factors ``seat`` may choose (§4.2)."""
        if not self.doubling:
            return (1,)
        return _DEALER_FACTORS if seat == DEALER else _FACTORS
