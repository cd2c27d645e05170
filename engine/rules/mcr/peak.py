"""巅峰时刻 (mcr.md §4.5.5): a deal built from high-fan templates.

Each seat in turn gets a complete 14-tile concealed hand of a template drawn uniformly
from :data:`TEMPLATES`, built from the tiles still in the pool, so no kind is ever used
more than four times. Then ``noise`` tiles of each hand go back to the pool and every seat
takes as many from the shuffled pool; what is left is the wall.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.analysis import KNITTED_PATTERNS, shanten
from engine.rules.mcr.scorer import MCR_SHAPES
from engine.tiles import (
    DRAGONS,
    HONORS,
    NUM_KINDS,
    TERMINALS_AND_HONORS,
    WINDS,
    counts_of,
    kinds_of,
)
from engine.wall import TILES_136, Deal, deal, shuffled

Group = tuple[int, ...]

FALLBACK = "random"  # the name of a hand of random tiles, when no template fits
TRIES = 10  # templates tried for one seat before falling back to random tiles
HAND_SIZE = 14

_SUITS = 3
_GREEN = (19, 20, 21, 23, 25, 32)  # 2s 3s 4s 6s 8s 发


def _chow(kind: int) -> Group:
    return (kind, kind + 1, kind + 2)


def _pung(kind: int) -> Group:
    return (kind, kind, kind)


def _pair(kind: int) -> Group:
    return (kind, kind)


def _suit_kinds(suit: int) -> range:
    return range(suit * 9, suit * 9 + 9)


def _chow_starts(suit: int) -> range:
    return range(suit * 9, suit * 9 + 7)


_ALL_SETS: tuple[Group, ...] = (
    *(_chow(k) for s in range(_SUITS) for k in _chow_starts(s)),
    *(_pung(k) for k in range(NUM_KINDS)),
)
_ALL_PAIRS: tuple[Group, ...] = tuple(_pair(k) for k in range(NUM_KINDS))


def _suit_sets(suit: int) -> tuple[Group, ...]:
    return (*(_chow(k) for k in _chow_starts(suit)), *(_pung(k) for k in _suit_kinds(suit)))


class _Build:
    """One template hand being built from what the pool still holds."""

    def __init__(self, pool: Sequence[int], rng: random.Random) -> None:
        self.left = list(pool)
        self.rng = rng
        self.tiles: list[int] = []

    def has(self, group: Group) -> bool:
        return all(self.left[k] >= group.count(k) for k in set(group))

    def take(self, group: Group) -> bool:
        if not self.has(group):
            return False
        for k in group:
            self.left[k] -= 1
        self.tiles.extend(group)
        return True

    def take_one_of(self, groups: Sequence[Group]) -> bool:
        """Take one of ``groups``, uniformly among those still available."""
        fits = [g for g in groups if self.has(g)]
        return bool(fits) and self.take(self.rng.choice(fits))

    def take_sets_and_pair(self, sets: int, set_groups: Sequence[Group] = _ALL_SETS) -> bool:
        return all(self.take_one_of(set_groups) for _ in range(sets)) and self.take_one_of(
            _ALL_PAIRS
        )


def _full_flush(b: _Build) -> bool:
    suit = b.rng.randrange(_SUITS)
    sets = _suit_sets(suit)
    pairs = tuple(_pair(k) for k in _suit_kinds(suit))
    return all(b.take_one_of(sets) for _ in range(4)) and b.take_one_of(pairs)


def _big_three_dragons(b: _Build) -> bool:
    return all(b.take(_pung(k)) for k in DRAGONS) and b.take_sets_and_pair(1)


def _four_concealed_pungs(b: _Build) -> bool:
    pungs = tuple(_pung(k) for k in range(NUM_KINDS))
    return b.take_sets_and_pair(4, pungs)


def _seven_pairs(b: _Build) -> bool:
    kinds = [k for k in range(NUM_KINDS) if b.left[k] >= 2]
    if len(kinds) < 7:
        return False
    return all(b.take(_pair(k)) for k in b.rng.sample(kinds, 7))


def _thirteen_orphans(b: _Build) -> bool:
    orphans = tuple(TERMINALS_AND_HONORS)
    return b.take(orphans) and b.take_one_of(tuple((k,) for k in orphans))


def _pure_straight(b: _Build) -> bool:
    straights = [sum((_chow(s * 9 + r) for r in (0, 3, 6)), ()) for s in range(_SUITS)]
    return b.take_one_of(straights) and b.take_sets_and_pair(1)


def _pure_triple_chow(b: _Build) -> bool:
    triples = [_chow(k) * 3 for s in range(_SUITS) for k in _chow_starts(s)]
    return b.take_one_of(triples) and b.take_sets_and_pair(1)


def _little_four_winds(b: _Build) -> bool:
    shapes = [sum((_pung(w) for w in WINDS if w != paired), ()) + _pair(paired) for paired in WINDS]
    return b.take_one_of(shapes) and b.take_one_of(_ALL_SETS)


def _all_honors(b: _Build) -> bool:
    pungs = tuple(_pung(k) for k in HONORS)
    pairs = tuple(_pair(k) for k in HONORS)
    return all(b.take_one_of(pungs) for _ in range(4)) and b.take_one_of(pairs)


def _greater_honors_and_knitted(b: _Build) -> bool:
    if not b.take(tuple(HONORS)):
        return False
    patterns = [p for p in KNITTED_PATTERNS if sum(1 for k in p if b.left[k]) >= 7]
    if not patterns:
        return False
    pattern = b.rng.choice(patterns)
    return b.take(tuple(b.rng.sample([k for k in pattern if b.left[k]], 7)))


def _all_green(b: _Build) -> bool:
    sets = (_chow(19), *(_pung(k) for k in _GREEN))
    pairs = tuple(_pair(k) for k in _GREEN)
    return all(b.take_one_of(sets) for _ in range(4)) and b.take_one_of(pairs)


def _nine_gates(b: _Build) -> bool:
    gates = [(s * 9,) * 3 + tuple(range(s * 9 + 1, s * 9 + 8)) + (s * 9 + 8,) * 3 for s in range(3)]
    fits = [g for g in gates if b.has(g)]
    if not fits:
        return False
    gate = b.rng.choice(fits)
    b.take(gate)
    return b.take_one_of(tuple((k,) for k in _suit_kinds(gate[0] // 9)))


# Template names are the ids of the fans they aim at (mcr.md §2.1).
TEMPLATES: dict[str, Callable[[_Build], bool]] = {
    "full_flush": _full_flush,
    "big_three_dragons": _big_three_dragons,
    "four_concealed_pungs": _four_concealed_pungs,
    "seven_pairs": _seven_pairs,
    "thirteen_orphans": _thirteen_orphans,
    "pure_straight": _pure_straight,
    "pure_triple_chow": _pure_triple_chow,
    "little_four_winds": _little_four_winds,
    "all_honors": _all_honors,
    "greater_honors_and_knitted_tiles": _greater_honors_and_knitted,
    "all_green": _all_green,
    "nine_gates": _nine_gates,
}
_NAMES = tuple(TEMPLATES)


def template_hand(pool: Sequence[int], rng: random.Random) -> tuple[str, list[int]]:
    """A template's name and its 14 tiles from ``pool`` (34 counts, left unchanged):
    up to :data:`TRIES` templates, then 14 random tiles of the pool."""
    for _ in range(TRIES):
        name = rng.choice(_NAMES)
        build = _Build(pool, rng)
        if TEMPLATES[name](build):
            return name, build.tiles
    return FALLBACK, rng.sample(kinds_of(pool), HAND_SIZE)


def build_peak_deal(rng: random.Random, noise: int) -> tuple[Deal, tuple[str, ...]]:
    """The 巅峰时刻 deal (dealer 14 tiles, the others 13, the wall) and each seat's
    template, consuming ``rng`` in the order of §4.5.5."""
    pool = [4] * NUM_KINDS
    built: list[list[int]] = []
    names = []
    for _seat in range(4):
        name, tiles = template_hand(pool, rng)
        for k in tiles:
            pool[k] -= 1
        built.append(tiles)
        names.append(name)
    kept = []
    for seat, tiles in enumerate(built):
        rng.shuffle(tiles)
        keep = (HAND_SIZE if seat == 0 else HAND_SIZE - 1) - noise
        kept.append(tiles[:keep])
        for k in tiles[keep:]:
            pool[k] += 1
    rest = kinds_of(pool)
    rng.shuffle(rest)
    for seat in range(4):
        kept[seat].extend(rest[seat * noise : (seat + 1) * noise])
    wall = tuple(rest[4 * noise :])
    return Deal(tuple(tuple(h) for h in kept), wall), tuple(names)


def dealt_shanten(hands: Sequence[Sequence[int]]) -> list[int]:
    """The shanten of each dealt hand (tiles as kinds): the dealer's counts with its 14
    tiles (−1 when complete)."""
    return [shanten(counts_of(hand), 0, MCR_SHAPES) for hand in hands]


def shanten_figures(count: int, seed: int = 0, noise: int = 3) -> tuple[float, float]:
    """(average shanten of the hands of ``count`` seeded 巅峰时刻 deals, the same for as
    many normal deals): how much closer to a win the templates deal."""
    peak: list[int] = []
    normal: list[int] = []
    for n in range(seed, seed + count):
        peak += dealt_shanten(build_peak_deal(random.Random(n), noise)[0].hands)
        normal += dealt_shanten(deal(shuffled(TILES_136, random.Random(n))).hands)
    return sum(peak) / len(peak), sum(normal) / len(normal)
