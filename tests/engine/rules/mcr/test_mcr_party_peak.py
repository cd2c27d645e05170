"""巅峰时刻 deals (mcr.md §4.5.5): always legal, each template a winning hand, and far
closer to a win than a normal deal."""

from __future__ import annotations

import random

import pytest

from engine.analysis import is_complete, shanten
from engine.rules.base import WinFacts
from engine.rules.mcr.calculator import score_win
from engine.rules.mcr.fans import BY_ID
from engine.rules.mcr.options import McrOptions
from engine.rules.mcr.peak import (
    FALLBACK,
    TEMPLATES,
    build_peak_deal,
    shanten_figures,
    template_hand,
)
from engine.rules.mcr.scorer import MCR_SHAPES
from engine.tiles import NUM_KINDS, HandSpec, counts_of

DEALS = 1000


def test_a_thousand_seeded_deals_are_legal() -> None:
    for seed in range(DEALS):
        deal, names = build_peak_deal(random.Random(seed), 3)
        assert [len(h) for h in deal.hands] == [14, 13, 13, 13]
        assert len(deal.wall) == 136 - 53
        assert counts_of([k for h in deal.hands for k in h] + list(deal.wall)) == [4] * NUM_KINDS
        assert len(names) == 4 and set(names) <= {*TEMPLATES, FALLBACK}


def test_the_same_seed_builds_the_same_deal() -> None:
    assert build_peak_deal(random.Random(7), 3) == build_peak_deal(random.Random(7), 3)


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_each_template_builds_a_winning_hand_worth_its_fan(name: str) -> None:
    """From a full pool every template fits; its 14 tiles win, scoring at least the fan it
    is named after (or a bigger one that excludes it)."""
    rng = random.Random(name)
    for _ in range(20):
        tiles = _built(name, rng)
        assert len(tiles) == 14 and max(counts_of(tiles)) <= 4
        assert is_complete(counts_of(tiles), 0, MCR_SHAPES)
        facts = WinFacts(HandSpec(tuple(tiles[:-1]), ()), tiles[-1], self_drawn=True)
        assert score_win(facts, McrOptions()).total >= BY_ID[name].value, (name, tiles)


def _built(name: str, rng: random.Random) -> list[int]:
    """A hand of template ``name``: templates are drawn at random, so draw until it comes."""
    while True:
        found, tiles = template_hand([4] * NUM_KINDS, rng)
        if found == name:
            return tiles


def test_without_noise_every_seat_holds_its_template() -> None:
    for seed in range(50):
        deal, names = build_peak_deal(random.Random(seed), 0)
        for seat, hand in enumerate(deal.hands):
            if names[seat] != FALLBACK:
                assert shanten(counts_of(hand), 0, MCR_SHAPES) == (-1 if seat == 0 else 0)


def test_an_empty_pool_falls_back_to_random_tiles() -> None:
    pool = [0] * NUM_KINDS
    for k in range(14):
        pool[k] = 1  # 1m-9m and 1p-5p, one each: no template fits
    name, tiles = template_hand(pool, random.Random(1))
    assert name == FALLBACK and sorted(tiles) == list(range(14))


def test_peak_hands_are_far_closer_to_a_win_than_normal_ones() -> None:
    peak, normal = shanten_figures(DEALS)
    assert peak < 0.6 * normal
    assert normal > 3
