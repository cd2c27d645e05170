"""The worked examples of sichuan.md §7 through the real engine, as round scripts.

Every deal is written so that the script's actions do exactly what the example says and
nothing else: each test also asserts the claims the engine offered along the way.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.actions import Action, Discard, Kong, Pong, Win
from engine.errors import IllegalActionError, ScriptError
from engine.events import ClaimOffered, Notice
from engine.round import Phase, Round
from engine.rules.play import Figure
from engine.rules.sichuan.flow import meld_refusal
from engine.rules.sichuan.options import SichuanOptions
from engine.rules.sichuan.ruleset import RULESET
from engine.tiles import parse_tile
from tests.engine.round.helpers import hand_state
from tests.engine.rules.sichuan.sichuan_tables import (
    Table,
    discard,
    exchange,
    finish,
    held,
    kong,
    last_tile,
    lines,
    offers,
    pass_,
    play,
    pong,
    prefer_suit,
    tiles,
    win,
)

# -- E1 -------------------------------------------------------------------------------------

E1 = Table(
    hands=["111m222m333m444m56s", "555m666m777m888m9m", "1111234567899p", "135799m2346789s"],
    voids="ppmp",
    front=["1s", "9p", "6s", "2p", "5s"],
)
E1_ACTIONS = [discard(0, "6s"), discard(1, "1s"), win(2)]


@pytest.mark.parametrize(
    ("options", "each"),
    [
        ({}, 9),
        ({"self_draw_bonus": "add_fan"}, 16),
        ({"self_draw_bonus": "add_fan", "max_fan": 3}, 8),
        ({"base_stake": 10}, 90),
    ],
)
def test_e1_full_flush_self_draw_with_a_root(options: dict[str, object], each: int) -> None:
    table = Table(**{**E1.__dict__, "options": {"exchange_three": False, **options}})
    rnd = play(table, E1_ACTIONS)
    assert offers(rnd) == []
    assert lines(rnd) == [(s, 2, each, "win_self_draw") for s in (0, 1, 3)]
    assert rnd.ledger.nets() == [-each, -each, 3 * each, -each]
    assert rnd.turn == 3


def test_e1_winner_fans_and_title() -> None:
    winner = play(E1, E1_ACTIONS).result()["winners"][0]
    assert winner["how"] == "self_draw"
    assert [(f["id"], f["fan"], f["count"]) for f in winner["fans"]] == [
        ("full_flush", 2, 1),
        ("root", 1, 1),
    ]
    assert (winner["total"], winner["fan"], winner["title"]["zh"]) == (3, 3, "清一色")


# -- E2 -------------------------------------------------------------------------------------

E2 = Table(
    hands=["111m222m333m444m59m", "112255557788p3s", "555m666m777m888m1s", "222s444s666s888s9s"],
    voids="pmpm",
    front=["9m", "1s", "3s"],
)
E2_ACTIONS = [discard(0, "9m"), discard(1, "9m"), discard(2, "1s"), discard(3, "3s"), win(1)]


@pytest.mark.parametrize(("options", "amount"), [({}, 8), ({"concealed_middle": True}, 16)])
def test_e2_dragon_seven_pairs_on_a_discard(options: dict[str, object], amount: int) -> None:
    table = Table(**{**E2.__dict__, "options": {"exchange_three": False, **options}})
    rnd = play(table, E2_ACTIONS)
    assert offers(rnd) == [(1, "3s", ("win",))]
    assert lines(rnd) == [(3, 1, amount, "win_discard")]
    assert rnd.ledger.nets() == [0, amount, 0, -amount]
    assert rnd.result()["winners"][0]["title"]["zh"] == "龙七对"


# -- E3, E14 (b) ----------------------------------------------------------------------------

E3 = Table(
    hands=[
        "111m222m999m5m4s666s",
        "34m678m222p456p99p",
        "666m888m123s567s8s",
        "55m777m333s99s44s1p",
    ],
    voids="pspp",
    front=["2s"],
)
E3_ACTIONS = [discard(0, "4s"), pong(3), discard(3, "1p"), discard(0, "5m"), win(1), win(3)]


def test_e3_double_win_on_one_discard() -> None:
    rnd = play(E3, E3_ACTIONS)
    assert offers(rnd) == [(3, "4s", ("pong",)), (1, "5m", ("win",)), (3, "5m", ("win", "pong"))]
    assert lines(rnd) == [(0, 1, 1, "win_discard"), (0, 3, 2, "win_discard")]
    assert rnd.ledger.nets() == [-3, 1, 0, 2]
    # Play continues with S0, the next active seat after S3; S0 deals next.
    assert rnd.turn == 0
    assert rnd.ruleset.next_dealer(rnd) == 0


def test_e3_all_pungs_two_doubles_the_second_winner() -> None:
    table = Table(**{**E3.__dict__, "options": {"exchange_three": False, "all_pungs_two": True}})
    assert lines(play(table, E3_ACTIONS))[1] == (0, 3, 4, "win_discard")


E14B = Table(
    hands=[
        "34m678m222p456p99p1s",
        "55m777m333s99s444s",
        "111p333p888p5p9p22s",
        "111m222m999m66s88s",
    ],
    voids="spmp",
    front=["6p", "7s", "5m"],
    dealer=1,
)


E14B_ACTIONS = [
    discard(0, "1s"),
    discard(1, "6p"),
    discard(2, "7s"),
    discard(3, "5m"),
    win(0),
    win(1),
]


def test_e14b_a_double_first_win_passes_the_deal_to_the_discarder() -> None:
    actions = E14B_ACTIONS
    rnd = play(E14B, actions)
    assert offers(rnd) == [(0, "5m", ("win",)), (1, "5m", ("win", "pong"))]
    assert lines(rnd) == [(3, 0, 1, "win_discard"), (3, 1, 2, "win_discard")]
    assert rnd.turn == 2
    ended = play(E14B, actions, to_end=True).result()
    assert ended["next_dealer"] == (1 + 3) % 4


# -- E4 -------------------------------------------------------------------------------------

E4 = Table(
    hands=["111m222m333m444m55m", "777s12s456s888s99m", "666m777m888m1234p", "5566778899p333s"],
    voids="ppsm",
    front=["2p", "7s"],
    back="3s",
)
E4_ACTIONS = [discard(0, "5m"), discard(1, "2p"), discard(2, "7s"), kong(1, "7s"), win(1)]


def e4(**options: object) -> Round:
    return play(
        Table(**{**E4.__dict__, "options": {"exchange_three": False, **options}}), E4_ACTIONS
    )


def test_e4a_kong_bloom_after_an_exposed_kong_paid_by_the_giver() -> None:
    rnd = e4()
    assert offers(rnd) == [(1, "7s", ("kong", "pong"))]
    assert lines(rnd) == [(2, 1, 2, "kong_exposed"), (2, 1, 4, "win_kong_bloom_discarder")]
    assert rnd.ledger.nets() == [0, 6, -6, 0]
    winner = rnd.result()["winners"][0]
    assert {f["id"] for f in winner["fans"]} == {"kong_bloom", "root", "basic_hand"}


def test_e4b_kong_bloom_after_an_exposed_kong_paid_by_all() -> None:
    rnd = e4(kong_bloom_payer="all")
    assert lines(rnd) == [
        (2, 1, 2, "kong_exposed"),
        (0, 1, 5, "win_self_draw"),
        (2, 1, 5, "win_self_draw"),
        (3, 1, 5, "win_self_draw"),
    ]
    assert rnd.ledger.nets() == [-5, 17, -7, -5]


def test_kong_bloom_paid_by_the_giver_has_no_self_draw_atom() -> None:
    fans = e4(self_draw_bonus="add_fan").result()["winners"][0]["fans"]
    assert "self_draw" not in {f["id"] for f in fans}
    fans = e4(self_draw_bonus="add_fan", kong_bloom_payer="all").result()["winners"][0]["fans"]
    assert "self_draw" in {f["id"] for f in fans}


def test_kong_bloom_option_off_drops_only_its_fan() -> None:
    rnd = e4(kong_bloom=False)
    assert lines(rnd) == [(2, 1, 2, "kong_exposed"), (2, 1, 2, "win_kong_bloom_discarder")]


# -- E5 -------------------------------------------------------------------------------------

E5 = Table(
    hands=["444m555m666m777m99m", "13m456m789m55p678p", "111p222p333p444p5p", "6666s2m123s789s55s"],
    voids="psmm",
    front=["9s", "3s", "4s"],
    back="9p",
)
E5_ACTIONS = [
    discard(0, "9m"),
    discard(1, "9s"),
    discard(2, "3s"),
    kong(3, "6s"),
    discard(3, "2m"),
    win(1),
]


def test_e5_kong_discard_with_call_transfer() -> None:
    rnd = play(E5, E5_ACTIONS)
    assert offers(rnd) == [(1, "2m", ("win",))]
    assert lines(rnd) == [
        (0, 3, 2, "kong_concealed"),
        (1, 3, 2, "kong_concealed"),
        (2, 3, 2, "kong_concealed"),
        (3, 1, 2, "win_discard"),
        (3, 1, 6, "call_transfer"),
    ]
    assert rnd.ledger.nets() == [-2, 6, -2, -2]
    fans = rnd.result()["winners"][0]["fans"]
    assert [(f["id"], f["fan"]) for f in fans] == [("kong_discard", 1), ("basic_hand", 0)]


def test_e5_second_winner_gets_no_share_of_the_transfer() -> None:
    hands = [*E5.hands]
    hands[2] = "111p222p333p444p2m"
    table = Table(**{**E5.__dict__, "hands": hands, "voids": "pssm"})
    rnd = play(table, [*E5_ACTIONS, win(2)])
    assert lines(rnd)[3:] == [
        (3, 1, 2, "win_discard"),
        (3, 2, 4, "win_discard"),
        (3, 1, 6, "call_transfer"),
    ]


def test_kong_discard_option_off_keeps_the_transfer() -> None:
    table = Table(**{**E5.__dict__, "options": {"exchange_three": False, "kong_discard": False}})
    assert lines(play(table, E5_ACTIONS))[3:] == [
        (3, 1, 1, "win_discard"),
        (3, 1, 6, "call_transfer"),
    ]


# -- E6 -------------------------------------------------------------------------------------

E6 = Table(
    hands=[
        "88s111m222m333m5m99m",
        "456m666m777m999p1p",
        "6s234p555p789p11s8m",
        "33p66p88p44s55s99s3s",
    ],
    voids="psmm",
    front=["8s", "2s", "7s", "2p", "8s"],
)


E6_ACTIONS = [
    discard(0, "9m"),
    discard(1, "8s"),
    pong(0),
    discard(0, "5m"),
    discard(1, "2s"),
    discard(2, "8m"),
    discard(3, "2p"),
    kong(0, "8s"),
    win(2),
]


def test_e6_robbing_the_kong() -> None:
    rnd = play(E6, E6_ACTIONS)
    assert offers(rnd) == [(0, "8s", ("pong",)), (2, "8s", ("win",))]
    assert lines(rnd) == [(0, 2, 2, "win_rob_kong")]
    assert rnd.ledger.nets() == [-2, 0, 2, 0]
    assert [m.notation() for m in rnd.melds(0)] == ["[888s]"]
    assert rnd.kongs == []
    assert rnd.turn == 3
    fans = rnd.result()["winners"][0]["fans"]
    assert [(f["id"], f["fan"]) for f in fans] == [("robbing_kong", 1), ("basic_hand", 0)]


# -- E7 -------------------------------------------------------------------------------------

E7A = Table(
    hands=[
        "4m111p222p333p555p6p",
        "44m777m888m999m1s2s",
        "13579s2468s77p99p",
        "11m22m33m55m66m347s",
    ],
    voids="ssmp",
    front=["5s", "9s", "8p", "4m"],
)


E7A_ACTIONS = [
    discard(0, "4m"),
    pong(1),
    discard(1, "1s"),
    discard(2, "5s"),
    discard(3, "9s"),
    discard(0, "8p"),
    kong(1, "4m"),
]


def test_e7a_added_kong_of_the_tile_just_drawn() -> None:
    rnd = play(E7A, E7A_ACTIONS)
    assert offers(rnd) == [(1, "4m", ("pong",))]
    assert lines(rnd) == [(s, 1, 1, "kong_added") for s in (0, 2, 3)]


E7B = Table(
    hands=["111m222m333m444m56s", "135567789m2468s", "999p13579s24678p", "55m66m88m99m12359p"],
    voids="ppms",
    front=["9s", "8s", "4p", "3s", "2p", "3p", "7s"],
)
E7B_ACTIONS = [
    discard(0, "6s"),
    discard(1, "9s"),
    discard(2, "8s"),
    discard(3, "9p"),
    pong(2),
    discard(2, "1s"),
    discard(3, "3s"),
    discard(0, "2p"),
    discard(1, "3p"),
    kong(2, "9p"),
]


def test_e7b_wrapped_kong_pays_nothing_and_is_still_a_root() -> None:
    rnd = play(E7B, E7B_ACTIONS)
    assert offers(rnd) == [(2, "9p", ("kong", "pong"))]
    assert lines(rnd) == []
    assert [m.notation() for m in rnd.melds(2)] == ["[9999p]"]
    assert rnd.kongs[0].drawn_now is False


def test_e7c_side_pay() -> None:
    table = Table(
        hands=[
            "2s111m222m333m444m5m",
            "5m6m7m8m9m1p3p5p7p9p2p4p6p",
            "1m9m6p8p1s3s4s5s7s8s9s3p4p",
            "222s555p777p888p9p",
        ],
        voids="ppmm",
        options={"exchange_three": False, "side_pay": True},
    )
    rnd = play(table, [discard(0, "2s"), kong(3, "2s")])
    assert offers(rnd) == [(3, "2s", ("kong", "pong"))]
    assert lines(rnd) == [
        (0, 3, 2, "kong_exposed"),
        (1, 3, 1, "kong_exposed_side"),
        (2, 3, 1, "kong_exposed_side"),
    ]
    assert rnd.ledger.nets() == [-2, -1, -1, 4]
    off = Table(**{**table.__dict__, "options": {"exchange_three": False}})
    assert lines(play(off, [discard(0, "2s"), kong(3, "2s")])) == [(0, 3, 2, "kong_exposed")]


# -- E8 -------------------------------------------------------------------------------------

E8_PILES = {0: "258s", 1: "113p", 2: "135m", 3: "469s"}
E8 = Table(
    hands=["258s111m222m333m99m", "4567m113p228899s", "135m123p456p789p4p", "469s55667788p99p"],
    voids="pmsm",
    options={},
    extra={"exchange_map": [2, 3, 1, 0]},
)


def e8(table: Table = E8) -> Round:
    return play(table, [exchange(s, pile) for s, pile in E8_PILES.items()])


def test_e8_exchange_three_with_an_explicit_map() -> None:
    rnd = e8()
    assert held(rnd, 1) == tiles("1345567m228899s")
    assert held(rnd, 2) == tiles("123p456p789p4p258s")
    assert held(rnd, 3) == tiles("55667788p99p113p")
    assert held(rnd, 0) == tiles("111m222m333m99m469s")
    assert rnd.result()["exchange_map"] == [2, 3, 1, 0]


def test_e8_each_seat_sees_only_the_pile_it_received() -> None:
    rnd = e8()
    mine = [e for e in rnd.events_for(1) if isinstance(e, Notice) and e.name == "exchange"]
    assert [dict(e.data) for e in mine if e.seat == 1] == [
        {"from_seat": 2, "to_seat": 1, "tiles": "135m"}
    ]
    theirs = [e for e in rnd.events_for(0) if isinstance(e, Notice) and e.name == "exchange"]
    assert [dict(e.data) for e in theirs if e.seat == 1] == [{"from_seat": 2, "to_seat": 1}]


@pytest.mark.parametrize("bad", [[0, 3, 1, 2], [1, 2, 3, 3], [1, 2, 3], "1230", [1, 2, 3, True]])
def test_e8_a_map_that_returns_a_pile_or_is_malformed_is_rejected(bad: object) -> None:
    table = Table(**{**E8.__dict__, "extra": {"exchange_map": bad}})
    with pytest.raises(ScriptError, match="exchange_map"):
        e8(table)


def test_e8_the_spec_message_for_a_pile_sent_home() -> None:
    table = Table(**{**E8.__dict__, "extra": {"exchange_map": [0, 3, 1, 2]}})
    with pytest.raises(ScriptError, match="exchange_map sends seat 0's pile to itself"):
        e8(table)


@pytest.mark.parametrize(
    ("direction", "mapping"),
    [
        ("counterclockwise", [1, 2, 3, 0]),
        ("clockwise", [3, 0, 1, 2]),
        ("opposite", [2, 3, 0, 1]),
    ],
)
def test_exchange_direction_fixes_where_every_pile_goes(direction: str, mapping: list[int]) -> None:
    table = Table(**{**E8.__dict__, "options": {"exchange_direction": direction}, "extra": {}})
    rnd = e8(table)
    moves = [
        (e.data["from_seat"], e.data["to_seat"])
        for e in rnd.events
        if isinstance(e, Notice) and e.name == "exchange"
    ]
    assert moves == [(s, mapping[s]) for s in range(4)]
    assert "exchange_map" not in rnd.to_script()


def test_a_fixed_direction_takes_no_exchange_map() -> None:
    table = Table(**{**E8.__dict__, "options": {"exchange_direction": "opposite"}})
    with pytest.raises(ScriptError, match="exchange_map is only used"):
        e8(table)


def test_random_direction_draws_the_map_from_the_seed_and_records_it() -> None:
    rnd = Round.new("sichuan", {}, seed=7)
    mapping = rnd.to_script()["exchange_map"]
    assert sorted(mapping) == [0, 1, 2, 3]
    assert all(mapping[s] != s for s in range(4))
    assert Round.new("sichuan", {}, seed=7).to_script()["exchange_map"] == mapping


def test_the_drawn_direction_stays_secret_until_the_piles_move() -> None:
    live = Round.new("sichuan", {}, seed=7)
    mapping = live.fields["exchange_map"]
    replayed = Round.from_script(live.to_script())
    # Resuming with the drawn map among the hand's fields announces nothing more either.
    resumed = Round.new("sichuan", {}, seed=7, fields={"exchange_map": mapping})
    for rnd in (live, replayed, resumed):
        assert rnd.events[0].to_json() == {
            "type": "hand_started",
            "dealer": 0,
            "dice": list(live.dice),
            "fields": {},
        }
        assert rnd.events == live.events
    for seat in range(4):
        action = live.default_action(seat)
        assert action is not None
        live.apply(action)
    moves = [
        (e.data["from_seat"], e.data["to_seat"])
        for e in live.events_for(None)
        if isinstance(e, Notice) and e.name == "exchange"
    ]
    assert moves == [(s, mapping[s]) for s in range(4)]


def test_exchange_three_on_and_off() -> None:
    on = Round.new("sichuan", {}, seed=1)
    assert on.prompt is not None
    assert on.prompt.id == "exchange"
    off = Round.new("sichuan", {"exchange_three": False}, seed=1)
    assert off.prompt is not None
    assert off.prompt.id == "void"
    assert "exchange_map" not in off.to_script()


# -- E9 and bad input -----------------------------------------------------------------------

E9 = Table(
    hands=[
        "111m222m333m444m6s9s",
        "337p123m456m789s5s",
        "3p666m777m888m126s",
        "5s11p22p44p55p66p88p",
    ],
    voids="pppm",
    front=["5s", "9m", "7s"],
)


def refusal(rnd: Round, action: dict[str, object]) -> tuple[str, str]:
    """Apply an action that must be refused; the hand must not change at all. Returns the
    refusal's reason code and message."""
    before = rnd.snapshot()
    with pytest.raises(IllegalActionError) as caught:
        rnd.apply(Action.from_json(action), close_windows=True)
    assert rnd.snapshot() == before
    return caught.value.reason, caught.value.message


