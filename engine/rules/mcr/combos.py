"""Fans of the sets and the pair of one reading (spec ``mcr.md`` §2.1, §2.2).

The combinations of chows and of pungs, the fans of single pungs (箭刻, 幺九刻 before the
wind fans absorb theirs), 碰碰和, the pair's fans (平和; 小三元 and 小四喜 upgrading 双箭刻
and 三风刻) and the fans every set shares (全带幺, 全带五, 全双刻). They depend only on
which chows, pungs (kongs included) and pair a reading holds, not on what is concealed
or how the hand was won, so ``set_fans`` is cached per combination.

Tiles are handled as *codes*: ``10 × suit + rank − 1`` for suited tiles with the suits in
the order 万, 条, 饼, and 30–36 for 东南西北中发白. Ranks of one suit then differ by their
code difference and never run into the next suit. The suit order is the reference's
(PyMahjongGB): where two triples of chows or pungs of one reading both form a fan, the
reference counts the first in this order, and so does this module (§2.2 leaves the choice
open).

The principles:

- 套算一次: with a three-chow fan the fourth chow adds at most one two-chow fan, taken in
  the order 一般高 > 喜相逢 > 连六 > 老少副; without one, the two-chow fans of all pairs of
  chows are capped at one fewer than the chows (less one per chow that pairs with none).
- 不得相同: over the cap, repeated fans are dropped first, starting from 老少副.
- Pungs: a four-pung fan stops the pung fans; a three-pung fan leaves the fourth pung one
  two-pung fan with one of the three; otherwise every pair of pungs scores.
"""

from __future__ import annotations

from functools import cache
from itertools import pairwise

from engine.rules.mcr.fans import INDEX
from engine.tiles import NUM_KINDS

