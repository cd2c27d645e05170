"""A table's options in the words players use: names, values, what the lobby shows, and
why an option was refused.

Every option is the rule set's own (its ``TableOptions``, whose validity tests say what
values it takes) or one every table has (``bot.variants.COMMON_OPTIONS``). Words come
from the catalog: ``option.<variant or common>.<name>`` names an option, and a value is
worded by ``option.<…>.<name>.<value>`` where the catalog has one (开/关 for on and off,
不限时 for a timer of 0), else by the option's ``.unit`` template, else as written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import has, t
from bot.variants import COMMON_NAMES, COMMON_OPTIONS, ruleset
from engine.rules.base import Choice, Domain, Flag, IntRange, Option, OptionError, Subset

#: Options the lobby leaves out of its list: the title already says how many hands.
IN_THE_TITLE = frozenset({"rounds"})
#: The hands a table plays, which set its price in room cards.
ROUNDS = "rounds"
#: Values offered for numbers whose range is too wide to list (the text form takes any).
SUGGESTED: Mapping[str, tuple[int, ...]] = {
    "turn_timer": (0, 10, 15, 20, 30, 45, 60, 90),
    "claim_timer": (0, 5, 8, 10, 15, 20, 30),
    "base_stake": (1, 2, 5, 10, 20, 50, 100),
    "base_points": (0, 1, 2, 4, 8, 16),
    "min_fan": (0, 1, 4, 6, 8, 10, 12, 16),
    "wild_bonus_fan": (0, 4, 8, 16),
}
#: A select lists at most this many values (Discord's limit).
MOST_VALUES = 25


def _keys(variant: str, name: str) -> tuple[str, ...]:
    """Where the catalog words an option, most particular first: a rule set may word an
    option every table has its own way (no 吃 in 碰杠胡时限 where chows are not allowed)."""
    own = f"option.{variant}.{name}"
    return (own, f"option.common.{name}") if name in COMMON_NAMES else (own,)


def _word(variant: str, name: str, suffix: str, locale: str, **values: object) -> str | None:
    for base in _keys(variant, name):
        key = f"{base}{suffix}"
        if has(key):
            return t(key, locale, **values)
    return None


def rows(variant: str) -> tuple[Option, ...]:
    """The rule set's options, then the ones every table has."""
    return (*ruleset(variant).option_table, *COMMON_OPTIONS)


def row(variant: str, name: str) -> Option | None:
    return next((o for o in rows(variant) if o.name == name), None)


def option_name(variant: str, name: str, locale: str) -> str:
    return _word(variant, name, "", locale) or name


def _member(variant: str, name: str, member: str, locale: str) -> str:
    """One member of a list option (a dice mode, a big-hu kind) by the catalog's name."""
    own = _word(variant, name, f".{member}", locale)
    if own is not None:
        return own
    for key in (f"mode.{member}", f"fan.{variant}.{member}"):
        if has(key):
            return t(key, locale)
    return member


def value_text(variant: str, name: str, value: Any, locale: str) -> str:
    """A value as players read it: 开 / 关, a choice's word, a number with its unit."""
    if isinstance(value, bool):
        return t("option.value.on" if value else "option.value.off", locale)
    if isinstance(value, list | tuple):
        if not value:
            return t("option.value.none", locale)
        words = (_member(variant, name, str(m), locale) for m in value)
        return t("list.separator", locale).join(words)
    exact = _word(variant, name, f".{value}", locale)
    if exact is not None:
        return exact
    if isinstance(value, int):
        return _word(variant, name, ".unit", locale, n=value) or str(value)
    return str(value)


def choices(option: Option) -> tuple[Any, ...]:
    """The values a select may offer for ``option`` (none for lists and free numbers)."""
    domain: Domain = option.valid
    if isinstance(domain, Choice):
        return domain.values[:MOST_VALUES]
    if isinstance(domain, IntRange):
        if domain.hi is not None and domain.hi - domain.lo < MOST_VALUES:
            return tuple(range(domain.lo, domain.hi + 1))
        return tuple(v for v in SUGGESTED.get(option.name, ()) if domain(v))
    return ()


def is_flag(option: Option) -> bool:
    return isinstance(option.valid, Flag)


def members(option: Option) -> tuple[str, ...]:
    """The members a list option takes (dice modes, big-hu kinds); () for other options."""
    return option.valid.values if isinstance(option.valid, Subset) else ()


@dataclass(frozen=True, slots=True)
class Shown:
    """One option as the lobby lists it."""

    name: str
    value: str
    about: str = ""


def shown(variant: str, options: Mapping[str, Any], locale: str) -> list[Shown]:
    """What the lobby lists: every rule in force, each in words, then the timers and AI
    seats. Where the rule set has a preset, its name stands for its column of defaults
    and only the rules that differ from it follow; a rule set without one (广东, whose
    rules are few) lists them all."""
    rules = {k: v for k, v in options.items() if k not in COMMON_NAMES}
    selectors = ruleset(variant).options_type.selectors
    column = ruleset(variant).parse_options({k: rules[k] for k in selectors if k in rules})
    listed = [k for k in selectors if k in rules]
    listed += [
        k
        for k, v in rules.items()
        if k not in selectors and k not in IN_THE_TITLE and (not selectors or column.get(k) != v)
    ]
    listed += [o.name for o in COMMON_OPTIONS if o.name in options]
    return [
        Shown(
            option_name(variant, name, locale),
            value_text(variant, name, options[name], locale),
            _about(variant, name, locale),
        )
        for name in listed
    ]


def _about(variant: str, name: str, locale: str) -> str:
    return _word(variant, name, ".about", locale) or ""


def after_change(
    variant: str, options: Mapping[str, Any], changes: Mapping[str, Any]
) -> dict[str, Any]:
    """The options a table asks for after ``changes``: changing a preset starts again from
    its column of defaults (the timers and AI seats stay, and so do the hands the table
    plays, its price, unless the two presets differ on them: MCR's party and official);
    anything else changes itself."""
    rules = ruleset(variant)
    selectors = rules.options_type.selectors
    if not any(k in changes and changes[k] != options.get(k) for k in selectors):
        return {**options, **changes}
    kept = {k: v for k, v in options.items() if k in COMMON_NAMES}
    chosen = {k: changes[k] for k in selectors if k in changes}
    before = rules.parse_options({k: options[k] for k in selectors if k in options})
    after = rules.parse_options({k: chosen.get(k, options.get(k)) for k in selectors})
    if ROUNDS in options and before.get(ROUNDS) == after.get(ROUNDS):
        kept[ROUNDS] = options[ROUNDS]
    return {**kept, **chosen, **changes}


def allowed_text(variant: str, option: Option, locale: str) -> str:
    """The values an option takes, as players read them."""
    domain = option.valid
    if isinstance(domain, IntRange):
        return f"{domain.lo}–{domain.hi}" if domain.hi is not None else f"≥ {domain.lo}"
    values: Sequence[Any] = (True, False) if isinstance(domain, Flag) else domain.values
    return t("list.separator", locale).join(
        value_text(variant, option.name, v, locale) for v in values
    )


def refusal(variant: str, error: OptionError, locale: str) -> str:
    """Why an option was refused, in the reader's words."""
    found = row(variant, error.name) if error.known else None
    if found is None:
        return t("error.option_unknown", locale, name=error.name)
    return t(
        "error.option_invalid",
        locale,
        name=option_name(variant, error.name, locale),
        value=str(error.value),
        allowed=allowed_text(variant, found, locale),
    )
