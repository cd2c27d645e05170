"""Hand analysis shared by the three rule sets: decompositions, win checks, waits, shanten.

Every function works on a counts array (34 ints) of the concealed tiles, plus the number
of declared melds, which are fixed sets. Each suit is analysed on its own and the results
are combined; a suit's analysis depends only on its nine counts, so it is cached per
count vector (the table fills once and every later hand is a few dictionary look-ups).
:class:`HandShape` gives the shanten after each possible one-tile change at once, for
players weighing their discards.

Which winning shapes count is the rule set's business, given as a :class:`ShapeRules`.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product, repeat
from operator import floordiv, ge
from typing import NamedTuple

from engine.tiles import (
    HONOR,
    HONORS,
    NUM_KINDS,
    TERMINALS_AND_HONORS,
    suit,
)

_GROUP_STARTS = (0, 9, 18, 27)

ROWS = ((0, 3, 6), (1, 4, 7), (2, 5, 8))  # ranks 147, 258, 369 as offsets
# The six knitted arrangements (组合龙): suit order for the 147 / 258 / 369 rows.
KNITTED_PATTERNS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(s * 9 + r for s, first in zip(order, ROWS, strict=True) for r in first))
    for order in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)


class BlockType(enum.IntEnum):
    CHOW = 0  # a sequence; ``kind`` is its lowest tile
    PUNG = 1
    PAIR = 2


class Block(NamedTuple):
    type: BlockType
    kind: int

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.type is BlockType.CHOW:
            return (self.kind, self.kind + 1, self.kind + 2)
        return (self.kind,) * (3 if self.type is BlockType.PUNG else 2)


Decomposition = tuple[Block, ...]


@dataclass(frozen=True, slots=True)
class ShapeRules:
    """Which winning shapes a rule set admits, and its restrictions on tiles.

    ``four_as_two_pairs``: four identical concealed tiles may stand as two of seven pairs.
    ``void_suit``: a suit (0 万, 1 筒, 2 条) that a winning hand may not hold (四川 定缺).
    ``max_suits``: the most suits a winning hand may hold (四川: two).
    """

    seven_pairs: bool = True
    four_as_two_pairs: bool = True
    thirteen_orphans: bool = False
    knitted: bool = False
    void_suit: int | None = None
    max_suits: int | None = None


STANDARD_ONLY = ShapeRules(seven_pairs=False)


# -- one suit -------------------------------------------------------------------------


@cache
def _suit_decompositions(vec: tuple[int, ...], base: int, seq: bool) -> tuple[Decomposition, ...]:
    """Every split of one suit into sets and at most one pair (tiles ``base + i``)."""
    # Different cutting orders can give the same blocks; keep each multiset once.
    return tuple(sorted({tuple(sorted(d)) for d in _split(vec, 0, base, seq, pair_used=False)}))


def _split(
    vec: tuple[int, ...], start: int, base: int, seq: bool, pair_used: bool
) -> Iterator[Decomposition]:
    i = start
    while i < len(vec) and vec[i] == 0:
        i += 1
    if i == len(vec):
        yield ()
        return
    c = vec[i]
    lst = list(vec)
    if c >= 3:
        lst[i] -= 3
        for rest in _split(tuple(lst), i, base, seq, pair_used):
            yield (Block(BlockType.PUNG, base + i), *rest)
        lst[i] += 3
    if seq and i + 2 < len(vec) and vec[i + 1] and vec[i + 2]:
        lst[i] -= 1
        lst[i + 1] -= 1
        lst[i + 2] -= 1
        for rest in _split(tuple(lst), i, base, seq, pair_used):
            yield (Block(BlockType.CHOW, base + i), *rest)
        lst[i] += 1
        lst[i + 1] += 1
        lst[i + 2] += 1
    if c >= 2 and not pair_used:
        lst[i] -= 2
        for rest in _split(tuple(lst), i, base, seq, True):
            yield (Block(BlockType.PAIR, base + i), *rest)


@cache
def _suit_complete(vec: tuple[int, ...], seq: bool) -> tuple[bool, bool]:
    """(splits into sets alone, splits into sets and exactly one pair)."""
    without = with_pair = False
    for d in _suit_decompositions(vec, 0, seq):
        if any(b.type is BlockType.PAIR for b in d):
            with_pair = True
        else:
            without = True
    return without, with_pair


@cache
def _suit_frontier(vec: tuple[int, ...], seq: bool) -> tuple[tuple[int, int, int], ...]:
    """Pareto-best (sets, partial sets, head pair 0/1) that one suit can be cut into.

    A partial set is two tiles one tile short of a set (a pair not used as the head,
    two neighbours, two with a gap). Each tile is used once or left alone.
    """
    i = 0
    while i < len(vec) and vec[i] == 0:
        i += 1
    if i == len(vec):
        return ((0, 0, 0),)
    found: set[tuple[int, int, int]] = set()
    lst = list(vec)

    def take(kinds: tuple[int, ...], dm: int, dt: int, head: bool = False) -> None:
        for k in kinds:
            lst[k] -= 1
        for m, t, h in _suit_frontier(tuple(lst), seq):
            found.add((m + dm, t + dt, h))
            if head and h == 0:
                found.add((m + dm, t, 1))
        for k in kinds:
            lst[k] += 1

    c = vec[i]
    if c >= 3:
        take((i, i, i), 1, 0)
    if seq and i + 2 < len(vec) and vec[i + 1] and vec[i + 2]:
        take((i, i + 1, i + 2), 1, 0)
    if c >= 2:
        take((i, i), 0, 1, head=True)
    if seq and i + 1 < len(vec) and vec[i + 1]:
        take((i, i + 1), 0, 1)
    if seq and i + 2 < len(vec) and vec[i + 2]:
        take((i, i + 2), 0, 1)
    take((i,), 0, 0)
    return _pareto(found)


def _pareto(options: set[tuple[int, int, int]]) -> tuple[tuple[int, int, int], ...]:
    return tuple(
        sorted(
            o
            for o in options
            if not any(p != o and p[0] >= o[0] and p[1] >= o[1] and p[2] >= o[2] for p in options)
        )
    )


def _groups(counts: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    return (
        tuple(counts[0:9]),
        tuple(counts[9:18]),
        tuple(counts[18:27]),
        tuple(counts[27:34]),
    )


# -- whole hands: standard shape ------------------------------------------------------


def decompositions(counts: Sequence[int]) -> list[Decomposition]:
    """Every split of the concealed tiles into sets and exactly one pair (standard shape).

    >>> from engine.tiles import counts_of, parse_tiles
    >>> [(b.type.name, b.kind) for d in decompositions(counts_of(parse_tiles("11123m"))) for b in d]
    [('CHOW', 0), ('PAIR', 0)]
    """
    per_group = [
        _suit_decompositions(vec, base, g != HONOR)
        for g, (vec, base) in enumerate(zip(_groups(counts), _GROUP_STARTS, strict=True))
    ]
    if any(not options for options in per_group):
        return []
    out: list[Decomposition] = []
    for combo in product(*per_group):
        blocks = tuple(b for part in combo for b in part)
        if sum(1 for b in blocks if b.type is BlockType.PAIR) == 1:
            out.append(blocks)
    return out


def _standard_complete(counts: Sequence[int]) -> bool:
    pair_groups = 0
    for g, vec in enumerate(_groups(counts)):
        without, with_pair = _suit_complete(vec, g != HONOR)
        if without:
            continue
        if not with_pair:
            return False
        pair_groups += 1
    # Tile counts decide which groups hold the pair: exactly one may.
    return pair_groups == 1


def is_seven_pairs(counts: Sequence[int], four_as_two_pairs: bool = True) -> bool:
    if sum(counts) != 14:
        return False
    if four_as_two_pairs:
        return all(c in (0, 2, 4) for c in counts)
    return all(c in (0, 2) for c in counts)


def is_thirteen_orphans(counts: Sequence[int]) -> bool:
    if sum(counts) != 14:
        return False
    if any(counts[k] for k in range(NUM_KINDS) if k not in TERMINALS_AND_HONORS):
        return False
    return all(counts[k] >= 1 for k in TERMINALS_AND_HONORS)


def is_honors_and_knitted(counts: Sequence[int]) -> bool:
    """全不靠: 14 different tiles, the suited ones all from one knitted arrangement."""
    if sum(counts) != 14 or any(c > 1 for c in counts):
        return False
    held = {k for k in range(NUM_KINDS) if counts[k]}
    suited = {k for k in held if k < 27}
    return any(suited <= set(p) for p in KNITTED_PATTERNS)


def knitted_straight_rests(counts: Sequence[int]) -> list[tuple[tuple[int, ...], Decomposition]]:
    """组合龙: for each knitted arrangement held whole, the splits of the other tiles.

    Returns (arrangement, blocks of the rest) pairs; the rest holds one pair and the
    remaining sets (one, when no meld is declared).
    """
    out: list[tuple[tuple[int, ...], Decomposition]] = []
    for pattern in KNITTED_PATTERNS:
        if all(counts[k] for k in pattern):
            rest = list(counts)
            for k in pattern:
                rest[k] -= 1
            out.extend((pattern, d) for d in decompositions(rest))
    return out


def suits_held(kinds_or_counts: Sequence[int], *, counts: bool = True) -> set[int]:
    if counts:
        return {
            g for g, start in enumerate(_GROUP_STARTS) if any(kinds_or_counts[start : start + 9])
        }
    return {suit(k) for k in kinds_or_counts}


def is_complete(
    counts: Sequence[int],
    melds: int = 0,
    rules: ShapeRules = STANDARD_ONLY,
    meld_kinds: Sequence[int] = (),
) -> bool:
    """Whether the concealed tiles plus ``melds`` declared sets form a winning shape.

    ``meld_kinds`` (one tile of each declared meld) lets suit restrictions see melds.
    """
    if sum(counts) + 3 * melds != 14:
        return False
    if rules.void_suit is not None or rules.max_suits is not None:
        held = suits_held(counts) | {suit(k) for k in meld_kinds}
        if rules.void_suit is not None and rules.void_suit in held:
            return False
        if rules.max_suits is not None and len(held - {HONOR}) > rules.max_suits:
            return False
    if _standard_complete(counts):
        return True
    if melds == 0:
        if rules.seven_pairs and is_seven_pairs(counts, rules.four_as_two_pairs):
            return True
        if rules.thirteen_orphans and is_thirteen_orphans(counts):
            return True
        if rules.knitted and is_honors_and_knitted(counts):
            return True
    return rules.knitted and melds <= 1 and bool(knitted_straight_rests(counts))


def _standard_candidates(counts: Sequence[int]) -> list[int]:
    """Kinds that complete the standard shape, found group by group.

    A group whose tile count is 0 mod 3 must split into sets, one at 2 mod 3 into sets
    and the pair; only a group left at 1 mod 3 (or one of two at 2 mod 3) can take the
    winning tile, and only if every other group already splits.
    """
    groups = _groups(counts)
    ok: list[bool] = []
    for g, vec in enumerate(groups):
        without, with_pair = _suit_complete(vec, g != HONOR)
        residue = sum(vec) % 3
        ok.append(without if residue == 0 else with_pair if residue == 2 else False)
    pairs = [sum(vec) % 3 == 2 for vec in groups]
    out = []
    for g, vec in enumerate(groups):
        others_ok = all(ok[o] for o in range(4) if o != g)
        other_pairs = sum(pairs[o] for o in range(4) if o != g)
        if not others_ok or other_pairs > 1:
            continue
        seq = g != HONOR
        trial = list(vec)
        for i in range(len(vec)):
            if trial[i] >= 4:
                continue
            trial[i] += 1
            without, with_pair = _suit_complete(tuple(trial), seq)
            if (with_pair and other_pairs == 0) or (without and other_pairs == 1):
                out.append(_GROUP_STARTS[g] + i)
            trial[i] -= 1
    return out


def _special_candidates(counts: Sequence[int], melds: int, rules: ShapeRules) -> set[int]:
    """Kinds worth trying for the special shapes; only shapes already ready are searched."""
    found: set[int] = set()
    if melds == 0:
        if rules.seven_pairs and seven_pairs_shanten(counts, rules.four_as_two_pairs) == 0:
            found.update(k for k in range(NUM_KINDS) if counts[k] % 2)
        if rules.thirteen_orphans and thirteen_orphans_shanten(counts) == 0:
            found.update(TERMINALS_AND_HONORS)
        if rules.knitted and honors_and_knitted_shanten(counts) == 0:
            found.update(HONORS)
            for pattern in KNITTED_PATTERNS:
                found.update(pattern)
    if rules.knitted and melds <= 1 and knitted_straight_shanten(counts, melds) == 0:
        found.update(range(NUM_KINDS))
    return found


def waits(
    counts: Sequence[int],
    melds: int = 0,
    rules: ShapeRules = STANDARD_ONLY,
    meld_kinds: Sequence[int] = (),
    held: Sequence[int] | None = None,
) -> list[int]:
    """Every kind that completes the hand, except kinds whose four copies are all held.

    ``held`` counts every tile the player holds (concealed and melded); it defaults to
    the concealed tiles plus the melds' kinds given.
    """
    if sum(counts) + 3 * melds != 13:
        return []
    if held is None:
        held = list(counts)
        for k in meld_kinds:
            held[k] += 3
    candidates = set(_standard_candidates(counts)) | _special_candidates(counts, melds, rules)
    out = []
    trial = list(counts)
    for k in sorted(candidates):
        if held[k] >= 4:
            continue
        trial[k] += 1
        if is_complete(trial, melds, rules, meld_kinds):
            out.append(k)
        trial[k] -= 1
    return out


# -- shanten --------------------------------------------------------------------------

Frontier = tuple[tuple[int, int, int], ...]


def suit_frontier(vec: tuple[int, ...], honors: bool = False) -> Frontier:
    """Pareto-best (sets, partial sets, head pair 0/1) of one suit's nine counts (or the
    seven honor counts, which form no sequences): the cached building block of shanten."""
    return _suit_frontier(vec, not honors)


# Each distinct frontier gets a small id, so two groups' frontiers are merged once per
# pair of ids and every later shanten is a handful of dictionary look-ups on small keys.
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
def _group_id(vec: tuple[int, ...], seq: bool) -> int:
    return _intern(_suit_frontier(vec, seq))


@cache
def _merge(a: int, b: int, needed: int) -> int:
    """The frontier of two groups together, at most one head pair in all. Sets beyond
    ``needed``, and partial sets beyond what the missing sets can use, never lower the
    shanten, so they are capped: fewer distinct frontiers, more cache hits."""
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
    """The standard-shape shanten of a whole hand's frontier with ``needed`` sets to go."""
    best = 2 * needed
    for m, t, h in _FRONTIERS[fid]:
        m = min(m, needed)
        best = min(best, 2 * needed - 2 * m - min(t, needed - m) - h)
    return best


