"""Hand-reading helpers of the AI's discards: the shapes it plans for and the tiles that
advance a hand. (The set-up suggestions it shares with the rule sets are in
``engine.suggestions``.)

Everything works on a seat's concealed tiles as 34 counts; nothing here sees other hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.analysis import HandShape, ShapeRules


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
