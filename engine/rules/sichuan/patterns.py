"""The 番 patterns of 四川 血战到底 (sichuan.md §3) as data: one unit per atom.

Every pattern has the spec's id, names and value, the table option that awards it (if
any), and one test on a :class:`Reading` that returns a count (0 = absent; 根 counts its
fours). F is the sum of ``fan × count`` over the patterns found. The named combinations
(清龙七对, 金钩钓, …) are sums of atoms; :data:`TITLES` only names them for display.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.analysis import Block, BlockType
from engine.rules.base import FanLine
from engine.rules.sichuan.options import SichuanOptions
from engine.tiles import Meld, MeldType, is_terminal, rank, suit


@dataclass(frozen=True, slots=True)
class Situation:
    """How the winning tile came, the facts of a win that are not in its tiles.

    ``kong_bloom``: self-drawn on a kong's replacement tile (杠上花). ``robbing_kong``: won
    on a tile being added to a pung (抢杠). ``last_tile``: the wall's last tile was drawn
    (海底捞) or the discard after it was won (海底炮). ``kong_discard``, ``heavenly`` and
    ``earthly`` are known to the round engine only. ``paid_as_discard`` marks a 杠上花
    after a 直杠 that the kong's giver pays (点杠花(点炮)), which drops the 自摸 atom.
    """

    self_drawn: bool = False
    kong_bloom: bool = False
    robbing_kong: bool = False
    last_tile: bool = False
    kong_discard: bool = False
    heavenly: bool = False
    earthly: bool = False
    paid_as_discard: bool = False


DISCARD = Situation()


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a winning hand: a split of its concealed tiles and how it was won.

    ``blocks`` are the concealed sets and the pair (empty for seven pairs); ``win_block``
    is the block the winning tile completes in this reading (None for seven pairs).
    ``counts`` hold every tile of the hand: concealed, melded and the winning tile.
    """

    blocks: tuple[Block, ...]
    seven_pairs: bool
    melds: tuple[Meld, ...]
    win_block: Block | None
    win_tile: int
    counts: tuple[int, ...]
    situation: Situation

    def tiles(self) -> list[int]:
        return [k for k, n in enumerate(self.counts) for _ in range(n)]


def _all_pungs(r: Reading) -> bool:
    return not r.seven_pairs and all(b.type is not BlockType.CHOW for b in r.blocks)


def _seven_pairs(r: Reading) -> bool:
    return r.seven_pairs


def _full_flush(r: Reading) -> bool:
    return len({suit(k) for k in r.tiles()}) == 1


def _has_terminal(tiles: Sequence[int]) -> bool:
    return any(is_terminal(k) for k in tiles)


def _terminal_sets(r: Reading) -> bool:
    if r.seven_pairs:
        return False
    return all(_has_terminal(b.tiles) for b in r.blocks) and all(
        _has_terminal(m.tiles) for m in r.melds
    )


def _two_five_eight_pungs(r: Reading) -> bool:
    return _all_pungs(r) and all(rank(k) in (2, 5, 8) for k in r.tiles())


def _concealed_hand(r: Reading) -> bool:
    return all(m.type is MeldType.CONCEALED_KONG for m in r.melds)


def _middle_wait(r: Reading) -> bool:
    b = r.win_block
    return b is not None and b.type is BlockType.CHOW and r.win_tile == b.kind + 1


def _closed_five(r: Reading) -> bool:
    return _middle_wait(r) and rank(r.win_tile) == 5


def _single_wait(r: Reading) -> bool:
    # With four melds the concealed part is the held tile and the winning tile: the pair.
    return len(r.melds) == 4


def _roots(r: Reading) -> int:
    return sum(1 for n in r.counts if n == 4)


def _always(r: Reading) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class Pattern:
    """One atom of the fan table.

    ``enabled`` says whether the table's options award it at all (None: always), and
    ``raised`` gives the value that replaces ``value`` under an option (大对子2番).
    ``only_without`` lists atoms whose presence removes this one (平胡).
    """

    id: str
    zh: str
    en: str
    value: int
    count: Callable[[Reading], int | bool]
    enabled: Callable[[SichuanOptions], bool] | None = None
    raised: Callable[[SichuanOptions], int | None] | None = None
    only_without: frozenset[str] = frozenset()

    def awarded(self, options: SichuanOptions) -> bool:
        return self.enabled is None or self.enabled(options)

    def fan(self, options: SichuanOptions) -> int:
        raised = self.raised(options) if self.raised else None
        return self.value if raised is None else raised

    def line(self, count: int, options: SichuanOptions) -> FanLine:
        return FanLine(self.id, self.zh, self.en, self.fan(options), count)


