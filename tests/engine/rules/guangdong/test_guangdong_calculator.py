"""The guangdong calculator through Contract 1 (guangdong.md §2.3)."""

from __future__ import annotations

import io
import json
from typing import Any, cast

import pytest

from engine.rules.guangdong.bighu import (
    ALL_KIND_IDS,
    KINDS,
    SEED_KIND_IDS,
    find_kinds,
    win_hand,
)
from engine.score import handle, main
from engine.tiles import parse_hand, parse_tile


def ask(**request: Any) -> dict[str, Any]:
    return handle({"variant": "guangdong", **request})


def fan_ids(answer: dict[str, Any]) -> list[str]:
    assert answer["ok"], answer
    return [f["id"] for f in answer["fans"]]


def test_spec_example_full_flush_verbatim() -> None:
    line = '{"variant":"guangdong","hand":"1112345678s[999s]","win_tile":"6s","self_drawn":true}'
    out = io.StringIO()
    main(io.StringIO(line + "\n"), out)
    assert json.loads(out.getvalue()) == json.loads(
        '{"ok":true,"total":2,"fans":[{"id":"full_flush","zh":"清一色","en":"Full Flush",'
        '"fan":2,"count":1}]}'
    )


def test_spec_example_small_hu_verbatim() -> None:
    line = '{"variant":"guangdong","hand":"234m678m45p99s[222p]","win_tile":"6p"}'
    out = io.StringIO()
    main(io.StringIO(line + "\n"), out)
    assert json.loads(out.getvalue()) == {"ok": True, "total": 1, "fans": []}


BIG_HU_ROWS = [
    pytest.param("1112345678s[999s]", "6s", True, ["full_flush"], id="full_flush"),
    pytest.param("112233557799m8m", "8m", False, ["full_flush", "seven_pairs"], id="flush_pairs"),
    pytest.param("EEESSSWWWCCFF", "F", False, ["all_honors"], id="all_honors"),
    pytest.param("1133m2277s99pFF5p", "5p", False, ["seven_pairs"], id="seven_pairs"),
    pytest.param("1111m3355m77s99pF", "F", False, ["seven_pairs"], id="four_as_two_pairs"),
    pytest.param("1133m2277s99p555p", "5p", False, ["seven_pairs"], id="pairs_on_fourth_copy"),
    pytest.param("111m333p555s777s9m", "9m", False, ["four_concealed_pungs"], id="fcp_single"),
    pytest.param("111m333p555s77s99m", "9m", True, ["four_concealed_pungs"], id="fcp_self"),
    pytest.param("111m333p555s77s99m", "9m", False, [], id="fcp_not_on_two_pair_wait"),
    pytest.param("111222333m777s5p", "5p", False, ["four_concealed_pungs"], id="fcp_any_read"),
    pytest.param("111m333p555s9m{7777s}", "9m", False, ["four_concealed_pungs"], id="fcp_ckong"),
    pytest.param("111m333p9m[555s]{7777s}", "9m", True, [], id="fcp_not_with_pong"),
    pytest.param("E[1111m][2222p]{3333s}[5555s]", "E", False, ["four_kongs"], id="four_kongs"),
    pytest.param(
        "E{1111m}{2222p}{3333s}{5555s}",
        "E",
        False,
        ["four_concealed_pungs", "four_kongs"],
        id="four_concealed_kongs",
    ),
    pytest.param("CCCFFFPP789m22s", "P", True, ["big_three_dragons"], id="big_three_dragons"),
    pytest.param("CCFFFPPP99m[222s]", "C", False, ["big_three_dragons"], id="btd_meld"),
    pytest.param("CCCFFFPP789m22s", "2s", False, [], id="little_three_dragons_small"),
    pytest.param("EEESSSWWWN123m", "N", False, ["little_four_winds"], id="little_four_winds"),
    pytest.param("EEESSSWWW5m[NNNN]", "5m", False, ["big_four_winds"], id="big_four_winds"),
    pytest.param(
        "EEESSSWWWNNNC",
        "C",
        False,
        ["all_honors", "four_concealed_pungs", "big_four_winds"],
        id="never_stack",
    ),
    pytest.param("19m19p19sESWNCFP", "C", False, ["thirteen_orphans"], id="thirteen_13_sided"),
    pytest.param("19m19p19sESWNCCF", "P", False, ["thirteen_orphans"], id="thirteen_pair_wait"),
    pytest.param("123456789mEEES", "S", False, [], id="half_flush_small_by_default"),
    pytest.param("111222333444m5p", "5p", False, ["four_concealed_pungs"], id="not_half_flush"),
    pytest.param("[111m][222m][333p][444s]5s", "5s", False, [], id="pong_pong_small"),
]