def refused(rnd: Round, action: dict[str, object]) -> str:
    return refusal(rnd, action)[1]


def test_e9_void_suit_violations() -> None:
    rnd = play(E9, [discard(0, "9s")])
    assert refused(rnd, discard(1, "5s")) == (
        "seat 1 must discard a p tile (its void suit) while holding one"
    )
    rnd.apply(Action.from_json(discard(1, "7p")))
    assert held(rnd, 1) == tiles("33p123m456m789s55s")
    rnd.apply(Action.from_json(discard(2, "3p")))
    assert [e.blocked for e in rnd.events if isinstance(e, ClaimOffered)] == [
        (("pong", "void_meld"),)
    ]
    # Nobody could claim the 3p, so S3 has drawn already; the pong is still refused for
    # the void suit.
    assert rnd.turn == 3
    assert refusal(rnd, pong(1)) == ("void_meld", "seat 1 cannot pong 3p: p is its void suit")
    rnd.apply(Action.from_json(discard(3, "5s")), close_windows=True)
    assert offers(rnd) == [(1, "5s", ("pong",))]
    assert refused(rnd, win(1)) == "seat 1 holds void-suit tiles"


def test_a_void_suit_kong_on_a_discard_is_withheld_with_its_pong() -> None:
    table = Table(
        hands=[
            "111m222m333m444m3p5m",
            "555m666m777m888m9m",
            "333p123s456s789s1m",
            "11s22s44s55s66s88s9m",
        ],
        voids="sppm",
    )
    rnd = play(table, [discard(0, "3p")])
    # Told once, as the pong; nobody could claim, so S1 has drawn.
    assert [(e.seat, e.blocked) for e in rnd.events if isinstance(e, ClaimOffered)] == [
        (2, (("pong", "void_meld"),))
    ]
    assert rnd.turn == 1
    assert refusal(rnd, kong(2, "3p")) == ("void_meld", "seat 2 cannot kong 3p: p is its void suit")
    assert refusal(rnd, pong(2)) == ("void_meld", "seat 2 cannot pong 3p: p is its void suit")


