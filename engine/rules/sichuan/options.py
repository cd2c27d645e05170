"""The table options of 四川 血战到底 (sichuan.md §6), named as in the spec.

``OPTIONS`` are the table's options; the calculator also takes ``void_suit``, which names
the scored seat's 定缺 suit and is never a table option. The doc of each row opens with
its Chinese name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.rules.base import Option, int_in, is_bool, parse_options

VARIANT = "sichuan"

SUIT_LETTERS = ("m", "p", "s")
EXCHANGE_DIRECTIONS = ("random", "counterclockwise", "clockwise", "opposite")
SELF_DRAW_BONUSES = ("add_base", "add_fan")
KONG_BLOOM_PAYERS = ("discarder", "all")
ROUND_COUNTS = (1, 4, 8, 16)
MAX_FANS = (3, 4, 5, 6)


def int_choice(*values: int) -> Callable[[Any], bool]:
    """One of ``values`` as a true int: ``True`` and ``4.0`` are refused."""
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and v in values


def str_choice(*values: str) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, str) and v in values


OPTIONS: tuple[Option, ...] = (
    Option("base_stake", 1, int_in(1, 1000), "底分: B, the stake in every payment"),
    Option("rounds", 8, int_choice(*ROUND_COUNTS), "局数: hands the table plays"),
    Option("max_fan", 4, int_choice(*MAX_FANS), "最大番数: cap on F; also the 查花猪 amount"),
    Option("side_pay", False, is_bool, "擦挂: on a 直杠, each other active seat also pays B"),
    Option("heaven_earth", False, is_bool, "天地胡: award 天胡 +3 and 地胡 +2"),
    Option("concealed_middle", False, is_bool, "门清中张: award 门清 +1 and 中张 +1"),
    Option("closed_five", False, is_bool, "卡心五: award 卡心五 +1"),
    Option("single_wait", False, is_bool, "大单钓加1番: award 大单钓 +1"),
    Option("terminals_258", False, is_bool, "幺九将对: award 全幺九 +2 and 将对 +2"),
    Option("exchange_three", True, is_bool, "换三张: each seat passes three tiles of one suit"),
    Option(
        "exchange_direction",
        "random",
        str_choice(*EXCHANGE_DIRECTIONS),
        "换牌方向: where the piles of 换三张 go",
    ),
    Option("all_pungs_two", False, is_bool, "大对子2番: 大对子 is 2 番 instead of 1"),
    Option(
        "self_draw_bonus",
        "add_base",
        str_choice(*SELF_DRAW_BONUSES),
        "自摸加底 / 自摸加番: +B per payer after the cap, or +1 番 before it",
    ),
    Option(
        "kong_bloom_payer",
        "discarder",
        str_choice(*KONG_BLOOM_PAYERS),
        "点杠花(点炮) / 点杠花(自摸): who pays 杠上花 after a 直杠",
    ),
    Option("kong_bloom", True, is_bool, "杠上花: award 杠上花 +1"),
    Option("kong_discard", True, is_bool, "杠上炮: award 杠上炮 +1"),
    Option("flower_pig", True, is_bool, "查花猪: run 查花猪 when the wall is exhausted"),
)

VOID_SUIT = Option(
    "void_suit",
    None,
    lambda v: v is None or str_choice(*SUIT_LETTERS)(v),
    "定缺 (calculator only): the scored seat's void suit; without it the missing suit",
)

CALCULATOR_OPTIONS: tuple[Option, ...] = (*OPTIONS, VOID_SUIT)


@dataclass(frozen=True, slots=True)
class SichuanOptions:
    """The options of one table, checked and typed."""

    base_stake: int = 1
    rounds: int = 8
    max_fan: int = 4
    side_pay: bool = False
    heaven_earth: bool = False
    concealed_middle: bool = False
    closed_five: bool = False
    single_wait: bool = False
    terminals_258: bool = False
    exchange_three: bool = True
    exchange_direction: str = "random"
    all_pungs_two: bool = False
    self_draw_bonus: str = "add_base"
    kong_bloom_payer: str = "discarder"
    kong_bloom: bool = True
    kong_discard: bool = True
    flower_pig: bool = True

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> SichuanOptions:
        """Defaults overlaid with ``raw``; unknown names and invalid values raise RuleError."""
        return cls.from_parsed(parse_options(OPTIONS, raw, VARIANT))

    @classmethod
    def from_parsed(cls, parsed: Mapping[str, Any]) -> SichuanOptions:
        """From a mapping that went through :func:`parse_options`; extra entries are ignored."""
        return cls(**{o.name: parsed[o.name] for o in OPTIONS})

    def to_json(self) -> dict[str, Any]:
        return {o.name: getattr(self, o.name) for o in OPTIONS}

    @property
    def add_base(self) -> bool:
        """自摸加底: a self-draw costs each payer B more, after the cap."""
        return self.self_draw_bonus == "add_base"

    def win_value(self, fan: int) -> int:
        """W(F) = B × 2^min(F, max_fan)."""
        return self.base_stake * 2 ** min(fan, self.max_fan)

    def capped(self, fan: int) -> int:
        """C = min(F, max_fan)."""
        return min(fan, self.max_fan)
