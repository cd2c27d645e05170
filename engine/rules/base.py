"""What every rule set provides to the shared machinery: options, the calculator, shapes.

A rule set is a module of rules and options selected by name (``registry``); the shared
code asks it questions and never compares variant names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.analysis import ShapeRules, shanten, waits
from engine.tiles import HandSpec, counts_of, tile_str


class RuleError(ValueError):
    """Input a rule set refuses; the message is one sentence a player can read."""


@dataclass(frozen=True, slots=True)
class Option:
    """One table option: its name as in the rule set's spec, default and validity test."""

    name: str
    default: Any
    valid: Callable[[Any], bool]
    doc: str = ""


def is_bool(v: Any) -> bool:
    return isinstance(v, bool)


def int_in(lo: int, hi: int | None = None) -> Callable[[Any], bool]:
    def check(v: Any) -> bool:
        return (
            isinstance(v, int) and not isinstance(v, bool) and v >= lo and (hi is None or v <= hi)
        )

    return check


def one_of(*values: Any) -> Callable[[Any], bool]:
    return lambda v: v in values


def parse_options(table: Sequence[Option], raw: Mapping[str, Any], variant: str) -> dict[str, Any]:
    """Defaults overlaid with ``raw``; an unknown name or an invalid value is a RuleError."""
    known = {o.name: o for o in table}
    out = {o.name: o.default for o in table}
    for name, value in raw.items():
        opt = known.get(name)
        if opt is None:
            raise RuleError(f"unknown {variant} option '{name}'")
        if not opt.valid(value):
            raise RuleError(f"invalid value {value!r} for {variant} option '{name}'")
        out[name] = value
    return out


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
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ok": True, "total": self.total}
        out["fans"] = [f.to_json() for f in self.fans]
        if self.meets_minimum is not None:
            out["meets_minimum"] = self.meets_minimum
        if self.substitution is not None:
            out["substitution"] = {k: tile_str(v) for k, v in self.substitution.items()}
        out.update(self.extra)
        return out


class Calculator(Protocol):
    """The scoring side of a rule set (Contract 1 of the spec)."""

    variant: str
    options: tuple[Option, ...]
    allows_wildcard: bool

    def check_hand(self, hand: HandSpec, options: Mapping[str, Any]) -> None:
        """Raise RuleError for tiles or melds the rule set does not use."""

    def score(self, facts: WinFacts, options: Mapping[str, Any]) -> ScoreResult:
        """Score a complete hand; raise RuleError when it does not win."""

    def waits(
        self, hand: HandSpec, wildcard: int | None, options: Mapping[str, Any]
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
