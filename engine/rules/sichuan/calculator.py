"""The 四川 血战到底 calculator (Contract 1, sichuan.md §3 "Calculator").

``total`` is C, the 番 after the table's cap; ``fans`` lists the atoms with their uncapped
values. 杠上炮, 天胡 and 地胡 depend on the course of the hand, which the calculator's
input cannot express, so only the round engine awards them.
"""

from __future__ import annotations

from collections.abc import Collection

from engine.rules.base import RuleError, ScoreResult, WinFacts
from engine.rules.sichuan.hand import (
    MAX_SUITS,
    SUITS,
    missing_suits,
    ready_shanten,
    ready_waits,
    score_hand,
)
from engine.rules.sichuan.options import SUIT_LETTERS, VARIANT, CalculatorOptions
from engine.rules.sichuan.patterns import Situation
from engine.tiles import HandSpec, MeldType, counts_of, is_honor, suit, tile_str


def _void_of(options: CalculatorOptions) -> int | None:
    letter = options.void_suit
    return None if letter is None else SUIT_LETTERS.index(letter)


def _suit_names(suits: Collection[int]) -> str:
    letters = [SUIT_LETTERS[s] for s in sorted(suits)]
    return ", ".join(letters[:-1]) + " and " + letters[-1]


def situation_of(facts: WinFacts) -> Situation:
    """The calculator's flags: ``kong_related`` is 杠上花 when self-drawn, else 抢杠."""
    return Situation(
        self_drawn=facts.self_drawn,
        kong_bloom=facts.self_drawn and facts.kong_related,
        robbing_kong=not facts.self_drawn and facts.kong_related,
        last_tile=facts.last_tile,
    )


class SichuanCalculator:
    variant = VARIANT
    options_type = CalculatorOptions
    options = CalculatorOptions.rows()
    allows_wildcard = False

    def check_hand(self, hand: HandSpec, options: CalculatorOptions) -> None:
        if any(is_honor(k) for k in hand.all_tiles()):
            raise RuleError(f"honor tiles are not used in {VARIANT}")
        for meld in hand.melds:
            if meld.type is MeldType.CHOW:
                raise RuleError(
                    f"chow meld {meld.notation()} is not allowed in {VARIANT}: "
                    "only pongs and kongs may be melded"
                )

    def score(self, facts: WinFacts, options: CalculatorOptions) -> ScoreResult:
        if facts.wildcard is not None:
            raise RuleError(f"wildcards are not used in {VARIANT}")
        self.check_hand(facts.hand, options)
        if is_honor(facts.win_tile):
            raise RuleError(f"honor tiles are not used in {VARIANT}")
        tiles = [*facts.hand.all_tiles(), facts.win_tile]
        held = {suit(k) for k in tiles}
        if len(held) > MAX_SUITS:
            raise RuleError(
                f"a {VARIANT} hand holds at most two suits; this one holds {_suit_names(held)}"
            )
        void = _void_of(options)
        if void is not None and void in held:
            raise RuleError(f"the hand holds {SUIT_LETTERS[void]} tiles, its void suit")
        counts = counts_of([*facts.hand.concealed, facts.win_tile])
        found = score_hand(counts, facts.hand.melds, facts.win_tile, situation_of(facts), options)
        if found is None:
            raise RuleError(
                f"{facts.hand.notation()} with {tile_str(facts.win_tile)} is not a winning hand"
            )
        return ScoreResult(total=options.capped(found.fan), fans=found.fans)

    def waits(
        self, hand: HandSpec, wildcard: int | None, options: CalculatorOptions
    ) -> tuple[int, list[int]]:
        """Shanten and waits under the void suit; without one, the missing suit is void.

        A hand holding all three suits must lose one of them, so its shanten is the best
        over the three choices; it has no waits.
        """
        if wildcard is not None:
            raise RuleError(f"wildcards are not used in {VARIANT}")
        counts = counts_of(hand.concealed)
        named = _void_of(options)
        voids = (named,) if named is not None else missing_suits(counts, hand.melds) or SUITS
        sh = min(ready_shanten(counts, hand.melds, v) for v in voids)
        found = {k for v in voids for k in ready_waits(counts, hand.melds, v)}
        return sh, sorted(found)


CALCULATOR = SichuanCalculator()
