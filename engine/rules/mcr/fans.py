"""The MCR fan table as data (spec ``mcr.md`` §2.1, §2.4, §4.3, §4.5.4).

Each fan is one row: a stable id, the names PyMahjongGB prints, its value and the fans it
excludes (不计). Three partial exclusions are not rows of ``excludes`` because they remove
single pungs rather than a whole fan: 三风刻 absorbs the 幺九刻 of its three wind pungs,
圈风刻 and 门风刻 absorb the 幺九刻 of their pung, 九莲宝灯 absorbs one 幺九刻. The scorer
applies those where it counts 幺九刻.

Fans are resolved in *priority order*: value descending, official fans before party fans
of equal value, then table order. Every exclusion points from a fan to one of lower or
equal priority, so a single pass in that order applies 不重复 without chaining: a fan is
scored unless a fan already scored excludes it.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from engine.rules.base import FanLine


class FanGroup(enum.IntEnum):
    OFFICIAL = 0  # the 81 fans of the 2006 rules plus 明暗杠, scored by the calculator
    PARTY = 1  # the seed's extra fans, 无宝 and 天降财神, added by table options and the engine


@dataclass(frozen=True, slots=True)
class Fan:
    id: str
    zh: str
    en: str
    value: int  # for 无宝 the default of its option; 天降财神's value is drawn per hand
    excludes: tuple[str, ...] = ()
    group: FanGroup = FanGroup.OFFICIAL
    option: str | None = None  # the table option that enables a party fan


def _fan(id_: str, zh: str, en: str, value: int, *excludes: str) -> Fan:
    return Fan(id_, zh, en, value, excludes)


OFFICIAL_FANS: tuple[Fan, ...] = (
    _fan(
        "big_four_winds",
        "大四喜",
        "Big Four Winds",
        88,
        "big_three_winds",
        "little_four_winds",
        "all_pungs",
        "prevalent_wind",
        "seat_wind",
        "pung_of_terminals_or_honors",
    ),
    _fan(
        "big_three_dragons",
        "大三元",
        "Big Three Dragons",
        88,
        "little_three_dragons",
        "two_dragons_pungs",
        "dragon_pung",
    ),
    _fan("all_green", "绿一色", "All Green", 88, "half_flush", "one_voided_suit"),
    _fan(
        "nine_gates",
        "九莲宝灯",
        "Nine Gates",
        88,
        "full_flush",
        "concealed_hand",
        "fully_concealed_hand",
        "no_honors",
    ),
    _fan(
        "four_kongs",
        "四杠",
        "Four Kongs",
        88,
        "three_kongs",
        "two_melded_kongs",
        "two_concealed_kongs",
        "concealed_kong_and_melded_kong",
        "melded_kong",
        "concealed_kong",
        "all_pungs",
        "single_wait",
    ),
    _fan(
        "seven_shifted_pairs",
        "连七对",
        "Seven Shifted Pairs",
        88,
        "seven_pairs",
        "full_flush",
        "concealed_hand",
        "fully_concealed_hand",
        "single_wait",
        "no_honors",
    ),
    _fan(
        "thirteen_orphans",
        "十三幺",
        "Thirteen Orphans",
        88,
        "all_types",
        "all_terminals_and_honors",
        "outside_hand",
        "concealed_hand",
        "fully_concealed_hand",
        "single_wait",
    ),
    _fan(
        "all_terminals",
        "清幺九",
        "All Terminals",
        64,
        "all_terminals_and_honors",
        "all_pungs",
        "outside_hand",
        "pung_of_terminals_or_honors",
        "double_pung",
        "no_honors",
    ),
    _fan(
        "little_four_winds",
        "小四喜",
        "Little Four Winds",
        64,
        "big_three_winds",
        "pung_of_terminals_or_honors",
    ),
    _fan(
        "little_three_dragons",
        "小三元",
        "Little Three Dragons",
        64,
        "two_dragons_pungs",
        "dragon_pung",
    ),
    _fan(
        "all_honors",
        "字一色",
        "All Honors",
        64,
        "all_terminals_and_honors",
        "all_pungs",
        "outside_hand",
        "pung_of_terminals_or_honors",
        "one_voided_suit",
    ),
    _fan(
        "four_concealed_pungs",
        "四暗刻",
        "Four Concealed Pungs",
        64,
        "three_concealed_pungs",
        "two_concealed_pungs",
        "all_pungs",
        "concealed_hand",
        "fully_concealed_hand",
    ),
    _fan(
        "pure_terminal_chows",
        "一色双龙会",
        "Pure Terminal Chows",
        64,
        "seven_pairs",
        "full_flush",
        "all_chows",
        "pure_double_chow",
        "two_terminal_chows",
        "one_voided_suit",
        "no_honors",
    ),
    _fan(
        "quadruple_chow",
        "一色四同顺",
        "Quadruple Chow",
        48,
        "pure_triple_chow",
        "pure_shifted_pungs",
        "pure_double_chow",
        "tile_hog",
    ),
    _fan(
        "four_pure_shifted_pungs",
        "一色四节高",
        "Four Pure Shifted Pungs",
        48,
        "pure_shifted_pungs",
        "pure_triple_chow",
        "all_pungs",
    ),
    _fan(
        "four_pure_shifted_chows",
        "一色四步高",
        "Four Pure Shifted Chows",
        32,
        "pure_shifted_chows",
        "short_straight",
        "two_terminal_chows",
    ),
    _fan(
        "three_kongs",
        "三杠",
        "Three Kongs",
        32,
        "two_melded_kongs",
        "two_concealed_kongs",
        "concealed_kong_and_melded_kong",
        "melded_kong",
        "concealed_kong",
    ),
    _fan(
        "all_terminals_and_honors",
        "混幺九",
        "All Terminals and Honors",
        32,
        "all_pungs",
        "outside_hand",
        "pung_of_terminals_or_honors",
    ),
    _fan(
        "seven_pairs",
        "七对",
        "Seven Pairs",
        24,
        "concealed_hand",
        "fully_concealed_hand",
        "single_wait",
    ),
    _fan(
        "greater_honors_and_knitted_tiles",
        "七星不靠",
        "Greater Honors and Knitted Tiles",
        24,
        "lesser_honors_and_knitted_tiles",
        "all_types",
        "concealed_hand",
        "fully_concealed_hand",
        "single_wait",
    ),
    _fan("all_even_pungs", "全双刻", "All Even Pungs", 24, "all_pungs", "all_simples", "no_honors"),
    _fan("full_flush", "清一色", "Full Flush", 24, "no_honors", "one_voided_suit"),
    _fan(
        "pure_triple_chow",
        "一色三同顺",
        "Pure Triple Chow",
        24,
        "pure_shifted_pungs",
        "pure_double_chow",
    ),
    _fan("pure_shifted_pungs", "一色三节高", "Pure Shifted Pungs", 24, "pure_triple_chow"),
    _fan("upper_tiles", "全大", "Upper Tiles", 24, "upper_four", "no_honors"),
    _fan("middle_tiles", "全中", "Middle Tiles", 24, "all_simples", "no_honors"),
    _fan("lower_tiles", "全小", "Lower Tiles", 24, "lower_four", "no_honors"),
    _fan("pure_straight", "清龙", "Pure Straight", 16, "short_straight", "two_terminal_chows"),
    _fan(
        "three_suited_terminal_chows",
        "三色双龙会",
        "Three-Suited Terminal Chows",
        16,
        "mixed_double_chow",
        "two_terminal_chows",
        "all_chows",
        "no_honors",
    ),
    _fan("pure_shifted_chows", "一色三步高", "Pure Shifted Chows", 16),
    _fan("all_five", "全带五", "All Five", 16, "all_simples", "no_honors"),
    _fan("triple_pung", "三同刻", "Triple Pung", 16, "double_pung"),
    _fan(
        "three_concealed_pungs",
        "三暗刻",
        "Three Concealed Pungs",
        16,
        "two_concealed_pungs",
    ),
    _fan(
        "lesser_honors_and_knitted_tiles",
        "全不靠",
        "Lesser Honors and Knitted Tiles",
        12,
        "all_types",
        "concealed_hand",
        "fully_concealed_hand",
        "single_wait",
    ),
    _fan("knitted_straight", "组合龙", "Knitted Straight", 12),
    _fan("upper_four", "大于五", "Upper Four", 12, "no_honors"),
    _fan("lower_four", "小于五", "Lower Four", 12, "no_honors"),
    _fan("big_three_winds", "三风刻", "Big Three Winds", 12),
    _fan("mixed_straight", "花龙", "Mixed Straight", 8),
    _fan("reversible_tiles", "推不倒", "Reversible Tiles", 8, "one_voided_suit"),
    _fan("mixed_triple_chow", "三色三同顺", "Mixed Triple Chow", 8, "mixed_double_chow"),
    _fan("mixed_shifted_pungs", "三色三节高", "Mixed Shifted Pungs", 8),
    _fan("chicken_hand", "无番和", "Chicken Hand", 8),
    _fan("last_tile_draw", "妙手回春", "Last Tile Draw", 8, "self_drawn"),
    _fan("last_tile_claim", "海底捞月", "Last Tile Claim", 8),
    _fan("out_with_replacement_tile", "杠上开花", "Out with Replacement Tile", 8, "self_drawn"),
    _fan("robbing_the_kong", "抢杠和", "Robbing The Kong", 8, "last_tile"),
    _fan("all_pungs", "碰碰和", "All Pungs", 6),
    _fan("half_flush", "混一色", "Half Flush", 6, "one_voided_suit"),
    _fan("mixed_shifted_chows", "三色三步高", "Mixed Shifted Chows", 6),
    _fan("all_types", "五门齐", "All Types", 6),
    _fan("melded_hand", "全求人", "Melded Hand", 6, "single_wait"),
    _fan(
        "two_concealed_kongs",
        "双暗杠",
        "Two Concealed Kongs",
        6,
        "two_concealed_pungs",
        "concealed_kong",
    ),
    _fan("two_dragons_pungs", "双箭刻", "Two Dragons Pungs", 6, "dragon_pung"),
    _fan("outside_hand", "全带幺", "Outside Hand", 4),
    _fan(
        "fully_concealed_hand",
        "不求人",
        "Fully Concealed Hand",
        4,
        "concealed_hand",
        "self_drawn",
    ),
    _fan("two_melded_kongs", "双明杠", "Two Melded Kongs", 4, "melded_kong"),
    _fan("last_tile", "和绝张", "Last Tile", 4),
    _fan("dragon_pung", "箭刻", "Dragon Pung", 2),
    _fan("prevalent_wind", "圈风刻", "Prevalent Wind", 2),
    _fan("seat_wind", "门风刻", "Seat Wind", 2),
    _fan("concealed_hand", "门前清", "Concealed Hand", 2),
    _fan("all_chows", "平和", "All Chows", 2, "no_honors"),
    _fan("tile_hog", "四归一", "Tile Hog", 2),
    _fan("double_pung", "双同刻", "Double Pung", 2),
    _fan("two_concealed_pungs", "双暗刻", "Two Concealed Pungs", 2),
    _fan("concealed_kong", "暗杠", "Concealed Kong", 2),
    _fan("all_simples", "断幺", "All Simples", 2, "no_honors"),
    _fan("pure_double_chow", "一般高", "Pure Double Chow", 1),
    _fan("mixed_double_chow", "喜相逢", "Mixed Double Chow", 1),
    _fan("short_straight", "连六", "Short Straight", 1),
    _fan("two_terminal_chows", "老少副", "Two Terminal Chows", 1),
    _fan("pung_of_terminals_or_honors", "幺九刻", "Pung of Terminals or Honors", 1),
    _fan("melded_kong", "明杠", "Melded Kong", 1),
    _fan("one_voided_suit", "缺一门", "One Voided Suit", 1),
    _fan("no_honors", "无字", "No Honors", 1),
    _fan("edge_wait", "独听・边张", "Edge Wait", 1),
    _fan("closed_wait", "独听・嵌张", "Closed Wait", 1),
    _fan("single_wait", "独听・单钓", "Single Wait", 1),
    _fan("self_drawn", "自摸", "Self-Drawn", 1),
    _fan("flower_tiles", "花牌", "Flower Tiles", 1),
    _fan(
        "concealed_kong_and_melded_kong",
        "明暗杠",
        "Concealed Kong and Melded Kong",
        5,
        "concealed_kong",
        "melded_kong",
    ),
)


def _extra(id_: str, zh: str, en: str, value: int, *excludes: str) -> Fan:
    return Fan(id_, zh, en, value, excludes, FanGroup.PARTY, "extra_fans")


# The seed's extra fans (§2.4): they depend on the course of the hand, so only the round
# engine awards them (through ``calculator.score_win``); the calculator never does.
EXTRA_FANS: tuple[Fan, ...] = (
    _extra(
        "heavenly_hand",
        "天和",
        "Heavenly Hand",
        88,
        "fully_concealed_hand",
        "self_drawn",
        "concealed_hand",
        "edge_wait",
        "closed_wait",
        "single_wait",
        "last_tile",
    ),
    _extra("earthly_hand", "地和", "Earthly Hand", 64, "concealed_hand"),
    _extra("heavenly_ready", "天听", "Heavenly Ready", 8, "declared_ready"),
    _extra("declared_ready", "报听", "Declared Ready", 1),
)

NO_WILDCARD = Fan("no_wildcard", "无宝", "No Wildcard", 8, (), FanGroup.PARTY, "wild_bonus_fan")
GOD_OF_WEALTH = Fan(
    "god_of_wealth", "天降财神", "God of Wealth", 0, (), FanGroup.PARTY, "dice_modes"
)

ALL_FANS: tuple[Fan, ...] = (*OFFICIAL_FANS, *EXTRA_FANS, NO_WILDCARD, GOD_OF_WEALTH)
BY_ID: dict[str, Fan] = {f.id: f for f in ALL_FANS}
_ROW = {f.id: row for row, f in enumerate(ALL_FANS)}

# The fans a reading resolves (official and extra), in priority order; a fan's index in
# this tuple is the number the scorer uses for it.
RESOLVED: tuple[Fan, ...] = tuple(
    sorted((*OFFICIAL_FANS, *EXTRA_FANS), key=lambda f: (-f.value, f.group, _ROW[f.id]))
)
INDEX: dict[str, int] = {f.id: i for i, f in enumerate(RESOLVED)}
VALUES: tuple[int, ...] = tuple(f.value for f in RESOLVED)
EXCLUDES: tuple[int, ...] = tuple(sum(1 << INDEX[other] for other in f.excludes) for f in RESOLVED)
OFFICIAL_MASK = sum(1 << INDEX[f.id] for f in OFFICIAL_FANS)


def resolve(candidates: dict[int, int]) -> tuple[int, tuple[tuple[int, int], ...]]:
    """(total, kept fans as (index, count)): 不重复 applied in priority order."""
    blocked = 0
    total = 0
    kept = []
    for index in sorted(candidates):
        count = candidates[index]
        if count <= 0 or (blocked >> index) & 1:
            continue
        kept.append((index, count))
        total += VALUES[index] * count
        blocked |= EXCLUDES[index]
    return total, tuple(kept)


def line(fan: Fan, count: int = 1, value: int | None = None) -> FanLine:
    return FanLine(fan.id, fan.zh, fan.en, fan.value if value is None else value, count)


def sorted_lines(lines: Iterable[FanLine]) -> tuple[FanLine, ...]:
    """Value descending; equal values in table order, party fans after official ones."""

    def key(fl: FanLine) -> tuple[int, int, int]:
        fan = BY_ID[fl.id]
        return (-fl.fan, fan.group, _ROW[fl.id])

    return tuple(sorted(lines, key=key))
