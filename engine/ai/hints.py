"""Hand-reading helpers shared by the AI and the bot's suggestions (定缺, 换三张, discards).

Everything works on a seat's concealed tiles as 34 counts; nothing here sees other hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from engine.analysis import HandShape, ShapeRules, suit_frontier


def ai_shapes(rules: ShapeRules | None) -> ShapeRules:
    """The shapes the AI plans for: the rule set's, without the knitted shapes, whose
    shanten is costly and which a planning AI rarely reaches."""
    if rules is None:
        return ShapeRules(seven_pairs=True)
    return ShapeRules(
        seven_pairs=rules.seven_pairs,
        four_as_two_pairs=rules.four_as_two_pairs,
        thirteen_orphans=rules.thirteen_orphans,
        void_suit=rules.void_suit,
    )


def keep_value(counts: Sequence[int], kind: int) -> int:
    """How much a tile holds the hand together: copies and near neighbours of its suit.

    Lower means a better discard; isolated honors and terminals come first.
    """
    value = 3 * (counts[kind] - 1)
    if kind >= 27:
        return value
    rank = kind % 9
    for step, weight in ((1, 2), (2, 1)):
        if rank - step >= 0:
            value += weight * min(counts[kind - step], 2)
        if rank + step <= 8:
            value += weight * min(counts[kind + step], 2)
    return value + (1 if 2 <= rank <= 6 else 0)


def suit_strength(counts: Sequence[int], suit_: int) -> tuple[int, int]:
    """(tiles held, how well they connect) of one suit: the weakest suit is the natural 缺."""
    base = suit_ * 9
    tiles = sum(counts[base : base + 9])
    connect = sum(keep_value(counts, k) for k in range(base, base + 9) if counts[k])
    return tiles, connect


def suggest_void(counts: Sequence[int]) -> int:
    """The suit to declare void (定缺): the fewest tiles, then the least connected."""
    return min(range(3), key=lambda s: suit_strength(counts, s))


def _suit_worth(vec: tuple[int, ...]) -> int:
    """How far one suit's tiles go towards sets: the best 2 x sets + partial sets + pair."""
    return max(2 * m + t + h for m, t, h in suit_frontier(vec))


def can_exchange(counts: Sequence[int]) -> bool:
    """Whether some suit holds the three tiles a 换三张 pile needs."""
    return any(suit_strength(counts, s)[0] >= 3 for s in range(3))


def suggest_exchange(counts: Sequence[int]) -> tuple[int, ...]:
    """Three tiles of one suit to hand on (换三张): from the weakest suit holding at
    least three, the three whose loss leaves that suit's sets and pairs most intact.
    The hand must hold three of some suit (:func:`can_exchange`); 13 tiles of three
    suits always do."""
    candidates = [s for s in range(3) if suit_strength(counts, s)[0] >= 3]
    chosen = min(candidates, key=lambda s: suit_strength(counts, s))
    base = chosen * 9
    held = [k for k in range(base, base + 9) for _ in range(counts[k])]

    def loss(pile: tuple[int, ...]) -> tuple[int, int, tuple[int, ...]]:
        vec = list(counts[base : base + 9])
        for k in pile:
            vec[k - base] -= 1
        return (-_suit_worth(tuple(vec)), sum(keep_value(counts, k) for k in pile), pile)

    return min(set(combinations(held, 3)), key=loss)


@lru_cache(maxsize=1 << 16)
def improving_kinds(counts: tuple[int, ...], melds: int, rules: ShapeRules) -> tuple[int, ...]:
    """The kinds that lower the shanten of a 13-tile hand (cached: a hand that keeps
    discarding what it draws asks again and again)."""
    shape = HandShape(counts, melds, rules)
    return tuple(k for k, v in shape.each_change(1).items() if v < shape.value)


def effective_tiles(
    counts: Sequence[int], melds: int, rules: ShapeRules, unseen: Sequence[int]
) -> int:
    """Unseen copies of the kinds that lower the shanten of a 13-tile hand."""
    return sum(unseen[k] for k in improving_kinds(tuple(counts), melds, rules))
