"""Seeded shuffles, dice and the deal.

The engine never draws on global randomness: a hand's chance is a ``random.Random``
seeded with the hand's seed, so the same seed always gives the same dice and wall.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.tiles import ALL_KINDS, SUITED_KINDS, full_set

TILES_136 = tuple(full_set(ALL_KINDS))
TILES_108 = tuple(full_set(SUITED_KINDS))


def roll_dice(rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def shuffled(tiles: Sequence[int], rng: random.Random) -> list[int]:
    out = list(tiles)
    rng.shuffle(out)
    return out


@dataclass(frozen=True, slots=True)
class Deal:
    """Four dealt hands (seat 0 = dealer with 14 tiles) and the undealt wall, front first."""

    hands: tuple[tuple[int, ...], ...]
    wall: tuple[int, ...]


def deal(tiles: Sequence[int]) -> Deal:
    """Deal from the front: 4 each three times, then 1 each, then the dealer's 14th."""
    hands: list[list[int]] = [[], [], [], []]
    pos = 0
    for _ in range(3):
        for seat in range(4):
            hands[seat].extend(tiles[pos : pos + 4])
            pos += 4
    for seat in range(4):
        hands[seat].append(tiles[pos])
        pos += 1
    hands[0].append(tiles[pos])
    pos += 1
    return Deal(tuple(tuple(h) for h in hands), tuple(tiles[pos:]))


def first_dealer_chair(dice: tuple[int, int]) -> int:
    """Chair (d1 + d2 - 1) mod 4, counting chair 0 as 1 (sum 7 -> chair 2)."""
    return (dice[0] + dice[1] - 1) % 4


def seed_fingerprint(seed: int | str) -> str:
    """SHA-256 of the seed's text: shown before a hand, the seed revealed after it."""
    return hashlib.sha256(str(seed).encode()).hexdigest()
