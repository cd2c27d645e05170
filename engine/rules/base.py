"""What every rule set provides to the shared machinery: options, the calculator, shapes.

A rule set is a module of rules and options selected by name (``registry``); the shared
code asks it questions and never compares variant names.

A rule set's table options are one frozen dataclass, a :class:`TableOptions`, whose
fields are made with :func:`option`: names, defaults, validity tests and docs all come
from it, and so does the one parser of every rule set's options.

>>> @dataclass(frozen=True, slots=True)
... class Example(TableOptions):
...     variant: ClassVar[str] = "example"
...     rounds: int = option(4, int_in(1, 16), "局数: hands the table plays")
>>> Example.parse({"rounds": 8})
Example(rounds=8)
>>> Example.parse({"round": 8})
Traceback (most recent call last):
  ...
engine.rules.base.OptionError: unknown example option 'round'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Protocol, Self, TypeVar

from engine.analysis import ShapeRules, shanten, waits
from engine.tiles import HandSpec, counts_of, tile_str

T = TypeVar("T")


class RuleError(ValueError):
    """Input a rule set refuses; the message is one sentence a player can read."""


class OptionError(RuleError):
    """A table option a rule set refuses: ``name`` is unknown (``known`` False), or
    ``value`` is not one it takes, so a front end can word it for its reader."""

    def __init__(self, message: str, name: str, value: Any = None, *, known: bool) -> None:
        super().__init__(message)
        self.name = name
        self.value = value
        self.known = known


@dataclass(frozen=True, slots=True)
class Option:
    """One table option as a row of its table: its name as in the rule set's spec, its
    default (as JSON), validity test and doc line."""

    name: str
    default: Any
    valid: Domain
    doc: str = ""


@dataclass(frozen=True, slots=True)
class Flag:
    """On or off: ``true`` or ``false``.

    >>> Flag()(True), Flag()(1)
    (True, False)
    """

    def __call__(self, value: Any) -> bool:
        return isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class IntRange:
    """A whole number from ``lo`` to ``hi`` (no upper bound when None); ``True`` is no
    number."""

    lo: int
    hi: int | None = None

    def __call__(self, value: Any) -> bool:
        return (
            isinstance(value, int)
            and not isinstance(value, bool)
            and value >= self.lo
            and (self.hi is None or value <= self.hi)
        )


@dataclass(frozen=True, slots=True)
class Choice:
    """One of ``values``, of the same type (``True`` is not 1, ``4.0`` is not 4).

    >>> Choice((1, 4, 8))(4), Choice((1, 4, 8))(True), Choice(("a", "b"))("b")
    (True, False, True)
    """

    values: tuple[Any, ...]

    def __call__(self, value: Any) -> bool:
        return any(type(value) is type(v) and value == v for v in self.values)


@dataclass(frozen=True, slots=True)
class Subset:
    """Distinct members of ``values``, as a list (order kept).

    >>> Subset(("a", "b"))(["b"]), Subset(("a", "b"))(["a", "a"])
    (True, False)
    """

    values: tuple[str, ...]

    def __call__(self, value: Any) -> bool:
        return (
            isinstance(value, list | tuple)
            and all(isinstance(v, str) and v in self.values for v in value)
            and len(set(value)) == len(value)
        )


#: What an option's value may be: a test a front end can also read to offer the values.
Domain = Flag | IntRange | Choice | Subset

is_bool = Flag()


def int_in(lo: int, hi: int | None = None) -> IntRange:
    return IntRange(lo, hi)


def one_of(*values: Any) -> Choice:
    return Choice(values)


def option(
    default: T,
    valid: Domain,
    doc: str,
    *,
    typed: Callable[[Any], T] | None = None,
) -> T:
    """A field of a :class:`TableOptions` class: its default, the test a value given as
    JSON must pass, the doc line (opening with the option's Chinese name), and ``typed``,
    which turns a valid JSON value into the field's type (a list into a tuple)."""
    return field(default=default, metadata={"valid": valid, "doc": doc, "typed": typed})


def _as_json(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


@dataclass(frozen=True, slots=True)
class TableOptions:
    """Base of a rule set's table options (a frozen dataclass of :func:`option` fields)."""

    #: The rule set's name, for the sentences that refuse an option.
    variant: ClassVar[str] = ""
    #: Options that choose the others' defaults (MCR's ``preset``, see :meth:`column`).
    selectors: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def column(cls, raw: Mapping[str, Any]) -> Mapping[str, Any]:
        """Defaults that replace the fields' own for a table given ``raw`` (already
        checked): none here; MCR's ``preset`` picks a column of defaults."""
        return {}

    @classmethod
    def parse(cls, raw: Mapping[str, Any]) -> Self:
        """The defaults (see :meth:`column`) overlaid with ``raw``; a RuleError names an
        unknown option or an invalid value."""
        known = {f.name: f for f in fields(cls)}
        for name, value in raw.items():
            found = known.get(name)
            if found is None:
                raise OptionError(f"unknown {cls.variant} option '{name}'", name, known=False)
            if not found.metadata["valid"](value):
                raise OptionError(
                    f"invalid value {value!r} for {cls.variant} option '{name}'",
                    name,
                    value,
                    known=True,
                )
        values: dict[str, Any] = dict(cls.column(raw))
        for name, value in raw.items():
            typed = known[name].metadata["typed"]
            values[name] = value if typed is None else typed(value)
        return cls(**values)

    @classmethod
    def rows(cls) -> tuple[Option, ...]:
        """The options as the rows of their table, in the spec's order."""
        return tuple(
            Option(f.name, _as_json(f.default), f.metadata["valid"], f.metadata["doc"])
            for f in fields(cls)
        )

    def to_json(self) -> dict[str, Any]:
        """Every option by name, as JSON values (what a table stores)."""
        return {f.name: _as_json(getattr(self, f.name)) for f in fields(self)}

    @property
    def planned_hands(self) -> int:
        """Hands (局) a session of these options plays (room cards read it)."""
        return 1


@dataclass(frozen=True, slots=True)
class WinFacts:
    """Facts of one win, as the calculator contract gives them.

    Winds are 0..3 (东南西北). ``hand`` holds the concealed tiles without the winning tile.
    """

    hand: HandSpec
    win_tile: int
    self_drawn: bool = False
    seat_wind: int = 0
    round_wind: int = 0
    fourth_tile: bool = False
    kong_related: bool = False
    last_tile: bool = False
    wildcard: int | None = None


@dataclass(frozen=True, slots=True)
class FanLine:
    id: str
    zh: str
    en: str
    fan: int
    count: int = 1

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "zh": self.zh, "en": self.en, "fan": self.fan, "count": self.count}


@dataclass(frozen=True, slots=True)
class ScoreResult:
    total: int
    fans: tuple[FanLine, ...]
    meets_minimum: bool | None = None
    # Index among the concealed tiles (or "win") -> the tile a wildcard stood for.
    substitution: Mapping[str, int] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ok": True, "total": self.total}
        out["fans"] = [f.to_json() for f in self.fans]
        if self.meets_minimum is not None:
            out["meets_minimum"] = self.meets_minimum
        if self.substitution is not None:
            out["substitution"] = {k: tile_str(v) for k, v in self.substitution.items()}
        return out


OptionsT = TypeVar("OptionsT", bound=TableOptions)


class Calculator(Protocol[OptionsT]):
    """The scoring side of a rule set (Contract 1 of the spec), reading the options of
    ``options_type``; ``options`` are their rows (``options_type.rows()``)."""

    variant: str
    options_type: type[OptionsT]
    options: tuple[Option, ...]
    allows_wildcard: bool

    def check_hand(self, hand: HandSpec, options: OptionsT) -> None:
        """Raise RuleError for tiles or melds the rule set does not use."""

    def score(self, facts: WinFacts, options: OptionsT) -> ScoreResult:
        """Score a complete hand; raise RuleError when it does not win."""

    def waits(
        self, hand: HandSpec, wildcard: int | None, options: OptionsT
    ) -> tuple[int, list[int]]:
        """(shanten, waits) of a hand one tile short of winning."""


def plain_waits(hand: HandSpec, rules: ShapeRules) -> tuple[int, list[int]]:
    """Shanten and waits of a hand under the given shapes (no wildcards)."""
    counts = counts_of(hand.concealed)
    melds = len(hand.melds)
    meld_kinds = [m.kind for m in hand.melds]
    held = counts_of(hand.all_tiles())
    sh = shanten(counts, melds, rules)
    found = waits(counts, melds, rules, meld_kinds, held) if sh == 0 else []
    return sh, found