def test_e9_void_meld_refusal_names_the_void_suit() -> None:
    found = meld_refusal(1, 1, parse_tile("3p"), "pong")
    assert found is not None
    assert found.message == "seat 1 cannot pong 3p: p is its void suit"


def test_no_concealed_kong_of_the_void_suit() -> None:
    table = Table(
        hands=[
            "1111p222m333m444m5m",
            "666m777m888m999m1s",
            "1234567s1234s11m",
            "2345678s3456s55m",
        ],
        voids="pppp",
    )
    rnd = play(table, [])
    assert Kong(0, parse_tile("1p")) not in rnd.legal_actions(0)
    assert refusal(rnd, kong(0, "1p")) == (
        "void_meld",
        "seat 0 cannot kong 1p: p is its void suit",
    )


def test_mixed_suit_exchange_is_refused() -> None:
    rnd = play(Table(**{**E8.__dict__}), [], prompts=False)
    assert refused(rnd, exchange(0, "25s1m")) == "seat 0 must pick 3 tiles of one suit, not 1m25s"
    assert refused(rnd, exchange(0, "58s")) == "seat 0 must pick exactly 3 tiles, not 2"
    assert refused(rnd, exchange(0, "234s")) == "seat 0 does not hold 234s"
    rnd.apply(Action.from_json(exchange(0, "258s")))
    assert refused(rnd, exchange(0, "111m")) == "seat 0 has already answered exchange"


