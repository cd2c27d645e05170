"""The table options of 四川 血战到底 (sichuan.md §6), named as in the spec.

:class:`SichuanOptions` are the table's options; the calculator's
:class:`CalculatorOptions` also take ``void_suit``, which names the scored seat's 定缺
suit and is never a table option. The doc of each option opens with its Chinese name.

``preset`` picks the column of defaults a table starts from, as the 血战 rooms players
know offer them: ``exchange`` (血战换三张, the spec's defaults), ``classic`` (no 换三张)
and ``all_fans`` (every optional fan on); a table's own values then override it.

>>> SichuanOptions.parse({"preset": "classic"}).exchange_three
False
>>> SichuanOptions.parse({"preset": "all_fans", "closed_five": False}).closed_five
False
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.rules.base import Choice, TableOptions, int_in, is_bool, option

VARIANT = "sichuan"

SUIT_LETTERS = ("m", "p", "s")
EXCHANGE_DIRECTIONS = ("random", "counterclockwise", "clockwise", "opposite")
SELF_DRAW_BONUSES = ("add_base", "add_fan")
KONG_BLOOM_PAYERS = ("discarder", "all")
ROUND_COUNTS = (1, 4, 8, 16)
MAX_FANS = (3, 4, 5, 6)
#: Each preset's defaults where they differ from the spec's (§6), which ``exchange`` keeps.
PRESETS: Mapping[str, Mapping[str, Any]] = {
    "exchange": {},
    "classic": {"exchange_three": False},
    "all_fans": {
        "heaven_earth": True,
        "concealed_middle": True,
        "closed_five": True,
        "single_wait": True,
        "terminals_258": True,
    },
}


def int_choice(*values: int) -> Choice:
    """One of ``values`` as a true int: ``True`` and ``4.0`` are refused."""
    return Choice(values)


def str_choice(*values: str) -> Choice:
    return Choice(values)


@dataclass(frozen=True, slots=True)
class SichuanOptions(TableOptions):
    """The options of one table (sichuan.md §6), checked and typed."""

    variant: ClassVar[str] = VARIANT
    selectors: ClassVar[tuple[str, ...]] = ("preset",)

    preset: str = option("exchange", str_choice(*PRESETS), "预设: which column of defaults applies")
    base_stake: int = option(1, int_in(1, 1000), "底分: B, the stake in every payment")
    rounds: int = option(8, int_choice(*ROUND_COUNTS), "局数: hands the table plays")
    max_fan: int = option(4, int_choice(*MAX_FANS), "最大番数: cap on F; also the 查花猪 amount")
    side_pay: bool = option(False, is_bool, "擦挂: on a 直杠, each other active seat also pays B")
    heaven_earth: bool = option(False, is_bool, "天地胡: award 天胡 +3 and 地胡 +2")
    concealed_middle: bool = option(False, is_bool, "门清中张: award 门清 +1 and 中张 +1")
    closed_five: bool = option(False, is_bool, "卡心五: award 卡心五 +1")
    single_wait: bool = option(False, is_bool, "大单钓加1番: award 大单钓 +1")
    terminals_258: bool = option(False, is_bool, "幺九将对: award 全幺九 +2 and 将对 +2")
    exchange_three: bool = option(True, is_bool, "换三张: each seat passes three tiles of one suit")
    exchange_direction: str = option(
        "random", str_choice(*EXCHANGE_DIRECTIONS), "换牌方向: where the piles of 换三张 go"
    )
    all_pungs_two: bool = option(False, is_bool, "大对子2番: 大对子 is 2 番 instead of 1")
    self_draw_bonus: str = option(
        "add_base",
        str_choice(*SELF_DRAW_BONUSES),
        "自摸加底 / 自摸加番: +B per payer after the cap, or +1 番 before it",
    )
    kong_bloom_payer: str = option(
        "discarder",
        str_choice(*KONG_BLOOM_PAYERS),
        "点杠花(点炮) / 点杠花(自摸): who pays 杠上花 after a 直杠",
    )
    kong_bloom: bool = option(True, is_bool, "杠上花: award 杠上花 +1")
    kong_discard: bool = option(True, is_bool, "杠上炮: award 杠上炮 +1")
    flower_pig: bool = option(True, is_bool, "查花猪: run 查花猪 when the wall is exhausted")

    @classmethod
    def column(cls, raw: Mapping[str, Any]) -> Mapping[str, Any]:
        """The preset's defaults (checked before: an unknown preset never gets here)."""
        return PRESETS.get(raw.get("preset", "exchange"), {})

    @property
    def planned_hands(self) -> int:
        return self.rounds

    @property
    def add_base(self) -> bool:
        """自摸加底: a self-draw costs each payer B more, after the cap."""
        return self.self_draw_bonus == "add_base"

    def win_value(self, fan: int) -> int:
        """W(F) = B × 2^min(F, max_fan)."""
        doubled: int = 2 ** min(fan, self.max_fan)
        return self.base_stake * doubled

    def capped(self, fan: int) -> int:
        """C = min(F, max_fan)."""
        return min(fan, self.max_fan)


@dataclass(frozen=True, slots=True)
class CalculatorOptions(SichuanOptions):
    """The calculator's options: the table's, and the scored seat's void suit."""

    void_suit: str | None = option(
        None,
        Choice((None, *SUIT_LETTERS)),
        "定缺 (calculator only): the scored seat's void suit; without it the missing suit",
    )
