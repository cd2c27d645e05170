"""What the bot needs to know about the rule sets: names, options, and how a player
writes an option.

A table's options are the rule set's own (its spec's options table, checked by the
engine) plus the options every table has (discord.md): ``turn_timer``, ``claim_timer``
``fill_with_ai`` and ``ai_level`` (the level of the AI players who fill empty seats).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.rules.base import Option, OptionError, RuleError, int_in, is_bool, one_of
from engine.rules.play import RuleSet
from engine.rules.registry import VARIANTS, find_ruleset

#: The AI levels a table offers, weakest first (``engine.ai`` plays them).
AI_LEVELS = ("easy", "normal", "strong")
#: The longest timer, in seconds: a day, for tables that play by correspondence (0 is no
#: timer at all).
MAX_TIMER = 86_400
COMMON_OPTIONS: tuple[Option, ...] = (
    Option("turn_timer", 20, int_in(0, MAX_TIMER)),
    Option("claim_timer", 10, int_in(0, MAX_TIMER)),
    Option("fill_with_ai", False, is_bool),
    Option("ai_level", "normal", one_of(*AI_LEVELS)),
)
COMMON_NAMES = frozenset(o.name for o in COMMON_OPTIONS)
ROUND_COUNTS = (1, 4, 8, 16)


def ruleset(variant: str) -> RuleSet[Any]:
    """The rule set, or RuleError when its play is not available."""
    return find_ruleset(variant)


def is_playable(variant: str) -> bool:
    try:
        find_ruleset(variant)
    except RuleError:
        return False
    return True


def playable_variants() -> tuple[str, ...]:
    return tuple(v for v in VARIANTS if is_playable(v))


@dataclass(frozen=True, slots=True)
class TableOptions:
    """The options of one table: the rule set's (checked by the engine) and the common ones."""

    variant: str
    rules: Mapping[str, Any]
    common: Mapping[str, Any]

    @property
    def rounds(self) -> int:
        return ruleset(self.variant).planned_hands(self.rules)

    @property
    def turn_timer(self) -> int:
        return int(self.common["turn_timer"])

    @property
    def claim_timer(self) -> int:
        return int(self.common["claim_timer"])

    @property
    def fill_with_ai(self) -> bool:
        return bool(self.common["fill_with_ai"])

    @property
    def ai_level(self) -> str:
        return str(self.common["ai_level"])

    def to_json(self) -> dict[str, Any]:
        return {**self.rules, **self.common}

    @classmethod
    def build(
        cls, variant: str, raw: Mapping[str, Any], defaults: Mapping[str, Any]
    ) -> TableOptions:
        """Options from a mix of rule-set and common names; ``defaults`` gives the common
        options' server defaults. Raises RuleError naming a bad name or value."""
        rules_raw = {k: v for k, v in raw.items() if k not in COMMON_NAMES}
        common = {o.name: defaults.get(o.name, o.default) for o in COMMON_OPTIONS}
        for option in COMMON_OPTIONS:
            if option.name in raw:
                if not option.valid(raw[option.name]):
                    value = raw[option.name]
                    raise OptionError(
                        f"invalid value {value!r} for '{option.name}'",
                        option.name,
                        value,
                        known=True,
                    )
                common[option.name] = raw[option.name]
        rules = ruleset(variant).parse_options(rules_raw)
        return cls(variant, rules, common)


class OptionSyntaxError(RuleError):
    """Options text that is not ``name=value``; ``part`` is the piece that is not."""

    def __init__(self, part: str) -> None:
        super().__init__(f"'{part}' is not name=value")
        self.part = part


def parse_assignments(written: str) -> dict[str, Any]:
    """``max_fan=5, exchange_three=false dice_modes=[]`` → a dict of JSON values; a bare
    word that is not JSON is a string (``exchange_direction=opposite``)."""
    out: dict[str, Any] = {}
    for part in _split(written):
        name, sep, value = part.partition("=")
        if not sep or not name.strip():
            raise OptionSyntaxError(part)
        out[name.strip()] = _value(value.strip())
    return out


def format_value(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, frozenset | set):
        value = sorted(value)
    return json.dumps(value, ensure_ascii=False)


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        # Not JSON, a number longer than Python reads, or nested deeper than it follows:
        # the rule set refuses it as a word, naming the option.
        return text


def _split(written: str) -> list[str]:
    """Split on commas, new lines and spaces that are outside brackets."""
    parts: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in written:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if depth == 0 and (ch in ",\n" or ch.isspace()):
            if "".join(current).strip():
                parts.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    if "".join(current).strip():
        parts.append("".join(current).strip())
    return _rejoin(parts)


def _rejoin(parts: list[str]) -> list[str]:
    """``a = 1`` written with spaces comes apart as ``a``, ``=``, ``1``: put it back."""
    out: list[str] = []
    for part in parts:
        if out and (part.startswith("=") or out[-1].endswith("=")):
            out[-1] += part
        else:
            out.append(part)
    return out
