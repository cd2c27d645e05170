"""The 广东推倒胡 calculator (Contract 1, guangdong.md §2.3).

``total`` is 2 for a big hu and 1 for a small one; ``fans`` lists the enabled big kinds
found, each worth 2, in the spec's table order. 天胡 and 地胡 are the engine's to award.
"""

from __future__ import annotations

from engine.analysis import ShapeRules
from engine.rules.base import FanLine, RuleError, ScoreResult, WinFacts, plain_waits
from engine.rules.guangdong.bighu import SHAPES, BigHuKind, find_kinds, is_winning, win_hand
from engine.rules.guangdong.options import VARIANT, GuangdongOptions
from engine.tiles import HandSpec, MeldType, tile_str

BIG_HU = 2
SMALL_HU = 1


def fan_lines(kinds: tuple[BigHuKind, ...]) -> tuple[FanLine, ...]:
    return tuple(FanLine(k.id, k.zh, k.en, BIG_HU) for k in kinds)


def hu_size(kinds: tuple[BigHuKind, ...]) -> int:
    """S of the settlement tables: 2 for a big hu, 1 for a small one; kinds never stack."""
    return BIG_HU if kinds else SMALL_HU


class GuangdongCalculator:
    variant = VARIANT
    options_type = GuangdongOptions
    options = GuangdongOptions.rows()
    allows_wildcard = False
    shapes: ShapeRules = SHAPES

    def check_hand(self, hand: HandSpec, options: GuangdongOptions) -> None:
        for meld in hand.melds:
            if meld.type is MeldType.CHOW:
                raise RuleError(
                    f"chow meld {meld.notation()} is not allowed in guangdong: "
                    "only pongs and kongs may be melded"
                )

    def score(self, facts: WinFacts, options: GuangdongOptions) -> ScoreResult:
        if facts.wildcard is not None:
            raise RuleError(f"wildcards are not used in {VARIANT}")
        self.check_hand(facts.hand, options)
        hand = win_hand(
            facts.hand.concealed, facts.hand.melds, facts.win_tile, self_drawn=facts.self_drawn
        )
        if not is_winning(hand):
            raise RuleError(
                f"{facts.hand.notation()} with {tile_str(facts.win_tile)} is not a winning hand"
            )
        kinds = find_kinds(hand, options.big_hu_kinds)
        return ScoreResult(total=hu_size(kinds), fans=fan_lines(kinds))

    def waits(
        self, hand: HandSpec, wildcard: int | None, options: GuangdongOptions
    ) -> tuple[int, list[int]]:
        if wildcard is not None:
            raise RuleError(f"wildcards are not used in {VARIANT}")
        self.check_hand(hand, options)
        return plain_waits(hand, self.shapes)


CALCULATOR = GuangdongCalculator()
