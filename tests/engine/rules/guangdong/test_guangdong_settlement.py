"""Worked examples of guangdong.md §4 and §8 through the settlement functions.

Each example's hu size comes from its hand through the big-hu detection, so a wrong size
fails here as well as a wrong payment.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.ledger import Ledger
from engine.rules.guangdong.bighu import SEED_KIND_IDS, find_kinds, win_hand
from engine.rules.guangdong.calculator import hu_size
from engine.rules.guangdong.dealer import DealerCounters, next_counters, next_dealer_seat
from engine.rules.guangdong.settle import (
    Kong,
    KongKind,
    Win,
    WinHow,
    horse_seat,
    horses_json,
    settle,
)
from engine.tiles import ALL_KINDS, parse_hand, parse_tile, parse_tiles
from tests.engine.rules.guangdong.guangdong_scripts import table

Line = tuple[int, int, int, str]
DEFAULTS = table()


def size(hand: str, win: str, *, self_drawn: bool = False, earthly: bool = False) -> int:
    spec = parse_hand(hand)
    facts = win_hand(
        spec.concealed, spec.melds, parse_tile(win), self_drawn=self_drawn, earthly=earthly
    )
    return hu_size(find_kinds(facts, SEED_KIND_IDS))


def lines(ledger: Ledger) -> list[Line]:
    return [(p.payer, p.payee, p.amount, p.reason) for p in ledger.lines]


def copies(ledger: Ledger) -> list[tuple[int, int | str, int | str, int | str]]:
    """(line number, horse tile, horse seat, copied line number) of every horse line."""
    return [
        (number, line["horse"], line["horse_seat"], line["copy_of"])
        for number, line in enumerate(ledger.to_json(), start=1)
        if line["reason"] == "horse"
    ]


def horses(text: str) -> list[int]:
    return parse_tiles(text)


def check(ledger: Ledger, expected: Sequence[Line], nets: Sequence[int]) -> None:
    assert lines(ledger) == list(expected)
    assert ledger.nets() == list(nets)


# -- section 8 -------------------------------------------------------------------------


def test_e1_small_hu_on_a_discard() -> None:
    wins = [Win(2, WinHow.DISCARD, size("234m678m45p99s[222p]", "6p"), from_seat=1)]
    result = settle(wins, [], horses("N"), 1)
    check(result, [(1, 2, 1, "win_discard")], [0, -1, 1, 0])
    assert horses_json(horses("N")) == [{"tile": "4z", "seat": 3}]
    assert next_dealer_seat(wins) == 2
    counters = next_counters(wins, DealerCounters(1, 1), DEFAULTS)
    assert counters == DealerCounters(horse_count=1, dealer_streak=1)


def test_e2_big_self_draw_horse_on_the_winner() -> None:
    wins = [Win(1, WinHow.SELF_DRAW, size("1112345678s[999s]", "6s", self_drawn=True))]
    result = settle(wins, [], horses("2m"), 1)
    check(
        result,
        [
            (0, 1, 4, "win_self_draw"),
            (2, 1, 4, "win_self_draw"),
            (3, 1, 4, "win_self_draw"),
            (2, 0, 4, "horse"),
            (3, 0, 4, "horse"),
        ],
        [4, 12, -8, -8],
    )
    assert copies(result) == [(4, "2m", 1, 2), (5, "2m", 1, 3)]


def test_e3_two_winners_on_one_discard() -> None:
    wins = [
        Win(1, WinHow.DISCARD, size("1133m2277s99pFF5p", "5p"), from_seat=3),
        Win(0, WinHow.DISCARD, size("123m789m567s34pCC", "5p"), from_seat=3),
    ]
    result = settle(wins, [], horses("F"), 1)
    check(
        result,
        [(3, 0, 1, "win_discard"), (3, 1, 2, "win_discard"), (3, 0, 2, "horse")],
        [3, 2, 0, -5],
    )
    assert copies(result) == [(3, "6z", 1, 2)]
    assert next_dealer_seat(wins) == 0
    assert next_counters(wins, DealerCounters(1, 1), DEFAULTS) == DealerCounters(2, 2)


def test_e4_robbing_an_added_kong() -> None:
    # The robbed kong is not a kong: it is not among the kongs that stand.
    wins = [Win(3, WinHow.ROB_KONG, size("123m456m789p68sCC", "7s"), from_seat=2)]
    result = settle(wins, [], horses("1m3z"), 1)
    check(result, [(2, 3, 6, "win_rob_kong"), (0, 3, 6, "horse")], [-6, 0, -6, 12])
    assert copies(result) == [(2, "3z", 2, 1)]
    assert next_dealer_seat(wins) == 3


def test_e5_kong_bloom_after_a_kong_from_a_discard() -> None:
    wins = [Win(2, WinHow.KONG_BLOOM, size("456m789m12pCC[3333s]", "3p"), from_seat=1)]
    kongs = [Kong(2, KongKind.EXPOSED, from_seat=1)]
    result = settle(wins, kongs, horses("8p"), 1)
    check(
        result,
        [(1, 2, 6, "win_kong_bloom_discarder"), (1, 2, 3, "kong_exposed")],
        [0, -9, 9, 0],
    )


def test_e5_big_kong_bloom_costs_the_discarder_fifteen() -> None:
    wins = [Win(2, WinHow.KONG_BLOOM, 2, from_seat=1)]
    result = settle(wins, [Kong(2, KongKind.EXPOSED, from_seat=1)], [], 1)
    check(
        result,
        [(1, 2, 12, "win_kong_bloom_discarder"), (1, 2, 3, "kong_exposed")],
        [0, -15, 15, 0],
    )


def test_e6_kong_bloom_after_ones_own_concealed_kong() -> None:
    wins = [Win(3, WinHow.KONG_BLOOM, size("345m678sSS34p{9999p}", "2p", self_drawn=True))]
    result = settle(wins, [Kong(3, KongKind.CONCEALED)], [], 1)
    check(
        result,
        [(s, 3, 2, "win_self_draw") for s in range(3)]
        + [(s, 3, 2, "kong_concealed") for s in range(3)],
        [-4, -4, -4, 12],
    )


def test_e7_exhaustive_draw_pays_nothing() -> None:
    kongs = [
        Kong(0, KongKind.CONCEALED),
        Kong(2, KongKind.EXPOSED, from_seat=1),
        Kong(3, KongKind.ADDED),
    ]
    result = settle([], kongs, horses("1s"), 1)
    check(result, [], [0, 0, 0, 0])
    assert horses_json(horses("1s")) == [{"tile": "1s", "seat": 0}]
    assert next_dealer_seat([]) == 1
    assert next_counters([], DealerCounters(3, 2), DEFAULTS) == DealerCounters(1, 1)


E8_KONGS = [
    Kong(3, KongKind.CONCEALED),
    Kong(1, KongKind.EXPOSED, from_seat=2),
    Kong(0, KongKind.ADDED),
]
E8_BASE: list[Line] = [
    (3, 1, 1, "win_discard"),
    (0, 3, 2, "kong_concealed"),
    (1, 3, 2, "kong_concealed"),
    (2, 3, 2, "kong_concealed"),
    (2, 1, 3, "kong_exposed"),
    (1, 0, 1, "kong_added"),
    (2, 0, 1, "kong_added"),
    (3, 0, 1, "kong_added"),
]


def test_e8_every_kong_paid_after_a_small_win() -> None:
    wins = [Win(1, WinHow.DISCARD, size("456m78p88m[6666s][EEE]", "9p"), from_seat=3)]
    result = settle(wins, E8_KONGS, horses("9s"), 1)
    check(
        result,
        [
            *E8_BASE,
            (0, 3, 2, "horse"),
            (1, 0, 1, "horse"),
            (2, 0, 1, "horse"),
            (3, 0, 1, "horse"),
        ],
        [2, 0, -7, 5],
    )
    assert copies(result) == [(9, "9s", 0, 2), (10, "9s", 0, 6), (11, "9s", 0, 7), (12, "9s", 0, 8)]
    check(settle(wins, E8_KONGS, [], 1), E8_BASE, [1, 1, -6, 4])


def test_e9_horse_on_a_loser_and_horse_on_the_dealer() -> None:
    wins = [Win(2, WinHow.SELF_DRAW, size("12345m678p999sCC", "6m", self_drawn=True))]
    result = settle(wins, [], horses("4m5p"), 1)
    check(
        result,
        [
            (0, 2, 2, "win_self_draw"),
            (1, 2, 2, "win_self_draw"),
            (3, 2, 2, "win_self_draw"),
            (0, 2, 2, "horse"),
            (0, 2, 2, "horse"),
        ],
        [-6, -2, 10, -2],
    )
    assert copies(result) == [(4, "4m", 3, 3), (5, "5p", 0, 1)]


def test_e10_dealer_big_self_draw_with_three_horses() -> None:
    wins = [Win(0, WinHow.SELF_DRAW, size("CCCFFFPP789m22s", "P", self_drawn=True))]
    result = settle(wins, [], horses("1p7mN"), 1)
    base = [(s, 0, 4, "win_self_draw") for s in (1, 2, 3)]
    check(result, base + [(s, 0, 4, "horse") for s in (1, 2, 3)], [24, -8, -8, -8])
    assert next_counters(wins, DealerCounters(3, 3), DEFAULTS) == DealerCounters(4, 4)


def test_e11_earthly_hand() -> None:
    assert size("123456m234p678s9m", "9m") == 1
    wins = [Win(2, WinHow.DISCARD, size("123456m234p678s9m", "9m", earthly=True), from_seat=0)]
    result = settle(wins, [], horses("3s"), 1)
    check(result, [(0, 2, 2, "win_discard")], [-2, 0, 2, 0])


def test_e12_thirteen_orphans_thirteen_sided_wait() -> None:
    wins = [Win(1, WinHow.DISCARD, size("19m19p19sESWNCFP", "C"), from_seat=3)]
    result = settle(wins, [], horses("2sP"), 1)
    check(result, [(3, 1, 2, "win_discard"), (3, 0, 2, "horse")], [2, 2, 0, -4])


def test_e13_when_four_concealed_pungs_counts() -> None:
    two_pair = "111m333p555s77s99m"
    a = settle([Win(2, WinHow.DISCARD, size(two_pair, "9m"), from_seat=3)], [], [], 1)
    check(a, [(3, 2, 1, "win_discard")], [0, 0, 1, -1])
    b = settle([Win(2, WinHow.SELF_DRAW, size(two_pair, "9m", self_drawn=True))], [], [], 1)
    check(b, [(s, 2, 4, "win_self_draw") for s in (0, 1, 3)], [-4, -4, 12, -4])
    single = "111m333p555s777s9m"
    c = settle([Win(2, WinHow.DISCARD, size(single, "9m"), from_seat=3)], [], [], 1)
    check(c, [(3, 2, 2, "win_discard")], [0, 0, 2, -2])


def test_e14_self_draw_after_restrictions() -> None:
    wins = [Win(2, WinHow.SELF_DRAW, size("234m678m456s45pCC", "3p", self_drawn=True))]
    check(
        settle(wins, [], [], 1),
        [(s, 2, 2, "win_self_draw") for s in (0, 1, 3)],
        [-2, -2, 6, -2],
    )


# -- section 4 -------------------------------------------------------------------------


def test_h1_horse_on_a_loser() -> None:
    result = settle([Win(1, WinHow.DISCARD, 1, from_seat=2)], [], horses("3m"), 1)
    check(result, [(2, 1, 1, "win_discard"), (0, 1, 1, "horse")], [-1, 2, -1, 0])


def test_h2_horse_on_the_winner_who_the_dealer_paid() -> None:
    result = settle([Win(1, WinHow.DISCARD, 1, from_seat=0)], [], horses("2p"), 1)
    check(result, [(0, 1, 1, "win_discard")], [-1, 1, 0, 0])


def test_h3_horse_on_the_dealer_doubles_his_result() -> None:
    result = settle(
        [Win(3, WinHow.DISCARD, 2, from_seat=0)], [Kong(0, KongKind.CONCEALED)], horses("5s"), 1
    )
    base = [(0, 3, 2, "win_discard")] + [(s, 0, 2, "kong_concealed") for s in (1, 2, 3)]
    horse = [(0, 3, 2, "horse")] + [(s, 0, 2, "horse") for s in (1, 2, 3)]
    check(result, base + horse, [8, -4, -4, 0])


def test_h4_two_horses_on_one_seat() -> None:
    result = settle([Win(2, WinHow.SELF_DRAW, 1)], [], horses("3p7s"), 1)
    base = [(s, 2, 2, "win_self_draw") for s in (0, 1, 3)]
    horse = [(1, 0, 2, "horse"), (3, 0, 2, "horse")] * 2
    check(result, base + horse, [6, -6, 6, -6])


# -- amounts, mapping and order --------------------------------------------------------


def test_rob_kong_big_and_several_robbers_each_paid_in_full() -> None:
    wins = [Win(1, WinHow.ROB_KONG, 2, from_seat=3), Win(0, WinHow.ROB_KONG, 1, from_seat=3)]
    check(
        settle(wins, [], [], 1),
        [(3, 0, 6, "win_rob_kong"), (3, 1, 12, "win_rob_kong")],
        [6, 12, 0, -18],
    )


def test_winner_order_starts_from_the_discarders_next_seat() -> None:
    wins = [Win(s, WinHow.DISCARD, 1, from_seat=2) for s in (1, 0, 3)]
    assert [line[1] for line in lines(settle(wins, [], [], 1))] == [3, 0, 1]
    assert next_dealer_seat(wins) == 3


def test_base_stake_multiplies_every_line() -> None:
    wins = [Win(1, WinHow.DISCARD, 1, from_seat=3)]
    result = settle(wins, E8_KONGS, horses("9s"), 5)
    unit = settle(wins, E8_KONGS, horses("9s"), 1)
    assert [a * 5 for *_, a, _ in lines(unit)] == [a for *_, a, _ in lines(result)]
    assert result.nets() == [5 * n for n in unit.nets()]


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_horse_seat_counts_from_the_dealer(kind: int) -> None:
    expected = {
        **dict.fromkeys(parse_tiles("159m159p159sEC"), 0),
        **dict.fromkeys(parse_tiles("26m26p26sSF"), 1),
        **dict.fromkeys(parse_tiles("37m37p37sWP"), 2),
        **dict.fromkeys(parse_tiles("48m48p48sN"), 3),
    }
    assert horse_seat(kind) == expected[kind]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((1, WinHow.DISCARD, 1), "needs the seat"),
        ((1, WinHow.ROB_KONG, 2), "needs the seat"),
        ((1, WinHow.SELF_DRAW, 1, 2), "from nobody"),
        ((1, WinHow.DISCARD, 1, 1), "cannot win from itself"),
        ((1, WinHow.SELF_DRAW, 3), "big"),
    ],
)
def test_malformed_wins_are_refused(args: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Win(*args)


def test_only_kongs_from_a_discard_name_a_discarder() -> None:
    with pytest.raises(ValueError, match="discarder"):
        Kong(0, KongKind.EXPOSED)
    with pytest.raises(ValueError, match="discarder"):
        Kong(0, KongKind.ADDED, from_seat=1)
