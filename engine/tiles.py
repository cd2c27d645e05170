"""Tile kinds and the one notation parser of the project.

A tile kind is an int 0..33 in the spec's order: 0-8 = 1m-9m (万), 9-17 = 1p-9p (筒),
18-26 = 1s-9s (条), 27-30 = winds 东南西北 (1z-4z), 31-33 = dragons 中发白 (5z-7z).
The honor order is the Chinese one (5z = 中), not tenhou.net's.

Notation: ``123m456p77z`` (digits followed by their suit letter), honors also as letters
``E S W N C F P``; melds ``[123m]`` chow, ``[555p]`` pung, ``[5555p]`` exposed kong,
``{5555p}`` concealed kong. Every error names the offending character and its position.

>>> parse_tiles("123m7z")
[0, 1, 2, 33]
>>> format_tiles([33, 0, 1, 2])
'123m7z'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

NUM_KINDS = 34
SUITS = "mpsz"
HONOR_LETTERS = "ESWNCFP"
MAN, PIN, SOU, HONOR = 0, 1, 2, 3

EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
RED, GREEN, WHITE = 31, 32, 33
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (RED, GREEN, WHITE)
HONORS = WINDS + DRAGONS
TERMINALS = (0, 8, 9, 17, 18, 26)
TERMINALS_AND_HONORS = TERMINALS + HONORS

ALL_KINDS = tuple(range(NUM_KINDS))
SUITED_KINDS = tuple(range(27))

_ZH_NUMERALS = "一二三四五六七八九"
_ZH_SUITS = ("万", "筒", "条")
_ZH_HONORS = ("东", "南", "西", "北", "中", "发", "白")
_ZH_HANT_SUITS = ("萬", "筒", "條")
_ZH_HANT_HONORS = ("東", "南", "西", "北", "中", "發", "白")
_EN_SUITS = ("Characters", "Dots", "Bamboo")
_EN_HONORS = ("East", "South", "West", "North", "Red", "Green", "White")


class NotationError(ValueError):
    """Malformed tile notation; names the character and its 0-based position."""

    def __init__(self, message: str, text: str, position: int) -> None:
        char = text[position] if 0 <= position < len(text) else ""
        where = f"'{char}' at position {position}" if char else f"position {position}"
        super().__init__(f"{message} ({where} of {text!r})")
        self.text = text
        self.position = position
        self.char = char


def suit(kind: int) -> int:
    """0 = 万, 1 = 筒, 2 = 条, 3 = honors."""
    return kind // 9 if kind < 27 else HONOR


def rank(kind: int) -> int:
    """1..9 for suited tiles; 1..7 for honors (1z..7z)."""
    return kind % 9 + 1 if kind < 27 else kind - 26


def make(rank_: int, suit_: int) -> int:
    return suit_ * 9 + rank_ - 1


def is_honor(kind: int) -> bool:
    return kind >= 27


def is_terminal(kind: int) -> bool:
    return kind < 27 and kind % 9 in (0, 8)


def is_terminal_or_honor(kind: int) -> bool:
    return kind >= 27 or kind % 9 in (0, 8)


def tile_str(kind: int) -> str:
    """``5m``, ``1z`` … the canonical single-tile notation."""
    if not 0 <= kind < NUM_KINDS:
        raise ValueError(f"not a tile kind: {kind}")
    return f"{rank(kind)}{SUITS[suit(kind)]}"


def tile_name(kind: int, locale: str = "zh-CN") -> str:
    """The name players say: ``五万``/``東``/``5 Characters``."""
    s, r = suit(kind), rank(kind)
    if locale.startswith("en"):
        return _EN_HONORS[r - 1] if s == HONOR else f"{r} {_EN_SUITS[s]}"
    hant = locale in ("zh-TW", "zh-HK")
    if s == HONOR:
        return (_ZH_HANT_HONORS if hant else _ZH_HONORS)[r - 1]
    return _ZH_NUMERALS[r - 1] + (_ZH_HANT_SUITS if hant else _ZH_SUITS)[s]


def parse_tile(text: str) -> int:
    """One tile: ``5m`` or an honor letter ``E``."""
    kinds = parse_tiles(text)
    if len(kinds) != 1:
        raise NotationError("expected exactly one tile", text, 0)
    return kinds[0]


def _parse_run(text: str, start: int, end: int) -> list[int]:
    """Parse ``text[start:end]``: digit runs with suit letters, honor letters."""
    out: list[int] = []
    pending: list[tuple[int, int]] = []  # (digit, position) awaiting their suit letter
    for pos in range(start, end):
        ch = text[pos]
        if ch.isdigit():
            pending.append((int(ch), pos))
        elif ch in SUITS:
            if not pending:
                raise NotationError(f"suit letter '{ch}' has no digits before it", text, pos)
            suit_ = SUITS.index(ch)
            for digit, dpos in pending:
                limit = 7 if suit_ == HONOR else 9
                if not 1 <= digit <= limit:
                    raise NotationError(f"no tile {digit}{ch}", text, dpos)
                out.append(make(digit, suit_))
            pending.clear()
        elif ch in HONOR_LETTERS:
            if pending:
                raise NotationError("digits must be followed by m, p, s or z", text, pos)
            out.append(27 + HONOR_LETTERS.index(ch))
        elif ch.isspace():
            continue
        else:
            raise NotationError(f"unknown character '{ch}'", text, pos)
    if pending:
        raise NotationError("digits at the end have no suit letter", text, pending[-1][1])
    return out


def parse_tiles(text: str) -> list[int]:
    """A plain sequence of tiles in written order (no melds)."""
    for pos, ch in enumerate(text):
        if ch in "[]{}":
            raise NotationError("melds are not allowed here", text, pos)
    return _parse_run(text, 0, len(text))


def counts_of(kinds: Iterable[int]) -> list[int]:
    counts = [0] * NUM_KINDS
    for k in kinds:
        counts[k] += 1
    return counts


def kinds_of(counts: Sequence[int]) -> list[int]:
    return [k for k in range(NUM_KINDS) for _ in range(counts[k])]


def format_tiles(kinds: Iterable[int], *, sort: bool = True) -> str:
    """Compressed notation. With ``sort=False`` the written order is kept (walls)."""
    seq = sorted(kinds) if sort else list(kinds)
    parts: list[str] = []
    run_suit = -1
    digits: list[str] = []
    for k in seq:
        s = suit(k)
        if s != run_suit and digits:
            parts.append("".join(digits) + SUITS[run_suit])
            digits = []
        run_suit = s
        digits.append(str(rank(k)))
    if digits:
        parts.append("".join(digits) + SUITS[run_suit])
    return "".join(parts)


class MeldType(enum.Enum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"  # exposed: from a discard, or a pung with a fourth tile added
    CONCEALED_KONG = "concealed_kong"


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set. ``kind`` is the lowest tile of a chow, the tile of a pung/kong.

    ``claimed`` is the tile taken from a discard (None for concealed kongs), and
    ``from_seat`` whom it was claimed from (seats of the hand), when known.
    ``added`` marks a kong made by adding a fourth tile to an exposed pung (补杠).
    """

    type: MeldType
    kind: int
    claimed: int | None = None
    from_seat: int | None = None
    added: bool = False

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.type is MeldType.CHOW:
            return (self.kind, self.kind + 1, self.kind + 2)
        n = 3 if self.type is MeldType.PUNG else 4
        return (self.kind,) * n

    @property
    def is_kong(self) -> bool:
        return self.type in (MeldType.KONG, MeldType.CONCEALED_KONG)

    @property
    def concealed(self) -> bool:
        return self.type is MeldType.CONCEALED_KONG

    def notation(self) -> str:
        body = format_tiles(self.tiles, sort=False)
        return "{" + body + "}" if self.concealed else "[" + body + "]"

    def __repr__(self) -> str:
        return f"Meld({self.notation()!r})"


