"""The sichuan calculator through Contract 1 (sichuan.md §3 "Calculator")."""

from __future__ import annotations

import io
import json
from typing import Any, cast

import pytest

from engine.rules.base import FanLine
from engine.rules.sichuan.options import SichuanOptions
from engine.rules.sichuan.patterns import ENGINE_ONLY, PATTERNS, title_of
from engine.score import handle, main


def ask(**request: Any) -> dict[str, Any]:
    return handle({"variant": "sichuan", **request})


def fans(answer: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """{id: (fan, count)} of a successful answer."""
    assert answer["ok"], answer
    return {f["id"]: (f["fan"], f["count"]) for f in answer["fans"]}


def test_e1_verbatim_through_the_command_line() -> None:
    line = '{"variant":"sichuan","hand":"1111234567899p","win_tile":"9p","self_drawn":true}'
    out = io.StringIO()
    main(io.StringIO(line + "\n"), out)
    assert json.loads(out.getvalue()) == {
        "ok": True,
        "total": 3,
        "fans": [
            {"id": "full_flush", "zh": "清一色", "en": "Full Flush", "fan": 2, "count": 1},
            {"id": "root", "zh": "根", "en": "Root", "fan": 1, "count": 1},
        ],
    }


def test_result_never_carries_meets_minimum() -> None:
    assert "meets_minimum" not in ask(hand="34m678m222p456p99p", win_tile="5m")


# -- every pattern ---------------------------------------------------------------------

PATTERN_CASES = [
    pytest.param(
        {"hand": "34m678m222p456p99p", "win_tile": "5m"},
        {"basic_hand": (0, 1)},
        0,
        id="basic_hand",
    ),
    pytest.param(
        {"hand": "55m777m333s99s[444s]", "win_tile": "5m"},
        {"all_pungs": (1, 1)},
        1,
        id="all_pungs",
    ),
    pytest.param(
        {"hand": "55m777m333s99s[444s]", "win_tile": "5m", "options": {"all_pungs_two": True}},
        {"all_pungs": (2, 1)},
        2,
        id="all_pungs_two",
    ),
    pytest.param(
        {"hand": "22m66m77m33p44p99p8p", "win_tile": "8p"},
        {"seven_pairs": (2, 1)},
        2,
        id="seven_pairs",
    ),
    pytest.param(
        {"hand": "1111234567899p", "win_tile": "9p", "self_drawn": True},
        {"full_flush": (2, 1), "root": (1, 1)},
        3,
        id="full_flush_root_e1",
    ),
    pytest.param(
        {"hand": "112255557788p3s", "win_tile": "3s"},
        {"seven_pairs": (2, 1), "root": (1, 1)},
        3,
        id="dragon_seven_pairs_e2",
    ),
    pytest.param(
        {"hand": "123m789m111p999p1m", "win_tile": "1m", "options": {"terminals_258": True}},
        {"terminal_sets": (2, 1)},
        2,
        id="terminal_sets",
    ),
    pytest.param(
        {"hand": "222m555m888m222p5p", "win_tile": "5p", "options": {"terminals_258": True}},
        {"all_pungs": (1, 1), "two_five_eight_pungs": (2, 1)},
        3,
        id="two_five_eight_pungs",
    ),
    pytest.param(
        {"hand": "112255557788p3s", "win_tile": "3s", "options": {"concealed_middle": True}},
        {"seven_pairs": (2, 1), "root": (1, 1), "concealed_hand": (1, 1)},
        4,
        id="concealed_hand_e2",
    ),
    pytest.param(
        {"hand": "35p456p789s11s[222s]", "win_tile": "4p", "options": {"concealed_middle": True}},
        {"basic_hand": (0, 1), "middle_wait": (1, 1)},
        1,
        id="middle_wait",
    ),
    pytest.param(
        {"hand": "4556p456s789s[222s]", "win_tile": "5p", "options": {"closed_five": True}},
        {"basic_hand": (0, 1), "closed_five": (1, 1)},
        1,
        id="closed_five_best_split",
    ),
    pytest.param(
        {"hand": "5p[222m][333m][444m][777p]", "win_tile": "5p", "options": {"single_wait": True}},
        {"all_pungs": (1, 1), "single_wait": (1, 1)},
        2,
        id="single_wait_golden_hook",
    ),
    pytest.param(
        {"hand": "1111333355779s", "win_tile": "9s", "self_drawn": True},
        {"seven_pairs": (2, 1), "full_flush": (2, 1), "root": (1, 2)},
        4,
        id="two_roots_capped_e10",
    ),
    pytest.param(
        {
            "hand": "12s456s888s99m[7777s]",
            "win_tile": "3s",
            "self_drawn": True,
            "kong_related": True,
        },
        {"basic_hand": (0, 1), "kong_bloom": (1, 1), "root": (1, 1)},
        2,
        id="kong_bloom_e4",
    ),
    pytest.param(
        {"hand": "67s234p555p789p11s", "win_tile": "8s", "kong_related": True},
        {"basic_hand": (0, 1), "robbing_kong": (1, 1)},
        1,
        id="robbing_kong_e6",
    ),
    pytest.param(
        {"hand": "34m678m222p456p99p", "win_tile": "5m", "self_drawn": True, "last_tile": True},
        {"basic_hand": (0, 1), "last_tile_draw": (1, 1)},
        1,
        id="last_tile_draw",
    ),
    pytest.param(
        {"hand": "34m678m222p456p99p", "win_tile": "5m", "last_tile": True},
        {"basic_hand": (0, 1), "last_tile_discard": (1, 1)},
        1,
        id="last_tile_discard",
    ),
    pytest.param(
        {
            "hand": "34m678m222p456p99p",
            "win_tile": "5m",
            "self_drawn": True,
            "kong_related": True,
            "last_tile": True,
        },
        {"basic_hand": (0, 1), "kong_bloom": (1, 1), "last_tile_draw": (1, 1)},
        2,
        id="kong_bloom_with_last_tile_draw",
    ),
    pytest.param(
        {
            "hand": "34m678m222p456p99p",
            "win_tile": "5m",
            "self_drawn": True,
            "options": {"self_draw_bonus": "add_fan"},
        },
        {"basic_hand": (0, 1), "self_draw": (1, 1)},
        1,
        id="self_draw_add_fan",
    ),
    pytest.param(
        {
            "hand": "11p22p33p44p55p66p7p",
            "win_tile": "7p",
            "self_drawn": True,
            "options": {"self_draw_bonus": "add_fan", "max_fan": 6},
        },
        {"seven_pairs": (2, 1), "full_flush": (2, 1), "self_draw": (1, 1)},
        5,
        id="max_fan_6",
    ),
]


@pytest.mark.parametrize(("request_", "expected", "total"), PATTERN_CASES)
def test_patterns(
    request_: dict[str, Any], expected: dict[str, tuple[int, int]], total: int
) -> None:
    answer = ask(**request_)
    assert fans(answer) == expected
    assert answer["total"] == total


def test_every_pattern_is_exercised_except_the_engine_only_ones() -> None:
    # A case's values are (request, expected fans by id, total), as test_patterns reads them.
    covered = {
        pid for case in PATTERN_CASES for pid in cast(dict[str, tuple[int, int]], case.values[1])
    }
    assert covered | ENGINE_ONLY == {p.id for p in PATTERNS}
    assert covered.isdisjoint(ENGINE_ONLY)


def test_fans_sorted_by_value_descending_ties_in_table_order() -> None:
    answer = ask(
        hand="1111333355779s",
        win_tile="9s",
        self_drawn=True,
        options={"self_draw_bonus": "add_fan"},
    )
    assert [f["id"] for f in answer["fans"]] == ["seven_pairs", "full_flush", "root", "self_draw"]
    assert answer["total"] == 4


def test_e10_max_fan_6_is_not_capped_below_six() -> None:
    answer = ask(
        hand="1111333355779s",
        win_tile="9s",
        self_drawn=True,
        options={"self_draw_bonus": "add_fan", "max_fan": 6},
    )
    assert answer["total"] == 6


def test_ids_names_and_values_match_the_spec_table() -> None:
    table = {p.id: (p.zh, p.en, p.value) for p in PATTERNS}
    assert table == {
        "basic_hand": ("平胡", "Plain Hand", 0),
        "all_pungs": ("大对子", "All Pungs", 1),
        "seven_pairs": ("暗七对", "Seven Pairs", 2),
        "full_flush": ("清一色", "Full Flush", 2),
        "terminal_sets": ("全幺九", "Terminals in All Sets", 2),
        "two_five_eight_pungs": ("将对", "2-5-8 Pungs", 2),
        "concealed_hand": ("门清", "Concealed Hand", 1),
        "middle_wait": ("中张", "Middle-Tile Wait", 1),
        "closed_five": ("卡心五", "Closed Five", 1),
        "single_wait": ("大单钓", "Single-Tile Wait", 1),
        "root": ("根", "Root", 1),
        "heavenly_hand": ("天胡", "Heavenly Hand", 3),
        "earthly_hand": ("地胡", "Earthly Hand", 2),
        "kong_bloom": ("杠上花", "Win on Kong Replacement", 1),
        "kong_discard": ("杠上炮", "Win on Post-Kong Discard", 1),
        "robbing_kong": ("抢杠", "Robbing the Kong", 1),
        "last_tile_draw": ("海底捞", "Last-Tile Self-Draw", 1),
        "last_tile_discard": ("海底炮", "Last-Tile Discard", 1),
        "self_draw": ("自摸", "Self-Draw", 1),
    }


# -- options the calculator honours: each test fails if the option is ignored -------------


def test_option_off_removes_its_atom() -> None:
    base = {"hand": "112255557788p3s", "win_tile": "3s"}
    assert "concealed_hand" not in fans(ask(**base))
    pong = {"hand": "35p456p789s11s[222s]", "win_tile": "4p"}
    assert "middle_wait" not in fans(ask(**pong))
    five = {"hand": "4556p456s789s[222s]", "win_tile": "5p"}
    assert "closed_five" not in fans(ask(**five))
    hook = {"hand": "5p[222m][333m][444m][777p]", "win_tile": "5p"}
    assert fans(ask(**hook)) == {"all_pungs": (1, 1)}
    jiang = {"hand": "222m555m888m222p5p", "win_tile": "5p"}
    assert fans(ask(**jiang)) == {"all_pungs": (1, 1)}
    terminals = {"hand": "123m789m111p999p1m", "win_tile": "1m"}
    assert fans(ask(**terminals)) == {"basic_hand": (0, 1)}


def test_kong_bloom_option_toggles_only_its_atom() -> None:
    request = {
        "hand": "12s456s888s99m[7777s]",
        "win_tile": "3s",
        "self_drawn": True,
        "kong_related": True,
    }
    assert fans(ask(**request, options={"kong_bloom": False})) == {
        "basic_hand": (0, 1),
        "root": (1, 1),
    }


def test_self_draw_add_base_lists_no_self_draw_atom() -> None:
    answer = ask(hand="1111234567899p", win_tile="9p", self_drawn=True)
    assert "self_draw" not in fans(answer)


def test_self_draw_atom_only_on_self_drawn_wins() -> None:
    answer = ask(hand="1111234567899p", win_tile="9p", options={"self_draw_bonus": "add_fan"})
    assert "self_draw" not in fans(answer)


@pytest.mark.parametrize("max_fan", [3, 4, 5, 6])
def test_max_fan_caps_total_only(max_fan: int) -> None:
    answer = ask(
        hand="1111333355779s",
        win_tile="9s",
        self_drawn=True,
        options={"self_draw_bonus": "add_fan", "max_fan": max_fan},
    )
    assert answer["total"] == max_fan
    assert sum(f["fan"] * f["count"] for f in answer["fans"]) == 7


def test_concealed_hand_allows_concealed_kongs_and_not_pongs() -> None:
    options = {"concealed_middle": True}
    kong = ask(hand="23m456m789m55p{6666p}", win_tile="1m", options=options)
    assert "concealed_hand" in fans(kong)
    pong = ask(hand="23m456m789m55p[666p]", win_tile="1m", options=options)
    assert "concealed_hand" not in fans(pong)


def test_terminal_sets_never_with_seven_pairs() -> None:
    answer = ask(hand="1111m9999m111p99p", win_tile="1p", options={"terminals_258": True})
    assert "seven_pairs" in fans(answer)
    assert "terminal_sets" not in fans(answer)


def test_two_five_eight_pungs_needs_all_pungs() -> None:
    answer = ask(hand="2222m55m88m22p55p8p", win_tile="8p", options={"terminals_258": True})
    assert "seven_pairs" in fans(answer)
    assert "two_five_eight_pungs" not in fans(answer)


def test_engine_only_atoms_ignore_their_options() -> None:
    options = {"heaven_earth": True, "kong_discard": True}
    answer = ask(hand="34m678m222p456p99p", win_tile="5m", self_drawn=True, options=options)
    assert fans(answer) == {"basic_hand": (0, 1)}


def test_options_the_calculator_does_not_need_are_accepted() -> None:
    options = {
        "base_stake": 5,
        "rounds": 16,
        "side_pay": True,
        "exchange_three": False,
        "exchange_direction": "opposite",
        "kong_bloom_payer": "all",
        "flower_pig": False,
    }
    assert ask(hand="34m678m222p456p99p", win_tile="5m", options=options)["total"] == 0


def test_highest_reading_counts_seven_pairs_against_pungs() -> None:
    # 112233p as seven pairs (2) or as two chows: seven pairs is worth more.
    answer = ask(hand="112233p445566s7s", win_tile="7s")
    assert fans(answer) == {"seven_pairs": (2, 1)}


# -- titles -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_", "title"),
    [
        ({"hand": "1111333355779s", "win_tile": "9s"}, "清龙七对"),
        ({"hand": "112255557788p3s", "win_tile": "3s"}, "龙七对"),
        ({"hand": "11p22p33p44p55p66p7p", "win_tile": "7p"}, "清七对"),
        ({"hand": "111p333p555p777p9p", "win_tile": "9p"}, "清大对"),
        (
            {"hand": "222m555m888m222p5p", "win_tile": "5p", "options": {"terminals_258": True}},
            "将对",
        ),
        (
            {"hand": "123s789s789s111s9s", "win_tile": "9s", "options": {"terminals_258": True}},
            "清带幺",
        ),
        (
            {
                "hand": "5p[222m][333m][444m][777p]",
                "win_tile": "5p",
                "options": {"single_wait": True},
            },
            "金钩钓",
        ),
        ({"hand": "22m66m77m33p44p99p8p", "win_tile": "8p"}, "暗七对"),
        ({"hand": "34m678m222p456p99p", "win_tile": "5m"}, "平胡"),
    ],
)
def test_titles(request_: dict[str, Any], title: str) -> None:
    answer = ask(**request_)
    assert answer["ok"], answer
    lines = [FanLine(**f) for f in answer["fans"]]
    assert title_of(lines).zh == title


