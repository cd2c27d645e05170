"""The fan table as data: names, values, exclusions and their resolution."""

from __future__ import annotations

import re

from engine.rules.mcr.fans import (
    ALL_FANS,
    BY_ID,
    EXTRA_FANS,
    INDEX,
    OFFICIAL_FANS,
    RESOLVED,
    FanGroup,
    line,
    resolve,
    sorted_lines,
)


def test_official_rows_are_the_81_fans_plus_concealed_kong_and_melded_kong() -> None:
    assert len(OFFICIAL_FANS) == 82
    assert OFFICIAL_FANS[-1].id == "concealed_kong_and_melded_kong"
    assert len(BY_ID) == len(ALL_FANS)


def test_ids_are_the_english_names_in_snake_case() -> None:
    for fan in ALL_FANS:
        assert fan.id == re.sub(r"[^a-z0-9]+", "_", fan.en.lower()).strip("_")


def test_wait_fans_use_the_katakana_middle_dot() -> None:
    assert [BY_ID[i].zh for i in ("edge_wait", "closed_wait", "single_wait")] == [
        "独听・边张",
        "独听・嵌张",
        "独听・单钓",
    ]


def test_extra_and_party_fans() -> None:
    assert [(f.id, f.zh, f.value) for f in EXTRA_FANS] == [
        ("heavenly_hand", "天和", 88),
        ("earthly_hand", "地和", 64),
        ("heavenly_ready", "天听", 8),
        ("declared_ready", "报听", 1),
    ]
    assert all(f.group is FanGroup.PARTY and f.option == "extra_fans" for f in EXTRA_FANS)
    assert (BY_ID["no_wildcard"].zh, BY_ID["god_of_wealth"].zh) == ("无宝", "天降财神")


def test_every_exclusion_names_a_fan_of_no_higher_value() -> None:
    for fan in ALL_FANS:
        for other in fan.excludes:
            assert BY_ID[other].value <= fan.value, (fan.id, other)


def test_resolution_order_is_value_then_table_order_official_first() -> None:
    values = [f.value for f in RESOLVED]
    assert values == sorted(values, reverse=True)
    assert RESOLVED.index(BY_ID["concealed_kong_and_melded_kong"]) < INDEX["outside_hand"]
    assert INDEX["chicken_hand"] < INDEX["heavenly_ready"]


def test_exclusions_do_not_chain() -> None:
    # 四暗刻 excludes 不求人, which would exclude 自摸: 自摸 stays (rule 1).
    ids = ("four_concealed_pungs", "fully_concealed_hand", "self_drawn")
    candidates = {INDEX[i]: 1 for i in ids}
    total, kept = resolve(candidates)
    assert [RESOLVED[i].id for i, _ in kept] == ["four_concealed_pungs", "self_drawn"]
    assert total == 65


def test_party_fans_follow_official_fans_of_equal_value() -> None:
    lines = [
        line(BY_ID["god_of_wealth"], 1, 8),
        line(BY_ID["no_wildcard"]),
        line(BY_ID["heavenly_ready"]),
        line(BY_ID["mixed_straight"]),
        line(BY_ID["pure_straight"]),
    ]
    assert [fl.id for fl in sorted_lines(lines)] == [
        "pure_straight",
        "mixed_straight",
        "heavenly_ready",
        "no_wildcard",
        "god_of_wealth",
    ]