def _hand_ids(counts: Sequence[int]) -> list[int]:
    """The frontier ids of the four groups: 万, 筒, 条, honors."""
    held = tuple(counts)
    return [
        _group_id(held[0:9], True),
        _group_id(held[9:18], True),
        _group_id(held[18:27], True),
        _group_id(held[27:34], False),
    ]


def regular_shanten(counts: Sequence[int], melds: int = 0) -> int:
    """Standard-shape shanten: 0 = ready, -1 = complete."""
    needed = 4 - melds
    man, pin, sou, honors = _hand_ids(counts)
    whole = _merge(_merge(man, pin, needed), _merge(sou, honors, needed), needed)
    return _value(whole, needed)


def seven_pairs_shanten(counts: Sequence[int], four_as_two_pairs: bool = True) -> int:
    # Counted with ``map`` over operators: every shanten of a hand without melds asks this.
    twos = repeat(2, len(counts))
    if four_as_two_pairs:
        doubles: int = sum(map(floordiv, counts, twos))
        return 6 - min(doubles, 7)
    pairs: int = sum(map(ge, counts, twos))
    kinds = len(counts) - counts.count(0)
    return 6 - min(pairs, 7) + max(0, 7 - kinds)


def thirteen_orphans_shanten(counts: Sequence[int]) -> int:
    kinds = sum(1 for k in TERMINALS_AND_HONORS if counts[k])
    pair = any(counts[k] >= 2 for k in TERMINALS_AND_HONORS)
    return 13 - kinds - (1 if pair else 0)