# -- errors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_", "needle"),
    [
        ({"hand": "34m678m222p456p9p1z", "win_tile": "9p"}, "honor tiles are not used in sichuan"),
        ({"hand": "34m678m222p456pEE", "win_tile": "5m"}, "honor tiles are not used in sichuan"),
        ({"hand": "34m678m222p456p99p", "win_tile": "C"}, "honor tiles are not used in sichuan"),
        ({"hand": "34m222p456p99p[678m]", "win_tile": "5m"}, "chow meld [678m]"),
        ({"hand": "34m678m222p456s99p", "win_tile": "5m"}, "at most two suits"),
        (
            {"hand": "34m678m222p456p99p", "win_tile": "5m", "options": {"void_suit": "m"}},
            "the hand holds m tiles, its void suit",
        ),
        (
            {"hand": "55m777m333s99s[444s]", "win_tile": "5m", "options": {"void_suit": "s"}},
            "its void suit",
        ),
        ({"hand": "34m678m222p456p99p", "win_tile": "9m"}, "is not a winning hand"),
        ({"hand": "34m678m222p456p99p", "win_tile": "5m", "wildcard": "5m"}, "wildcards"),
        ({"hand": "34m678m222p456p99p", "win_tile": "5m", "options": {"flowers": 1}}, "unknown"),
        ({"hand": "34m678m222p456p99p", "win_tile": "5m", "options": {"max_fan": 7}}, "max_fan"),
        ({"hand": "34m678m222p456p99p", "win_tile": "5m", "options": {"rounds": True}}, "rounds"),
        ({"hand": "34m678m222p456p99p", "win_tile": "5m", "options": {"void_suit": "z"}}, "void"),
    ],
)
def test_errors(request_: dict[str, Any], needle: str) -> None:
    answer = ask(**request_)
    assert answer["ok"] is False
    assert needle in answer["error"]


