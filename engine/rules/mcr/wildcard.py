"""宝牌 wildcards (spec ``mcr.md`` §4.3, §2.5): what the wildcards of a hand may stand for.

Only wildcards in the concealed part (and the winning tile when self-drawn) substitute.
Rather than trying every kind for every wildcard, the search builds only substitutions
that complete a winning shape: four sets and a pair group by group (``groups``), and each
special form from what it lacks. The substituted hand never holds a fifth copy of a kind.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement

from engine.analysis import KNITTED_PATTERNS, shanten
from engine.rules.mcr.groups import standard_fills
from engine.rules.mcr.scorer import MCR_SHAPES, meld_tile_counts
from engine.tiles import HONORS, NUM_KINDS, TERMINALS_AND_HONORS, HandSpec, counts_of

_ORPHANS = frozenset(TERMINALS_AND_HONORS)


def _seven_pairs(natural: Sequence[int], jokers: int) -> Iterator[tuple[int, ...]]:
    odd = [k for k in range(NUM_KINDS) if natural[k] % 2]
    spare = jokers - len(odd)
    if spare < 0:
        return
    for pairs in combinations_with_replacement(range(NUM_KINDS), spare // 2):
        yield tuple(sorted(odd + [k for k in pairs for _ in range(2)]))


def _thirteen_orphans(natural: Sequence[int], jokers: int) -> Iterator[tuple[int, ...]]:
    held = [k for k in range(NUM_KINDS) if natural[k]]
    if any(k not in _ORPHANS for k in held) or sum(natural[k] > 1 for k in held) > 1:
        return
    if any(natural[k] > 2 for k in held):
        return
    missing = [k for k in TERMINALS_AND_HONORS if not natural[k]]
    if any(natural[k] == 2 for k in held):
        if len(missing) == jokers:
            yield tuple(missing)
        return
    if len(missing) + 1 == jokers:
        for extra in TERMINALS_AND_HONORS:
            yield tuple(sorted((*missing, extra)))


def _honors_and_knitted(natural: Sequence[int], jokers: int) -> Iterator[tuple[int, ...]]:
    held = {k for k in range(NUM_KINDS) if natural[k]}
    if any(natural[k] > 1 for k in held):
        return
    for pattern in KNITTED_PATTERNS:
        allowed = set(pattern) | set(HONORS)
        if held <= allowed:
            yield from combinations(sorted(allowed - held), jokers)


def _knitted_straight(natural: Sequence[int], jokers: int) -> Iterator[tuple[int, ...]]:
    for pattern in KNITTED_PATTERNS:
        missing = [k for k in pattern if not natural[k]]
        if len(missing) > jokers:
            continue
        rest = list(natural)
        for k in pattern:
            if rest[k]:
                rest[k] -= 1
        for fill in standard_fills(rest, jokers - len(missing)):
            yield tuple(sorted((*missing, *fill)))


def completions(
    natural: Sequence[int], jokers: int, melds: Sequence[int]
) -> Iterator[tuple[int, ...]]:
    """Each multiset of ``jokers`` kinds (sorted) that makes a winning shape, once.

    ``natural`` counts the concealed tiles that stay themselves (the declared sets make up
    the rest of the 14), ``melds`` the tiles of the declared melds, which limit copies.
    """
    meld_sets = (14 - sum(natural) - jokers) // 3
    sources = [standard_fills(natural, jokers)]
    if meld_sets == 0:
        sources += [
            _seven_pairs(natural, jokers),
            _thirteen_orphans(natural, jokers),
            _honors_and_knitted(natural, jokers),
        ]
    if meld_sets <= 1:
        sources.append(_knitted_straight(natural, jokers))
    seen: set[tuple[int, ...]] = set()
    for source in sources:
        for fill in source:
            if fill in seen:
                continue
            seen.add(fill)
            if all(natural[k] + melds[k] + fill.count(k) <= 4 for k in set(fill)):
                yield fill


@dataclass(frozen=True, slots=True)
class Substitution:
    """One way the wildcards of a win stand for other tiles.

    ``concealed`` counts the concealed tiles before the winning tile, wildcards replaced;
    ``stood_for`` lists what each wildcard stood for, by position in the hand with the
    winning tile last (the tie-break key of §4.3); ``mapping`` keeps only the wildcards
    that stood for another kind, keyed as in the calculator's output.
    """

    concealed: tuple[int, ...]
    win_tile: int
    stood_for: tuple[int, ...]
    mapping: dict[str, int]


def substitutions(
    hand: HandSpec, win_tile: int, wildcard: int, self_drawn: bool
) -> Iterator[Substitution]:
    """Every substitution of the wildcards that wins, except all standing for themselves."""
    positions = [i for i, k in enumerate(hand.concealed) if k == wildcard]
    win_is_wild = self_drawn and win_tile == wildcard
    natural = counts_of(k for k in hand.concealed if k != wildcard)
    if not win_is_wild:
        natural[win_tile] += 1
    jokers = len(positions) + win_is_wild
    if not jokers:
        return
    melds = meld_tile_counts(hand.melds)
    for fill in completions(natural, jokers, melds):
        win_choices = sorted(set(fill)) if win_is_wild else [win_tile]
        for win in win_choices:
            held = list(fill)
            if win_is_wild:
                held.remove(win)
            stood_for = (*held, win) if win_is_wild else tuple(held)
            if all(k == wildcard for k in stood_for):
                continue
            concealed = list(natural)
            if not win_is_wild:
                concealed[win_tile] -= 1
            for k in held:
                concealed[k] += 1
            mapping = {str(p): k for p, k in zip(positions, held, strict=True) if k != wildcard}
            if win_is_wild and win != wildcard:
                mapping["win"] = win
            yield Substitution(tuple(concealed), win, stood_for, mapping)


def wild_waits(hand: HandSpec, wildcard: int) -> tuple[int, list[int]]:
    """(shanten, waits) of a 13-tile hand whose wildcards may stand for any tile (§2.5).

    Each wildcard brings the hand at most one step closer, and always can, so the shanten is
    that of the other tiles less the wildcards (never below ready). A kind is a wait when the
    hand plus that kind, as a natural tile, wins with some substitution.
    """
    natural = counts_of(k for k in hand.concealed if k != wildcard)
    jokers = len(hand.concealed) - sum(natural)
    melds = len(hand.melds)
    sh = max(0, shanten(natural, melds, MCR_SHAPES) - jokers)
    if sh > 0:
        return sh, []
    meld_counts = meld_tile_counts(hand.melds)
    held = counts_of(hand.all_tiles())
    found = []
    for kind in range(NUM_KINDS):
        if held[kind] >= 4:
            continue
        natural[kind] += 1
        if next(completions(natural, jokers, meld_counts), None) is not None:
            found.append(kind)
        natural[kind] -= 1
    return sh, found