def honors_and_knitted_shanten(counts: Sequence[int]) -> int:
    honors = sum(1 for k in HONORS if counts[k])
    best = max(sum(1 for k in p if counts[k]) for p in KNITTED_PATTERNS)
    return 13 - honors - best


def knitted_straight_shanten(counts: Sequence[int], melds: int = 0) -> int:
    best = 99
    for pattern in KNITTED_PATTERNS:
        missing = sum(1 for k in pattern if not counts[k])
        if missing - 1 >= best:
            continue
        rest = list(counts)
        for k in pattern:
            if rest[k]:
                rest[k] -= 1
        # The arrangement stands for three sets; what is left must give the rest.
        best = min(best, missing + regular_shanten(rest, melds + 3))
    return best


def shanten(counts: Sequence[int], melds: int = 0, rules: ShapeRules = STANDARD_ONLY) -> int:
    """The least number of tile exchanges to ready, over every shape the rules admit.

    Void-suit tiles count for nothing: they must all be discarded before a win.
    """
    if rules.void_suit is not None:
        counts = _without_suit(counts, rules.void_suit)
    best = regular_shanten(counts, melds)
    if melds == 0:
        if rules.seven_pairs:
            best = min(best, seven_pairs_shanten(counts, rules.four_as_two_pairs))
        if rules.thirteen_orphans:
            best = min(best, thirteen_orphans_shanten(counts))
        if rules.knitted:
            best = min(best, honors_and_knitted_shanten(counts))
    if rules.knitted and melds <= 1:
        best = min(best, knitted_straight_shanten(counts, melds))
    return best


