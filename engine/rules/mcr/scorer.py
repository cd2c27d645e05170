"""Score one MCR win: every reading of the tiles, the highest total kept (spec §2.2, §2.5).

A *reading* is one split of the 14 tiles: four sets and a pair (one per decomposition of
the concealed tiles, the declared melds fixed), or one special form (七对/连七对, 十三幺,
全不靠/七星不靠, 组合龙 with a set and a pair). ``HandContext`` holds what every reading
of a hand shares (tile fans, win-method fans, the wait count); each reading adds its own
fans, applies the exclusions (``fans.resolve``) and totals. The winning tile is placed in
every position it can take: a discarded winning tile that can sit in a concealed chow
leaves the pung of its kind concealed, and the wait fans take the best position.

The results match the reference implementation PyMahjongGB 1.4.0 (§7, decision 1),
including its three corrections of the win flags.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import compress

from engine.analysis import KNITTED_PATTERNS, BlockType, Decomposition, ShapeRules, decompositions
from engine.rules.mcr.combos import CODE, set_fans
from engine.rules.mcr.fans import INDEX, OFFICIAL_MASK, resolve
from engine.rules.mcr.groups import standard_waits
from engine.tiles import (
    DRAGONS,
    HONORS,
    NUM_KINDS,
    TERMINALS,
    TERMINALS_AND_HONORS,
    WINDS,
    Meld,
    MeldType,
)

# Every MCR winning shape; four identical tiles may stand as two of seven pairs (§2.1 row 19).
MCR_SHAPES = ShapeRules(
    seven_pairs=True, four_as_two_pairs=True, thirteen_orphans=True, knitted=True
)

_I = INDEX
PUNG_OF_TERMINALS_OR_HONORS = _I["pung_of_terminals_or_honors"]
BIG_THREE_WINDS = _I["big_three_winds"]
PREVALENT_WIND = _I["prevalent_wind"]
SEAT_WIND = _I["seat_wind"]
NINE_GATES = _I["nine_gates"]
CHICKEN_HAND = _I["chicken_hand"]
SEVEN_PAIRS = _I["seven_pairs"]
PURE_TRIPLE_CHOW = _I["pure_triple_chow"]
TRIPLE_PUNG = _I["triple_pung"]
KNITTED_STRAIGHT = _I["knitted_straight"]
ALL_CHOWS = _I["all_chows"]
TILE_HOG = _I["tile_hog"]
EDGE_WAIT = _I["edge_wait"]
CLOSED_WAIT = _I["closed_wait"]
SINGLE_WAIT = _I["single_wait"]

# 推不倒: 1234589p, 245689s and 白 look the same upside down. 绿一色: 23468s and 发.
_REVERSIBLE = frozenset((9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33))
_GREEN = frozenset((19, 20, 21, 23, 25, 32))
_TERMINALS = frozenset(TERMINALS)
_TERMINALS_AND_HONORS = frozenset(TERMINALS_AND_HONORS)
_HONORS = frozenset(HONORS)
_WIND_SET = frozenset(WINDS)
_DRAGON_SET = frozenset(DRAGONS)
# The reference reads tiles in the suit order 万, 条, 饼 (see ``combos``).
_REFERENCE_ORDER = (*range(0, 9), *range(18, 27), *range(9, 18), *range(27, 34))
_REFERENCE_POSITION = {k: i for i, k in enumerate(_REFERENCE_ORDER)}
_ORPHANS = TERMINALS_AND_HONORS
_KINDS = range(NUM_KINDS)
_PATTERN_SETS = tuple(frozenset(p) for p in KNITTED_PATTERNS)


@dataclass(frozen=True, slots=True)
class Win:
    """The tiles and facts of one win, the flags already corrected (``corrected_win``).

    ``concealed`` counts the concealed tiles before the winning tile (34 counts).
    Winds are 0..3 (东南西北).
    """

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: int
    self_drawn: bool = False
    fourth_tile: bool = False
    kong_related: bool = False
    last_tile: bool = False
    seat_wind: int = 0
    round_wind: int = 0


@dataclass(frozen=True, slots=True)
class Reading:
    """The fans of one reading after the exclusions: (fan index, count) in priority order."""

    total: int
    fans: tuple[tuple[int, int], ...]

    def has(self, index: int) -> bool:
        return any(i == index for i, _ in self.fans)


def meld_tile_counts(melds: Iterable[Meld]) -> list[int]:
    counts = [0] * NUM_KINDS
    for m in melds:
        for k in m.tiles:
            counts[k] += 1
    return counts


def corrected_win(
    concealed: Sequence[int],
    melds: tuple[Meld, ...],
    win_tile: int,
    *,
    self_drawn: bool = False,
    fourth_tile: bool = False,
    kong_related: bool = False,
    last_tile: bool = False,
    seat_wind: int = 0,
    round_wind: int = 0,
) -> Win:
    """A ``Win`` with the reference's corrections of the flags (§2.5).

    和绝张 is impossible while another copy sits in the concealed hand and certain when the
    melds show three; 杠上开花 needs a kong; 抢杠和 needs a tile seen nowhere else in the hand.
    """
    declared = _declared(melds)
    in_melds = declared.counts[win_tile]
    in_hand = concealed[win_tile] > 0
    fourth = (fourth_tile and not in_hand) or in_melds == 3
    kong = kong_related
    if kong and self_drawn and not declared.melded_kongs + declared.concealed_kongs:
        kong = False
    if kong and not self_drawn and (in_melds or in_hand):
        kong = False
    return Win(
        tuple(concealed),
        melds,
        win_tile,
        self_drawn,
        fourth,
        kong,
        last_tile,
        seat_wind,
        round_wind,
    )


# -- fans of the tiles alone ------------------------------------------------------------


def _suit_fans(kinds: frozenset[int], out: dict[int, int]) -> None:
    suits = {k // 9 for k in kinds if k < 27}
    honors = kinds & _HONORS
    if not honors:
        out[_I["no_honors"]] = 1
    missing = 3 - len(suits)
    if missing == 1:
        out[_I["one_voided_suit"]] = 1
    elif missing == 2:
        out[_I["half_flush" if honors else "full_flush"]] = 1
    elif missing == 0 and honors & _WIND_SET and honors & _DRAGON_SET:
        out[_I["all_types"]] = 1


def _trait_fans(kinds: frozenset[int], out: dict[int, int]) -> None:
    if not kinds & _TERMINALS_AND_HONORS:
        out[_I["all_simples"]] = 1
    if kinds <= _REVERSIBLE:
        out[_I["reversible_tiles"]] = 1
    if kinds <= _GREEN:
        out[_I["all_green"]] = 1
    if not kinds & _TERMINALS_AND_HONORS:
        return
    if kinds <= _HONORS:
        out[_I["all_honors"]] = 1
    elif kinds <= _TERMINALS:
        out[_I["all_terminals"]] = 1
    elif kinds <= _TERMINALS_AND_HONORS:
        out[_I["all_terminals_and_honors"]] = 1


def _rank_fans(kinds: frozenset[int], out: dict[int, int]) -> None:
    if kinds & _HONORS:
        return
    ranks = {k % 9 + 1 for k in kinds}
    if ranks <= {1, 2, 3, 4}:
        out[_I["lower_four" if 4 in ranks else "lower_tiles"]] = 1
    elif ranks <= {6, 7, 8, 9}:
        out[_I["upper_four" if 6 in ranks else "upper_tiles"]] = 1
    elif ranks <= {4, 5, 6}:
        out[_I["middle_tiles"]] = 1


@cache
def _tile_fans(held: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Fans decided by which kinds the hand holds: suits, tile traits, rank ranges."""
    kinds = frozenset(held)
    out: dict[int, int] = {}
    _suit_fans(kinds, out)
    _trait_fans(kinds, out)
    _rank_fans(kinds, out)
    return tuple(out.items())


