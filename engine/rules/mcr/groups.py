"""Per-group questions about the standard shape, answered once per group content.

A group is one suit (nine kinds) or the honors (seven). Whether a hand splits into sets
and one pair is decided group by group: each group must split into sets alone, except
exactly one that splits into sets and the pair. The splitting itself is
``engine.analysis.decompositions``; this module only caches its answers per group and
combines them, which keeps waits and wildcard completions to a few look-ups.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations_with_replacement, product

from engine.analysis import decompositions

_GROUP_STARTS = (0, 9, 18, 27)
_HONOR_GROUP = 3


def _group_vectors(counts: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    return (
        tuple(counts[0:9]),
        tuple(counts[9:18]),
        tuple(counts[18:27]),
        tuple(counts[27:34]),
    )


def _splittable(vec: tuple[int, ...], honors: bool, with_pair: bool) -> bool:
    counts = [0] * 34
    start = 27 if honors else 0
    counts[start : start + len(vec)] = vec
    if not with_pair:
        # decompositions() wants exactly one pair; a pair in another group stands in.
        counts[0 if honors else 27] = 2
    return bool(decompositions(counts))


@cache
def _group_shape(vec: tuple[int, ...], honors: bool) -> tuple[bool, bool]:
    """(splits into sets alone, splits into sets and one pair)."""
    n = sum(vec)
    if n % 3 == 0:
        return _splittable(vec, honors, False), False
    if n % 3 == 2:
        return False, _splittable(vec, honors, True)
    return False, False


@cache
def _group_waits(vec: tuple[int, ...], honors: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Offsets whose addition lets the group split (sets alone, sets and a pair).

    Copies are not limited: a fifth copy counts, as in the reference's wait count.
    """
    sets_only: list[int] = []
    with_pair: list[int] = []
    trial = list(vec)
    for offset in range(len(vec)):
        trial[offset] += 1
        alone, paired = _group_shape(tuple(trial), honors)
        trial[offset] -= 1
        if alone:
            sets_only.append(offset)
        elif paired:
            with_pair.append(offset)
    return tuple(sets_only), tuple(with_pair)


def standard_waits(counts: Sequence[int]) -> list[int]:
    """Kinds that complete concealed tiles (3n + 1 of them) into sets and one pair.

    Unlike ``engine.analysis.waits`` a kind counts even when all four copies are held:
    the MCR wait fans (边张, 嵌张, 单钓将) count waits that way.
    """
    vecs = _group_vectors(counts)
    shapes = [_group_shape(v, g == _HONOR_GROUP) for g, v in enumerate(vecs)]
    broken = [g for g, (alone, paired) in enumerate(shapes) if not (alone or paired)]
    paired = [g for g, (_, with_pair) in enumerate(shapes) if with_pair]
    if len(broken) > 1:
        return []
    out: list[int] = []
    # The winning tile goes to the one broken group, or else completes a set in one of the
    # two groups that hold a pair (the other keeps it).
    for g in broken or paired:
        pairs_elsewhere = len(paired) - (g in paired)
        if pairs_elsewhere > 1:
            continue
        sets_only, with_pair = _group_waits(vecs[g], g == _HONOR_GROUP)
        found = sets_only if pairs_elsewhere == 1 else with_pair
        out.extend(_GROUP_STARTS[g] + offset for offset in found)
    return sorted(out)


@cache
def _group_fills(
    vec: tuple[int, ...], honors: bool, jokers: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Multisets of ``jokers`` offsets completing the group (sets alone, sets and a pair).

    No kind goes beyond four copies within the group.
    """
    sets_only: list[tuple[int, ...]] = []
    with_pair: list[tuple[int, ...]] = []
    for combo in combinations_with_replacement(range(len(vec)), jokers):
        trial = list(vec)
        for offset in combo:
            trial[offset] += 1
        if any(trial[offset] > 4 for offset in combo):
            continue
        alone, paired = _group_shape(tuple(trial), honors)
        if alone:
            sets_only.append(combo)
        elif paired:
            with_pair.append(combo)
    return tuple(sets_only), tuple(with_pair)


def _splits_of(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _splits_of(total - first, parts - 1):
            yield (first, *rest)


def standard_fills(counts: Sequence[int], jokers: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``jokers`` kinds (sorted) that completes ``counts`` into sets and
    one pair; each multiset once."""
    vecs = _group_vectors(counts)
    for split in _splits_of(jokers, 4):
        choices: list[tuple[tuple[int, ...], ...]] = []
        pair_groups = 0
        for g, (vec, j) in enumerate(zip(vecs, split, strict=True)):
            n = (sum(vec) + j) % 3
            if n == 1:
                break
            fills = _group_fills(vec, g == _HONOR_GROUP, j)[1 if n == 2 else 0]
            if not fills:
                break
            pair_groups += n == 2
            start = _GROUP_STARTS[g]
            choices.append(tuple(tuple(start + o for o in fill) for fill in fills))
        else:
            if pair_groups == 1:
                for parts in product(*choices):
                    yield tuple(k for part in parts for k in part)