def _without_suit(counts: Sequence[int], suit_: int) -> list[int]:
    out = list(counts)
    start = _GROUP_STARTS[suit_]
    out[start : start + 9] = [0] * 9
    return out


@cache
def _shifted_ids(vec: tuple[int, ...], seq: bool, delta: int) -> tuple[int, ...]:
    """The frontier id of one group after adding (``delta`` 1) or removing (-1) one tile
    at each offset; -1 where the change is impossible."""
    out = []
    work = list(vec)
    for r, count in enumerate(vec):
        if (delta > 0 and count >= 4) or (delta < 0 and count == 0):
            out.append(-1)
            continue
        work[r] += delta
        out.append(_group_id(tuple(work), seq))
        work[r] -= delta
    return tuple(out)


def _pair_value(count: int, four_as_two_pairs: bool) -> int:
    return count // 2 if four_as_two_pairs else int(count >= 2)


_ORPHANS = frozenset(TERMINALS_AND_HONORS)


class HandShape:
    """A hand's :func:`shanten` (``value``) and, through :meth:`each_change`, its shanten
    after adding or removing one tile, for every kind at once. Only the group that
    changes is looked up again, and seven pairs and thirteen orphans are updated by
    their counts: a player weighing its discards asks this dozens of times a turn. The
    knitted shapes have no such shortcut and are computed afresh for each change."""

    def __init__(self, counts: Sequence[int], melds: int, rules: ShapeRules) -> None:
        self._given = list(counts)
        self._melds = melds
        self._rules = rules
        self._void = rules.void_suit
        # Void-suit tiles count for nothing, as in ``shanten``.
        held = self._given if self._void is None else _without_suit(counts, self._void)
        self._counts = held
        self._needed = 4 - melds
        n = self._needed
        self._ids = _hand_ids(held)
        self._low = _merge(self._ids[0], self._ids[1], n)
        self._high = _merge(self._ids[2], self._ids[3], n)
        self._special = melds == 0
        self._pairs = self._kinds = self._orphans = 0
        self._orphan_pair = False
        if self._special:
            four_as_two = rules.four_as_two_pairs
            for c in held:
                if c:
                    self._kinds += 1
                    self._pairs += _pair_value(c, four_as_two)
            orphans = [held[k] for k in TERMINALS_AND_HONORS]
            self._orphans = sum(1 for c in orphans if c)
            self._orphan_pair = any(c >= 2 for c in orphans)
        self._special_now = self._best(
            99, self._pairs, self._kinds, self._orphans, self._orphan_pair
        )
        if rules.knitted:
            self.value = shanten(counts, melds, rules)
        else:
            regular = _value(_merge(self._low, self._high, n), n)
            self.value = self._best(
                regular, self._pairs, self._kinds, self._orphans, self._orphan_pair
            )

    def _best(self, regular: int, pairs: int, kinds: int, orphans: int, orphan_pair: bool) -> int:
        """The shanten from the standard shape's and the seven pairs / orphans counts."""
        best = regular
        if not self._special or best < 0:
            return best
        rules = self._rules
        if rules.seven_pairs:
            shortfall = 0 if rules.four_as_two_pairs else max(0, 7 - kinds)
            best = min(best, 6 - min(pairs, 7) + shortfall)
        if rules.thirteen_orphans:
            best = min(best, 13 - orphans - (1 if orphan_pair else 0))
        return best

    def _rest(self, group: int) -> int:
        """The merged frontier of every group but ``group``."""
        ids, n = self._ids, self._needed
        if group < 2:
            return _merge(ids[1 - group], self._high, n)
        return _merge(self._low, ids[5 - group], n)

    def _special_after(self, kind: int, delta: int) -> int:
        """The seven pairs / thirteen orphans part of the shanten after one change."""
        old = self._counts[kind]
        new = old + delta
        four_as_two = self._rules.four_as_two_pairs
        pairs = self._pairs - _pair_value(old, four_as_two) + _pair_value(new, four_as_two)
        kinds = self._kinds - (old > 0) + (new > 0)
        orphans, orphan_pair = self._orphans, self._orphan_pair
        if kind in _ORPHANS:
            held = [self._counts[k] + (delta if k == kind else 0) for k in TERMINALS_AND_HONORS]
            orphans = sum(1 for c in held if c)
            orphan_pair = any(c >= 2 for c in held)
        return self._best(99, pairs, kinds, orphans, orphan_pair)

    def each_change(self, delta: int) -> dict[int, int]:
        """The shanten after adding (``delta`` 1) or removing (-1) one tile, for every
        kind where that is possible (a fifth copy or a missing tile is not)."""
        if self._rules.knitted:
            return self._each_change_afresh(delta)
        out: dict[int, int] = {}
        n = self._needed
        # One change moves the special shapes' shanten by one at most: below that floor
        # the standard shape decides alone.
        special_floor = self._special_now - 1 if self._special else 99
        for group, base in enumerate(_GROUP_STARTS):
            size = 9 if group < HONOR else 7
            if group == self._void:
                # Void-suit tiles count for nothing: the shanten stays as it is.
                for kind in range(base, base + size):
                    count = self._given[kind]
                    if (delta > 0 and count < 4) or (delta < 0 and count):
                        out[kind] = self.value
                continue
            rest = self._rest(group)
            vec = tuple(self._counts[base : base + size])
            for r, fid in enumerate(_shifted_ids(vec, group < HONOR, delta)):
                if fid < 0:
                    continue
                v = _value(_merge(fid, rest, n), n)
                if v >= special_floor:
                    v = min(v, self._special_after(base + r, delta))
                out[base + r] = v
        return out

    def _each_change_afresh(self, delta: int) -> dict[int, int]:
        out: dict[int, int] = {}
        trial = self._given
        for kind, count in enumerate(trial):
            if (delta > 0 and count >= 4) or (delta < 0 and count == 0):
                continue
            trial[kind] += delta
            out[kind] = shanten(trial, self._melds, self._rules)
            trial[kind] -= delta
        return out