def test_a_seat_that_has_won_can_no_longer_act() -> None:
    rnd = play(E1, E1_ACTIONS)
    assert refused(rnd, discard(2, "1p")) == "seat 2 has already won and is out of play"


# -- E10 ------------------------------------------------------------------------------------

E10 = Table(
    hands=["1111333355779s9p", "111m222m333m444m5m", "666m777m888m999m5m", "111p222p333p444p5p"],
    voids="msss",
    front=["2s", "4s", "6s", "9s"],
)
E10_ACTIONS = [discard(0, "9p"), discard(1, "2s"), discard(2, "4s"), discard(3, "6s"), win(0)]


@pytest.mark.parametrize(
    ("options", "each"),
    [
        ({"self_draw_bonus": "add_fan"}, 16),
        ({"self_draw_bonus": "add_fan", "max_fan": 6}, 64),
        ({}, 17),
    ],
)
def test_e10_the_cap(options: dict[str, object], each: int) -> None:
    table = Table(**{**E10.__dict__, "options": {"exchange_three": False, **options}})
    rnd = play(table, E10_ACTIONS)
    assert offers(rnd) == []
    assert lines(rnd) == [(s, 0, each, "win_self_draw") for s in (1, 2, 3)]
    assert rnd.ledger.nets() == [3 * each, -each, -each, -each]
    assert rnd.result()["winners"][0]["title"]["zh"] == "清龙七对"


