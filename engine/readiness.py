"""听牌: what a seat's hand waits on, how many of each it has not seen, and which discards
leave it ready.

A wait is a kind that completes one of the rule set's winning shapes for this seat (its
定缺 and the 宝牌 it holds included, as :meth:`RuleSet.is_complete` judges them), taken
as a discard would be: a 宝牌 coming in counts as itself, as in the calculator's waits.
Whether the win would also reach a rule set's minimum (MCR's 8 fans) is the scorer's
question, not this one. "Left" counts the copies the seat cannot see anywhere: in the
wall or in other hands.

>>> from engine.round import Round
>>> hand = Round.new("guangdong", {}, 1)
>>> readiness(hand, 1).waits
()
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from engine.analysis import shanten
from engine.round import Round
from engine.rules.play import WinHow
from engine.tiles import NUM_KINDS

HAND = 13


@dataclass(frozen=True, slots=True)
class Wait:
    """A kind the hand waits on and the copies of it the seat has not seen."""

    tile: int
    left: int


@dataclass(frozen=True, slots=True)
class ReadyDiscard:
    """A discard that leaves the hand ready, and what it would then wait on."""

    tile: int
    waits: tuple[Wait, ...]


@dataclass(frozen=True, slots=True)
class Readiness:
    """A seat's 听牌: with a full hand of 13 its waits; with 14 (its turn) the discards
    that leave it ready."""

    waits: tuple[Wait, ...] = ()
    discards: tuple[ReadyDiscard, ...] = ()

    def after(self, tile: int) -> tuple[Wait, ...]:
        """What the hand waits on after discarding ``tile`` (nothing if not ready)."""
        return next((d.waits for d in self.discards if d.tile == tile), ())


def readiness(hand: Round, seat: int) -> Readiness:
    """The seat's 听牌 now, as far as its own view shows (worked out once a state)."""
    return hand.derived(("readiness", seat), lambda: _readiness(hand, seat))


def _readiness(hand: Round, seat: int) -> Readiness:
    counts = list(hand.concealed(seat))
    melds = hand.melds(seat)
    size = sum(counts) + 3 * len(melds)
    unseen = hand.view(seat).unseen()
    # What besides the tiles decides the waits, the same for every discard tried below.
    key = hand.ruleset.completion_key(hand, seat)
    if size == HAND:
        return Readiness(waits=_waits(hand, seat, key, counts, unseen))
    # Another tile never takes a hand further from ready: a full hand too far for its
    # best discard to leave it ready is too far after every discard, which spares the
    # test of each one on most turns.
    if size != HAND + 1 or _steps(hand, seat, counts) > 0:
        return Readiness()
    found = []
    for kind in range(NUM_KINDS):
        if not counts[kind]:
            continue
        counts[kind] -= 1
        waits = _waits(hand, seat, key, counts, unseen)
        counts[kind] += 1
        if waits:
            found.append(ReadyDiscard(kind, waits))
    return Readiness(discards=tuple(found))


def _waits(
    hand: Round, seat: int, key: Hashable, counts: list[int], unseen: Sequence[int]
) -> tuple[Wait, ...]:
    """The kinds completing ``counts`` (13 with the melds) for the seat, whose
    completion key is ``key``."""
    kinds = hand.kept(("waits", key, tuple(counts)), lambda: _completing(hand, seat, counts))
    return tuple(Wait(kind, unseen[kind]) for kind in kinds)


def _completing(hand: Round, seat: int, counts: list[int]) -> tuple[int, ...]:
    """The kinds completing ``counts``: the same for the same tiles all hand long (the
    rule set's completion key says what else they depend on), while the copies left
    change with every move."""
    rules = hand.ruleset
    melds = hand.melds(seat)
    if _steps(hand, seat, counts) > 0:
        return ()
    held = list(counts)
    for meld in melds:
        for kind in meld.tiles:
            held[kind] += 1
    out = []
    for kind in sorted(set(rules.tiles)):
        if held[kind] >= 4:
            continue
        counts[kind] += 1
        if rules.is_complete(hand, seat, counts, kind, WinHow.DISCARD):
            out.append(kind)
        counts[kind] -= 1
    return tuple(out)


def _steps(hand: Round, seat: int, counts: Sequence[int]) -> int:
    """The seat's shanten with ``counts``, each wildcard it holds a step nearer: a hand
    of 13 with more than 0 has no wait."""
    wildcard = hand.view(seat).facts.wildcard
    natural = list(counts)
    jokers = 0
    if wildcard is not None:
        jokers, natural[wildcard] = natural[wildcard], 0
    rules = hand.ruleset.shape_rules(hand, seat)
    return shanten(natural, len(hand.melds(seat)), rules) - jokers
