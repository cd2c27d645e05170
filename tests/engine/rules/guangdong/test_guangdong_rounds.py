"""Worked examples of guangdong.md §8 played through the round engine as round scripts.

Each script fixes the dealt hands, the draws that matter and the horses; the rest of the
wall is filler nobody reaches. Every payment line and every net is asserted.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Pong
from engine.errors import Refusal
from tests.engine.rules.guangdong.guangdong_scripts import events, lines, play, play_out, script


def horse_lines(result: dict[str, Any]) -> list[tuple[int, str, int, int]]:
    return [
        (number, p["horse"], p["horse_seat"], p["copy_of"])
        for number, p in enumerate(result["payments"], start=1)
        if p["reason"] == "horse"
    ]


def winners(result: dict[str, Any]) -> list[tuple[int, str, list[str], int]]:
    return [
        (w["seat"], w["how"], [f["id"] for f in w["fans"]], w["total"]) for w in result["winners"]
    ]


def next_hand(result: dict[str, Any]) -> tuple[int, int, int]:
    return result["next_dealer_seat"], result["next_horse_count"], result["next_dealer_streak"]


E1 = script(
    ["13579m13579s1237p", "13579m13579s79pW", "234678m45p99s22pE", "2468m2468s48pSCF"],
    ("0 discard 2p, 2 pong, 2 discard E, 3 discard 1p, 0 discard 5p, 1 discard 6p, 2 win"),
    draws="1p5p6p",
    horses="N",
    dealer=3,
)


def test_e1_small_hu_on_a_discard() -> None:
    result = play(E1).result()
    assert winners(result) == [(2, "discard", [], 1)]
    assert lines(result) == [(1, 2, 1, "win_discard")]
    assert result["net"] == [0, -1, 1, 0]
    assert result["horses"] == [{"tile": "4z", "seat": 3}]
    assert next_hand(result) == (2, 1, 1)
    assert result["next_dealer"] == 1  # chair 3 dealt; seat 2 is chair 1


E2 = script(
    ["13579m13579p9sESW", "1112345678s99sN", "2468m2468pCFPEN", "13579m2468pSWCF"],
    ("0 discard 9s, 1 pong, 1 discard N, 2 discard 5m, 3 discard 3p, 0 discard P, 1 win"),
    draws="5m3pP6s",
    horses="2m",
)


def test_e2_big_self_draw_horse_on_the_winner() -> None:
    result = play(E2).result()
    assert winners(result) == [(1, "self_draw", ["full_flush"], 2)]
    assert lines(result) == [
        (0, 1, 4, "win_self_draw"),
        (2, 1, 4, "win_self_draw"),
        (3, 1, 4, "win_self_draw"),
        (2, 0, 4, "horse"),
        (3, 0, 4, "horse"),
    ]
    assert horse_lines(result) == [(4, "2m", 1, 2), (5, "2m", 1, 3)]
    assert result["net"] == [4, 12, -8, -8]


E3 = script(
    ["123m789m567s34pCC9s", "1133m2277s99pFF5p", "2468m468p135sESW", "4569m15p3468sNPE"],
    "0 discard 9s, 1 discard W, 2 discard N, 3 discard 5p, 0 win, 1 win",
    draws="WN7m",
    horses="F",
)


def test_e3_two_winners_on_one_discard() -> None:
    result = play(E3).result()
    assert winners(result) == [(0, "discard", [], 1), (1, "discard", ["seven_pairs"], 2)]
    assert lines(result) == [
        (3, 0, 1, "win_discard"),
        (3, 1, 2, "win_discard"),
        (3, 0, 2, "horse"),
    ]
    assert horse_lines(result) == [(3, "6z", 1, 2)]
    assert result["net"] == [3, 2, 0, -5]
    assert next_hand(result) == (0, 2, 2)


E4 = script(
    ["F2468m19p1359sESW", "99m234p567p68s7sFF", "77s1357m3468pNCP", "123m456m789p6sCCE"],
    (
        "0 discard F, 1 pong, 1 discard 7s, 2 pong, 2 discard N, 3 discard E,"
        " 0 discard 5p, 1 discard W, 2 kong 7s, 3 win"
    ),
    draws="8s5pW7s",
    horses="1mW",
    dealer_streak=2,
)


def test_e4_robbing_an_added_kong() -> None:
    rnd = play(E4)
    result = rnd.result()
    assert winners(result) == [(3, "rob_kong", [], 1)]
    assert lines(result) == [(2, 3, 6, "win_rob_kong"), (0, 3, 6, "horse")]
    assert horse_lines(result) == [(2, "3z", 2, 1)]
    assert result["net"] == [-6, 0, -6, 12]
    assert rnd.kongs == []
    robs = [e for e in events(rnd, "claim_offered") if e["rob"]]
    assert [(e["seat"], e["options"], e["blocked"]) for e in robs] == [
        (3, ["win"], []),
        (1, [], [["win", "own_pong_source"]]),
    ]
    assert next_hand(result) == (3, 1, 1)


E5 = script(
    ["13579m5789pESWN1s", "2468m46p2468sSWN", "333s456m789m12pCC", "1357m169p5789sFP"],
    "0 discard E, 1 discard 3s, 2 kong 3s, 2 win",
    draws="3s",
    replacements="3p",
    horses="8p",
)


def test_e5_kong_bloom_after_a_kong_from_a_discard() -> None:
    result = play(E5).result()
    assert winners(result) == [(2, "kong_bloom", [], 1)]
    assert lines(result) == [(1, 2, 6, "win_kong_bloom_discarder"), (1, 2, 3, "kong_exposed")]
    assert result["net"] == [0, -9, 9, 0]


E6 = script(
    ["1279m1678p1359sEW", "2468m16p2468sNCF", "1357m78p1357sNWP", "345m678sSS34p999p"],
    "0 discard E, 1 discard P, 2 discard C, 3 kong 9p, 3 win",
    draws="PC9p",
    replacements="2p",
    options={"horses": False},
)


def test_e6_kong_bloom_after_ones_own_concealed_kong() -> None:
    rnd = play(E6)
    result = rnd.result()
    assert winners(result) == [(3, "kong_bloom", [], 1)]
    assert lines(result) == [(s, 3, 2, "win_self_draw") for s in range(3)] + [
        (s, 3, 2, "kong_concealed") for s in range(3)
    ]
    assert result["net"] == [-4, -4, -4, 12]
    assert events(rnd, "tiles_aside") == []
    assert result["horses"] == []


E7 = script(
    ["EEEE8s1379m1379p2s", "25m2468p3469sSWN", "555m78m57p457sCFP", "88s46m369p19sCFPN"],
    (
        "0 kong E, 0 discard 8s, 3 pong, 3 discard N, 0 discard 9s, 1 discard 5m,"
        " 2 kong 5m, 2 discard 9m, 3 kong 8s, 3 discard 4p"
    ),
    draws="9s3m8s",
    replacements="6m9m4p",
    horses="1s",
)


def test_e7_exhaustive_draw_with_kongs() -> None:
    rnd = play(E7)
    assert [(k.seat, k.type.value, k.from_seat) for k in rnd.kongs] == [
        (0, "concealed", None),
        (2, "exposed", 1),
        (3, "added", 0),
    ]
    play_out(rnd)
    result = rnd.result()
    assert result["end"] == "exhausted"
    assert result["winners"] == []
    assert result["payments"] == []
    assert result["net"] == [0, 0, 0, 0]
    assert result["horses"] == [{"tile": "1s", "seat": 0}]
    assert next_hand(result) == (1, 1, 1)


E8 = script(
    ["E22p1359m13p19sSWN", "EE666s456m78p88mC", "6s239m45p2345sFPW", "777m1m259p1478sCP"],
    (
        "0 discard E, 1 pong, 1 discard C, 2 discard 6m, 3 kong 7m, 3 discard 2p, 0 pong,"
        " 0 discard N, 1 discard 4m, 2 discard 6s, 1 kong 6s, 1 discard S, 2 discard 8p,"
        " 3 discard 3p, 0 kong 2p, 0 discard F, 1 discard 5s, 2 discard 9s, 3 discard 9p,"
        " 1 win"
    ),
    draws="6m7m4m1p8p3p2p5s9sE",
    replacements="2mSF",
    horses="9s",
)


def test_e8_every_kong_paid_after_a_small_win_horse_on_the_dealer() -> None:
    result = play(E8).result()
    assert winners(result) == [(1, "discard", [], 1)]
    assert lines(result) == [
        (3, 1, 1, "win_discard"),
        (0, 3, 2, "kong_concealed"),
        (1, 3, 2, "kong_concealed"),
        (2, 3, 2, "kong_concealed"),
        (2, 1, 3, "kong_exposed"),
        (1, 0, 1, "kong_added"),
        (2, 0, 1, "kong_added"),
        (3, 0, 1, "kong_added"),
        (0, 3, 2, "horse"),
        (1, 0, 1, "horse"),
        (2, 0, 1, "horse"),
        (3, 0, 1, "horse"),
    ]
    assert horse_lines(result) == [
        (9, "9s", 0, 2),
        (10, "9s", 0, 6),
        (11, "9s", 0, 7),
        (12, "9s", 0, 8),
    ]
    assert result["net"] == [2, 0, -7, 5]


E9 = script(
    ["79m1359p1357sESWN", "8m2469p2468sWNFP", "12345m678p999sCC", "7m179p1357sSWNFP"],
    "0 discard E, 1 discard 3p, 2 win",
    draws="3p6m",
    horses="4m5p",
    dealer_streak=2,
)


def test_e9_horse_on_a_loser_and_horse_on_the_dealer() -> None:
    result = play(E9).result()
    assert winners(result) == [(2, "self_draw", [], 1)]
    assert lines(result) == [
        (0, 2, 2, "win_self_draw"),
        (1, 2, 2, "win_self_draw"),
        (3, 2, 2, "win_self_draw"),
        (0, 2, 2, "horse"),
        (0, 2, 2, "horse"),
    ]
    assert horse_lines(result) == [(4, "4m", 3, 3), (5, "5p", 0, 1)]
    assert result["net"] == [-6, -2, 10, -2]


E10 = script(
    ["CCCFFFPP789m22s1m", "2456m2469p13sESW", "3m3578p4679sESWN", "59m1246p358sESWN"],
    "0 discard 1m, 1 discard 6s, 2 discard 9p, 3 discard 3p, 0 win",
    draws="6s9p3pP",
    horses="1p7mN",
    dealer_streak=2,
)


def test_e10_dealers_big_self_draw_with_three_horses() -> None:
    result = play(E10).result()
    assert winners(result) == [(0, "self_draw", ["big_three_dragons"], 2)]
    base = [(s, 0, 4, "win_self_draw") for s in (1, 2, 3)]
    assert lines(result) == base + [(s, 0, 4, "horse") for s in (1, 2, 3)]
    assert horse_lines(result) == [(4, "1p", 0, 1), (5, "1p", 0, 2), (6, "1p", 0, 3)]
    assert result["net"] == [24, -8, -8, -8]
    assert next_hand(result) == (0, 4, 3)


E11 = script(
    ["9m1379p1359sESWNC", "78m1589p2479sCFP", "123456m234p678s9m", "8m2678p1358sESWN"],
    "0 discard 9m, 2 win",
    horses="3s",
)


def test_e11_earthly_hand() -> None:
    result = play(E11).result()
    assert winners(result) == [(2, "discard", ["earthly_hand"], 2)]
    assert lines(result) == [(0, 2, 2, "win_discard")]
    assert result["net"] == [-2, 0, 2, 0]


E12 = script(
    ["234678m2345p468s5m", "19m19p19sESWNCFP", "345m678p23457sEW", "C2467m4678p68sSN"],
    "0 discard 5m, 1 discard 5p, 2 discard 6m, 3 discard C, 1 win",
    draws="5p6m5s",
    horses="2sP",
    dealer_streak=2,
)


def test_e12_thirteen_orphans_with_the_thirteen_sided_wait() -> None:
    result = play(E12).result()
    assert winners(result) == [(1, "discard", ["thirteen_orphans"], 2)]
    assert lines(result) == [(3, 1, 2, "win_discard"), (3, 0, 2, "horse")]
    assert horse_lines(result) == [(2, "2s", 1, 1)]
    assert result["net"] == [2, 2, 0, -4]


def e13(seat2: str, actions: str, draws: str) -> dict[str, Any]:
    hands = ["2468m2468p2468sEW", "357m579p369sSNFP", seat2, "579m24p189sSWNCF"]
    return script(hands, actions, draws=draws, options={"horses": False})


ON_A_DISCARD = "0 discard E, 1 discard C, 2 discard P, 3 discard 9m, 2 win"


def test_e13a_two_pair_wait_won_on_a_discard_is_small() -> None:
    result = play(e13("111m333p555s77s99m", ON_A_DISCARD, "CP6p")).result()
    assert winners(result) == [(2, "discard", [], 1)]
    assert lines(result) == [(3, 2, 1, "win_discard")]
    assert result["net"] == [0, 0, 1, -1]


def test_e13b_the_same_hand_self_drawn_is_four_concealed_pungs() -> None:
    result = play(e13("111m333p555s77s99m", "0 discard E, 1 discard C, 2 win", "C9m")).result()
    assert winners(result) == [(2, "self_draw", ["four_concealed_pungs"], 2)]
    assert lines(result) == [(s, 2, 4, "win_self_draw") for s in (0, 1, 3)]
    assert result["net"] == [-4, -4, 12, -4]


def test_e13c_single_wait_won_on_a_discard_is_four_concealed_pungs() -> None:
    result = play(e13("111m333p555s777s9m", ON_A_DISCARD, "CP6p")).result()
    assert winners(result) == [(2, "discard", ["four_concealed_pungs"], 2)]
    assert lines(result) == [(3, 2, 2, "win_discard")]
    assert result["net"] == [0, 0, 2, -2]


def e14(seat1_discard: str) -> dict[str, Any]:
    hands = ["6p1359m19p1239sESW", "C3p157m78p378sNFP", "234m678m456s45pCC", "C19m29p2579sSWNF"]
    actions = (
        "0 discard E, 1 discard P, 2 discard 1p, 3 discard C, 2 pass,"
        f" 0 discard 6p, 2 pass, 1 discard {seat1_discard}, 2 win"
    )
    return script(hands, actions, draws="P1p4m5s6s3p", options={"horses": False})


def test_e14_restrictions_are_set_told_and_cleared() -> None:
    rnd = play(e14("C"))
    restrictions = events(rnd, "restriction")
    assert [(e["seat"], e["kind"], e["tile"]) for e in restrictions] == [
        (2, "pass_pong", "5z"),
        (2, "pass_win", "6p"),
    ]
    offers = [
        (e["seat"], e["tile"], e["options"], e["blocked"]) for e in events(rnd, "claim_offered")
    ]
    assert offers == [
        (2, "5z", ["pong"], []),
        (2, "6p", ["win"], []),
        (2, "5z", [], [["pong", "pass_pong"]]),
    ]
    assert [e["seat"] for e in events(rnd, "restriction_cleared")] == [2]
    result = rnd.result()
    assert winners(result) == [(2, "self_draw", [], 1)]
    assert lines(result) == [(s, 2, 2, "win_self_draw") for s in (0, 1, 3)]
    assert result["net"] == [-2, -2, 6, -2]


def test_e14_the_withheld_pong_is_refused_for_its_restriction() -> None:
    raw = e14("C")
    rnd = play({**raw, "actions": raw["actions"][:-1]})
    # Nobody could claim seat 1's C, so seat 2 has drawn; its pong is still refused.
    assert rnd.turn == 2
    assert rnd.check(Pong(2)) == Refusal(
        "pass_pong", "seat 2 passed a pong of 5z and may not pong 5z until it draws"
    )


def test_e14_a_withheld_win_is_listed_as_blocked() -> None:
    rnd = play(e14("3p"))
    offers = [
        (e["seat"], e["tile"], e["options"], e["blocked"]) for e in events(rnd, "claim_offered")
    ]
    assert offers[-1] == (2, "3p", [], [["win", "pass_win"]])
    assert winners(rnd.result()) == [(2, "self_draw", [], 1)]
