"""Dealer continuation and the session counters as pure functions (guangdong.md §5, E15)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.rules.guangdong.dealer import (
    DealerCounters,
    fresh_counters,
    next_counters,
    next_dealer_seat,
)
from engine.rules.guangdong.settle import Win, WinHow
from engine.wall import first_dealer_chair
from tests.engine.rules.guangdong.guangdong_scripts import table

DEFAULTS = table()
A, B, C, D = range(4)


def self_draw(seat: int) -> list[Win]:
    return [Win(seat, WinHow.SELF_DRAW, 1)]


def after(chair: int, counters: DealerCounters, wins: Sequence[Win]) -> tuple[int, DealerCounters]:
    """The next hand's dealer chair and counters, as the session computes them."""
    return (chair + next_dealer_seat(wins)) % 4, next_counters(wins, counters, DEFAULTS)


def test_e15_dealer_and_horse_count_over_a_session() -> None:
    hand = (first_dealer_chair((3, 5)), fresh_counters(DEFAULTS))
    assert hand == (D, DealerCounters(horse_count=1, dealer_streak=1))
    outcomes = [
        self_draw(0),
        [Win(0, WinHow.DISCARD, 1, from_seat=2)],
        [Win(0, WinHow.ROB_KONG, 1, from_seat=1)],
        [],
        [Win(0, WinHow.DISCARD, 1, from_seat=1), Win(3, WinHow.DISCARD, 2, from_seat=1)],
        [Win(0, WinHow.KONG_BLOOM, 1, from_seat=2)],
    ]
    seen = []
    for wins in outcomes:
        hand = after(*hand, wins)
        seen.append((hand[0], hand[1].horse_count, hand[1].dealer_streak))
    assert seen == [(D, 3, 2), (D, 4, 3), (D, 4, 4), (A, 1, 1), (D, 1, 1), (D, 3, 2)]


def test_horse_count_grows_1_3_4_4_then_resets() -> None:
    counters = fresh_counters(DEFAULTS)
    counts = [counters.horse_count]
    for _ in range(3):
        counters = next_counters(self_draw(0), counters, DEFAULTS)
        counts.append(counters.horse_count)
    assert counts == [1, 3, 4, 4]
    assert counters.dealer_streak == 4
    assert next_dealer_seat(self_draw(2)) == 2
    assert next_counters(self_draw(2), counters, DEFAULTS) == DealerCounters(1, 1)


def test_discard_continuations_grow_by_one() -> None:
    counters = fresh_counters(DEFAULTS)
    seen = []
    for _ in range(4):
        counters = next_counters([Win(0, WinHow.DISCARD, 1, from_seat=3)], counters, DEFAULTS)
        seen.append(counters.horse_count)
    assert seen == [2, 3, 4, 4]


def test_kong_bloom_and_heavenly_count_as_self_drawn() -> None:
    start = DealerCounters(1, 1)
    for win in (Win(0, WinHow.KONG_BLOOM, 1), Win(0, WinHow.KONG_BLOOM, 2, from_seat=3)):
        assert next_counters([win], start, DEFAULTS) == DealerCounters(3, 2)


def test_draw_passes_the_deal_to_the_next_seat() -> None:
    assert next_dealer_seat([]) == 1
    assert after(D, DealerCounters(4, 3), []) == (A, DealerCounters(1, 1))


def test_double_win_deal_goes_to_the_first_winner_from_the_discarder() -> None:
    # Seat 2 discards; seats 1 and 0 (the dealer) win: seats 3, 0, 1 is the order.
    wins = [Win(1, WinHow.DISCARD, 2, from_seat=2), Win(0, WinHow.DISCARD, 1, from_seat=2)]
    assert after(B, DealerCounters(2, 2), wins) == (B, DealerCounters(3, 3))
    # Seat 0 discards; seats 3 and 2 win: seat 2 comes first.
    wins = [Win(3, WinHow.DISCARD, 1, from_seat=0), Win(2, WinHow.DISCARD, 1, from_seat=0)]
    assert after(B, DealerCounters(2, 2), wins) == (D, DealerCounters(1, 1))
    # The robbed player's 下家 counts first too.
    wins = [Win(0, WinHow.ROB_KONG, 1, from_seat=3), Win(2, WinHow.ROB_KONG, 1, from_seat=3)]
    assert after(B, DealerCounters(2, 2), wins) == (B, DealerCounters(3, 3))