# -- heaven_earth ---------------------------------------------------------------------------

HEAVEN = Table(
    hands=["123m456m789m123p55p", "111s222s333s444s5s", "666s777s888s999s5s", "778899m446688p9p"],
    voids="smms",
)
EARTH = Table(
    hands=["111s222s333s444s55s", "123m456m789m123p5p", "666s777s888s999s1m", "778899m446688p9p"],
    voids="msms",
    front=["5p"],
)


@pytest.mark.parametrize(("on", "each", "fan"), [(True, 9, 3), (False, 2, 0)])
def test_heavenly_hand(on: bool, each: int, fan: int) -> None:
    table = Table(**{**HEAVEN.__dict__, "options": {"exchange_three": False, "heaven_earth": on}})
    rnd = play(table, [win(0)])
    assert lines(rnd) == [(s, 0, each, "win_self_draw") for s in (1, 2, 3)]
    assert rnd.result()["winners"][0]["fan"] == fan


@pytest.mark.parametrize(("on", "each"), [(True, 5), (False, 2)])
def test_earthly_hand(on: bool, each: int) -> None:
    table = Table(**{**EARTH.__dict__, "options": {"exchange_three": False, "heaven_earth": on}})
    rnd = play(table, [discard(0, "5s"), win(1)])
    assert offers(rnd) == []
    assert lines(rnd) == [(s, 1, each, "win_self_draw") for s in (0, 2, 3)]