def test_void_suit_named_and_held_is_an_error_even_in_a_complete_shape() -> None:
    answer = ask(hand="1111234567899p", win_tile="9p", options={"void_suit": "p"})
    assert answer == {"ok": False, "error": "the hand holds p tiles, its void suit"}
    assert ask(hand="1111234567899p", win_tile="9p", options={"void_suit": "m"})["total"] == 3


# -- waits ---------------------------------------------------------------------------------


def waits(hand: str, **options: Any) -> dict[str, Any]:
    answer = ask(hand=hand, query="waits", options=options)
    assert answer["ok"], answer
    return answer


def test_waits_of_the_nine_gates_shape() -> None:
    assert waits("1112345678999s")["waits"] == [f"{r}s" for r in range(1, 10)]
    assert waits("1112345678999s", void_suit="m")["waits"] == [f"{r}s" for r in range(1, 10)]


def test_waits_never_include_the_void_suit() -> None:
    # 4 sets in m and a single 5p: the pair wait on 5p is in the void suit p.
    assert waits("123m456m789m123m5p")["waits"] == ["5p"]
    answer = waits("123m456m789m123m5p", void_suit="p")
    assert answer["waits"] == []
    assert answer["shanten"] == 1


def test_a_hand_holding_void_tiles_has_no_waits() -> None:
    answer = waits("1112345678999s", void_suit="s")
    assert answer["waits"] == []
    assert answer["shanten"] > 0


def test_a_third_suit_is_never_a_wait() -> None:
    answer = waits("123m456m789m123p5s")
    assert answer["waits"] == []
    assert answer["shanten"] == 1


def test_a_kind_whose_four_copies_are_held_is_not_a_wait() -> None:
    answer = waits("111m234p567p888p1m")
    assert answer == {"ok": True, "shanten": 0, "waits": []}


def test_waits_count_seven_pairs() -> None:
    assert waits("22m66m77m33p44p99p8p", void_suit="s")["waits"] == ["8p"]


def test_waits_query_errors() -> None:
    assert "honor" in ask(hand="111m234p567p888pE", query="waits")["error"]
    assert "chow" in ask(hand="111m567p888p1m[234p]", query="waits")["error"]


def test_waits_and_score_agree_on_the_calculator() -> None:
    hand = "1112345678999s"
    for tile in waits(hand, void_suit="m")["waits"]:
        assert ask(hand=hand, win_tile=tile, options={"void_suit": "m"})["ok"]


def test_typed_options_from_defaults() -> None:
    assert SichuanOptions.parse({}) == SichuanOptions()