@pytest.mark.parametrize(("hand", "win", "self_drawn", "expected"), BIG_HU_ROWS)
def test_big_hu_kinds(hand: str, win: str, self_drawn: bool, expected: list[str]) -> None:
    answer = ask(hand=hand, win_tile=win, self_drawn=self_drawn)
    assert fan_ids(answer) == expected
    assert answer["total"] == (2 if expected else 1)
    assert all(f["fan"] == 2 and f["count"] == 1 for f in answer["fans"])
    assert "meets_minimum" not in answer


def test_every_kind_has_a_calculator_row_or_is_a_course_kind() -> None:
    # A row's values are (hand, win, self_drawn, expected kinds), as test_big_hu_kinds reads them.
    covered = {i for row in BIG_HU_ROWS for i in cast(list[str], row.values[3])}
    assert covered | {"heavenly_hand", "earthly_hand", "half_flush"} == set(ALL_KIND_IDS)
    assert len(ALL_KIND_IDS) == len(set(ALL_KIND_IDS)) == 12
    assert tuple(i for i in ALL_KIND_IDS if i != "half_flush") == SEED_KIND_IDS


def test_kind_names() -> None:
    names = {k.id: (k.zh, k.en) for k in KINDS}
    assert names["four_kongs"] == ("十八罗汉", "Eighteen Arhats (Four Kongs)")
    assert names["little_four_winds"] == ("小四喜", "Little Four Winds")
    assert names["half_flush"] == ("混一色", "Half Flush")
    assert names["heavenly_hand"] == ("天胡", "Heavenly Hand")


def test_half_flush_big_when_enabled() -> None:
    answer = ask(
        hand="123456789mEEES",
        win_tile="S",
        options={"big_hu_kinds": [*SEED_KIND_IDS, "half_flush"]},
    )
    assert fan_ids(answer) == ["half_flush"]
    assert answer["total"] == 2


def test_disabled_kind_counts_as_small() -> None:
    kinds = [i for i in SEED_KIND_IDS if i != "full_flush"]
    answer = ask(hand="1112345678s[999s]", win_tile="6s", self_drawn=True)
    assert answer["total"] == 2
    answer = ask(
        hand="1112345678s[999s]", win_tile="6s", self_drawn=True, options={"big_hu_kinds": kinds}
    )
    assert answer == {"ok": True, "total": 1, "fans": []}
    answer = ask(hand="EEESSSWWWNNNC", win_tile="C", options={"big_hu_kinds": ["big_four_winds"]})
    assert fan_ids(answer) == ["big_four_winds"]
    assert ask(hand="EEESSSWWWNNNC", win_tile="C", options={"big_hu_kinds": []})["total"] == 1


def test_rob_kong_counts_as_not_self_drawn() -> None:
    rob = {"self_drawn": False, "kong_related": True}
    assert ask(hand="111m333p555s77s99m", win_tile="9m", **rob)["total"] == 1
    assert fan_ids(ask(hand="111m333p555s777s9m", win_tile="9m", **rob)) == ["four_concealed_pungs"]


def test_ignored_fields_and_options() -> None:
    answer = ask(
        hand="234m678m45p99s[222p]",
        win_tile="6p",
        seat_wind="S",
        round_wind="W",
        fourth_tile=True,
        last_tile=True,
        options={"base_stake": 10, "horses": False, "max_horses": 2, "rounds": 16},
    )
    assert answer == {"ok": True, "total": 1, "fans": []}


