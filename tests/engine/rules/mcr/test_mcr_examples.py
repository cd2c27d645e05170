"""The worked examples of mcr.md §6.1, against the spec and against PyMahjongGB."""

from __future__ import annotations

import pytest

from engine.rules.base import WinFacts
from engine.rules.mcr.calculator import score_win
from engine.rules.mcr.options import McrOptions
from engine.tiles import parse_hand, parse_tile
from tests.engine.rules.mcr.mcr_oracle import our_fans, reference_fans

WINDS = "ESWN"

# (name, hand, win, flags, fans as (zh, fan, count), total); flags as in the spec's table.
EXAMPLES = [
    ("E1", "123m123p123s78m55s", "9m", "", "三色三同顺 8, 门前清 2, 平和 2, 老少副 1", 13),
    ("E2", "1133m5577p2299sE", "E", "self_drawn", "七对 24, 自摸 1", 25),
    ("E3", "19m19p19sESWNCFP", "C", "", "十三幺 88", 88),
    ("E4", "147m258p369sESWC", "F", "", "全不靠 12, 组合龙 12", 24),
    ("E5", "147m258p369s23s55m", "4s", "", "组合龙 12, 门前清 2, 平和 2", 16),
    ("E6", "147m25p36sESWNCF", "P", "self_drawn", "七星不靠 24, 自摸 1", 25),
    (
        "E7",
        "123m999p5s{7777s}[CCCC]",
        "5s",
        "",
        "明暗杠 5, 箭刻 2, 双暗刻 2, 幺九刻 1, 独听・单钓 1",
        11,
    ),
    (
        "E8",
        "{7777s}{8888s}999m123p5s",
        "5s",
        "",
        "三暗刻 16, 双暗杠 6, 门前清 2, 幺九刻 1, 无字 1, 独听・单钓 1",
        27,
    ),
    ("E9", "123345567m78p55s", "9p", "", "一色三步高 16, 门前清 2, 平和 2", 20),
    (
        "E10",
        "123m456m78m[999p]EE",
        "9m",
        "fourth_tile",
        "清龙 16, 和绝张 4, 幺九刻 1, 缺一门 1",
        22,
    ),
    (
        "E11",
        "345m345p345s3466s",
        "5s",
        "self_drawn last_tile",
        "三色三同顺 8, 妙手回春 8, 不求人 4, 平和 2, 断幺 2, 一般高 1",
        25,
    ),
    (
        "E12",
        "345m345p345s3466s",
        "5s",
        "last_tile",
        "三色三同顺 8, 海底捞月 8, 门前清 2, 平和 2, 断幺 2, 一般高 1",
        23,
    ),
    (
        "E13",
        "123m456p22s[789s]67p",
        "8p",
        "kong_related fourth_tile",
        "花龙 8, 抢杠和 8, 平和 2",
        18,
    ),
    (
        "E14",
        "23m456p22s{7777s}789m",
        "1m",
        "self_drawn kong_related",
        "杠上开花 8, 不求人 4, 暗杠 2, 老少副 1, 无字 1",
        16,
    ),
    ("E15", "1112345678999p", "9p", "", "九莲宝灯 88, 清龙 16, 四归一 2", 106),
    (
        "E16",
        "SSSWWW123m45p99s",
        "6p",
        "seat=W round=S",
        "圈风刻 2, 门风刻 2, 门前清 2, 双暗刻 2",
        8,
    ),
    (
        "E17",
        "234567s234567p8p",
        "8p",
        "",
        "门前清 2, 平和 2, 断幺 2, 喜相逢 1 ×2, 连六 1, 缺一门 1",
        10,
    ),
    (
        "E18",
        "234s223344567p5s",
        "5s",
        "",
        "门前清 2, 平和 2, 断幺 2, 一般高 1, 喜相逢 1, 连六 1, 缺一门 1",
        10,
    ),
    ("E19", "[123m][567p][345s]88pWW", "8p", "", "无番和 8", 8),
    ("E20", "[123m][567p][345s]88pWW", "W", "", "幺九刻 1", 1),
    (
        "E21",
        "[7777s][8888s][9999m]{EEEE}5p",
        "5p",
        "self_drawn",
        "四杠 88, 圈风刻 2, 门风刻 2, 幺九刻 1, 自摸 1",
        94,
    ),
    (
        "E22",
        "CCCFFFPP123m99p",
        "P",
        "self_drawn",
        "大三元 88, 三暗刻 16, 全带幺 4, 不求人 4, 缺一门 1",
        113,
    ),
]


def facts_of(hand: str, win: str, flags: str) -> WinFacts:
    words = flags.split()
    winds = dict(w.split("=") for w in words if "=" in w)
    return WinFacts(
        hand=parse_hand(hand),
        win_tile=parse_tile(win),
        self_drawn="self_drawn" in words,
        fourth_tile="fourth_tile" in words,
        kong_related="kong_related" in words,
        last_tile="last_tile" in words,
        seat_wind=WINDS.index(winds.get("seat", "E")),
        round_wind=WINDS.index(winds.get("round", "E")),
    )


def expected_lines(text: str) -> list[tuple[str, int, int]]:
    out = []
    for item in text.split(", "):
        words = item.split()
        count = int(words[2][1:]) if len(words) == 3 else 1
        out.append((words[0], int(words[1]), count))
    return out


@pytest.mark.parametrize(
    ("hand", "win", "flags", "fans", "total"),
    [example[1:] for example in EXAMPLES],
    ids=[example[0] for example in EXAMPLES],
)
def test_worked_example(hand: str, win: str, flags: str, fans: str, total: int) -> None:
    facts = facts_of(hand, win, flags)
    result = score_win(facts, McrOptions())
    assert [(f.zh, f.fan, f.count) for f in result.fans] == expected_lines(fans)
    assert result.total == total
    assert result.meets_minimum is (total >= 8)
    assert our_fans(facts) == reference_fans(facts)
