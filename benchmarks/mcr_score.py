"""MCR scoring speed: our scorer beside PyMahjongGB on the same seeded winning hands.

Prints microseconds per hand for ``engine.rules.mcr.calculator.score_win`` (facts in,
full result out) and for PyMahjongGB's ``MahjongFanCalculator``, in the same run. Our
first pass also fills the per-suit and per-combination tables and is reported as "cold";
"warm" is a second pass over the same hands. Then the time for hands with four
wildcards (宝牌), each scored once with cold substitution tables.

    python -m benchmarks.mcr_score [--hands N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence

import MahjongGB

from engine.rules.base import WinFacts
from engine.rules.mcr.calculator import score_win
from engine.rules.mcr.options import McrOptions
from engine.rules.mcr.samples import random_win, reference_arguments
from engine.tiles import parse_hand, parse_tile

TARGET_US = 100.0  # 25 × the reference's ~4 µs
# Four wildcards (中): held four times, or three times with a self-drawn fourth.
FOUR_WILDCARDS = (
    ("123m456p789sCCCC", "5s", False),
    ("123m456p789s5sCCC", "C", True),
    ("19m19p19sESWCCCC", "N", False),
    ("12m5p99pEECCC[123s]", "C", True),
)


def _per_item_us(items: Sequence[object], call: Callable[[object], object]) -> float:
    start = time.perf_counter()
    for item in items:
        call(item)
    return (time.perf_counter() - start) / len(items) * 1e6


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    hands = [random_win(rng) for _ in range(args.hands)]
    options = McrOptions()
    reference = [reference_arguments(facts) for facts in hands]

    def ours(facts: object) -> object:
        assert isinstance(facts, WinFacts)
        return score_win(facts, options)

    def theirs(kwargs: object) -> object:
        assert isinstance(kwargs, dict)
        return MahjongGB.MahjongFanCalculator(**kwargs)

    cold = _per_item_us(hands, ours)
    warm = _per_item_us(hands, ours)
    ref = _per_item_us(reference, theirs)
    print(f"MCR scoring, {args.hands} seeded winning hands (seed {args.seed})")
    print(f"  ours, cold     {cold:8.1f} µs/hand  ({cold / ref:5.1f}× the reference)")
    print(f"  ours, warm     {warm:8.1f} µs/hand  ({warm / ref:5.1f}× the reference)")
    print(f"  PyMahjongGB    {ref:8.1f} µs/hand")
    print(f"  target         {TARGET_US:8.1f} µs/hand  {'met' if cold <= TARGET_US else 'MISSED'}")
    print("Four wildcards (中 wild), substitution search:")
    for hand, win, self_drawn in FOUR_WILDCARDS:
        facts = WinFacts(
            hand=parse_hand(hand),
            win_tile=parse_tile(win),
            self_drawn=self_drawn,
            wildcard=parse_tile("C"),
        )
        start = time.perf_counter()
        result = score_win(facts, options)
        elapsed = (time.perf_counter() - start) * 1e3
        print(f"  {hand} + {win:<2}  {elapsed:7.1f} ms  total {result.total}")


if __name__ == "__main__":
    main()
