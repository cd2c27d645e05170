"""Reading a hand in play (mcr.md §1.6, §2.4, §4.3): wins and readiness with wildcards and
the course-of-hand fans."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from engine.analysis import is_complete, shanten
from engine.rules.base import FanLine
from engine.rules.mcr.calculator import CALCULATOR
from engine.rules.mcr.fans import GOD_OF_WEALTH
from engine.rules.mcr.options import DEALER, McrOptions
from engine.rules.mcr.scorer import MCR_SHAPES, meld_tile_counts
from engine.rules.mcr.wildcard import completions
from engine.rules.play import HandState, WinContext, WinHow
from engine.tiles import NUM_KINDS, HandSpec, Meld, kinds_of


def _jokers(
    counts: Sequence[int], wildcard: int | None, claimed: int | None = None
) -> tuple[list[int], int]:
    """(natural counts, wildcards): every wild-kind tile counted as a wildcard, except a
    ``claimed`` tile (won on a discard or a robbed kong), which stays itself."""
    natural = list(counts)
    if wildcard is None:
        return natural, 0
    kept = 1 if claimed == wildcard else 0
    jokers = natural[wildcard] - kept
    natural[wildcard] = kept
    return natural, jokers


def complete_with_wildcards(
    counts: Sequence[int],
    melds: Sequence[Meld],
    wildcard: int | None,
    claimed: int | None = None,
) -> bool:
    """Whether 14 tiles (with the melds) win, natural or with wildcards substituted; a
    ``claimed`` winning tile (not self-drawn) never substitutes (§4.3)."""
    if is_complete(counts, len(melds), MCR_SHAPES, [m.kind for m in melds]):
        return True
    natural, jokers = _jokers(counts, wildcard, claimed)
    if not jokers:
        return False
    return next(completions(natural, jokers, meld_tile_counts(melds)), None) is not None


def wild_shanten(counts: Sequence[int], melds: int, wildcard: int | None) -> int:
    """A lower bound of the shanten: each wildcard can bring the hand one step closer."""
    natural, jokers = _jokers(counts, wildcard)
    return shanten(natural, melds, MCR_SHAPES) - jokers


@lru_cache(maxsize=1 << 14)
def ready_discards(
    counts: tuple[int, ...], melds: tuple[Meld, ...], wildcard: int | None
) -> frozenset[int]:
    """The kinds whose discard leaves the hand ready (§2.4 报听): some kind would complete
    a winning shape, wildcards included. Cached: a turn asks once per discardable kind."""
    if wild_shanten(counts, len(melds), wildcard) > 0:
        return frozenset()
    out = set()
    held = list(counts)
    for kind in range(NUM_KINDS):
        if not held[kind]:
            continue
        held[kind] -= 1
        hand = HandSpec(tuple(kinds_of(held)), melds)
        if CALCULATOR.waits(hand, wildcard, McrOptions())[1]:
            out.add(kind)
        held[kind] += 1
    return frozenset(out)


def course_fans(state: HandState[Any], win: WinContext) -> list[str]:
    """The extra fans of §2.4 this win earned by the course of the hand."""
    fans = []
    if win.seat == DEALER and win.self_drawn and win.draws == 0 and win.discards_before == 0:
        fans.append("heavenly_hand")
    if (
        win.how is WinHow.DISCARD
        and win.from_seat == DEALER
        and win.discards_before == 0
        and not state.kongs
    ):
        fans.append("earthly_hand")
    ready = win.ready
    if ready is not None:
        first = ready.discard_number == 0 and ready.melds_before == 0
        fans.append("heavenly_ready" if first else "declared_ready")
    return fans


def wealth_last(fans: Sequence[FanLine]) -> tuple[FanLine, ...]:
    """The fans with 天降财神 moved after the hand's own fans (§6.3 P4): it comes from
    the dice, not from the tiles."""
    return (
        *(f for f in fans if f.id != GOD_OF_WEALTH.id),
        *(f for f in fans if f.id == GOD_OF_WEALTH.id),
    )
