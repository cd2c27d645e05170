"""Fast standard-shape shanten for the AI's many look-ups.

Same numbers as ``engine.analysis.shanten`` (standard shape, seven pairs, thirteen
orphans), computed with two more caches: each suit's frontier gets a small id, and the
frontiers of suit pairs are merged once per pair of ids, so evaluating a discard or an
effective tile is a handful of dictionary look-ups.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from engine.analysis import ShapeRules, suit_frontier
from engine.tiles import TERMINALS_AND_HONORS

Frontier = tuple[tuple[int, int, int], ...]

_FRONTIERS: list[Frontier] = []
_FRONTIER_IDS: dict[Frontier, int] = {}


def _intern(frontier: Frontier) -> int:
    fid = _FRONTIER_IDS.get(frontier)
    if fid is None:
        fid = len(_FRONTIERS)
        _FRONTIERS.append(frontier)
        _FRONTIER_IDS[frontier] = fid
    return fid


@cache
def _suit_id(vec: tuple[int, ...], honors: bool) -> int:
    return _intern(suit_frontier(vec, honors))


_EMPTY_SUIT = _suit_id((0,) * 9, False)


def _pareto(options: set[tuple[int, int, int]]) -> Frontier:
    return tuple(
        sorted(
            o
            for o in options
            if not any(p != o and p[0] >= o[0] and p[1] >= o[1] and p[2] >= o[2] for p in options)
        )
    )


@cache
def _merge(a: int, b: int, needed: int) -> int:
    """The frontier of two groups together, capped at ``needed`` sets."""
    out = set()
    for m1, t1, h1 in _FRONTIERS[a]:
        for m2, t2, h2 in _FRONTIERS[b]:
            h = h1 + h2
            if h > 1:
                continue
            m = min(m1 + m2, needed)
            out.add((m, min(t1 + t2, needed - m), h))
    return _intern(_pareto(out))


@cache
def _value(fid: int, needed: int) -> int:
    return min(2 * needed - 2 * m - t - h for m, t, h in _FRONTIERS[fid])


def regular(counts: Sequence[int], melds: int, void_suit: int | None = None) -> int:
    """Standard-shape shanten of the concealed ``counts`` with ``melds`` declared sets."""
    needed = 4 - melds
    man = _EMPTY_SUIT if void_suit == 0 else _suit_id(tuple(counts[0:9]), False)
    pin = _EMPTY_SUIT if void_suit == 1 else _suit_id(tuple(counts[9:18]), False)
    sou = _EMPTY_SUIT if void_suit == 2 else _suit_id(tuple(counts[18:27]), False)
    honors = _suit_id(tuple(counts[27:34]), True)
    return _value(_merge(_merge(man, pin, needed), _merge(sou, honors, needed), needed), needed)


def _without(counts: Sequence[int], void: int) -> list[int]:
    held = list(counts)
    held[void * 9 : void * 9 + 9] = [0] * 9
    return held


def shanten(counts: Sequence[int], melds: int, rules: ShapeRules) -> int:
    """The least shanten over the standard shape and, with no melds, seven pairs and
    thirteen orphans where ``rules`` admit them; void-suit tiles count for nothing."""
    void = rules.void_suit
    best = regular(counts, melds, void)
    if melds or best < 0:
        return best
    if rules.seven_pairs:
        held = list(counts) if void is None else _without(counts, void)
        fours = held.count(4)
        pairs = held.count(2) + held.count(3) + (2 * fours if rules.four_as_two_pairs else fours)
        shortfall = 0 if rules.four_as_two_pairs else max(0, 7 - (34 - held.count(0)))
        best = min(best, 6 - min(pairs, 7) + shortfall)
    if rules.thirteen_orphans:
        held = sum(1 for k in TERMINALS_AND_HONORS if counts[k])
        pair = any(counts[k] >= 2 for k in TERMINALS_AND_HONORS)
        best = min(best, 13 - held - (1 if pair else 0))
    return best


_ORPHANS = frozenset(TERMINALS_AND_HONORS)


@cache
def _shifted_ids(vec: tuple[int, ...], honors: bool, delta: int) -> tuple[int, ...]:
    """The frontier id of one group after adding (``delta`` 1) or removing (-1) one tile
    at each offset; -1 where the change is impossible."""
    out = []
    work = list(vec)
    for r, count in enumerate(vec):
        if (delta > 0 and count >= 4) or (delta < 0 and count == 0):
            out.append(-1)
            continue
        work[r] += delta
        out.append(_suit_id(tuple(work), honors))
        work[r] -= delta
    return tuple(out)


def _pair_value(count: int, four_as_two: bool) -> int:
    return count // 2 if four_as_two else int(count >= 2)


class HandShape:
    """A hand's shanten, and the shanten after adding or removing one tile, recomputing
    only the suit that changes (the AI asks this dozens of times per decision)."""

    def __init__(self, counts: Sequence[int], melds: int, rules: ShapeRules) -> None:
        self.counts = list(counts)
        self.rules = rules
        self.needed = 4 - melds
        void = rules.void_suit
        self._void = void
        self._ids = [
            _EMPTY_SUIT if void == g else _suit_id(tuple(self.counts[g * 9 : g * 9 + 9]), False)
            for g in range(3)
        ]
        self._ids.append(_suit_id(tuple(self.counts[27:34]), True))
        n = self.needed
        self._low = _merge(self._ids[0], self._ids[1], n)
        self._high = _merge(self._ids[2], self._ids[3], n)
        self._special = melds == 0
        self._pairs = self._kinds = self._orphans = 0
        self._orphan_pair = False
        if self._special:
            four_as_two = rules.four_as_two_pairs
            for k, c in enumerate(self.counts):
                if c and not self._is_void(k):
                    self._kinds += 1
                    self._pairs += _pair_value(c, four_as_two)
            held = [self.counts[k] for k in TERMINALS_AND_HONORS]
            self._orphans = sum(1 for c in held if c)
            self._orphan_pair = any(c >= 2 for c in held)
        self._special_now = self._best(
            99, self._pairs, self._kinds, self._orphans, self._orphan_pair
        )
        self.value = self._best(
            _value(_merge(self._low, self._high, n), n),
            self._pairs,
            self._kinds,
            self._orphans,
            self._orphan_pair,
        )

    def _is_void(self, kind: int) -> bool:
        return self._void is not None and kind < 27 and kind // 9 == self._void

    def _best(self, regular_: int, pairs: int, kinds: int, orphans: int, orphan_pair: bool) -> int:
        best = regular_
        if not self._special or best < 0:
            return best
        rules = self.rules
        if rules.seven_pairs:
            shortfall = 0 if rules.four_as_two_pairs else max(0, 7 - kinds)
            best = min(best, 6 - min(pairs, 7) + shortfall)
        if rules.thirteen_orphans:
            best = min(best, 13 - orphans - (1 if orphan_pair else 0))
        return best

    def _rest(self, group: int) -> int:
        """The merged frontier of every group but ``group``."""
        ids, n = self._ids, self.needed
        if group < 2:
            return _merge(ids[1 - group], self._high, n)
        return _merge(self._low, ids[5 - group], n)

    def _special_after(self, kind: int, delta: int) -> int:
        """The seven-pairs / thirteen-orphans part of the shanten after one change."""
        old = self.counts[kind]
        new = old + delta
        four_as_two = self.rules.four_as_two_pairs
        pairs = self._pairs - _pair_value(old, four_as_two) + _pair_value(new, four_as_two)
        kinds = self._kinds - (old > 0) + (new > 0)
        orphans, orphan_pair = self._orphans, self._orphan_pair
        if kind in _ORPHANS:
            held = [self.counts[k] + (delta if k == kind else 0) for k in TERMINALS_AND_HONORS]
            orphans = sum(1 for c in held if c)
            orphan_pair = any(c >= 2 for c in held)
        return self._best(99, pairs, kinds, orphans, orphan_pair)

    def each_change(self, delta: int) -> dict[int, int]:
        """The shanten after adding (``delta`` 1) or removing (-1) one tile, for every
        kind where that is possible; void-suit kinds keep the current value."""
        out: dict[int, int] = {}
        n = self.needed
        # One change moves the special shapes' shanten by one at most: below that floor
        # the standard shape decides alone.
        special_floor = self._special_now - 1 if self._special else 99
        for group in range(4):
            base = group * 9
            size = 9 if group < 3 else 7
            vec = tuple(self.counts[base : base + size])
            if group == self._void:
                for r in range(size):
                    if (delta > 0 and vec[r] < 4) or (delta < 0 and vec[r]):
                        out[base + r] = self.value
                continue
            rest = self._rest(group)
            for r, fid in enumerate(_shifted_ids(vec, group == 3, delta)):
                if fid < 0:
                    continue
                v = _value(_merge(fid, rest, n), n)
                if v >= special_floor:
                    v = min(v, self._special_after(base + r, delta))
                out[base + r] = v
        return out
