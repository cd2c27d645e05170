"""Seeded random winning MCR hands of every shape, for tests, benchmarks and demos.

``random_win(rng)`` draws one complete hand with its winning tile, win flags and winds.
Standard hands draw their sets from a small palette of suits, ranks and honors, so
flushes, rank ranges, shifted and mixed combinations, wind and dragon fans come up
often; themed draws bring the rarer combinations (双龙会, 全带五, 绿一色, 大四喜 …).
Each set is concealed or declared (chow, pung, exposed or concealed kong). The special
shapes (七对, 连七对, 十三幺, 全不靠, 七星不靠, 组合龙 with a set and a pair, 九莲宝灯)
have their own draws. ``reference_arguments`` states a win the way PyMahjongGB, the
spec's reference calculator, takes it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from engine.analysis import KNITTED_PATTERNS
from engine.rules.base import WinFacts
from engine.tiles import DRAGONS, HONORS, TERMINALS_AND_HONORS, WINDS, HandSpec, Meld, MeldType

_Shape = tuple[list[int], list[Meld]]  # all concealed tiles (winning tile included), melds


# Rank ranges that make 全小, 全中, 全大, 小于五, 大于五, 全双刻, 清幺九 and 双龙会 likely.
_RANKS = (
    *[tuple(range(1, 10))] * 6,
    (1, 9),
    (1, 2, 3),
    (4, 5, 6),
    (7, 8, 9),
    (1, 2, 3, 4),
    (6, 7, 8, 9),
    (2, 4, 6, 8),
    (1, 2, 3, 5, 7, 8, 9),
)


def _palette(rng: random.Random) -> list[int]:
    suits = rng.sample(range(3), rng.choice((0, 1, 1, 2, 2, 3, 3)))
    ranks = rng.choice(_RANKS)
    kinds = [s * 9 + r - 1 for s in suits for r in ranks]
    honors = rng.choice(((), WINDS, DRAGONS, HONORS, rng.sample(HONORS, 2)))
    return kinds + list(honors) if kinds or honors else list(HONORS)


def _chowable(kind: int, palette: Sequence[int] = ()) -> bool:
    return (
        kind < 27
        and kind % 9 <= 6
        and (not palette or (kind + 1 in palette and kind + 2 in palette))
    )


def _declare(rng: random.Random, kind: int, chow: bool, open_rate: float) -> _Shape:
    """A chow or pung at ``kind``: its concealed tiles, or the meld declaring it."""
    if chow:
        if rng.random() < open_rate:
            return [], [Meld(MeldType.CHOW, kind, claimed=kind)]
        return [kind, kind + 1, kind + 2], []
    if rng.random() < 0.1:
        return [], [Meld(MeldType.CONCEALED_KONG, kind)]
    if rng.random() < open_rate:
        meld_type = MeldType.KONG if rng.random() < 0.3 else MeldType.PUNG
        return [], [Meld(meld_type, kind, claimed=kind)]
    return [kind] * 3, []


def _valid(concealed: list[int], melds: list[Meld]) -> bool:
    held = concealed + [k for m in melds for k in m.tiles]
    return all(held.count(k) <= 4 for k in set(held))


def _build(rng: random.Random, sets: Sequence[tuple[int, bool]], pair: int) -> _Shape | None:
    """Four sets, given as (kind, is a chow), and a pair; each set concealed or declared."""
    open_rate = rng.choice((0.0, 0.2, 0.5, 0.9))
    concealed = [pair, pair]
    melds: list[Meld] = []
    for kind, chow in sets:
        tiles, declared = _declare(rng, kind, chow, open_rate)
        concealed.extend(tiles)
        melds.extend(declared)
    return (concealed, melds) if _valid(concealed, melds) else None


def _standard(rng: random.Random) -> _Shape | None:
    palette = _palette(rng)
    kinds = [rng.choice(palette) for _ in range(4)]
    sets = [(k, _chowable(k, palette) and rng.random() < 0.6) for k in kinds]
    return _build(rng, sets, rng.choice(palette))


def _terminal_chows(rng: random.Random) -> _Shape | None:
    """123 and 789 chows around a pair of 5s: 一色双龙会 or 三色双龙会, or nearly."""
    a, b, c = rng.sample(range(3), 3)
    suits = (a, a, a, a) if rng.random() < 0.5 else (b, b, c, c)
    sets = [(s * 9 + 6 * (i % 2), rng.random() < 0.9) for i, s in enumerate(suits)]
    return _build(rng, sets, a * 9 + 4)


def _wind_pungs(rng: random.Random) -> _Shape | None:
    """Pungs of three or four winds: 三风刻, 小四喜, 大四喜."""
    palette = [*WINDS, *_palette(rng)]
    kinds = [*rng.sample(WINDS, rng.choice((3, 4))), rng.choice(palette)][:4]
    sets = [(k, _chowable(k, palette) and rng.random() < 0.6) for k in kinds]
    return _build(rng, sets, rng.choice(palette))


def _all_five(rng: random.Random) -> _Shape | None:
    """Sets and a pair that all hold a 5: 全带五."""
    sets = []
    for _ in range(4):
        s = rng.randrange(3)
        sets.append((s * 9 + 4, False) if rng.random() < 0.2 else (s * 9 + rng.randint(2, 4), True))
    return _build(rng, sets, rng.randrange(3) * 9 + 4)


def _shifted(rng: random.Random) -> _Shape | None:
    """Three or four sets stepping through one suit, or the same step across the suits:
    步高, 节高, 同顺, 同刻 and 龙 of one suit or three."""
    chow = rng.random() < 0.5
    step = rng.choice((0, 1, 1, 2, 3) if chow else (0, 1))
    mixed = rng.random() < 0.5
    start = rng.randrange(7 - 2 * step if chow else 9 - 3 * step)
    suits = rng.sample(range(3), 3) if mixed else [rng.randrange(3)] * 3
    sets = [(suits[i] * 9 + start + i * step, chow) for i in range(3)]
    fourth = rng.randrange(34)
    sets.append((fourth, _chowable(fourth) and rng.random() < 0.5))
    return _build(rng, sets, rng.randrange(34))


def _green(rng: random.Random) -> _Shape | None:
    """Only 23468 of bamboo and 发: 绿一色."""
    palette = [19, 20, 21, 23, 25, 32]
    kinds = [rng.choice(palette) for _ in range(4)]
    sets = [(k, k == 19 and rng.random() < 0.6) for k in kinds]
    return _build(rng, sets, rng.choice(palette))


def _plain(rng: random.Random) -> _Shape | None:
    """Declared chows in all three suits around an honor pair: often 无番和."""
    sets = [(rng.randrange(3) * 9 + rng.randrange(7), True) for _ in range(4)]
    return _build(rng, sets, rng.choice(HONORS))


def _seven_pairs(rng: random.Random) -> _Shape | None:
    palette = _palette(rng)
    tiles = [k for _ in range(7) for k in [rng.choice(palette)] * 2]
    return (tiles, []) if _valid(tiles, []) else None


def _seven_shifted_pairs(rng: random.Random) -> _Shape:
    start = rng.randrange(3) * 9 + rng.randrange(3)
    return [k for k in range(start, start + 7) for _ in range(2)], []


def _thirteen_orphans(rng: random.Random) -> _Shape:
    return [*TERMINALS_AND_HONORS, rng.choice(TERMINALS_AND_HONORS)], []


def _honors_and_knitted(rng: random.Random) -> _Shape:
    pattern = rng.choice(KNITTED_PATTERNS)
    suited = rng.randint(7, 9)
    return sorted(rng.sample(pattern, suited)) + rng.sample(HONORS, 14 - suited), []


def _knitted_straight(rng: random.Random) -> _Shape | None:
    kind = rng.randrange(34)
    tiles, melds = _declare(
        rng, kind, _chowable(kind) and rng.random() < 0.6, rng.choice((0.0, 0.5))
    )
    pair = rng.randrange(34)
    hand = [*rng.choice(KNITTED_PATTERNS), *tiles, pair, pair]
    return (hand, melds) if _valid(hand, melds) else None


def _nine_gates(rng: random.Random) -> _Shape:
    s = rng.randrange(3) * 9
    base = [s] * 3 + [s + r for r in range(1, 8)] + [s + 8] * 3
    return [*base, s + rng.randrange(9)], []


_SHAPES: tuple[tuple[Callable[[random.Random], _Shape | None], int], ...] = (
    (_standard, 56),
    (_terminal_chows, 2),
    (_wind_pungs, 3),
    (_all_five, 2),
    (_shifted, 4),
    (_green, 1),
    (_plain, 2),
    (_seven_pairs, 8),
    (_seven_shifted_pairs, 2),
    (_thirteen_orphans, 3),
    (_honors_and_knitted, 6),
    (_knitted_straight, 8),
    (_nine_gates, 3),
)


def random_win(rng: random.Random) -> WinFacts:
    """One winning hand: shape, winning tile, flags and winds all drawn from ``rng``."""
    draws, weights = zip(*_SHAPES, strict=True)
    while True:
        shape = rng.choices(draws, weights)[0](rng)
        if shape is not None:
            break
    tiles, melds = shape
    tiles = list(tiles)
    rng.shuffle(tiles)
    win_tile = tiles.pop()
    return WinFacts(
        hand=HandSpec(tuple(tiles), tuple(melds)),
        win_tile=win_tile,
        self_drawn=rng.random() < 0.5,
        seat_wind=rng.randrange(4),
        round_wind=rng.randrange(4),
        fourth_tile=rng.random() < 0.25,
        kong_related=rng.random() < 0.25,
        last_tile=rng.random() < 0.2,
    )


# PyMahjongGB's tile names: W 万, B 饼 (筒), T 条, F1-F4 东南西北, J1-J3 中发白.
REFERENCE_TILES = tuple(
    [f"W{r}" for r in range(1, 10)]
    + [f"B{r}" for r in range(1, 10)]
    + [f"T{r}" for r in range(1, 10)]
    + [f"F{r}" for r in range(1, 5)]
    + [f"J{r}" for r in range(1, 4)]
)
_REFERENCE_PACKS = {
    MeldType.CHOW: "CHI",
    MeldType.PUNG: "PENG",
    MeldType.KONG: "GANG",
    MeldType.CONCEALED_KONG: "GANG",
}


def reference_arguments(facts: WinFacts) -> dict[str, Any]:
    """The keyword arguments of PyMahjongGB's ``MahjongFanCalculator`` for a win.

    PyMahjongGB 1.4.0 is the spec's reference (``mcr.md`` §7); tests and benchmarks call
    it with these. A chow is named by its middle tile; a meld's offer is 1 (claimed from
    the previous player) except a concealed kong's, 0.
    """
    packs = tuple(
        (
            _REFERENCE_PACKS[m.type],
            REFERENCE_TILES[m.kind + 1 if m.type is MeldType.CHOW else m.kind],
            0 if m.type is MeldType.CONCEALED_KONG else 1,
        )
        for m in facts.hand.melds
    )
    return {
        "pack": packs,
        "hand": tuple(REFERENCE_TILES[k] for k in facts.hand.concealed),
        "winTile": REFERENCE_TILES[facts.win_tile],
        "flowerCount": 0,
        "isSelfDrawn": facts.self_drawn,
        "is4thTile": facts.fourth_tile,
        "isAboutKong": facts.kong_related,
        "isWallLast": facts.last_tile,
        "seatWind": facts.seat_wind,
        "prevalentWind": facts.round_wind,
        "verbose": True,
    }