# Suits in the reference's order: 万 0, 条 1, 饼 2.
_CODE_SUIT = (0, 2, 1)
CODE: tuple[int, ...] = tuple(
    _CODE_SUIT[k // 9] * 10 + k % 9 if k < 27 else 30 + k - 27 for k in range(NUM_KINDS)
)
_WINDS = (30, 31, 32, 33)
_DRAGONS = (34, 35, 36)

FOUR_PURE_SHIFTED_CHOWS = INDEX["four_pure_shifted_chows"]
QUADRUPLE_CHOW = INDEX["quadruple_chow"]
MIXED_SHIFTED_CHOWS = INDEX["mixed_shifted_chows"]
MIXED_TRIPLE_CHOW = INDEX["mixed_triple_chow"]
MIXED_STRAIGHT = INDEX["mixed_straight"]
PURE_STRAIGHT = INDEX["pure_straight"]
PURE_SHIFTED_CHOWS = INDEX["pure_shifted_chows"]
PURE_TRIPLE_CHOW = INDEX["pure_triple_chow"]
PURE_DOUBLE_CHOW = INDEX["pure_double_chow"]
MIXED_DOUBLE_CHOW = INDEX["mixed_double_chow"]
SHORT_STRAIGHT = INDEX["short_straight"]
TWO_TERMINAL_CHOWS = INDEX["two_terminal_chows"]
PURE_TERMINAL_CHOWS = INDEX["pure_terminal_chows"]
THREE_SUITED_TERMINAL_CHOWS = INDEX["three_suited_terminal_chows"]
FOUR_PURE_SHIFTED_PUNGS = INDEX["four_pure_shifted_pungs"]
BIG_FOUR_WINDS = INDEX["big_four_winds"]
MIXED_SHIFTED_PUNGS = INDEX["mixed_shifted_pungs"]
TRIPLE_PUNG = INDEX["triple_pung"]
PURE_SHIFTED_PUNGS = INDEX["pure_shifted_pungs"]
BIG_THREE_WINDS = INDEX["big_three_winds"]
BIG_THREE_DRAGONS = INDEX["big_three_dragons"]
DOUBLE_PUNG = INDEX["double_pung"]
TWO_DRAGONS_PUNGS = INDEX["two_dragons_pungs"]
DRAGON_PUNG = INDEX["dragon_pung"]
PUNG_OF_TERMINALS_OR_HONORS = INDEX["pung_of_terminals_or_honors"]
ALL_PUNGS = INDEX["all_pungs"]
ALL_CHOWS = INDEX["all_chows"]
LITTLE_THREE_DRAGONS = INDEX["little_three_dragons"]
LITTLE_FOUR_WINDS = INDEX["little_four_winds"]
OUTSIDE_HAND = INDEX["outside_hand"]
ALL_FIVE = INDEX["all_five"]
ALL_EVEN_PUNGS = INDEX["all_even_pungs"]

# Two-chow fans in the order the fourth chow takes them, and the order 不得相同 keeps them.
_TWO_CHOW_FANS = (PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS)


def _consecutive(ranks: tuple[int, ...], step: int) -> bool:
    return all(b - a == step for a, b in pairwise(ranks))


def _two_chows(a: int, b: int) -> int | None:
    if a // 10 != b // 10:
        return MIXED_DOUBLE_CHOW if a % 10 == b % 10 else None
    if abs(a - b) == 3:
        return SHORT_STRAIGHT
    if {a % 10, b % 10} == {0, 6}:
        return TWO_TERMINAL_CHOWS
    if a == b:
        return PURE_DOUBLE_CHOW
    return None


def _three_chows(t0: int, t1: int, t2: int) -> int | None:
    if len({t0 // 10, t1 // 10, t2 // 10}) == 3:
        ranks = tuple(sorted((t0 % 10, t1 % 10, t2 % 10)))
        if _consecutive(ranks, 1):
            return MIXED_SHIFTED_CHOWS
        if _consecutive(ranks, 0):
            return MIXED_TRIPLE_CHOW
        if ranks == (0, 3, 6):
            return MIXED_STRAIGHT
        return None
    if t0 + 3 == t1 and t1 + 3 == t2:
        return PURE_STRAIGHT
    if _consecutive((t0, t1, t2), 2) or _consecutive((t0, t1, t2), 1):
        return PURE_SHIFTED_CHOWS
    if t0 == t1 == t2:
        return PURE_TRIPLE_CHOW
    return None


def _fourth_chow(three: tuple[int, int, int], extra: int) -> int | None:
    found = {_two_chows(t, extra) for t in three}
    return next((fan for fan in _TWO_CHOW_FANS if fan in found), None)


def _capped_two_chow_fans(fans: list[int | None], cap: int, out: dict[int, int]) -> None:
    """Count the two-chow fans, dropping repeats and then singles from 老少副 up to the cap."""
    table = {fan: 0 for fan in _TWO_CHOW_FANS}
    for fan in fans:
        if fan is not None:
            table[fan] += 1
    count = sum(table.values())
    for limit in (1, 0):
        for fan in reversed(_TWO_CHOW_FANS):
            while count > cap and table[fan] > limit:
                table[fan] -= 1
                count -= 1
    for fan, n in table.items():
        if n:
            out[fan] = out.get(fan, 0) + n


_TRIPLES = ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0))


def _four_chows(t: tuple[int, ...], out: dict[int, int]) -> None:
    if _consecutive(t, 2) or _consecutive(t, 1):
        out[FOUR_PURE_SHIFTED_CHOWS] = 1
        return
    if _consecutive(t, 0):
        out[QUADRUPLE_CHOW] = 1
        return
    for a, b, c, rest in _TRIPLES:
        fan = _three_chows(t[a], t[b], t[c])
        if fan is not None:
            out[fan] = 1
            extra = _fourth_chow((t[a], t[b], t[c]), t[rest])
            if extra is not None:
                out[extra] = 1
            return
    pairs = [(i, j) for i in range(4) for j in range(i + 1, 4)]
    fans = [_two_chows(t[i], t[j]) for i, j in pairs]
    lonely = sum(
        1
        for c in range(4)
        if all(fan is None for (i, j), fan in zip(pairs, fans, strict=True) if c in (i, j))
    )
    cap = 3 - lonely
    if cap > 0:
        _capped_two_chow_fans(fans, cap, out)


def _three_chows_alone(t: tuple[int, ...], out: dict[int, int]) -> None:
    fan = _three_chows(*t)
    if fan is not None:
        out[fan] = 1
        return
    _capped_two_chow_fans(
        [_two_chows(t[0], t[1]), _two_chows(t[0], t[2]), _two_chows(t[1], t[2])], 2, out
    )


def _terminal_chows(chows: tuple[int, ...], pair: int) -> int | None:
    """一色双龙会 or 三色双龙会: 123 and 789 chows around a pair of 5s."""
    if pair >= 30 or pair % 10 != 4 or any(c % 10 not in (0, 6) for c in chows):
        return None
    pair_suit = pair // 10
    suits = [c // 10 for c in chows]
    if all(s == pair_suit for s in suits):
        lows = sum(1 for c in chows if c % 10 == 0)
        return PURE_TERMINAL_CHOWS if lows == 2 else None
    if pair_suit in suits:
        return None
    held = set(chows)
    others = [s for s in range(3) if s != pair_suit]
    if all(s * 10 in held and s * 10 + 6 in held for s in others):
        return THREE_SUITED_TERMINAL_CHOWS
    return None


def _four_pungs(t: tuple[int, ...]) -> int | None:
    if t[0] < 30 and _consecutive(t, 1):
        return FOUR_PURE_SHIFTED_PUNGS
    if t == _WINDS:
        return BIG_FOUR_WINDS
    return None


def _three_pungs(t0: int, t1: int, t2: int) -> int | None:
    if t2 < 30:
        if len({t0 // 10, t1 // 10, t2 // 10}) == 3:
            ranks = tuple(sorted((t0 % 10, t1 % 10, t2 % 10)))
            if _consecutive(ranks, 1):
                return MIXED_SHIFTED_PUNGS
            if _consecutive(ranks, 0):
                return TRIPLE_PUNG
            return None
        return PURE_SHIFTED_PUNGS if _consecutive((t0, t1, t2), 1) else None
    if t0 in _WINDS and t2 in _WINDS:
        return BIG_THREE_WINDS
    if (t0, t1, t2) == _DRAGONS:
        return BIG_THREE_DRAGONS
    return None


def _two_pungs(a: int, b: int) -> int | None:
    if a < 30 and b < 30:
        return DOUBLE_PUNG if a % 10 == b % 10 else None
    if a in _DRAGONS and b in _DRAGONS:
        return TWO_DRAGONS_PUNGS
    return None


def _pung_combinations(t: tuple[int, ...], out: dict[int, int]) -> None:
    if len(t) == 4:
        fan = _four_pungs(t)
        if fan is not None:
            out[fan] = 1
            return
    if len(t) >= 3:
        for a, b, c, rest in _TRIPLES if len(t) == 4 else ((0, 1, 2, None),):
            fan = _three_pungs(t[a], t[b], t[c])
            if fan is None:
                continue
            out[fan] = 1
            if rest is not None:
                for i in (a, b, c):
                    extra = _two_pungs(t[i], t[rest])
                    if extra is not None:
                        out[extra] = out.get(extra, 0) + 1
                        break
            return
    for i in range(len(t)):
        for j in range(i + 1, len(t)):
            fan = _two_pungs(t[i], t[j])
            if fan is not None:
                out[fan] = out.get(fan, 0) + 1


def _single_pungs(pungs: tuple[int, ...], out: dict[int, int]) -> None:
    for p in pungs:
        if p in _DRAGONS:
            out[DRAGON_PUNG] = out.get(DRAGON_PUNG, 0) + 1
        elif p >= 30 or p % 10 in (0, 8):
            out[PUNG_OF_TERMINALS_OR_HONORS] = out.get(PUNG_OF_TERMINALS_OR_HONORS, 0) + 1


def _pair_fans(chows: tuple[int, ...], pair: int, out: dict[int, int]) -> None:
    """平和 around a suited pair; a dragon or wind pair upgrades 双箭刻 or 三风刻."""
    if len(chows) == 4:
        if pair < 30:
            out[ALL_CHOWS] = 1
        return
    if TWO_DRAGONS_PUNGS in out:
        if pair in _DRAGONS:
            del out[TWO_DRAGONS_PUNGS]
            out[LITTLE_THREE_DRAGONS] = 1
        return
    if BIG_THREE_WINDS in out and pair in _WINDS:
        del out[BIG_THREE_WINDS]
        out[LITTLE_FOUR_WINDS] = 1


def _set_traits(
    chows: tuple[int, ...], pungs: tuple[int, ...], pair: int, out: dict[int, int]
) -> None:
    """全带幺, 全带五, 全双刻: a property every set and the pair share."""
    outside = five = even = 0
    for c in chows:
        r = c % 10
        outside += r in (0, 6)
        five += r in (2, 3, 4)
    for p in (*pungs, pair):
        r = p % 10
        outside += p >= 30 or r in (0, 8)
        five += p < 30 and r == 4
        even += p < 30 and r in (1, 3, 5, 7)
    if outside == 5:
        out[OUTSIDE_HAND] = 1
    elif five == 5:
        out[ALL_FIVE] = 1
    elif even == 5:
        out[ALL_EVEN_PUNGS] = 1


@cache
def set_fans(
    chows: tuple[int, ...], pungs: tuple[int, ...], pair: int
) -> tuple[tuple[int, int], ...]:
    """The fans of a reading's sets and pair, as (fan index, count).

    ``chows`` (codes of their lowest tiles) and ``pungs`` (kongs included) are sorted.
    """
    out: dict[int, int] = {}
    _single_pungs(pungs, out)
    if len(pungs) == 4:
        out[ALL_PUNGS] = 1
    if len(chows) == 4:
        fan = _terminal_chows(chows, pair)
        if fan is not None:
            out[fan] = 1
        else:
            _four_chows(chows, out)
    elif len(chows) == 3:
        _three_chows_alone(chows, out)
    elif len(chows) == 2:
        fan = _two_chows(*chows)
        if fan is not None:
            out[fan] = 1
    if len(pungs) >= 2:
        _pung_combinations(pungs, out)
    _pair_fans(chows, pair, out)
    _set_traits(chows, pungs, pair, out)
    return tuple(out.items())
