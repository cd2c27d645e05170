"""Tile kinds and the one notation parser of the project.

A tile kind is an int 0..33 in the spec's order: 0-8 = 1m-9m (万), 9-17 = 1p-9p (筒),
18-26 = 1s-9s (条), 27-30 = winds 东南西北 (1z-4z), 31-33 = dragons 中发白 (5z-7z).
The honor order is the Chinese one (5z = 中), not tenhou.net's.

Notation: ``123m456p77z`` (digits followed by their suit letter), honors also as letters
``E S W N C F P``; melds ``[123m]`` chow, ``[555p]`` pung, ``[5555p]`` exposed kong,
``{5555p}`` concealed kong. Every error names the offending character and its position.

The parser also reads the way Chinese players write a hand: 万/萬 for ``m``, 筒/饼/餅 for
``p``, 条/條/索 for ``s``, 字 for ``z``, the honors 东南西北中发白 (東南西北中發白) as their
letters, the numerals 一 to 九 as digits, and full-width forms (see :func:`normalise`).

>>> parse_tiles("123m7z")
[0, 1, 2, 33]
>>> parse_tiles("12万9筒东白") == parse_tiles("12m9pEP")
True
>>> format_tiles([33, 0, 1, 2])
'123m7z'
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
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


#: The Chinese ways of writing the notation's symbols, one character for one: suits,
#: honors (东 = ``E`` … 白 = ``P``) and the numerals 一 to 九.
ALIASES: Mapping[str, str] = {
    **dict.fromkeys("万萬", "m"),
    **dict.fromkeys("筒饼餅", "p"),
    **dict.fromkeys("条條索", "s"),
    "字": "z",
    **dict.fromkeys("东東", "E"),
    "南": "S",
    "西": "W",
    "北": "N",
    "中": "C",
    **dict.fromkeys("发發", "F"),
    "白": "P",
    **{numeral: str(n) for n, numeral in enumerate(_ZH_NUMERALS, start=1)},
}
_FULL_WIDTH = range(0xFF01, 0xFF5F)  # ！ to ～: ASCII shifted by 0xFEE0
_DIGITS = "0123456789"


class NotationError(ValueError):
    """Malformed tile notation; names the character and its 0-based position.

    ``code`` says what is wrong, for texts in other languages: ``unknown_char``,
    ``no_digits``, ``no_tile``, ``digits_before_honor``, ``no_suit``, ``one_tile``,
    ``melds_here``, ``bad_kong``, ``bad_meld``, ``unclosed``, ``nested``,
    ``closes_nothing``.
    """

    def __init__(self, message: str, text: str, position: int, code: str = "notation") -> None:
        char = text[position] if 0 <= position < len(text) else ""
        where = f"'{char}' at position {position}" if char else f"position {position}"
        super().__init__(f"{message} ({where} of {text!r})")
        self.text = text
        self.position = position
        self.char = char
        self.code = code


def normalise(text: str) -> str:
    """``text`` with every alias written as the notation's own symbol: the Chinese suits,
    honors and numerals of :data:`ALIASES`, full-width forms (``１２３ｍ``) and the decimal
    digits of other scripts. Each character becomes one character, so a position in the
    result is the same position in ``text``; anything else is left for the parser to
    refuse.

    >>> normalise("123万456筒789条东东中中中")
    '123m456p789sEECCC'
    >>> normalise("一二三萬 9索 發發 [５５５ｐ]")
    '123m 9s FF [555p]'
    >>> normalise("123m4x")
    '123m4x'
    """
    out = []
    for ch in text:
        alias = ALIASES.get(ch)
        if alias is None and ord(ch) in _FULL_WIDTH:
            alias = chr(ord(ch) - 0xFEE0)
        if alias is None and ch not in _DIGITS:
            digit = unicodedata.decimal(ch, None)
            alias = None if digit is None else str(digit)
        out.append(alias if alias is not None else ch)
    return "".join(out)


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
    """The name players say: ``五万``/``東``/``5 Characters`` (``1 Character``)."""
    s, r = suit(kind), rank(kind)
    if locale.startswith("en"):
        if s == HONOR:
            return _EN_HONORS[r - 1]
        name = _EN_SUITS[s]
        return f"{r} {name.removesuffix('s') if r == 1 else name}"
    hant = locale in ("zh-TW", "zh-HK")
    if s == HONOR:
        return (_ZH_HANT_HONORS if hant else _ZH_HONORS)[r - 1]
    return _ZH_NUMERALS[r - 1] + (_ZH_HANT_SUITS if hant else _ZH_SUITS)[s]


def parse_tile(text: str) -> int:
    """One tile: ``5m``, an honor letter ``E``, or as Chinese players write it
    (``5万``, ``五萬``, ``東``).

    >>> parse_tile("五萬") == parse_tile("5m")
    True
    """
    kinds = parse_tiles(text)
    if len(kinds) != 1:
        raise NotationError("expected exactly one tile", text, 0, "one_tile")
    return kinds[0]


def _parse_run(norm: str, start: int, end: int, text: str) -> list[int]:
    """Parse ``norm[start:end]`` (``text`` :func:`normalise`-d): digit runs with suit
    letters, honor letters. Errors quote ``text``, as it was written."""
    out: list[int] = []
    pending: list[tuple[int, int]] = []  # (digit, position) awaiting their suit letter
    for pos in range(start, end):
        ch = norm[pos]
        if ch in _DIGITS:
            pending.append((int(ch), pos))
        elif ch in SUITS:
            if not pending:
                raise NotationError(
                    f"suit letter '{text[pos]}' has no digits before it", text, pos, "no_digits"
                )
            suit_ = SUITS.index(ch)
            for digit, dpos in pending:
                limit = 7 if suit_ == HONOR else 9
                if not 1 <= digit <= limit:
                    raise NotationError(f"no tile {digit}{ch}", text, dpos, "no_tile")
                out.append(make(digit, suit_))
            pending.clear()
        elif ch in HONOR_LETTERS:
            if pending:
                raise NotationError(
                    "digits must be followed by m, p, s or z", text, pos, "digits_before_honor"
                )
            out.append(27 + HONOR_LETTERS.index(ch))
        elif ch.isspace():
            continue
        else:
            raise NotationError(f"unknown character '{text[pos]}'", text, pos, "unknown_char")
    if pending:
        raise NotationError(
            "digits at the end have no suit letter", text, pending[-1][1], "no_suit"
        )
    return out


def parse_tiles(text: str) -> list[int]:
    """A plain sequence of tiles in written order (no melds)."""
    norm = normalise(text)
    for pos, ch in enumerate(norm):
        if ch in "[]{}":
            raise NotationError("melds are not allowed here", text, pos, "melds_here")
    return _parse_run(norm, 0, len(norm), text)


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
            raise NotationError("{…} must hold four of one tile", text, pos, "bad_kong")
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
    raise NotationError("not a chow, pung or kong", text, pos, "bad_meld")


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
    >>> parse_hand("二三万[七七七条]{東東東東}").notation()
    '23m[777s]{1111z}'
    """
    norm = normalise(text)
    concealed: list[int] = []
    melds: list[Meld] = []
    pos = 0
    segment_start = 0
    while pos < len(norm):
        ch = norm[pos]
        if ch in "[{":
            concealed.extend(_parse_run(norm, segment_start, pos, text))
            close = "]" if ch == "[" else "}"
            end = norm.find(close, pos + 1)
            other = norm.find("[" if ch == "{" else "{", pos + 1)
            nested = norm.find(ch, pos + 1)
            if end < 0:
                raise NotationError(f"'{text[pos]}' is never closed", text, pos, "unclosed")
            for bad in (other, nested):
                if 0 <= bad < end:
                    raise NotationError("melds cannot nest", text, bad, "nested")
            kinds = _parse_run(norm, pos + 1, end, text)
            melds.append(_meld_from_kinds(kinds, ch == "{", text, pos))
            pos = end + 1
            segment_start = pos
            continue
        if ch in "]}":
            raise NotationError(f"'{text[pos]}' closes nothing", text, pos, "closes_nothing")
        pos += 1
    concealed.extend(_parse_run(norm, segment_start, len(norm), text))
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
