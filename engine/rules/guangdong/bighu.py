"""The big-hu kinds of 广东推倒胡 (guangdong.md §2.2) as data, and their detection.

A win is big when at least one enabled kind applies; kinds never stack. A kind applies
when at least one valid reading of the hand satisfies it (``111222333m`` may be three
chows or three pungs), so every kind is a test on one :class:`Reading`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from engine.analysis import (
    BlockType,
    ShapeRules,
    decompositions,
    is_seven_pairs,
    is_thirteen_orphans,
)
from engine.tiles import DRAGONS, HONOR, NUM_KINDS, WINDS, Meld, MeldType, suit

# The three winning shapes of §2.1; four identical tiles may stand as two of seven pairs.
SHAPES = ShapeRules(seven_pairs=True, four_as_two_pairs=True, thirteen_orphans=True)


class Shape(enum.Enum):
    STANDARD = "standard"
    SEVEN_PAIRS = "seven_pairs"
    THIRTEEN_ORPHANS = "thirteen_orphans"


@dataclass(frozen=True, slots=True)
class WinHand:
    """Everything a big-hu kind looks at.

    ``counts`` are the concealed tiles including the winning tile. ``self_drawn`` is true
    when the winning tile was drawn (自摸, 杠上开花, 天胡) and false on a discard or a robbed
    kong. ``heavenly`` and ``earthly`` are facts of the course of the hand, which only the
    round engine knows.
    """

    counts: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: int
    self_drawn: bool
    heavenly: bool = False
    earthly: bool = False

    def tile_counts(self) -> list[int]:
        """Every tile of the hand: concealed, winning and melded."""
        out = list(self.counts)
        for meld in self.melds:
            for kind in meld.tiles:
                out[kind] += 1
        return out


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a winning hand.

    ``triplets`` are the kinds of every pung and kong, concealed or melded; ``chows`` counts
    chows held in the hand (chow melds do not exist here); ``pair`` is the standard
    shape's pair.
    """

    shape: Shape
    triplets: tuple[int, ...] = ()
    chows: int = 0
    pair: int | None = None


def readings(hand: WinHand) -> list[Reading]:
    """Every reading of the hand under the three shapes; empty when it does not win."""
    if sum(hand.counts) + 3 * len(hand.melds) != 14:
        return []
    melded = tuple(m.kind for m in hand.melds if m.type is not MeldType.CHOW)
    out: list[Reading] = []
    for blocks in decompositions(hand.counts):
        pair = next(b.kind for b in blocks if b.type is BlockType.PAIR)
        pungs = tuple(b.kind for b in blocks if b.type is BlockType.PUNG)
        chows = sum(1 for b in blocks if b.type is BlockType.CHOW)
        out.append(Reading(Shape.STANDARD, melded + pungs, chows, pair))
    if not hand.melds:
        if is_seven_pairs(hand.counts, SHAPES.four_as_two_pairs):
            out.append(Reading(Shape.SEVEN_PAIRS))
        if is_thirteen_orphans(hand.counts):
            out.append(Reading(Shape.THIRTEEN_ORPHANS))
    return out


def _suits(hand: WinHand) -> set[int]:
    counts = hand.tile_counts()
    return {suit(k) for k in range(NUM_KINDS) if counts[k]}


def _full_flush(hand: WinHand, reading: Reading) -> bool:
    held = _suits(hand)
    return reading.shape is not Shape.THIRTEEN_ORPHANS and len(held) == 1 and HONOR not in held


def _all_honors(hand: WinHand, reading: Reading) -> bool:
    return reading.shape is not Shape.THIRTEEN_ORPHANS and _suits(hand) == {HONOR}


def _half_flush(hand: WinHand, reading: Reading) -> bool:
    held = _suits(hand)
    return reading.shape is not Shape.THIRTEEN_ORPHANS and len(held) == 2 and HONOR in held


