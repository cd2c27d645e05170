"""The worked examples of sichuan.md §7 through the settlement functions, line by line.

Fans come from the scorer the engine uses (``hand.score_hand``, ``hand.best_ready_fan``),
amounts from ``settle``; every payment line and every net is asserted.
"""

from __future__ import annotations

import random

import pytest

from engine.ledger import Ledger, Payment
from engine.rules.sichuan.hand import best_ready_fan, ready_waits, score_hand
from engine.rules.sichuan.options import SichuanOptions
from engine.rules.sichuan.patterns import Situation
from engine.rules.sichuan.settle import (
    WIN_ROB_KONG,
    KongKind,
    KongMoney,
    SeatCheck,
    Win,
    kong_bloom_paid_by_giver,
    pay_call_transfer,
    pay_discard,
    pay_kong,
    pay_kong_bloom_by_giver,
    pay_self_draw,
    settle_exhaustion,
)
from engine.tiles import counts_of, parse_hand, parse_tile

ALL = (0, 1, 2, 3)
M, P, S = 0, 1, 2


def lines(ledger: Ledger) -> list[tuple[int, int, int, str]]:
    return [(p.payer, p.payee, p.amount, p.reason) for p in ledger.lines]


def fan_of(hand: str, win: str, situation: Situation, options: SichuanOptions) -> int:
    spec = parse_hand(hand)
    tile = parse_tile(win)
    score = score_hand(counts_of([*spec.concealed, tile]), spec.melds, tile, situation, options)
    assert score is not None
    return score.fan


def ready_fan(hand: str, void: int, options: SichuanOptions) -> int | None:
    spec = parse_hand(hand)
    return best_ready_fan(counts_of(spec.concealed), spec.melds, void, options)


SELF = Situation(self_drawn=True)
DISCARD = Situation()


# -- E1 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "each"),
    [
        (SichuanOptions(), 9),
        (SichuanOptions(self_draw_bonus="add_fan"), 16),
        (SichuanOptions(self_draw_bonus="add_fan", max_fan=3), 8),
    ],
)
def test_e1_full_flush_self_draw_with_a_root(options: SichuanOptions, each: int) -> None:
    fan = fan_of("1111234567899p", "9p", SELF, options)
    ledger = Ledger()
    pay_self_draw(ledger, Win(2, fan), ALL, options)
    assert lines(ledger) == [(s, 2, each, "win_self_draw") for s in (0, 1, 3)]
    assert ledger.nets() == [-each, -each, 3 * each, -each]


# -- E2 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "amount"),
    [(SichuanOptions(), 8), (SichuanOptions(concealed_middle=True), 16)],
)
def test_e2_dragon_seven_pairs_on_a_discard(options: SichuanOptions, amount: int) -> None:
    fan = fan_of("112255557788p3s", "3s", DISCARD, options)
    ledger = Ledger()
    pay_discard(ledger, 3, [Win(1, fan)], options)
    assert lines(ledger) == [(3, 1, amount, "win_discard")]
    assert ledger.nets() == [0, amount, 0, -amount]


# -- E3 -------------------------------------------------------------------------------------


def test_e3_double_win_on_one_discard() -> None:
    options = SichuanOptions()
    s1 = fan_of("34m678m222p456p99p", "5m", DISCARD, options)
    s3 = fan_of("55m777m333s99s[444s]", "5m", DISCARD, options)
    assert (s1, s3) == (0, 1)
    ledger = Ledger()
    # Given in any order, the lines go by winner in turn order from the discarder.
    pay_discard(ledger, 0, [Win(3, s3), Win(1, s1)], options)
    assert lines(ledger) == [(0, 1, 1, "win_discard"), (0, 3, 2, "win_discard")]
    assert ledger.nets() == [-3, 1, 0, 2]


# -- E4 -------------------------------------------------------------------------------------


