"""The waits query for MCR (no wildcards): shanten over every MCR shape, and the waits."""

from __future__ import annotations

import random

import MahjongGB

from engine.rules.base import WinFacts
from engine.rules.mcr.calculator import CALCULATOR
from engine.rules.mcr.options import McrOptions
from engine.rules.mcr.samples import REFERENCE_TILES, random_win, reference_arguments
from engine.tiles import HandSpec, counts_of, parse_hand, parse_tiles

SHAPES = (
    MahjongGB.RegularShanten,
    MahjongGB.SevenPairsShanten,
    MahjongGB.ThirteenOrphansShanten,
    MahjongGB.HonorsAndKnittedTilesShanten,
    MahjongGB.KnittedStraightShanten,
)


def reference_waits(hand: HandSpec) -> tuple[int, list[int]]:
    """PyMahjongGB's shanten and, when ready, the tiles its shapes are ready for (kinds all
    four of which the hand holds left out, as the calculator contract asks)."""
    packs = reference_arguments(WinFacts(hand=hand, win_tile=0))["pack"]
    standing = tuple(REFERENCE_TILES[k] for k in hand.concealed)
    shanten = MahjongGB.MahjongShanten(pack=packs, hand=standing)
    if shanten != 0:
        return shanten, []
    found: set[int] = set()
    for shape in SHAPES:
        try:
            ready, useful = shape(hand=standing)
        except TypeError:  # a special shape needs more concealed tiles than the melds leave
            continue
        if ready == 0:
            found.update(REFERENCE_TILES.index(name) for name in useful)
    held = counts_of(hand.all_tiles())
    return 0, sorted(k for k in found if held[k] < 4)


def test_ready_and_nearly_ready_hands_agree_with_the_reference() -> None:
    rng = random.Random(11)
    for _ in range(3000):
        case = random_win(rng)
        tiles = [*case.hand.concealed, case.win_tile]
        tiles.pop(rng.randrange(len(tiles)))
        if rng.random() < 0.3:
            tiles[rng.randrange(len(tiles))] = rng.randrange(34)
        hand = HandSpec(tuple(tiles), case.hand.melds)
        if max(counts_of(hand.all_tiles())) > 4:
            continue
        assert CALCULATOR.waits(hand, None, McrOptions()) == reference_waits(hand), hand.notation()


def test_far_hands_have_no_waits() -> None:
    hand = parse_hand("159m159p159sESWN")
    shanten, waits = CALCULATOR.waits(hand, None, McrOptions())
    assert (shanten, waits) == reference_waits(hand)
    assert shanten > 0 and waits == []


def test_four_of_a_kind_counts_as_two_pairs_of_seven() -> None:
    hand = parse_hand("1111m22p33p44s55s6s")
    assert CALCULATOR.waits(hand, None, McrOptions()) == (0, parse_tiles("6s"))


def test_knitted_shapes_are_waited_on() -> None:
    hand = parse_hand("147m258p36sESWNC")
    shanten, waits = CALCULATOR.waits(hand, None, McrOptions())
    assert (shanten, waits) == reference_waits(hand)
    assert parse_tiles("9s") == waits[:1]
