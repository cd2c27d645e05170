"""The course of a 四川 hand as pure rules: 换三张 maps, 定缺 checks and the next dealer.

The round engine's plug-in (``ruleset``) asks these; they know nothing of the engine's
state, so each can be checked on its own.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from itertools import permutations
from typing import Any

from engine.errors import Refusal
from engine.rules.sichuan.options import SUIT_LETTERS
from engine.rules.sichuan.settle import SEATS
from engine.tiles import format_tiles, suit, tile_str

PILE_SIZE = 3

# Every mapping of the four piles that sends none back to its owner (§1 Phase 1, D3).
DERANGEMENTS: tuple[tuple[int, ...], ...] = tuple(
    p for p in permutations(range(SEATS)) if all(p[i] != i for i in range(SEATS))
)
DIRECTION_MAPS: dict[str, tuple[int, ...]] = {
    "counterclockwise": (1, 2, 3, 0),  # each pile to 下家
    "clockwise": (3, 0, 1, 2),  # to 上家
    "opposite": (2, 3, 0, 1),  # to 对家
}


def draw_exchange_map(rng: random.Random) -> list[int]:
    """``exchange_direction: "random"``: one of the nine derangements, uniformly."""
    return list(rng.choice(DERANGEMENTS))


def exchange_map_error(value: Any) -> str | None:
    """Why a script's ``exchange_map`` is not valid, or None."""
    if not (
        isinstance(value, list)
        and len(value) == SEATS
        and all(isinstance(t, int) and not isinstance(t, bool) for t in value)
    ):
        return "exchange_map must be a list of four seats, e.g. [1, 2, 3, 0]"
    if sorted(value) != list(range(SEATS)):
        return "exchange_map must send the four piles to four different seats"
    for seat, target in enumerate(value):
        if seat == target:
            return f"exchange_map sends seat {seat}'s pile to itself"
    return None


def exchange_refusal(seat: int, held: Sequence[int], tiles: Sequence[int]) -> Refusal | None:
    """Why ``seat`` may not hand on ``tiles`` (three of one suit, all held), or None."""
    if len(tiles) != PILE_SIZE:
        return Refusal("exchange_count", f"seat {seat} must pick exactly 3 tiles, not {len(tiles)}")
    if len({suit(k) for k in tiles}) != 1:
        return Refusal(
            "exchange_mixed_suits",
            f"seat {seat} must pick 3 tiles of one suit, not {format_tiles(tiles)}",
        )
    for kind in set(tiles):
        if held[kind] < list(tiles).count(kind):
            return Refusal("exchange_not_held", f"seat {seat} does not hold {format_tiles(tiles)}")
    return None


def holds_void(held: Sequence[int], void: int) -> bool:
    """Whether the concealed counts ``held`` include a tile of the ``void`` suit. Only
    that suit's nine counts are read: every legal-discard check asks this."""
    start = void * 9
    return any(held[start : start + 9])


def discard_refusal(seat: int, held: Sequence[int], void: int, kind: int) -> Refusal | None:
    """定缺: while any void tile is held, every discard must be one of them."""
    if suit(kind) != void and holds_void(held, void):
        letter = SUIT_LETTERS[void]
        return Refusal(
            "void_first",
            f"seat {seat} must discard a {letter} tile (its void suit) while holding one",
        )
    return None


def meld_refusal(seat: int, void: int, kind: int, meld: str) -> Refusal | None:
    """No pong or kong of the void suit, from a discard, concealed or added [D4]."""
    if suit(kind) == void:
        letter = SUIT_LETTERS[void]
        return Refusal(
            "void_meld", f"seat {seat} cannot {meld} {tile_str(kind)}: {letter} is its void suit"
        )
    return None


def win_refusal(seat: int, held: Sequence[int], void: int) -> Refusal | None:
    """A seat holding void-suit tiles cannot win, whatever its shape."""
    if holds_void(held, void):
        return Refusal("void_held", f"seat {seat} holds void-suit tiles")
    return None


def next_dealer(first_event: tuple[int | None, Collection[int]] | None) -> int:
    """The seat of this hand that deals next [D7].

    ``first_event`` is the hand's first win event as (payer, winners): the payer is the
    discarder or robbed seat (None for a self-draw). None when nobody won: the dealer stays.
    """
    if first_event is None:
        return 0
    payer, winners = first_event
    if len(winners) > 1 and payer is not None:
        return payer
    return next(iter(winners))