def test_e4a_kong_bloom_after_exposed_kong_paid_by_the_giver() -> None:
    options = SichuanOptions()
    ledger = Ledger()
    pay_kong(ledger, KongKind.EXPOSED, 1, ALL, options, discarder=2)
    assert kong_bloom_paid_by_giver(options, after_exposed_kong=True)
    situation = Situation(self_drawn=True, kong_bloom=True, paid_as_discard=True)
    fan = fan_of("12s456s888s99m[7777s]", "3s", situation, options)
    assert fan == 2
    pay_kong_bloom_by_giver(ledger, Win(1, fan), 2, options)
    assert lines(ledger) == [(2, 1, 2, "kong_exposed"), (2, 1, 4, "win_kong_bloom_discarder")]
    assert ledger.nets() == [0, 6, -6, 0]


def test_e4b_kong_bloom_after_exposed_kong_paid_by_all() -> None:
    options = SichuanOptions(kong_bloom_payer="all")
    ledger = Ledger()
    pay_kong(ledger, KongKind.EXPOSED, 1, ALL, options, discarder=2)
    assert not kong_bloom_paid_by_giver(options, after_exposed_kong=True)
    fan = fan_of(
        "12s456s888s99m[7777s]", "3s", Situation(self_drawn=True, kong_bloom=True), options
    )
    pay_self_draw(ledger, Win(1, fan), ALL, options)
    assert lines(ledger) == [
        (2, 1, 2, "kong_exposed"),
        (0, 1, 5, "win_self_draw"),
        (2, 1, 5, "win_self_draw"),
        (3, 1, 5, "win_self_draw"),
    ]
    assert ledger.nets() == [-5, 17, -7, -5]


def test_kong_bloom_by_giver_drops_the_self_draw_atom_and_the_base() -> None:
    options = SichuanOptions(self_draw_bonus="add_fan")
    by_giver = Situation(self_drawn=True, kong_bloom=True, paid_as_discard=True)
    by_all = Situation(self_drawn=True, kong_bloom=True)
    assert fan_of("12s456s888s99m[7777s]", "3s", by_giver, options) == 2
    assert fan_of("12s456s888s99m[7777s]", "3s", by_all, options) == 3
    ledger = Ledger()
    pay_kong_bloom_by_giver(ledger, Win(1, 2), 2, SichuanOptions())
    assert lines(ledger) == [(2, 1, 4, "win_kong_bloom_discarder")]


def test_kong_bloom_after_a_concealed_kong_is_an_ordinary_self_draw() -> None:
    assert not kong_bloom_paid_by_giver(SichuanOptions(), after_exposed_kong=False)


# -- E5 -------------------------------------------------------------------------------------


def e5_start(options: SichuanOptions) -> tuple[Ledger, KongMoney, int]:
    ledger = Ledger()
    kong = pay_kong(ledger, KongKind.CONCEALED, 3, ALL, options)
    fan = fan_of("13m456m789m55p678p", "2m", Situation(kong_discard=True), options)
    return ledger, kong, fan


def test_e5_kong_discard_with_call_transfer() -> None:
    options = SichuanOptions()
    ledger, kong, fan = e5_start(options)
    assert fan == 1
    pay_discard(ledger, 3, [Win(1, fan)], options)
    pay_call_transfer(ledger, 3, [1], [kong])
    assert lines(ledger) == [
        (0, 3, 2, "kong_concealed"),
        (1, 3, 2, "kong_concealed"),
        (2, 3, 2, "kong_concealed"),
        (3, 1, 2, "win_discard"),
        (3, 1, 6, "call_transfer"),
    ]
    assert ledger.nets() == [-2, 6, -2, -2]


def test_e5_transfer_goes_whole_to_the_nearest_winner_after_the_discarder() -> None:
    options = SichuanOptions()
    ledger, kong, fan = e5_start(options)
    pay_discard(ledger, 3, [Win(2, 0), Win(1, fan)], options)
    pay_call_transfer(ledger, 3, [2, 1], [kong])
    assert lines(ledger)[3:] == [
        (3, 1, 2, "win_discard"),
        (3, 2, 1, "win_discard"),
        (3, 1, 6, "call_transfer"),
    ]


