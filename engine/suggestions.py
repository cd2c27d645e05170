"""What a hand's own tiles suggest: the suit to declare void (定缺), the pile to hand on
(换三张), and the tile values they rank by.

Rule sets offer these as their suggestions and time-out answers; the AI plays them too.
Everything works on a seat's concealed tiles as 34 counts; nothing here sees other hands.

>>> from engine.tiles import counts_of, format_tiles, parse_tiles
>>> hand = counts_of(parse_tiles("19m1234567p2379s"))
>>> "mps"[suggest_void(hand)], format_tiles(suggest_exchange(hand))
('m', '279s')
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from engine.analysis import suit_frontier


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
