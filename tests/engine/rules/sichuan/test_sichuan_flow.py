"""The pure rules of a hand's course (flow) and of readiness (hand)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import overload

import pytest

from engine.analysis import is_complete
from engine.rules.sichuan.flow import (
    DERANGEMENTS,
    DIRECTION_MAPS,
    discard_refusal,
    draw_exchange_map,
    exchange_map_error,
    exchange_refusal,
    holds_void,
    next_dealer,
    win_refusal,
)
from engine.rules.sichuan.hand import ready_shanten, ready_waits, shape_rules
from engine.tiles import counts_of, parse_tile, parse_tiles, suit
from engine.wall import TILES_108


def test_the_nine_derangements() -> None:
    assert len(DERANGEMENTS) == 9
    assert all(all(d[s] != s for s in range(4)) for d in DERANGEMENTS)
    assert set(DIRECTION_MAPS.values()) <= set(DERANGEMENTS)


def test_random_map_is_uniform_over_the_derangements() -> None:
    rng = random.Random(5)
    seen = Counter(tuple(draw_exchange_map(rng)) for _ in range(9000))
    assert set(seen) == set(DERANGEMENTS)
    assert all(800 < n < 1200 for n in seen.values())


@pytest.mark.parametrize(
    ("value", "error"),
    [
        ([2, 3, 1, 0], None),
        ([0, 3, 1, 2], "exchange_map sends seat 0's pile to itself"),
        ([1, 0, 2, 3], "exchange_map sends seat 2's pile to itself"),
        ([1, 1, 3, 0], "exchange_map must send the four piles to four different seats"),
        ([1, 2, 3], "exchange_map must be a list of four seats, e.g. [1, 2, 3, 0]"),
        ("1230", "exchange_map must be a list of four seats, e.g. [1, 2, 3, 0]"),
    ],
)
def test_exchange_map_validation(value: object, error: str | None) -> None:
    assert exchange_map_error(value) == error


def test_exchange_pile_checks() -> None:
    held = counts_of(parse_tiles("4567m113p228899s"))
    assert exchange_refusal(1, held, parse_tiles("113p")) is None
    mixed = exchange_refusal(1, held, parse_tiles("13p2s"))
    assert mixed is not None and mixed.reason == "exchange_mixed_suits"
    assert exchange_refusal(1, held, parse_tiles("111p")) is not None
    assert exchange_refusal(1, held, parse_tiles("4567m")) is not None


def test_void_discard_and_win_checks() -> None:
    held = counts_of(parse_tiles("337p123m456m789s5s5s"))
    assert discard_refusal(1, held, 1, parse_tile("5s")) is not None
    assert discard_refusal(1, held, 1, parse_tile("3p")) is None
    assert win_refusal(1, held, 1) is not None
    clean = counts_of(parse_tiles("123m456m789s55s"))
    assert discard_refusal(1, clean, 1, parse_tile("5s")) is None
    assert win_refusal(1, clean, 1) is None


class VoidSuitOnly(Sequence[int]):
    """34 counts that fail the test when any count outside the void suit is read."""

    def __init__(self, counts: list[int], void: int) -> None:
        self.counts = counts
        self.void_kinds = range(void * 9, void * 9 + 9)

    def __len__(self) -> int:
        return len(self.counts)

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> list[int]: ...

    def __getitem__(self, index: int | slice) -> int | list[int]:
        read = range(len(self.counts))[index]
        assert all(k in self.void_kinds for k in (read if isinstance(read, range) else [read]))
        return self.counts[index]


@pytest.mark.parametrize("void", range(3))
def test_the_void_checks_read_only_the_void_suits_nine_counts(void: int) -> None:
    """They run on every legal-discard check, so they must not scan all 34 kinds."""
    counts = counts_of(parse_tiles("123m456p789s1z"))
    held = VoidSuitOnly(counts, void)
    assert holds_void(held, void)
    assert discard_refusal(1, held, void, parse_tile("1z")) is not None
    assert win_refusal(1, held, void) is not None
    counts[void * 9 : void * 9 + 9] = [0] * 9
    assert not holds_void(held, void)


@pytest.mark.parametrize(
    ("event", "dealer"),
    [
        (None, 0),
        ((None, (2,)), 2),
        ((1, (0,)), 0),
        ((3, (0, 1)), 3),
        ((0, (1, 2)), 0),
    ],
)
def test_next_dealer(event: tuple[int | None, tuple[int, ...]] | None, dealer: int) -> None:
    assert next_dealer(event) == dealer


def test_readiness_agrees_with_the_winning_shapes() -> None:
    """For random hands: shanten 0 exactly when some tile would complete the hand under the
    void suit (four held copies aside), waits are exactly those tiles, and a hand holding
    void tiles is never ready."""
    rng = random.Random(11)
    tiles = list(TILES_108)
    for _ in range(400):
        # Mostly two suits, so that ready hands come up often.
        keep = rng.sample(range(3), 2)
        pool = [k for k in tiles if suit(k) in keep or rng.random() < 0.05]
        hand = counts_of(rng.sample(pool, 13))
        void = rng.choice([s for s in range(3) if s not in keep] + keep[:1])
        completes = []
        for kind in range(27):
            trial = list(hand)
            trial[kind] += 1
            if trial[kind] <= 4 and is_complete(trial, 0, shape_rules(void)):
                completes.append(kind)
        waits = ready_waits(hand, [], void)
        assert waits == [k for k in completes if hand[k] < 4]
        void_held = sum(n for k, n in enumerate(hand) if suit(k) == void)
        shanten = ready_shanten(hand, [], void)
        assert shanten >= void_held
        if void_held == 0:
            assert (shanten == 0) == bool(completes)
        else:
            assert not completes