def test_course_kinds_are_awarded_through_detection_only() -> None:
    spec = parse_hand("123456m234p678s9m")
    plain = win_hand(spec.concealed, spec.melds, parse_tile("9m"), self_drawn=False)
    earthly = win_hand(spec.concealed, spec.melds, parse_tile("9m"), self_drawn=False, earthly=True)
    assert find_kinds(plain, SEED_KIND_IDS) == ()
    assert [k.id for k in find_kinds(earthly, SEED_KIND_IDS)] == ["earthly_hand"]
    heavenly = win_hand(
        parse_hand("CCCFFFPP789m22s").concealed, (), parse_tile("P"), self_drawn=True, heavenly=True
    )
    assert [k.id for k in find_kinds(heavenly, SEED_KIND_IDS)] == [
        "heavenly_hand",
        "big_three_dragons",
    ]
    bad = win_hand(spec.concealed, spec.melds, parse_tile("1p"), self_drawn=True, heavenly=True)
    assert find_kinds(bad, SEED_KIND_IDS) == ()


@pytest.mark.parametrize(
    ("request_", "fragment"),
    [
        ({"hand": "234m678m45p99s[123p]", "win_tile": "6p"}, "chow meld [123p]"),
        ({"hand": "234m678m45p99s[222p]", "win_tile": "6p", "wildcard": "5m"}, "wildcard"),
        ({"hand": "234m678m45p99s[222p]", "query": "waits", "wildcard": "5m"}, "wildcard"),
        ({"hand": "234m678m45p99s[222p]", "win_tile": "7p"}, "not a winning hand"),
        ({"hand": "19m19p19sESWNCCF", "win_tile": "1m"}, "not a winning hand"),
        ({"hand": "234m678m45p99s[222p]", "win_tile": "6p", "options": {"x": 1}}, "'x'"),
        ({"hand": "2345m678m45p99s[222p]", "win_tile": "6p"}, "15 tiles"),
        ({"hand": "234m678m45p99s[2222p]", "win_tile": "2p"}, "5 copies"),
    ],
)
def test_errors(request_: dict[str, Any], fragment: str) -> None:
    answer = ask(**request_)
    assert answer["ok"] is False
    assert fragment in answer["error"]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("base_stake", 0),
        ("base_stake", 1001),
        ("base_stake", True),
        ("rounds", 3),
        ("horses", "yes"),
        ("max_horses", 0),
        ("max_horses", 5),
        ("big_hu_kinds", ["full_flush", "small_hu"]),
        ("big_hu_kinds", ["full_flush", "full_flush"]),
        ("big_hu_kinds", "full_flush"),
    ],
)
def test_invalid_option_values(name: str, value: Any) -> None:
    answer = ask(hand="234m678m45p99s[222p]", win_tile="6p", options={name: value})
    assert answer == {
        "ok": False,
        "error": f"invalid value {value!r} for guangdong option '{name}'",
    }


@pytest.mark.parametrize(
    ("hand", "shanten", "waits"),
    [
        ("234m678m45p99s[222p]", 0, ["3p", "6p"]),
        ("19m19p19sESWNCFP", 0, ["1m", "9m", "1p", "9p", "1s", "9s", *"1234567"]),
        ("19m19p19sESWNCCF", 0, ["7z"]),
        ("1133m2277s99pFF5p", 0, ["5p"]),
        ("111m333p555s77s99m", 0, ["9m", "7s"]),
        ("1113m2277s99pFF5p", 1, []),
    ],
)
def test_waits_over_three_shapes(hand: str, shanten: int, waits: list[str]) -> None:
    expected = [w if len(w) == 2 else f"{w}z" for w in waits]
    assert ask(hand=hand, query="waits") == {"ok": True, "shanten": shanten, "waits": expected}


def test_waits_reject_chow_melds() -> None:
    answer = ask(hand="234m678m45p99s[123p]", query="waits")
    assert answer["ok"] is False
    assert "chow" in answer["error"]