def test_no_earthly_hand_after_a_pong() -> None:
    table = Table(
        hands=[*EARTH.hands[:3], "77889m446688p55s"],
        voids="mspp",
        front=["9p", "5p"],
        options={"exchange_three": False, "heaven_earth": True},
    )
    rnd = play(table, [discard(0, "5s"), pong(3), discard(3, "4p"), discard(0, "9p"), win(1)])
    assert offers(rnd) == [(3, "5s", ("pong",))]
    assert lines(rnd) == [(s, 1, 2, "win_self_draw") for s in (0, 2, 3)]


# -- E11 ------------------------------------------------------------------------------------

E11 = Table(
    hands=["34m678m222p456p55p1p", "1112345678999s", "555m13679m24689p", "22m66m77m33p44p99p8p"],
    voids="smss",
    front=["1m", "7p", "6p", "2m", "9m", "7p", "5m"],
    back="8m",
)
E11_ACTIONS = [
    discard(0, "1p"),
    discard(1, "1m"),
    discard(2, "7p"),
    discard(3, "6p"),
    win(0),
    discard(1, "9m"),
    discard(2, "7p"),
    discard(3, "5m"),
    kong(2, "5m"),
    discard(2, "8m"),
]


def test_e11_ready_check_with_kong_refund() -> None:
    rnd = play(E11, E11_ACTIONS, to_end=True)
    result = rnd.result()
    assert result["end"] == "exhausted"
    assert lines(rnd) == [
        (1, 0, 2, "win_self_draw"),
        (2, 0, 2, "win_self_draw"),
        (3, 0, 2, "win_self_draw"),
        (3, 2, 2, "kong_exposed"),
        (2, 1, 8, "not_ready"),
        (2, 3, 4, "not_ready"),
        (2, 3, 2, "kong_refund"),
    ]
    assert result["net"] == [6, 6, -14, 2]
    assert result["checks"] == [
        {"seat": 1, "flower_pig": False, "ready": True, "best_fan": 3},
        {"seat": 2, "flower_pig": False, "ready": False, "best_fan": None},
        {"seat": 3, "flower_pig": False, "ready": True, "best_fan": 2},
    ]
    assert [held(rnd, s) for s in (1, 2, 3)] == [
        tiles("1112345678999s"),
        tiles("13679m24689p"),
        tiles("22m66m77m33p44p99p8p"),
    ]
    # S0 deals again as the first winner.
    assert result["next_dealer"] == 0


def test_simulation_figures_count_the_check_and_the_winners() -> None:
    assert RULESET.hand_statistics(
        hand_state(play(E11, E11_ACTIONS, to_end=True), SichuanOptions)
    ) == {
        "hands ending in 查叫": Figure(1, percent=True),
        "winners per hand": Figure(1),
    }
    # Two winners on one discard, and play goes on: no check.
    assert RULESET.hand_statistics(hand_state(play(E3, E3_ACTIONS), SichuanOptions)) == {
        "hands ending in 查叫": Figure(0, percent=True),
        "winners per hand": Figure(2),
    }


# -- E12, E14 (c) ---------------------------------------------------------------------------

E12 = Table(
    hands=[
        "22m44m66m11p33p55p7p9s",
        "135789m224468p9p",
        "3333s8m678p567s22s",
        "55m777m999m11s444s",
    ],
    voids="ssmp",
    front=["3m", "1m"],
    back="1m",
    dealer=2,
    # The 花猪 draws a void tile whenever one is left, so it keeps its 8m to the end.
    fill=prefer_suit(lambda position: (position + 1) % 4, {2: 0}),
)
E12_ACTIONS = [discard(0, "9s"), discard(1, "3m"), kong(2, "3s"), discard(2, "1m")]


def e12(**options: object) -> Round:
    table = Table(**{**E12.__dict__, "options": {"exchange_three": False, **options}})
    return play(table, E12_ACTIONS, to_end=True)


def test_e12_flower_pig() -> None:
    rnd = e12()
    result = rnd.result()
    assert lines(rnd) == [
        (0, 2, 2, "kong_concealed"),
        (1, 2, 2, "kong_concealed"),
        (3, 2, 2, "kong_concealed"),
        (2, 0, 16, "flower_pig"),
        (2, 1, 16, "flower_pig"),
        (2, 3, 16, "flower_pig"),
        (1, 0, 4, "not_ready"),
        (1, 3, 2, "not_ready"),
        (2, 0, 2, "kong_refund"),
        (2, 1, 2, "kong_refund"),
        (2, 3, 2, "kong_refund"),
    ]
    assert result["net"] == [20, 10, -48, 18]
    assert result["checks"] == [
        {"seat": 0, "flower_pig": False, "ready": True, "best_fan": 2},
        {"seat": 1, "flower_pig": False, "ready": False, "best_fan": None},
        {"seat": 2, "flower_pig": True, "ready": False, "best_fan": None},
        {"seat": 3, "flower_pig": False, "ready": True, "best_fan": 1},
    ]
    assert "8m" in held(rnd, 2)
    # E14 (c): nobody won, so the dealer (chair 2) deals again.
    assert result["winners"] == []
    assert result["next_dealer"] == 2