def _meld_from_kinds(kinds: list[int], concealed: bool, text: str, pos: int) -> Meld:
    if concealed:
        if len(kinds) != 4 or len(set(kinds)) != 1:
            raise NotationError("{…} must hold four of one tile", text, pos)
        return Meld(MeldType.CONCEALED_KONG, kinds[0])
    ordered = sorted(kinds)
    if len(kinds) == 3 and len(set(kinds)) == 1:
        return Meld(MeldType.PUNG, kinds[0], claimed=kinds[0])
    if len(kinds) == 4 and len(set(kinds)) == 1:
        return Meld(MeldType.KONG, kinds[0], claimed=kinds[0])
    if (
        len(kinds) == 3
        and ordered[0] < 27
        and suit(ordered[0]) == suit(ordered[2])
        and ordered[1] == ordered[0] + 1
        and ordered[2] == ordered[0] + 2
    ):
        return Meld(MeldType.CHOW, ordered[0], claimed=kinds[0])
    raise NotationError("not a chow, pung or kong", text, pos)


@dataclass(frozen=True, slots=True)
class HandSpec:
    """A parsed hand string: concealed tiles in written order plus melds."""

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]

    def notation(self) -> str:
        return format_tiles(self.concealed) + "".join(m.notation() for m in self.melds)

    def all_tiles(self) -> list[int]:
        out = list(self.concealed)
        for m in self.melds:
            out.extend(m.tiles)
        return out


def parse_hand(text: str) -> HandSpec:
    """Concealed tiles and melds, e.g. ``23m456p55s[777s]{EEEE}``.

    >>> parse_hand("23m[777s]{EEEE}").notation()
    '23m[777s]{1111z}'
    """
    concealed: list[int] = []
    melds: list[Meld] = []
    pos = 0
    segment_start = 0
    while pos < len(text):
        ch = text[pos]
        if ch in "[{":
            concealed.extend(_parse_run(text, segment_start, pos))
            close = "]" if ch == "[" else "}"
            end = text.find(close, pos + 1)
            other = text.find("[" if ch == "{" else "{", pos + 1)
            nested = text.find(ch, pos + 1)
            if end < 0:
                raise NotationError(f"'{ch}' is never closed", text, pos)
            for bad in (other, nested):
                if 0 <= bad < end:
                    raise NotationError("melds cannot nest", text, bad)
            kinds = _parse_run(text, pos + 1, end)
            melds.append(_meld_from_kinds(kinds, ch == "{", text, pos))
            pos = end + 1
            segment_start = pos
            continue
        if ch in "]}":
            raise NotationError(f"'{ch}' closes nothing", text, pos)
        pos += 1
    concealed.extend(_parse_run(text, segment_start, len(text)))
    return HandSpec(tuple(concealed), tuple(melds))


def check_copies(kinds: Iterable[int], limit: int = 4) -> int | None:
    """The first kind held more than ``limit`` times, or None."""
    counts = counts_of(kinds)
    for k, n in enumerate(counts):
        if n > limit:
            return k
    return None


def full_set(kinds: Iterable[int] = ALL_KINDS) -> list[int]:
    """Four copies of each kind: 136 tiles for all kinds, 108 for the three suits."""
    return [k for k in kinds for _ in range(4)]
