"""Scoring a 四川 win and the 有叫 test, shared by the calculator and the round engine.

A winning hand (sichuan.md §3) is a pair plus four sets, or seven pairs with no melds
(four identical concealed tiles may be two of its pairs); it holds at most two suits and
none of the seat's void suit. When it reads more than one way, the reading with the
highest F counts [D29].
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from engine.analysis import (
    ShapeRules,
    decompositions,
    is_seven_pairs,
    shanten,
    waits,
)
from engine.rules.base import FanLine
from engine.rules.sichuan.options import SichuanOptions
from engine.rules.sichuan.patterns import DISCARD, Reading, Situation, fan_lines, total_fan
from engine.tiles import NUM_KINDS, Meld, suit

SUITS = (0, 1, 2)
MAX_SUITS = 2


def shape_rules(void: int) -> ShapeRules:
    """The shapes of §3 for a seat whose void suit is ``void`` (0 万, 1 筒, 2 条)."""
    return ShapeRules(seven_pairs=True, four_as_two_pairs=True, void_suit=void, max_suits=MAX_SUITS)


def all_counts(concealed: Sequence[int], melds: Sequence[Meld]) -> list[int]:
    """Every tile a seat holds, concealed and melded, as counts."""
    out = list(concealed)
    for meld in melds:
        for kind in meld.tiles:
            out[kind] += 1
    return out


@dataclass(frozen=True, slots=True)
class HandScore:
    """The counted reading of a win: its atoms and F (before the cap)."""

    fans: tuple[FanLine, ...]
    fan: int


def _readings(
    counts: Sequence[int], melds: tuple[Meld, ...], win_tile: int, situation: Situation
) -> Iterator[Reading]:
    every = tuple(all_counts(counts, melds))
    if not melds and is_seven_pairs(counts, four_as_two_pairs=True):
        yield Reading((), True, melds, None, win_tile, every, situation)
    for blocks in decompositions(counts):
        for block in dict.fromkeys(b for b in blocks if win_tile in b.tiles):
            yield Reading(blocks, False, melds, block, win_tile, every, situation)


def score_hand(
    counts: Sequence[int],
    melds: Sequence[Meld],
    win_tile: int,
    situation: Situation,
    options: SichuanOptions,
    void: int | None = None,
) -> HandScore | None:
    """Score a hand whose concealed ``counts`` include the winning tile; None if no win.

    A hand of three suits, or holding any tile of ``void``, is not a win.
    """
    if sum(counts) + 3 * len(melds) != 14 or counts[win_tile] == 0:
        return None
    held = {suit(k) for k, n in enumerate(all_counts(counts, melds)) if n}
    if len(held) > MAX_SUITS or void in held:
        return None
    best: HandScore | None = None
    for reading in _readings(counts, tuple(melds), win_tile, situation):
        lines = fan_lines(reading, options)
        fan = total_fan(lines)
        if best is None or fan > best.fan:
            best = HandScore(lines, fan)
    return best


def ready_waits(counts: Sequence[int], melds: Sequence[Meld], void: int) -> list[int]:
    """The 有叫 test (§4): every kind that completes a win for this seat.

    Empty while the seat holds a void-suit tile. Kinds of the void suit or of a third suit,
    and kinds of which the seat owns all four copies, never count.
    """
    return waits(
        counts,
        len(melds),
        shape_rules(void),
        [m.kind for m in melds],
        all_counts(counts, melds),
    )


def ready_shanten(counts: Sequence[int], melds: Sequence[Meld], void: int) -> int:
    """Shanten under the seat's void suit: 0 exactly when a tile could make the shape win.

    Void tiles are useless, and each one must also leave the hand before it is ready, so
    the count is never below the number of void tiles held.
    """
    base = shanten(counts, len(melds), shape_rules(void))
    return max(base, sum(n for k, n in enumerate(all_counts(counts, melds)) if suit(k) == void))


def best_ready_fan(
    counts: Sequence[int], melds: Sequence[Meld], void: int, options: SichuanOptions
) -> int | None:
    """查大叫: the highest F over the seat's waits, each scored as a plain discard win.

    None when the seat is 无叫.
    """
    best: int | None = None
    trial = list(counts)
    for kind in ready_waits(counts, melds, void):
        trial[kind] += 1
        score = score_hand(trial, melds, kind, DISCARD, options, void)
        trial[kind] -= 1
        if score is not None and (best is None or score.fan > best):
            best = score.fan
    return best


def missing_suits(counts: Sequence[int], melds: Sequence[Meld]) -> tuple[int, ...]:
    """Suits the seat holds no tile of (the calculator's void suit when none is named)."""
    every = all_counts(counts, melds)
    return tuple(s for s in SUITS if not any(every[k] for k in range(NUM_KINDS) if suit(k) == s))