@cache
def _kong_fans(
    melded_kongs: int, concealed_kongs: int, concealed_pungs: int
) -> tuple[tuple[int, int], ...]:
    """Kong fans by number (rule 7) and 双暗刻/三暗刻/四暗刻 (concealed kongs count)."""
    out: list[tuple[int, int]] = []
    kongs = melded_kongs + concealed_kongs
    if kongs == 1:
        out.append((_I["melded_kong" if melded_kongs else "concealed_kong"], 1))
    elif kongs == 2:
        name = ("two_concealed_kongs", "concealed_kong_and_melded_kong", "two_melded_kongs")
        out.append((_I[name[melded_kongs]], 1))
    elif kongs == 3:
        out.append((_I["three_kongs"], 1))
    elif kongs == 4:
        out.append((_I["four_kongs"], 1))
    hidden = concealed_kongs + concealed_pungs
    if hidden >= 2:
        name = ("two_concealed_pungs", "three_concealed_pungs", "four_concealed_pungs")
        out.append((_I[name[hidden - 2]], 1))
    return tuple(out)


# -- the hand ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Declared:
    """What the declared melds bring to every win that holds them."""

    counts: tuple[int, ...]  # their tiles, a kong as four
    chows: tuple[int, ...]  # codes (``combos.CODE``) of the chows' lowest tiles
    pungs: tuple[int, ...]  # codes of the pungs and kongs
    winds: tuple[int, ...]  # kinds of the wind pungs and kongs
    melded_kongs: int
    concealed_kongs: int
    exposed: int  # melds other than concealed kongs