def test_kong_discard_option_off_keeps_the_transfer_and_drops_the_fan() -> None:
    options = SichuanOptions(kong_discard=False)
    ledger, kong, fan = e5_start(options)
    assert fan == 0
    pay_discard(ledger, 3, [Win(1, fan)], options)
    pay_call_transfer(ledger, 3, [1], [kong])
    assert lines(ledger)[3:] == [(3, 1, 1, "win_discard"), (3, 1, 6, "call_transfer")]


# -- E6 -------------------------------------------------------------------------------------


def test_e6_robbing_the_kong() -> None:
    options = SichuanOptions()
    fan = fan_of("67s234p555p789p11s", "8s", Situation(robbing_kong=True), options)
    ledger = Ledger()
    pay_discard(ledger, 0, [Win(2, fan)], options, reason=WIN_ROB_KONG)
    assert lines(ledger) == [(0, 2, 2, "win_rob_kong")]
    assert ledger.nets() == [-2, 0, 2, 0]


# -- E7 -------------------------------------------------------------------------------------


def test_e7a_added_kong_water_money() -> None:
    ledger = Ledger()
    pay_kong(ledger, KongKind.ADDED, 1, ALL, SichuanOptions())
    assert lines(ledger) == [(s, 1, 1, "kong_added") for s in (0, 2, 3)]
    out = Ledger()
    pay_kong(out, KongKind.ADDED, 1, (0, 1, 2), SichuanOptions())
    assert lines(out) == [(0, 1, 1, "kong_added"), (2, 1, 1, "kong_added")]


def test_e7b_wrapped_kong_pays_nothing() -> None:
    ledger = Ledger()
    money = pay_kong(ledger, KongKind.WRAPPED, 2, ALL, SichuanOptions())
    assert ledger.lines == [] and money.total == 0


def test_e7c_side_pay() -> None:
    ledger = Ledger()
    pay_kong(ledger, KongKind.EXPOSED, 3, ALL, SichuanOptions(side_pay=True), discarder=0)
    assert lines(ledger) == [
        (0, 3, 2, "kong_exposed"),
        (1, 3, 1, "kong_exposed_side"),
        (2, 3, 1, "kong_exposed_side"),
    ]
    assert ledger.nets() == [-2, -1, -1, 4]


def test_side_pay_off_charges_only_the_discarder() -> None:
    ledger = Ledger()
    pay_kong(ledger, KongKind.EXPOSED, 3, ALL, SichuanOptions(), discarder=0)
    assert lines(ledger) == [(0, 3, 2, "kong_exposed")]


def test_side_pay_with_one_opponent_out_has_one_side_payer() -> None:
    ledger = Ledger()
    pay_kong(ledger, KongKind.EXPOSED, 3, (0, 2, 3), SichuanOptions(side_pay=True), discarder=0)
    assert lines(ledger) == [(0, 3, 2, "kong_exposed"), (2, 3, 1, "kong_exposed_side")]


def test_concealed_kong_water_money_and_who_pays() -> None:
    ledger = Ledger()
    pay_kong(ledger, KongKind.CONCEALED, 0, (0, 1, 3), SichuanOptions(base_stake=3))
    assert lines(ledger) == [(1, 0, 6, "kong_concealed"), (3, 0, 6, "kong_concealed")]


# -- E11, E12 ------------------------------------------------------------------------------


def test_e11_ready_check_with_kong_refund() -> None:
    options = SichuanOptions()
    ledger = Ledger()
    pay_self_draw(ledger, Win(0, 0), ALL, options)
    kong = pay_kong(ledger, KongKind.EXPOSED, 2, (1, 2, 3), options, discarder=3)
    checks = [
        SeatCheck(1, False, ready_fan("1112345678999s", M, options)),
        SeatCheck(2, False, ready_fan("13679m24689p[5555m]", S, options)),
        SeatCheck(3, False, ready_fan("22m66m77m33p44p99p8p", S, options)),
    ]
    assert [c.best_fan for c in checks] == [3, None, 2]
    settle_exhaustion(ledger, checks, [kong], options)
    assert lines(ledger) == [
        (1, 0, 2, "win_self_draw"),
        (2, 0, 2, "win_self_draw"),
        (3, 0, 2, "win_self_draw"),
        (3, 2, 2, "kong_exposed"),
        (2, 1, 8, "not_ready"),
        (2, 3, 4, "not_ready"),
        (2, 3, 2, "kong_refund"),
    ]
    assert ledger.nets() == [6, 6, -14, 2]


