"""Hand analysis checked against brute force and against the C++ reference (PyMahjongGB)."""

from __future__ import annotations

import random
from functools import cache

import MahjongGB
import pytest

from engine.analysis import (
    KNITTED_PATTERNS,
    BlockType,
    HandShape,
    ShapeRules,
    decompositions,
    is_complete,
    is_honors_and_knitted,
    is_seven_pairs,
    is_thirteen_orphans,
    knitted_straight_rests,
    regular_shanten,
    shanten,
    waits,
)
from engine.tiles import counts_of, parse_hand, parse_tiles, suit
from engine.wall import TILES_136
from tests.engine.mahjonggb import (
    complete_honors_and_knitted,
    complete_knitted_straight,
    complete_seven_pairs,
    complete_standard,
    complete_thirteen_orphans,
    gb_tile,
)

MCR_SHAPES = ShapeRules(seven_pairs=True, thirteen_orphans=True, knitted=True)
SICHUAN_SHAPES = ShapeRules(seven_pairs=True, max_suits=2)


@cache
def brute_decompositions(counts: tuple[int, ...], pair_used: bool = False) -> frozenset:
    """Every multiset of blocks, by plain recursion over the whole hand."""
    first = next((k for k in range(34) if counts[k]), None)
    if first is None:
        return frozenset({()}) if pair_used else frozenset()
    found = set()
    options: list[tuple[tuple[BlockType, int], tuple[int, ...], bool]] = []
    if counts[first] >= 3:
        options.append(((BlockType.PUNG, first), (first,) * 3, pair_used))
    if counts[first] >= 2 and not pair_used:
        options.append(((BlockType.PAIR, first), (first,) * 2, True))
    if first < 27 and first % 9 <= 6:
        options.append(((BlockType.CHOW, first), (first, first + 1, first + 2), pair_used))
    for block, tiles, used in options:
        rest = list(counts)
        if any(rest[k] < tiles.count(k) for k in tiles):
            continue
        for k in tiles:
            rest[k] -= 1
        for tail in brute_decompositions(tuple(rest), used):
            found.add(tuple(sorted((block, *tail))))
    return frozenset(found)


def brute_complete(counts: list[int], melds: int, rules: ShapeRules) -> bool:
    held = {suit(k) for k in range(34) if counts[k]}
    if rules.max_suits is not None and len(held - {3}) > rules.max_suits:
        return False
    if brute_decompositions(tuple(counts)):
        return True
    if melds == 0 and rules.seven_pairs and all(c in (0, 2, 4) for c in counts):
        return True
    if melds == 0 and rules.thirteen_orphans and is_thirteen_orphans(counts):
        return True
    if rules.knitted:
        if melds == 0 and all(c <= 1 for c in counts) and is_honors_and_knitted(counts):
            return True
        for pattern in KNITTED_PATTERNS:
            if all(counts[k] for k in pattern):
                rest = list(counts)
                for k in pattern:
                    rest[k] -= 1
                if brute_decompositions(tuple(rest)):
                    return True
    return False


def test_decomposition_example() -> None:
    counts = counts_of(parse_tiles("11122233344455m"))
    found = {tuple(sorted((b.type, b.kind) for b in d)) for d in decompositions(counts)}
    assert found == set(brute_decompositions(tuple(counts)))
    assert len(found) == 4  # pungs, and triple chows in three places
    for d in decompositions(counts):
        assert sorted(t for b in d for t in b.tiles) == parse_tiles("11122233344455m")


def test_nine_gates_waits_on_all_nine() -> None:
    counts = counts_of(parse_tiles("1112345678999m"))
    assert waits(counts) == list(range(9))
    assert shanten(counts) == 0


def test_waits_exclude_kinds_whose_four_copies_are_held() -> None:
    # 111m + a lone 1m + three sets: the only completion would be a fifth 1m.
    counts = counts_of(parse_hand("1111m234p567p789s").concealed)
    assert waits(counts) == []


def test_special_shapes() -> None:
    assert is_seven_pairs(counts_of(parse_tiles("1122m3344p5566s77z")))
    assert is_seven_pairs(counts_of(parse_tiles("1111m3344p5566s77z")))
    assert not is_seven_pairs(counts_of(parse_tiles("1111m3344p5566s77z")), four_as_two_pairs=False)
    assert is_thirteen_orphans(counts_of(parse_tiles("19m19p19s12345677z")))
    assert is_honors_and_knitted(counts_of(parse_tiles("147m258p3s1234567z")))
    assert knitted_straight_rests(counts_of(parse_tiles("147m258p369s11122z")))
    assert is_complete(counts_of(parse_tiles("147m258p369s11122z")), 0, MCR_SHAPES)
    assert not is_complete(counts_of(parse_tiles("147m258p369s11122z")), 0, SICHUAN_SHAPES)


def test_sichuan_void_and_two_suits() -> None:
    counts = counts_of(parse_tiles("123m456m789m11p23p"))
    assert waits(counts, 0, SICHUAN_SHAPES) == parse_tiles("14p")
    void_p = ShapeRules(seven_pairs=True, max_suits=2, void_suit=1)
    assert waits(counts, 0, void_p) == []
    three_suits = counts_of(parse_tiles("123m456p789s11m23m"))
    assert waits(three_suits, 0, SICHUAN_SHAPES) == []
    assert shanten(counts_of(parse_tiles("123m456m789m1134m")), 0, void_p) == 0
    # A void tile must go before the hand can be ready.
    assert shanten(counts_of(parse_tiles("123m456m789m11m2p")), 0, void_p) == 1