@cache
def _declared(melds: tuple[Meld, ...]) -> _Declared:
    pungs = [m.kind for m in melds if m.type is not MeldType.CHOW]
    return _Declared(
        counts=tuple(meld_tile_counts(melds)),
        chows=tuple(CODE[m.kind] for m in melds if m.type is MeldType.CHOW),
        pungs=tuple(CODE[k] for k in pungs),
        winds=tuple(k for k in pungs if k in _WIND_SET),
        melded_kongs=sum(1 for m in melds if m.type is MeldType.KONG),
        concealed_kongs=sum(1 for m in melds if m.type is MeldType.CONCEALED_KONG),
        exposed=sum(1 for m in melds if m.type is not MeldType.CONCEALED_KONG),
    )


@cache
def _win_method_fans(
    self_drawn: bool, fourth_tile: bool, kong_related: bool, last_tile: bool, exposed: int
) -> tuple[tuple[int, int], ...]:
    """Fans of how the hand was won, and of what it declared (不求人, 门前清, 全求人)."""
    out: dict[int, int] = {}
    if fourth_tile:
        out[_I["last_tile"]] = 1
    if last_tile:
        out[_I["last_tile_draw" if self_drawn else "last_tile_claim"]] = 1
    if kong_related:
        out[_I["out_with_replacement_tile" if self_drawn else "robbing_the_kong"]] = 1
    if self_drawn:
        out[_I["self_drawn"]] = 1
    if exposed == 0:
        out[_I["fully_concealed_hand" if self_drawn else "concealed_hand"]] = 1
    elif exposed == 4 and not self_drawn:
        out[_I["melded_hand"]] = 1
    return tuple(out.items())


@lru_cache(maxsize=4096)
def _splits(full: tuple[int, ...]) -> list[Decomposition]:
    # Wildcard searches score one set of tiles with several winning tiles.
    return decompositions(full)


def _reference_order(blocks: Decomposition) -> tuple[tuple[int, bool], ...]:
    """The key the reference (PyMahjongGB) enumerates splits by: the concealed sets sorted by
    tile in its suit order (万, 条, 饼, honors), a pung before a chow of the same tile."""
    return tuple(
        sorted(
            (_REFERENCE_POSITION[k], t is BlockType.CHOW)
            for t, k in blocks
            if t is not BlockType.PAIR
        )
    )