def e12(options: SichuanOptions) -> Ledger:
    ledger = Ledger()
    kong = pay_kong(ledger, KongKind.CONCEALED, 2, ALL, options)
    checks = [
        SeatCheck(0, False, 2),
        SeatCheck(1, False, None),
        SeatCheck(2, True, None),
        SeatCheck(3, False, 1),
    ]
    settle_exhaustion(ledger, checks, [kong], options)
    return ledger


def test_e12_flower_pig() -> None:
    ledger = e12(SichuanOptions())
    assert lines(ledger)[3:] == [
        (2, 0, 16, "flower_pig"),
        (2, 1, 16, "flower_pig"),
        (2, 3, 16, "flower_pig"),
        (1, 0, 4, "not_ready"),
        (1, 3, 2, "not_ready"),
        (2, 0, 2, "kong_refund"),
        (2, 1, 2, "kong_refund"),
        (2, 3, 2, "kong_refund"),
    ]
    assert ledger.nets() == [20, 10, -48, 18]


def test_flower_pig_off_makes_the_pig_plainly_not_ready() -> None:
    ledger = e12(SichuanOptions(flower_pig=False))
    assert lines(ledger)[3:] == [
        (1, 0, 4, "not_ready"),
        (1, 3, 2, "not_ready"),
        (2, 0, 4, "not_ready"),
        (2, 3, 2, "not_ready"),
        (2, 0, 2, "kong_refund"),
        (2, 1, 2, "kong_refund"),
        (2, 3, 2, "kong_refund"),
    ]


def test_flower_pig_pays_the_cap_of_max_fan() -> None:
    ledger = e12(SichuanOptions(max_fan=6))
    assert lines(ledger)[3] == (2, 0, 64, "flower_pig")


def test_refund_goes_back_to_a_payer_who_has_since_won() -> None:
    options = SichuanOptions()
    ledger = Ledger()
    kong = pay_kong(ledger, KongKind.ADDED, 1, ALL, options)
    # Seat 0 won later and is out: it is not checked but still gets its refund.
    settle_exhaustion(
        ledger,
        [SeatCheck(1, False, None), SeatCheck(2, False, 1), SeatCheck(3, False, None)],
        [kong],
        options,
    )
    assert lines(ledger)[3:] == [
        (1, 2, 2, "not_ready"),
        (3, 2, 2, "not_ready"),
        (1, 0, 1, "kong_refund"),
        (1, 2, 1, "kong_refund"),
        (1, 3, 1, "kong_refund"),
    ]


def test_two_ready_seats_do_not_pay_each_other_nor_two_unready() -> None:
    ledger = Ledger()
    checks = [
        SeatCheck(0, False, 1),
        SeatCheck(1, False, 2),
        SeatCheck(2, False, None),
        SeatCheck(3, False, None),
    ]
    settle_exhaustion(ledger, checks, [], SichuanOptions())
    assert lines(ledger) == [
        (2, 0, 2, "not_ready"),
        (2, 1, 4, "not_ready"),
        (3, 0, 2, "not_ready"),
        (3, 1, 4, "not_ready"),
    ]


# -- E13 ------------------------------------------------------------------------------------


def test_e13_the_waits_and_their_values() -> None:
    options = SichuanOptions()
    hand = "234p44p567p88p999p"
    spec = parse_hand(hand)
    assert ready_waits(counts_of(spec.concealed), spec.melds, M) == [
        parse_tile("1p"),
        parse_tile("4p"),
        parse_tile("8p"),
    ]
    values = {w: fan_of(hand, w, DISCARD, options) for w in ("1p", "4p", "8p")}
    assert values == {"1p": 2, "4p": 3, "8p": 2}
    ledger = Ledger()
    pay_discard(ledger, 3, [Win(1, values["4p"])], options)
    assert lines(ledger) == [(3, 1, 8, "win_discard")]


