"""Properties of random settlements: zero-sum nets, stakes, and the horse model."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ledger import Ledger
from engine.rules.guangdong.settle import DEALER, Kong, KongKind, Win, WinHow, horse_seat, settle
from engine.tiles import NUM_KINDS

SEATS = range(4)
sizes = st.sampled_from([1, 2])


@st.composite
def discard_wins(draw: st.DrawFn) -> list[Win]:
    source = draw(st.sampled_from(SEATS))
    how = draw(st.sampled_from([WinHow.DISCARD, WinHow.ROB_KONG]))
    others = [s for s in SEATS if s != source]
    winners = draw(st.lists(st.sampled_from(others), min_size=1, max_size=3, unique=True))
    return [Win(w, how, draw(sizes), from_seat=source) for w in winners]


@st.composite
def drawn_wins(draw: st.DrawFn) -> list[Win]:
    seat = draw(st.sampled_from(SEATS))
    how = draw(st.sampled_from([WinHow.SELF_DRAW, WinHow.KONG_BLOOM]))
    source = None
    if how is WinHow.KONG_BLOOM:
        source = draw(st.sampled_from([None, *(s for s in SEATS if s != seat)]))
    return [Win(seat, how, draw(sizes), from_seat=source)]


@st.composite
def kongs(draw: st.DrawFn) -> Kong:
    seat = draw(st.sampled_from(SEATS))
    kind = draw(st.sampled_from(list(KongKind)))
    source = None
    if kind is KongKind.EXPOSED:
        source = draw(st.sampled_from([s for s in SEATS if s != seat]))
    return Kong(seat, kind, source)


wins_strategy: st.SearchStrategy[list[Win]] = st.one_of(st.just([]), discard_wins(), drawn_wins())
kongs_strategy = st.lists(kongs(), max_size=4)
horses_strategy = st.lists(st.integers(0, NUM_KINDS - 1), max_size=4)
stakes = st.integers(1, 1000)


@settings(max_examples=300, deadline=None)
@given(wins_strategy, kongs_strategy, horses_strategy, stakes)
def test_payments_sum_to_zero(
    wins: list[Win], kongs: list[Kong], horses: list[int], stake: int
) -> None:
    ledger = settle(wins, kongs, horses, stake)
    assert sum(ledger.nets()) == 0
    for line in ledger.lines:
        assert line.payer != line.payee
        assert line.amount > 0
        assert line.amount % stake == 0
    if not wins:
        assert ledger.lines == []


def _base_net_with_dealer(ledger: Ledger, seat: int) -> int:
    """What ``seat`` won from the dealer in the base lines."""
    return sum(
        (line.amount if line.payee == seat else -line.amount)
        for line in ledger.lines
        if {line.payer, line.payee} == {seat, DEALER}
    )


@settings(max_examples=300, deadline=None)
@given(st.one_of(discard_wins(), drawn_wins()), kongs_strategy, horses_strategy, stakes)
def test_each_horse_gives_the_dealer_its_seats_result(
    wins: list[Win], kongs: list[Kong], horses: list[int], stake: int
) -> None:
    base = settle(wins, kongs, [], stake)
    total = list(base.nets())
    for horse in horses:
        target = horse_seat(horse)
        alone = settle(wins, kongs, [horse], stake).nets()
        delta = [a - b for a, b in zip(alone, base.nets(), strict=True)]
        expected = base.nets()[target]
        if target != DEALER:
            expected -= _base_net_with_dealer(base, target)
        assert delta[DEALER] == expected
        assert delta[target] == (0 if target != DEALER else expected)
        total = [t + d for t, d in zip(total, delta, strict=True)]
    # Horses never copy horse lines, so their effects simply add up.
    assert settle(wins, kongs, horses, stake).nets() == total


@settings(max_examples=100, deadline=None)
@given(wins_strategy, kongs_strategy, horses_strategy)
def test_base_stake_scales_every_line(
    wins: list[Win], kongs: list[Kong], horses: list[int]
) -> None:
    unit = settle(wins, kongs, horses, 1)
    scaled = settle(wins, kongs, horses, 9)
    assert [line.amount * 9 for line in unit.lines] == [line.amount for line in scaled.lines]
