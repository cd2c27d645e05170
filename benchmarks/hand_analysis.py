"""Hand analysis speed: win check, waits and shanten on 10,000 seeded hands.

Prints microseconds per call for our analysis beside PyMahjongGB's shanten and the
``mahjong`` package's shanten on the same hands, in the same run (first pass fills
our per-suit tables and is reported separately as "cold").

    python -m benchmarks.hand_analysis [--hands N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from engine.analysis import ShapeRules, is_complete, shanten, waits
from engine.tiles import counts_of, rank, suit

MCR_SHAPES = ShapeRules(seven_pairs=True, thirteen_orphans=True, knitted=True)
STANDARD_AND_PAIRS = ShapeRules(seven_pairs=True)


def seeded_hands(n: int, seed: int) -> list[list[int]]:
    """13-tile hands: a third straight off a shuffled wall, the rest near a win."""
    rng = random.Random(seed)
    hands = []
    tiles = [k for k in range(34) for _ in range(4)]
    for i in range(n):
        rng.shuffle(tiles)
        if i % 3 == 0:
            hands.append(tiles[:13])
            continue
        counts = [0] * 34
        hand: list[int] = []
        while len(hand) < 12:
            start = rng.randrange(34)
            block = (
                [start, start + 1, start + 2]
                if start < 27 and start % 9 <= 6 and rng.random() < 0.6
                else [start] * 3
            )
            if all(counts[k] + block.count(k) <= 4 for k in block):
                for k in block:
                    counts[k] += 1
                hand.extend(block)
        hand.append(rng.choice([k for k in range(34) if counts[k] < 4]))
        for _ in range(rng.randint(0, 2)):
            hand[rng.randrange(13)] = rng.randrange(34)
        if max(counts_of(hand)) <= 4:
            hands.append(hand)
    return hands


T = TypeVar("T")


def per_call(fn: Callable[[T], object], inputs: Sequence[T]) -> float:
    start = time.perf_counter()
    for item in inputs:
        fn(item)
    return (time.perf_counter() - start) / len(inputs) * 1e6


def gb_name(kind: int) -> str:
    s, r = suit(kind), rank(kind)
    if s < 3:
        return f"{'WBT'[s]}{r}"
    return f"F{r}" if r <= 4 else f"J{r - 4}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    hands = seeded_hands(args.hands, args.seed)
    counts = [counts_of(h) for h in hands]
    fourteen = [counts_of([*h, h[0]]) for h in hands if h.count(h[0]) < 4]
    print(f"{len(hands)} hands (seed {args.seed}); microseconds per call")
    rows = [
        ("shanten, standard + seven pairs (cold)", lambda c: shanten(c, 0, STANDARD_AND_PAIRS)),
        ("shanten, standard + seven pairs", lambda c: shanten(c, 0, STANDARD_AND_PAIRS)),
        ("shanten, every MCR shape", lambda c: shanten(c, 0, MCR_SHAPES)),
        ("waits, standard + seven pairs", lambda c: waits(c, 0, STANDARD_AND_PAIRS)),
        ("waits, every MCR shape", lambda c: waits(c, 0, MCR_SHAPES)),
    ]
    for label, fn in rows:
        print(f"  ours     {label:<42} {per_call(fn, counts):8.1f}")
    print(f"  ours     {'win check (14 tiles)':<42} {per_call(is_complete, fourteen):8.1f}")
    try:
        import MahjongGB
    except ImportError:
        print("  PyMahjongGB is not installed (pip install '.[dev]')")
    else:
        gb_hands = [tuple(gb_name(k) for k in h) for h in hands]
        gb = per_call(lambda h: MahjongGB.MahjongShanten(pack=(), hand=h), gb_hands)
        print(f"  PyMahjongGB shanten, every MCR shape {'':<14} {gb:8.1f}")
    try:
        from mahjong.shanten import Shanten
    except ImportError:
        print("  the mahjong package is not installed (pip install '.[dev]')")
    else:
        calc = Shanten()
        ref = per_call(calc.calculate_shanten, counts)
        print(f"  mahjong  shanten, standard + seven pairs + orphans {'':<2} {ref:8.1f}")


if __name__ == "__main__":
    main()