def _four_concealed_pungs(hand: WinHand, reading: Reading) -> bool:
    if reading.shape is not Shape.STANDARD or reading.chows:
        return False
    if any(m.type is not MeldType.CONCEALED_KONG for m in hand.melds):
        return False
    # Won on another player's tile, the pungs count as concealed only on a pair wait.
    return hand.self_drawn or reading.pair == hand.win_tile


def _four_kongs(hand: WinHand, reading: Reading) -> bool:
    return reading.shape is Shape.STANDARD and sum(1 for m in hand.melds if m.is_kong) == 4


def _big_three_dragons(hand: WinHand, reading: Reading) -> bool:
    return all(k in reading.triplets for k in DRAGONS)


def _little_four_winds(hand: WinHand, reading: Reading) -> bool:
    triplets = [k for k in WINDS if k in reading.triplets]
    return len(triplets) == 3 and reading.pair in WINDS


def _big_four_winds(hand: WinHand, reading: Reading) -> bool:
    return all(k in reading.triplets for k in WINDS)


@dataclass(frozen=True, slots=True)
class BigHuKind:
    """One big-hu kind: its stable id, its names, and the test on one reading."""

    id: str
    zh: str
    en: str
    applies: Callable[[WinHand, Reading], bool]


# In the order of the spec's table, which is the order the calculator lists them in.
KINDS: tuple[BigHuKind, ...] = (
    BigHuKind("heavenly_hand", "天胡", "Heavenly Hand", lambda hand, _: hand.heavenly),
    BigHuKind("earthly_hand", "地胡", "Earthly Hand", lambda hand, _: hand.earthly),
    BigHuKind("full_flush", "清一色", "Full Flush", _full_flush),
    BigHuKind("all_honors", "字一色", "All Honors", _all_honors),
    BigHuKind("seven_pairs", "七对", "Seven Pairs", lambda _, r: r.shape is Shape.SEVEN_PAIRS),
    BigHuKind("four_concealed_pungs", "四暗刻", "Four Concealed Pungs", _four_concealed_pungs),
    BigHuKind("four_kongs", "十八罗汉", "Eighteen Arhats (Four Kongs)", _four_kongs),
    BigHuKind("big_three_dragons", "大三元", "Big Three Dragons", _big_three_dragons),
    BigHuKind("little_four_winds", "小四喜", "Little Four Winds", _little_four_winds),
    BigHuKind("big_four_winds", "大四喜", "Big Four Winds", _big_four_winds),
    BigHuKind(
        "thirteen_orphans",
        "十三幺",
        "Thirteen Orphans",
        lambda _, r: r.shape is Shape.THIRTEEN_ORPHANS,
    ),
    BigHuKind("half_flush", "混一色", "Half Flush", _half_flush),
)

ALL_KIND_IDS: tuple[str, ...] = tuple(k.id for k in KINDS)
# 混一色 is defined by the seed only to contrast it with 清一色: small unless enabled [D10].
SEED_KIND_IDS: tuple[str, ...] = tuple(i for i in ALL_KIND_IDS if i != "half_flush")


def is_winning(hand: WinHand) -> bool:
    return bool(readings(hand))


def find_kinds(hand: WinHand, enabled: Collection[str]) -> tuple[BigHuKind, ...]:
    """The enabled kinds the hand has, in table order; empty for a small hu."""
    found = readings(hand)
    return tuple(
        kind for kind in KINDS if kind.id in enabled and any(kind.applies(hand, r) for r in found)
    )


def win_hand(
    concealed: Sequence[int],
    melds: Sequence[Meld],
    win_tile: int,
    *,
    self_drawn: bool,
    heavenly: bool = False,
    earthly: bool = False,
) -> WinHand:
    """A :class:`WinHand` from the concealed tiles before the win plus the winning tile."""
    counts = [0] * NUM_KINDS
    for kind in (*concealed, win_tile):
        counts[kind] += 1
    return WinHand(tuple(counts), tuple(melds), win_tile, self_drawn, heavenly, earthly)