PATTERNS: tuple[Pattern, ...] = (
    Pattern(
        "basic_hand",
        "平胡",
        "Plain Hand",
        0,
        _always,
        only_without=frozenset({"all_pungs", "seven_pairs", "full_flush", "terminal_sets"}),
    ),
    Pattern(
        "all_pungs",
        "大对子",
        "All Pungs",
        1,
        _all_pungs,
        raised=lambda o: 2 if o.all_pungs_two else None,
    ),
    Pattern("seven_pairs", "暗七对", "Seven Pairs", 2, _seven_pairs),
    Pattern("full_flush", "清一色", "Full Flush", 2, _full_flush),
    Pattern(
        "terminal_sets",
        "全幺九",
        "Terminals in All Sets",
        2,
        _terminal_sets,
        enabled=lambda o: o.terminals_258,
    ),
    Pattern(
        "two_five_eight_pungs",
        "将对",
        "2-5-8 Pungs",
        2,
        _two_five_eight_pungs,
        enabled=lambda o: o.terminals_258,
    ),
    Pattern(
        "concealed_hand",
        "门清",
        "Concealed Hand",
        1,
        _concealed_hand,
        enabled=lambda o: o.concealed_middle,
    ),
    Pattern(
        "middle_wait",
        "中张",
        "Middle-Tile Wait",
        1,
        _middle_wait,
        enabled=lambda o: o.concealed_middle,
    ),
    Pattern("closed_five", "卡心五", "Closed Five", 1, _closed_five, lambda o: o.closed_five),
    Pattern("single_wait", "大单钓", "Single-Tile Wait", 1, _single_wait, lambda o: o.single_wait),
    Pattern("root", "根", "Root", 1, _roots),
    Pattern(
        "heavenly_hand",
        "天胡",
        "Heavenly Hand",
        3,
        lambda r: r.situation.heavenly,
        lambda o: o.heaven_earth,
    ),
    Pattern(
        "earthly_hand",
        "地胡",
        "Earthly Hand",
        2,
        lambda r: r.situation.earthly,
        lambda o: o.heaven_earth,
    ),
    Pattern(
        "kong_bloom",
        "杠上花",
        "Win on Kong Replacement",
        1,
        lambda r: r.situation.kong_bloom,
        lambda o: o.kong_bloom,
    ),
    Pattern(
        "kong_discard",
        "杠上炮",
        "Win on Post-Kong Discard",
        1,
        lambda r: r.situation.kong_discard,
        lambda o: o.kong_discard,
    ),
    Pattern("robbing_kong", "抢杠", "Robbing the Kong", 1, lambda r: r.situation.robbing_kong),
    Pattern(
        "last_tile_draw",
        "海底捞",
        "Last-Tile Self-Draw",
        1,
        lambda r: r.situation.last_tile and r.situation.self_drawn,
    ),
    Pattern(
        "last_tile_discard",
        "海底炮",
        "Last-Tile Discard",
        1,
        lambda r: r.situation.last_tile and not r.situation.self_drawn,
    ),
    Pattern(
        "self_draw",
        "自摸",
        "Self-Draw",
        1,
        lambda r: r.situation.self_drawn and not r.situation.paid_as_discard,
        lambda o: o.self_draw_bonus == "add_fan",
    ),
)

PATTERNS_BY_ID = {p.id: p for p in PATTERNS}

# Atoms the calculator's input cannot express (sichuan.md §3, D17).
ENGINE_ONLY = frozenset({"kong_discard", "heavenly_hand", "earthly_hand"})


def fan_lines(reading: Reading, options: SichuanOptions) -> tuple[FanLine, ...]:
    """The atoms of one reading, sorted by 番 descending, ties in table order."""
    found = {}
    for pattern in PATTERNS:
        if pattern.awarded(options):
            count = int(pattern.count(reading))
            if count:
                found[pattern.id] = pattern.line(count, options)
    kept = [
        line for pid, line in found.items() if not PATTERNS_BY_ID[pid].only_without & found.keys()
    ]
    return tuple(sorted(kept, key=lambda line: -line.fan))


def total_fan(lines: Sequence[FanLine]) -> int:
    """F: the sum of ``fan × count``, before the cap."""
    return sum(line.fan * line.count for line in lines)


@dataclass(frozen=True, slots=True)
class Title:
    """The name the bot shows for a winning hand; display only, never scored."""

    id: str
    zh: str
    en: str
    atoms: frozenset[str]


# In the spec's order of precedence: the first whose atoms are all present names the hand.
TITLES: tuple[Title, ...] = (
    Title(
        "pure_dragon_seven_pairs",
        "清龙七对",
        "Pure Dragon Seven Pairs",
        frozenset({"seven_pairs", "full_flush", "root"}),
    ),
    Title("dragon_seven_pairs", "龙七对", "Dragon Seven Pairs", frozenset({"seven_pairs", "root"})),
    Title(
        "pure_seven_pairs", "清七对", "Pure Seven Pairs", frozenset({"seven_pairs", "full_flush"})
    ),
    Title("pure_all_pungs", "清大对", "Pure All Pungs", frozenset({"all_pungs", "full_flush"})),
    Title(
        "all_258_pungs",
        "将对",
        "2-5-8 All Pungs",
        frozenset({"all_pungs", "two_five_eight_pungs"}),
    ),
    Title(
        "pure_terminal_sets",
        "清带幺",
        "Pure Terminals in All Sets",
        frozenset({"terminal_sets", "full_flush"}),
    ),
    Title("golden_hook", "金钩钓", "Golden Hook", frozenset({"all_pungs", "single_wait"})),
)


def title_of(lines: Sequence[FanLine]) -> Title:
    """The hand's title: a named combination, else its highest atom, else 平胡."""
    ids = {line.id for line in lines}
    for title in TITLES:
        if title.atoms <= ids:
            return title
    top = max(lines, key=lambda line: line.fan, default=None)
    pattern = PATTERNS_BY_ID[top.id if top is not None and top.fan > 0 else "basic_hand"]
    return Title(pattern.id, pattern.zh, pattern.en, frozenset({pattern.id}))