def test_flower_pig_off_makes_the_pig_plainly_not_ready() -> None:
    assert lines(e12(flower_pig=False))[3:] == [
        (1, 0, 4, "not_ready"),
        (1, 3, 2, "not_ready"),
        (2, 0, 4, "not_ready"),
        (2, 3, 2, "not_ready"),
        (2, 0, 2, "kong_refund"),
        (2, 1, 2, "kong_refund"),
        (2, 3, 2, "kong_refund"),
    ]


def test_flower_pig_pays_the_cap() -> None:
    assert lines(e12(max_fan=6))[3] == (2, 0, 64, "flower_pig")


# -- E13 ------------------------------------------------------------------------------------

E13 = Table(
    hands=[
        "111m222m333m555m4p7s",
        "234p44p567p88p999p",
        "4m666m777m888m99m8p",
        "111s222s333s44s6s1p",
    ],
    voids="smsm",
    front=["4m", "5m", "5s", "7m"],
)


def test_e13_pass_win_lock() -> None:
    # The spec's discarders S0, S2, S3 cannot follow one another without S1 drawing in
    # between, so S2, S3 and S0 discard the same tiles in turn order instead.
    actions = [
        discard(0, "7s"),
        discard(1, "4m"),
        discard(2, "8p"),
        pass_(1),
        discard(3, "1p"),
    ]
    rnd = play(E13, actions)
    locked = [e for e in rnd.events if isinstance(e, ClaimOffered) and e.tile == parse_tile("1p")]
    assert [(e.seat, e.options, e.blocked) for e in locked] == [(1, (), (("win", "pass_win"),))]
    assert refusal(rnd, win(1)) == (
        "pass_win",
        "seat 1 passed a win worth 2 and until it draws may only win on a discard or a "
        "robbed kong worth more; this one is worth 2",
    )
    rnd = play(E13, [*actions, discard(0, "4p"), win(1)])
    assert offers(rnd) == [(1, "8p", ("win", "pong")), (1, "4p", ("win", "kong", "pong"))]
    assert lines(rnd) == [(0, 1, 8, "win_discard")]
    assert rnd.result()["winners"][0]["fan"] == 3


def test_e13_the_lock_ends_at_the_next_draw() -> None:
    table = Table(**{**E13.__dict__, "front": ["4m", "5m", "5s", "6s", "3m", "1p"]})
    actions = [
        discard(0, "7s"),
        discard(1, "4m"),
        discard(2, "8p"),
        pass_(1),
        discard(3, "5s"),
        discard(0, "6s"),
        discard(1, "3m"),
        discard(2, "1p"),
        win(1),
    ]
    rnd = play(table, actions)
    assert lines(rnd) == [(2, 1, 4, "win_discard")]


def test_pass_pong_lock() -> None:
    table = Table(
        hands=[
            "111p222p333p444p5m9p",
            "111s222s333s444s5s",
            "55m666m777m888m9m1s",
            "11m22m33m44m6789s9s",
        ],
        voids="spps",
        front=["5m"],
    )
    rnd = play(table, [discard(0, "5m"), pass_(2), discard(1, "5m")])
    second = [e for e in rnd.events if isinstance(e, ClaimOffered)][-1]
    assert (second.seat, second.options, second.blocked) == (2, (), (("pong", "pass_pong"),))
    assert refusal(rnd, pong(2)) == (
        "pass_pong",
        "seat 2 passed a pong of 5m and may not pong 5m until it draws",
    )


# -- E14 (a) --------------------------------------------------------------------------------


def test_e14a_the_first_winner_deals_next() -> None:
    table = Table(**{**E1.__dict__, "dealer": 1})
    actions = [*E1_ACTIONS, discard(3, "6s"), discard(0, "2p"), discard(1, "5s"), win(0)]
    rnd = play(table, actions, to_end=True)
    assert lines(rnd)[3] == (1, 0, 2, "win_discard")
    # S2 (chair 3) won first; the next hand's seats count from chair 3.
    assert rnd.result()["next_dealer"] == 3


# -- options as data --------------------------------------------------------------------------


def test_rounds_sets_the_planned_hands() -> None:
    from engine.rules.sichuan.ruleset import RULESET

    assert RULESET.planned_hands(RULESET.parse_options({})) == 8
    assert RULESET.planned_hands(RULESET.parse_options({"rounds": 16})) == 16


# -- the last tile ----------------------------------------------------------------------------


def at_last_tile(rnd: Round) -> bool:
    return rnd.live_count == 0 and rnd.phase is Phase.TURN