def _generated_complete(rng: random.Random) -> tuple[list[int], int]:
    shape = rng.randrange(6)
    if shape == 0:
        return complete_seven_pairs(rng), 0
    if shape == 1:
        return complete_thirteen_orphans(rng), 0
    if shape == 2:
        return complete_honors_and_knitted(rng, KNITTED_PATTERNS), 0
    if shape == 3:
        return complete_knitted_straight(rng, KNITTED_PATTERNS), 0
    melds = rng.randint(0, 4)
    concealed, _ = complete_standard(rng, melds)
    return concealed, melds


def test_every_generated_complete_hand_has_all_its_decompositions() -> None:
    rng = random.Random(2024)
    for _ in range(3000):
        melds = rng.randint(0, 3)
        concealed, _ = complete_standard(rng, melds)
        counts = counts_of(concealed)
        ours = {tuple(sorted((b.type, b.kind) for b in d)) for d in decompositions(counts)}
        assert ours == set(brute_decompositions(tuple(counts)))
        assert is_complete(counts, melds)


def test_waits_equal_brute_force_over_34_kinds() -> None:
    rng = random.Random(7)
    for _ in range(1500):
        tiles, melds = _generated_complete(rng)
        tiles.remove(rng.choice(tiles))
        counts = counts_of(tiles)
        for rules in (MCR_SHAPES, SICHUAN_SHAPES):
            expected = []
            for k in range(34):
                if counts[k] >= 4:
                    continue
                counts[k] += 1
                if brute_complete(counts, melds, rules):
                    expected.append(k)
                counts[k] -= 1
            assert waits(counts, melds, rules) == expected, tiles


def _near_hands(rng: random.Random, n: int):
    """Hands of 13 (or 13 - 3 x melds) tiles: random walls and near-complete shapes."""
    for i in range(n):
        if i % 3 == 0:
            wall = [k for k in range(34) for _ in range(4)]
            rng.shuffle(wall)
            yield wall[:13], []
            continue
        shape_tiles, melds = _generated_complete(rng)
        packs = []
        if melds:
            concealed, sets = complete_standard(rng, melds)
            shape_tiles = concealed
            packs = sets
        shape_tiles = list(shape_tiles)
        shape_tiles.remove(rng.choice(shape_tiles))
        for _ in range(rng.randint(0, 2)):
            shape_tiles[rng.randrange(len(shape_tiles))] = rng.randrange(34)
        all_tiles = shape_tiles + [k for s in packs for k in s]
        if max(counts_of(all_tiles)) > 4:
            continue
        yield shape_tiles, packs


def _gb_pack(tiles: list[int]) -> tuple[str, str, int]:
    if tiles[0] == tiles[1]:
        return ("PENG", gb_tile(tiles[0]), 1)
    return ("CHI", gb_tile(tiles[1]), 1)


@pytest.mark.parametrize("seed", range(4))
def test_shanten_agrees_with_pymahjonggb(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for tiles, packs in _near_hands(rng, 1500):
        ours = shanten(counts_of(tiles), len(packs), MCR_SHAPES)
        ref = MahjongGB.MahjongShanten(
            pack=tuple(_gb_pack(p) for p in packs), hand=tuple(gb_tile(k) for k in tiles)
        )
        assert ours == ref, (tiles, packs)
        checked += 1
    assert checked > 1000


@pytest.mark.parametrize("seed", range(2))
def test_regular_shanten_agrees_with_pymahjonggb(seed: int) -> None:
    rng = random.Random(100 + seed)
    checked = 0
    for tiles, packs in _near_hands(rng, 1500):
        ref, _ = MahjongGB.RegularShanten(hand=tuple(gb_tile(k) for k in tiles))
        assert regular_shanten(counts_of(tiles), len(packs)) == ref, (tiles, packs)
        checked += 1
    assert checked > 1000


@pytest.mark.parametrize(
    "rules",
    [
        ShapeRules(seven_pairs=False),
        ShapeRules(seven_pairs=True),
        ShapeRules(seven_pairs=True, four_as_two_pairs=False),
        ShapeRules(seven_pairs=True, thirteen_orphans=True),
        ShapeRules(seven_pairs=True, void_suit=2, max_suits=2),
        ShapeRules(seven_pairs=True, thirteen_orphans=True, void_suit=0),
        MCR_SHAPES,
    ],
    ids=["standard", "pairs", "pairs_no_fours", "orphans", "void", "orphans_void", "mcr"],
)
def test_hand_shape_equals_shanten_after_every_change(rules: ShapeRules) -> None:
    rng = random.Random(5)
    for _ in range(60 if rules.knitted else 300):
        size = rng.choice([14, 13, 11, 10, 8, 7])
        melds = (14 - size) // 3
        counts = counts_of(rng.sample(TILES_136, size))
        shape = HandShape(counts, melds, rules)
        assert shape.value == shanten(counts, melds, rules)
        for delta in (1, -1):
            changed = shape.each_change(delta)
            possible = [k for k in range(34) if 0 <= counts[k] + delta <= 4]
            assert sorted(changed) == possible
            for kind, value in changed.items():
                counts[kind] += delta
                assert value == shanten(counts, melds, rules), (kind, delta)
                counts[kind] -= delta