class HandContext:
    """What every reading of one win shares."""

    __slots__ = ("_single_wait", "base", "declared", "extras", "full", "nine_gates", "win")

    def __init__(self, win: Win, extras: Iterable[int] = ()) -> None:
        self.win = win
        declared = self.declared = _declared(win.melds)
        full = list(win.concealed)
        full[win.win_tile] += 1
        self.full = tuple(full)
        everything = (
            [a + b for a, b in zip(full, declared.counts, strict=True)] if win.melds else full
        )
        base = dict(_tile_fans(tuple(compress(_KINDS, everything))))
        hogs = everything.count(4) - declared.melded_kongs - declared.concealed_kongs
        if hogs > 0:
            base[TILE_HOG] = hogs
        base.update(
            _win_method_fans(
                win.self_drawn, win.fourth_tile, win.kong_related, win.last_tile, declared.exposed
            )
        )
        self.extras = tuple(extras)
        for index in self.extras:
            base[index] = 1
        self.base = base
        self.nine_gates = not win.melds and _is_nine_gates(win.concealed)
        self._single_wait: bool | None = None

    @property
    def single_wait(self) -> bool:
        """Whether the tiles before winning wait on exactly one kind (rule 8)."""
        if self._single_wait is None:
            concealed = self.win.concealed
            found = set(standard_waits(concealed))
            if not self.win.melds and sum(n // 2 for n in concealed) == 6:
                found.update(k for k in range(NUM_KINDS) if concealed[k] % 2)
            self._single_wait = len(found) == 1
        return self._single_wait

    # -- readings ----------------------------------------------------------------------

    def special(self) -> Reading | None:
        """The special-form reading (七对, 十三幺, 全不靠, 组合龙 …), if the tiles make one."""
        if len(self.win.melds) <= 1:
            knitted = self._knitted_straight()
            if knitted is not None:
                return knitted
        if not self.win.melds:
            shape = _special_form(self.full)
            if shape is not None:
                return self._finish(dict(self.base), shape)
        return None

    def four_sets(self) -> list[Reading]:
        """Every four-sets-and-a-pair reading, in the reference's order."""
        splits = _splits(self.full)
        if len(splits) > 1:
            splits = sorted(splits, key=_reference_order)
        return [self._standard(blocks) for blocks in splits]

    def _finish(self, candidates: dict[int, int], shape: Iterable[int] = ()) -> Reading:
        for index in shape:
            candidates[index] = 1
        if not self.extras:
            if not candidates:
                candidates[CHICKEN_HAND] = 1
        elif not any((OFFICIAL_MASK >> i) & 1 for i in candidates):
            candidates[CHICKEN_HAND] = 1
        total, fans = resolve(candidates)
        return Reading(total, fans)

    def _standard(self, blocks: Decomposition) -> Reading:
        win = self.win
        w = win.win_tile
        declared = self.declared
        chows = list(declared.chows)
        pungs = list(declared.pungs)
        winds = list(declared.winds)
        concealed_pungs = 0
        pair = -1
        edge = closed = single = in_chow = pung_on_win = False
        for block_type, kind in blocks:
            if block_type is BlockType.CHOW:
                chows.append(CODE[kind])
                if kind <= w <= kind + 2:
                    in_chow = True
                    if w == kind + 1:
                        closed = True
                    else:
                        edge = True
            elif block_type is BlockType.PUNG:
                pungs.append(CODE[kind])
                concealed_pungs += 1
                if kind == w:
                    pung_on_win = True
                if 27 <= kind < 31:
                    winds.append(kind)
            else:
                pair = kind
                single = kind == w
        if pung_on_win and not in_chow and not win.self_drawn:
            concealed_pungs -= 1  # the discard completed that pung: it is exposed
        candidates = dict(self.base)
        chows.sort()
        pungs.sort()
        candidates.update(set_fans(tuple(chows), tuple(pungs), CODE[pair]))
        candidates.update(
            _kong_fans(declared.melded_kongs, declared.concealed_kongs, concealed_pungs)
        )
        if (edge or closed or single) and self.single_wait:
            candidates[EDGE_WAIT if edge else CLOSED_WAIT if closed else SINGLE_WAIT] = 1
        absorbed = 0
        if self.nine_gates:
            candidates[NINE_GATES] = 1
            absorbed = 1
        if winds:
            absorbed += self._wind_fans(winds, candidates)
        if absorbed:
            _absorb_terminal_pungs(candidates, absorbed)
        return self._finish(candidates)

    def _wind_fans(self, winds: Iterable[int], candidates: dict[int, int]) -> int:
        """圈风刻 and 门风刻; the number of 幺九刻 they (or 三风刻) absorb."""
        absorbed = 0
        for kind in winds:
            prevalent = kind == 27 + self.win.round_wind
            seat = kind == 27 + self.win.seat_wind
            if prevalent:
                candidates[PREVALENT_WIND] = 1
            if seat:
                candidates[SEAT_WIND] = 1
            absorbed += prevalent or seat
        # 三风刻 absorbs its three pungs, those of the wind fans among them.
        return 3 if BIG_THREE_WINDS in candidates else absorbed

    def _knitted_straight(self) -> Reading | None:
        """组合龙 with a set and a pair; the reference's reading of its wait (rule 8)."""
        win = self.win
        full = self.full
        # Nine distinct suited kinds at least; most hands fail this cheap test.
        if full[:27].count(0) > 18:
            return None
        pattern = next((p for p in KNITTED_PATTERNS if all(map(full.__getitem__, p))), None)
        if pattern is None:
            return None
        rest = list(full)
        for k in pattern:
            rest[k] -= 1
        splits = decompositions(rest)
        if len(splits) != 1:
            return None
        blocks = splits[0]
        pair = next(b.kind for b in blocks if b.type is BlockType.PAIR)
        candidates = dict(self.base)
        candidates[KNITTED_STRAIGHT] = 1
        sets = [b for b in blocks if b.type is not BlockType.PAIR]
        declared = self.declared
        if sets:
            set_type, kind = sets[0]
            wait = self._knitted_wait_fan(rest, blocks)
            if wait is not None:
                candidates[wait] = 1
        else:
            meld = win.melds[0]
            set_type = BlockType.CHOW if meld.type is MeldType.CHOW else BlockType.PUNG
            kind = meld.kind
            candidates.update(_kong_fans(declared.melded_kongs, declared.concealed_kongs, 0))
            if win.concealed[win.win_tile]:
                candidates[SINGLE_WAIT] = 1  # the winning tile pairs a held one
        if set_type is BlockType.CHOW:
            if pair < 27:
                candidates[ALL_CHOWS] = 1
        else:
            candidates.update(set_fans((), (CODE[kind],), CODE[pair]))
        if kind in _WIND_SET and set_type is BlockType.PUNG:
            _absorb_terminal_pungs(candidates, self._wind_fans((kind,), candidates))
        return self._finish(candidates)

    def _knitted_wait_fan(self, rest: list[int], blocks: Decomposition) -> int | None:
        """边张, 嵌张 or 单钓将 of a concealed 组合龙 hand, read as the reference reads it.

        The winning tile's place among the set and the pair beside the knitted sequence
        gives the fan; it counts when the tiles left beside the sequence, less the winning
        tile, wait on one kind, where the reference keeps only the first four of them in
        its tile order.
        """
        w = self.win.win_tile
        chow = next((k for t, k in blocks if t is BlockType.CHOW and k <= w <= k + 2), None)
        if chow is not None:
            found = CLOSED_WAIT if w == chow + 1 else EDGE_WAIT
        elif any(t is BlockType.PAIR and k == w for t, k in blocks):
            found = SINGLE_WAIT
        else:
            return None
        left = list(rest)
        left[w] -= 1
        four = [0] * NUM_KINDS
        taken = 0
        for k in _REFERENCE_ORDER:
            n = min(max(left[k], 0), 4 - taken)
            four[k] = n
            taken += n
            if taken == 4:
                break
        return found if len(standard_waits(four)) == 1 else None


def _absorb_terminal_pungs(candidates: dict[int, int], absorbed: int) -> None:
    if absorbed and PUNG_OF_TERMINALS_OR_HONORS in candidates:
        left = candidates[PUNG_OF_TERMINALS_OR_HONORS] - absorbed
        if left > 0:
            candidates[PUNG_OF_TERMINALS_OR_HONORS] = left
        else:
            del candidates[PUNG_OF_TERMINALS_OR_HONORS]


def _is_nine_gates(concealed: Sequence[int]) -> bool:
    for start in (0, 9, 18):
        if concealed[start] == 3 and concealed[start + 8] == 3:
            return all(concealed[start + i] == 1 for i in range(1, 8))
    return False


def _special_form(full: tuple[int, ...]) -> tuple[int, ...] | None:
    """The special form of 14 concealed tiles: 七对/连七对, 十三幺, 全不靠/七星不靠."""
    kinds = NUM_KINDS - full.count(0)
    if kinds <= 7:
        if full.count(1) or full.count(3):
            return None
        held = [k for k in range(NUM_KINDS) if full[k]]
        shifted = (
            kinds == 7 and held[0] < 27 and held[6] - held[0] == 6 and held[0] // 9 == held[6] // 9
        )
        return (_I["seven_shifted_pairs"],) if shifted else (SEVEN_PAIRS,)
    if kinds == 13:
        if all(full[k] for k in _ORPHANS):
            return (_I["thirteen_orphans"],)
        return None
    if kinds != 14:
        return None
    suited = {k for k in range(27) if full[k]}
    if not any(suited <= p for p in _PATTERN_SETS):
        return None
    if len(suited) == 7:
        return (_I["greater_honors_and_knitted_tiles"],)
    if len(suited) == 9:
        return (_I["lesser_honors_and_knitted_tiles"], KNITTED_STRAIGHT)
    return (_I["lesser_honors_and_knitted_tiles"],)


def best_reading(win: Win, extras: Iterable[int] = ()) -> Reading | None:
    """The highest reading of a win, or None when the tiles do not win.

    Rule 4 as the reference applies it: a special form other than 七对 stands alone; the
    four-sets readings follow in the reference's order, each replacing the best so far when
    higher, or when equal and either the special form was 七对 or the reading holds 一色三同顺
    or 三同刻.
    """
    context = HandContext(win, extras)
    best = context.special()
    seven_pairs = best is not None and best.has(SEVEN_PAIRS)
    if best is not None and not seven_pairs:
        return best
    for reading in context.four_sets():
        if best is None or _replaces(reading, best, seven_pairs):
            best = reading
    return best


def _replaces(reading: Reading, best: Reading, after_seven_pairs: bool) -> bool:
    if reading.total != best.total:
        return reading.total > best.total
    return after_seven_pairs or reading.has(PURE_TRIPLE_CHOW) or reading.has(TRIPLE_PUNG)
