"""Test helpers: our tile kinds in PyMahjongGB's names, and seeded hand generators."""

from __future__ import annotations

import random

from engine.tiles import HONOR, TERMINALS_AND_HONORS, rank, suit

SUIT_LETTERS = "WBT"  # 万, 饼 (筒), 条


def gb_tile(kind: int) -> str:
    """PyMahjongGB names: W/T/B 1-9, F1-4 winds, J1-3 = 中发白 (our 5z-7z)."""
    s, r = suit(kind), rank(kind)
    if s != HONOR:
        return f"{SUIT_LETTERS[s]}{r}"
    return f"F{r}" if r <= 4 else f"J{r - 4}"


def random_set(rng: random.Random, counts: list[int]) -> list[int] | None:
    """A chow or pung that still fits within four copies, or None after a few tries."""
    for _ in range(30):
        if rng.random() < 0.55:
            start = rng.choice([k for k in range(27) if k % 9 <= 6])
            tiles = [start, start + 1, start + 2]
        else:
            tiles = [rng.randrange(34)] * 3
        if all(counts[k] + tiles.count(k) <= 4 for k in tiles):
            return tiles
    return None


def complete_standard(rng: random.Random, melds: int = 0) -> tuple[list[int], list[list[int]]]:
    """(concealed tiles, declared sets) of a random complete standard hand."""
    counts = [0] * 34
    sets: list[list[int]] = []
    while len(sets) < 4:
        tiles = random_set(rng, counts)
        if tiles is None:
            return complete_standard(rng, melds)
        for k in tiles:
            counts[k] += 1
        sets.append(tiles)
    pair = rng.choice([k for k in range(34) if counts[k] <= 2])
    concealed = [k for s in sets[melds:] for k in s] + [pair, pair]
    return concealed, sets[:melds]


def complete_seven_pairs(rng: random.Random) -> list[int]:
    kinds = rng.sample(range(34), 7)
    return [k for k in kinds for _ in range(2)]


def complete_thirteen_orphans(rng: random.Random) -> list[int]:
    return [*TERMINALS_AND_HONORS, rng.choice(TERMINALS_AND_HONORS)]


def complete_honors_and_knitted(
    rng: random.Random, patterns: tuple[tuple[int, ...], ...]
) -> list[int]:
    pool = list(rng.choice(patterns)) + list(range(27, 34))
    return rng.sample(pool, 14)


def complete_knitted_straight(
    rng: random.Random, patterns: tuple[tuple[int, ...], ...]
) -> list[int]:
    while True:
        counts = [0] * 34
        tiles = list(rng.choice(patterns))
        for k in tiles:
            counts[k] += 1
        extra = random_set(rng, counts)
        if extra is None:
            continue
        for k in extra:
            counts[k] += 1
        pair = rng.choice([k for k in range(34) if counts[k] <= 2])
        return [*tiles, *extra, pair, pair]