def test_last_tile_self_draw_and_no_kong() -> None:
    table = Table(
        hands=[
            "111p222p333p444p5p6p",
            "99m11s22s33s44s88s9s",
            "777m888m55p66p77p8p",
            "5555s67s123m456m9m",
        ],
        voids="mppp",
        fill=last_tile("9m"),
    )
    rnd = play(table, [])
    finish(rnd, until=at_last_tile)
    assert rnd.turn == 3
    legal = rnd.legal_actions(3)
    assert Win(3) in legal
    assert not any(isinstance(a, Kong) for a in legal)
    rnd.apply(Win(3))
    fans = {f.id for f in rnd.wins[0].score.fans}
    assert "last_tile_draw" in fans
    finish(rnd)
    assert rnd.result()["end"] == "exhausted"


def test_last_discard_may_be_won_but_not_ponged() -> None:
    table = Table(
        hands=[
            "111p222p333p444p5p9s",
            "55p11s22s33s44s88s9s",
            "777p888p66p99p44m5m",
            "123m456m789m1237s",
        ],
        voids="smsp",
        fill=last_tile("5p"),
    )
    rnd = play(table, [])
    finish(rnd, until=at_last_tile)
    rnd.apply(Discard(3, parse_tile("5p")))
    last = [e for e in rnd.events if isinstance(e, ClaimOffered)]
    assert [(e.seat, e.options) for e in last if e.tile == parse_tile("5p")][-1:] == [(0, ("win",))]
    assert Pong(1) not in rnd.legal_actions(1)
    rnd.apply(Win(0))
    assert "last_tile_discard" in {f.id for f in rnd.wins[0].score.fans}


# -- the replay command -----------------------------------------------------------------------


def run_replay(script: dict[str, object], tmp_path: Path) -> tuple[int, dict[str, Any]]:
    path = tmp_path / "round.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "engine.replay", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.returncode, json.loads(done.stdout)


def test_e5_through_the_replay_command(tmp_path: Path) -> None:
    code, answer = run_replay(E5.script(E5_ACTIONS), tmp_path)
    assert code == 0
    assert answer["payments"][-2:] == [
        {"payer": 3, "payee": 1, "amount": 2, "reason": "win_discard"},
        {"payer": 3, "payee": 1, "amount": 6, "reason": "call_transfer"},
    ]
    assert answer["net"] == [-2, 6, -2, -2]
    assert answer["voids"] == ["p", "s", "m", "m"]


def test_e9_illegal_discard_through_the_replay_command(tmp_path: Path) -> None:
    code, answer = run_replay(E9.script([discard(0, "9s"), discard(1, "5s")]), tmp_path)
    assert code == 1
    assert answer == {
        "ok": False,
        "error": "seat 1 must discard a p tile (its void suit) while holding one",
        "action_index": 5,
        "seat": 1,
    }


# -- more rules of play -----------------------------------------------------------------------


def test_a_drawn_void_tile_must_be_discarded_by_a_seat_holding_no_other() -> None:
    rnd = play(E4, [discard(0, "5m")])
    assert held(rnd, 1) == tiles("777s12s456s888s99m2p")
    assert [a for a in rnd.legal_actions(1) if isinstance(a, Discard)] == [
        Discard(1, parse_tile("2p"))
    ]


def test_a_pong_in_another_suit_while_holding_void_tiles_then_a_void_discard() -> None:
    rnd = play(E7A, E7A_ACTIONS[:2])
    assert rnd.legal_actions(1) == [Discard(1, parse_tile("1s")), Discard(1, parse_tile("2s"))]


def test_a_winners_hand_stays_hidden_until_the_end() -> None:
    rnd = play(E1, E1_ACTIONS)
    assert rnd.view(0).seats[2].concealed is None
    assert rnd.view(2).seats[2].concealed is not None


def test_voids_are_revealed_together() -> None:
    rnd = play(E1, [], prompts=False)
    for seat, letter in enumerate("ppm"):
        rnd.apply(Action.from_json({"seat": seat, "action": "void", "suit": letter}))
    assert rnd.view(0).facts.voids is None
    assert not [e for e in rnd.events_for(3) if isinstance(e, Notice) and e.name == "void"]
    rnd.apply(Action.from_json({"seat": 3, "action": "void", "suit": "p"}))
    assert rnd.view(0).facts.voids == (1, 1, 0, 1)


def test_kong_bloom_after_a_concealed_kong_is_paid_by_all() -> None:
    table = Table(
        hands=[
            "5555s123s789s234s9s",
            "111m222m333m444m5m",
            "666m777m888m999m5m",
            "111p222p333p444p5p",
        ],
        voids="mppp",
        back="9s",
    )
    rnd = play(table, [kong(0, "5s"), win(0)])
    assert lines(rnd) == [
        *[(s, 0, 2, "kong_concealed") for s in (1, 2, 3)],
        *[(s, 0, 17, "win_self_draw") for s in (1, 2, 3)],
    ]
    fans = {f["id"] for f in rnd.result()["winners"][0]["fans"]}
    assert fans == {"full_flush", "root", "kong_bloom"}


def test_transferred_water_money_is_never_refunded() -> None:
    rnd = play(E5, E5_ACTIONS, to_end=True)
    result = rnd.result()
    assert result["end"] == "exhausted"
    assert [c["ready"] for c in result["checks"] if c["seat"] == 3] == [False]
    assert [line for line in lines(rnd) if line[3] == "kong_refund"] == []