# -- options that only settlement reads -------------------------------------------------------


def test_base_stake_scales_every_amount() -> None:
    options = SichuanOptions(base_stake=10)
    ledger = Ledger()
    pay_self_draw(ledger, Win(2, 3), ALL, options)
    pay_kong(ledger, KongKind.CONCEALED, 1, ALL, options)
    assert lines(ledger)[:3] == [(s, 2, 90, "win_self_draw") for s in (0, 1, 3)]
    assert lines(ledger)[3:] == [(s, 1, 20, "kong_concealed") for s in (0, 2, 3)]


def test_e10_add_base_survives_the_cap() -> None:
    options = SichuanOptions()
    fan = fan_of("1111333355779s", "9s", SELF, options)
    assert fan == 6
    ledger = Ledger()
    pay_self_draw(ledger, Win(0, fan), ALL, options)
    assert lines(ledger) == [(s, 0, 17, "win_self_draw") for s in (1, 2, 3)]
    assert ledger.nets() == [51, -17, -17, -17]


@pytest.mark.parametrize(("max_fan", "each"), [(4, 16), (6, 64)])
def test_e10_add_fan_cap(max_fan: int, each: int) -> None:
    options = SichuanOptions(self_draw_bonus="add_fan", max_fan=max_fan)
    fan = fan_of("1111333355779s", "9s", SELF, options)
    assert fan == 7
    ledger = Ledger()
    pay_self_draw(ledger, Win(0, fan), ALL, options)
    assert lines(ledger) == [(s, 0, each, "win_self_draw") for s in (1, 2, 3)]
    assert ledger.nets()[0] == 3 * each


def test_self_draw_after_a_win_only_active_seats_pay() -> None:
    ledger = Ledger()
    pay_self_draw(ledger, Win(2, 0), (0, 2, 3), SichuanOptions())
    assert lines(ledger) == [(0, 2, 2, "win_self_draw"), (3, 2, 2, "win_self_draw")]


# -- property: payments always sum to zero -------------------------------------------------


def random_hand_settlement(rng: random.Random) -> Ledger:
    options = SichuanOptions(
        base_stake=rng.randint(1, 1000),
        max_fan=rng.choice((3, 4, 5, 6)),
        side_pay=rng.random() < 0.5,
        self_draw_bonus=rng.choice(("add_base", "add_fan")),
        flower_pig=rng.random() < 0.5,
    )
    ledger = Ledger()
    active = [0, 1, 2, 3]
    held: list[KongMoney] = []
    while len(active) > 1 and rng.random() < 0.8:
        seat = rng.choice(active)
        others = [s for s in active if s != seat]
        event = rng.randrange(4)
        if event == 0:
            kind = rng.choice(list(KongKind))
            discarder = rng.choice(others) if kind is KongKind.EXPOSED else None
            held.append(pay_kong(ledger, kind, seat, active, options, discarder))
        elif event == 1:
            pay_self_draw(ledger, Win(seat, rng.randint(0, 9)), active, options)
            active.remove(seat)
        else:
            winners = rng.sample(others, rng.randint(1, len(others)))
            pay_discard(ledger, seat, [Win(w, rng.randint(0, 9)) for w in winners], options)
            mine = [k for k in held if k.konger == seat]
            if event == 3 and mine:
                pay_call_transfer(ledger, seat, winners, mine)
                held = [k for k in held if k.konger != seat]
            active = [s for s in active if s not in winners]
    if len(active) >= 2:
        checks = []
        for seat in active:
            pig = rng.random() < 0.2
            checks.append(
                SeatCheck(seat, pig, None if pig or rng.random() < 0.4 else rng.randint(0, 9))
            )
        settle_exhaustion(ledger, checks, held, options)
    return ledger


def test_random_settlements_sum_to_zero() -> None:
    rng = random.Random(20240605)
    for _ in range(2000):
        ledger = random_hand_settlement(rng)
        assert sum(ledger.nets()) == 0
        assert all(isinstance(p, Payment) and p.amount > 0 for p in ledger.lines)
