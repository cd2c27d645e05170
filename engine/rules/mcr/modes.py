"""The dice modes (mcr.md §4.5) and the session's prevalent wind (§1.2): which mode a roll
starts, and the chance values the modes draw from the hand's random generator."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.rules.mcr.options import DICE_MODES

PEEK, LAST_CHANCE, SWAP, WEALTH, PEAK = DICE_MODES

# The double each mode needs: 2-2 火眼金睛 … 6-6 巅峰时刻; 1-1 starts nothing.
_MODE_OF_DOUBLE = {2: PEEK, 3: LAST_CHANCE, 4: SWAP, 5: WEALTH, 6: PEAK}

# 天降财神: one of nine values, uniformly.
WEALTH_VALUES = tuple(range(8, 89, 10))

CHANCE_TILES = 4  # face-down tiles offered in one 妙手回春 chance
ROUND_WINDS = "ESWN"
HANDS_PER_WIND = 4


def dice_mode(dice: tuple[int, int], enabled: Sequence[str]) -> str | None:
    """The mode the hand's dice start, if the table enables it."""
    if dice[0] != dice[1]:
        return None
    mode = _MODE_OF_DOUBLE.get(dice[0])
    return mode if mode in enabled else None


def draw_wealth(rng: random.Random) -> int:
    return rng.choice(WEALTH_VALUES)


def draw_chance_tiles(rng: random.Random, winning: int, decoys: Sequence[int]) -> list[int]:
    """The winning tile and three decoys (repeats allowed), in random order."""
    tiles = [winning, *(rng.choice(decoys) for _ in range(CHANCE_TILES - 1))]
    rng.shuffle(tiles)
    return tiles


def round_wind(hand_number: int) -> str:
    """The prevalent wind of hand ``hand_number`` (1-based): E for hands 1-4, S 5-8,
    W 9-12, N 13-16, then E again."""
    return ROUND_WINDS[(hand_number - 1) // HANDS_PER_WIND % len(ROUND_WINDS)]
